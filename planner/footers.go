package planner

import (
	"sync"

	"github.com/pqsql/pqsql/format"
)

// A Footer is a local file's footer as binding read and decoded it, kept
// for the scan of the same statement, which then neither reads nor decodes
// it again. File is nil when binding opened the file for its schema alone:
// the scan opens it again, and Read counts among its footer reads too.
type Footer struct {
	File *format.File
	// Read is what opening the file read (its magic, tail and footer), for
	// the scan to account as its own footer reads.
	Read format.IOStats
}

// keptFooters are the footers binding opened for a scan, by path, until
// the scan takes them: the first file's, whose schema the scan reads with,
// kept as its bytes and what they decode to but for the row groups
// (openDeferred), which the scan decodes for the columns it reads. A
// glob's later files binding opens for their schema alone (openSchema),
// and the scan opens them itself; of those, what binding read is kept.
type keptFooters struct {
	mu     sync.Mutex
	byPath map[string]*Footer
}

// keep holds f, opened by openDeferred, for the scan. A remote file's
// footer is not kept: its store caches the bytes, and its reads are
// accounted by purpose as the scan makes them.
func (k *keptFooters) keep(path string, f *format.File) {
	cs, local := f.Source.(*format.CountingSource)
	if !local {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byPath == nil {
		k.byPath = map[string]*Footer{}
	}
	k.byPath[path] = &Footer{File: f, Read: cs.Stats()}
}

// keepRead holds what opening f, a local file binding opened for its
// schema alone (openSchema), read, for the scan to count as its footer
// reads: a glob's later files are read twice, and both reads count.
func (k *keptFooters) keepRead(path string, f *format.File) {
	cs, local := f.Source.(*format.CountingSource)
	if !local {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byPath == nil {
		k.byPath = map[string]*Footer{}
	}
	k.byPath[path] = &Footer{Read: cs.Stats()}
}

// peek returns the footer kept of path, keeping it.
func (k *keptFooters) peek(path string) *Footer {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.byPath[path]
}

// TakeFooter returns the footer binding kept of path, once: a scan run
// again (a correlated subquery) opens the file itself. Nil when none was
// kept.
func (s *Scan) TakeFooter(path string) *Footer {
	k := s.footers
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	fo := k.byPath[path]
	if fo != nil {
		delete(k.byPath, path)
	}
	return fo
}
