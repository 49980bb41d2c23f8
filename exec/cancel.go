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

// cancellable runs a sort whose comparison calls tick, giving up with ctx's
// error as soon as ctx is done: a sort has no way out but a panic from the
// comparison, recovered here, so no panic leaves this function.
func cancellable(ctx context.Context, sort func(tick func())) (err error) {
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
	sort(func() {
		if n++; n%cancelCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				panic(cancelled{err})
			}
		}
	})
	return nil
}

// sortStable sorts rows stably by less, or stops with ctx's error.
func sortStable(ctx context.Context, rows [][]planner.Datum, less func(a, b []planner.Datum) bool) error {
	return cancellable(ctx, func(tick func()) {
		sort.SliceStable(rows, func(i, j int) bool {
			tick()
			return less(rows[i], rows[j])
		})
	})
}

// sortFuncCtx sorts s by cmp as slices.SortFunc does, or stops with ctx's
// error.
func sortFuncCtx[T any](ctx context.Context, s []T, cmp func(a, b T) int) error {
	return cancellable(ctx, func(tick func()) {
		slices.SortFunc(s, func(a, b T) int {
			tick()
			return cmp(a, b)
		})
	})
}
