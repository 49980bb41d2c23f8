package storage

import (
	"context"
	"sync"
)

// OpenAhead reads the footers of the first n remote files among paths,
// all in parallel (within the store's request concurrency), into the
// session cache, and waits for them: a glob's files then cost one round of
// footer reads, however many there are, and the opens that follow (the
// first file's to bind the schema, the scan's) send no request. Local
// files and files already cached are left alone; a failure is left for
// the file's own open to report.
func (st *Store) OpenAhead(ctx context.Context, paths []string, n int) {
	var wg sync.WaitGroup
	seen := map[string]bool{}
	for _, path := range paths {
		if len(seen) == n {
			break
		}
		loc := Parse(path)
		if loc.Scheme == "" || seen[loc.url()] {
			continue
		}
		seen[loc.url()] = true
		st.mu.Lock()
		_, cached := st.meta[loc.url()]
		st.mu.Unlock()
		if cached {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if o, err := st.openRemote(ctx, loc); err == nil {
				o.Close()
			}
		}()
	}
	wg.Wait()
}
