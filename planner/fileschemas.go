package planner

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/storage"
)

// eachSchema opens files and calls fn with each one's index and file, as
// soon as it is open; fn keeps only what it needs, so that the footers of
// a glob of thousands of files are never held at once. open opens each
// (openSchema, openDeferred). A glob's
// files are opened several at a time, fn called from as many goroutines:
// planning waits on every footer before the scan reads a row, and the
// cores are otherwise idle then; a short list of local files is opened
// on one (parallelLocal). The error is the first file's, in file order,
// that failed to open; files after it may not have been.
func eachSchema(files []string, c buildCtx, openOne func(context.Context, *storage.Store, string) (*format.File, func(), error), fn func(i int, f *format.File)) error {
	errs := make([]error, len(files))
	open := func(i int) {
		f, closeFile, err := openOne(c.ctx, c.store, files[i])
		if err != nil {
			errs[i] = err
			return
		}
		fn(i, f)
		closeFile()
	}
	workers := min(runtime.GOMAXPROCS(0), len(files))
	if len(files) <= parallelLocal && allLocal(files) {
		workers = 1
	}
	if workers <= 1 {
		for i := range files {
			if open(i); errs[i] != nil {
				return errs[i]
			}
		}
		return nil
	}
	// failed is the first failing index seen: no file after it is opened.
	var next, failed atomic.Int64
	failed.Store(int64(len(files)))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= failed.Load() {
					return
				}
				if open(int(i)); errs[i] != nil {
					for {
						f := failed.Load()
						if i >= f || failed.CompareAndSwap(f, i) {
							break
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// parallelLocal is how many local files binding opens one after the other
// before it opens them several at a time. A local footer opens and decodes
// in tens of microseconds, so a second goroutine saves little on a short
// list, and costs memory: each processor that allocates fills partly used
// spans of its own, about 40 KiB more peak memory for a 16-file glob opened on two.
// Remote files are always opened several at a time: each waits on the
// network.
var parallelLocal = 64

// allLocal reports whether every path is a local file.
func allLocal(files []string) bool {
	for _, f := range files {
		if storage.Parse(f).Scheme != "" {
			return false
		}
	}
	return true
}
