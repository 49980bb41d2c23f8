package planner

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pqsql/pqsql/format"
)

// eachSchema opens files and calls fn with each one's index and file, as
// soon as it is open; fn keeps only what it needs, so that the footers of
// a glob of thousands of files are never held at once. A glob's
// files are opened several at a time, fn called from as many goroutines:
// planning waits on every footer before the scan reads a row, and the
// cores are otherwise idle then. The error is the first file's, in file
// order, that failed to open; files after it may not have been.
func eachSchema(files []string, c buildCtx, fn func(i int, f *format.File)) error {
	errs := make([]error, len(files))
	open := func(i int) {
		f, closeFile, err := openFile(c.ctx, c.store, files[i])
		if err != nil {
			errs[i] = err
			return
		}
		fn(i, f)
		closeFile()
	}
	workers := min(runtime.GOMAXPROCS(0), len(files))
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
