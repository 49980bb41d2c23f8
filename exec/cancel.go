package exec

import (
	"context"
	"slices"
	"sort"

	"github.com/pqsql/pqsql/planner"
)

// cancelCheckRows is how many rows (or comparisons) a loop over held rows
// goes between looks at its context: often enough that Ctrl-C ends a sort of
// millions of rows within milliseconds, rarely enough to cost nothing.
const cancelCheckRows = 4096

// cancelled carries a context's error out of a sort's comparison.
type cancelled struct{ err error }

// sortStable sorts rows stably by less, giving up with ctx's error as soon
// as ctx is done: sort.SliceStable has no way out but a panic from the
// comparison, recovered here, so no panic leaves this function.
func sortStable(ctx context.Context, rows [][]planner.Datum, less func(a, b []planner.Datum) bool) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			c, ok := r.(cancelled)
			if !ok {
				panic(r)
			}
			err = c.err
		}
	}()
	n := 0
	sort.SliceStable(rows, func(i, j int) bool {
		if n++; n%cancelCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				panic(cancelled{err})
			}
		}
		return less(rows[i], rows[j])
	})
	return nil
}

// sortFuncCtx sorts s by cmp as slices.SortFunc does, giving up with ctx's
// error as soon as ctx is done (the same way out as sortStable).
func sortFuncCtx[T any](ctx context.Context, s []T, cmp func(a, b T) int) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			c, ok := r.(cancelled)
			if !ok {
				panic(r)
			}
			err = c.err
		}
	}()
	n := 0
	slices.SortFunc(s, func(a, b T) int {
		if n++; n%cancelCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				panic(cancelled{err})
			}
		}
		return cmp(a, b)
	})
	return nil
}
