package main

import (
	"sort"
	"sync"
)

// maxCachedNames bounds the completion cache.
const maxCachedNames = 4096

// A nameCache remembers the column names of past results, for tab
// completion.
type nameCache struct {
	mu    sync.Mutex
	names map[string]bool
}

func newNameCache() *nameCache { return &nameCache{names: map[string]bool{}} }

// add remembers names, up to maxCachedNames in all.
func (c *nameCache) add(names ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range names {
		if len(c.names) >= maxCachedNames {
			return
		}
		if n != "" {
			c.names[n] = true
		}
	}
}

// list returns the remembered names, sorted.
func (c *nameCache) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.names))
	for n := range c.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
