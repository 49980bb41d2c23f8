package exec

import (
	"context"

	"github.com/pqsql/pqsql/planner"
)

// recursive runs a recursive CTE: its base, then its step over the rows
// the run before added, until a run adds none. Without ALL a row already
// in the result is not added again. DuckDB bounds neither the runs nor the
// rows, so neither does this: a step that always adds rows runs until the
// query is cancelled or memory runs out.
func (x *executor) recursive(ctx context.Context, r *planner.Recursive) ([]*batch, error) {
	types := make([]Type, len(r.Work.Columns))
	for i, c := range r.Work.Columns {
		types[i] = c.Type
	}
	base, err := x.run(ctx, r.Base)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var key []byte
	// fresh keeps the rows of bs to add: all of them with ALL, otherwise
	// those not seen before, once.
	fresh := func(bs []*batch) []*batch {
		var out []*batch
		for _, b := range bs {
			b = &batch{cols: b.cols[:len(types)], n: b.n}
			if r.All {
				if b.n > 0 {
					out = append(out, b)
				}
				continue
			}
			var rows [][]planner.Datum
			for _, row := range rowsOf(b) {
				key = key[:0]
				for i, t := range types {
					key = planner.AppendKey(key, row[i], t)
				}
				if !seen[string(key)] {
					seen[string(key)] = true
					rows = append(rows, row)
				}
			}
			for start := 0; start < len(rows); start += BatchSize {
				out = append(out, batchOfRows(rows[start:min(start+BatchSize, len(rows))], types))
			}
		}
		return out
	}
	work := fresh(base)
	all := append([]*batch(nil), work...)
	// The step's plans run once per round; a join filter learned in one
	// round would not hold in the next.
	joinFilters := x.settings.JoinFilters
	x.settings.JoinFilters = false
	x.recursing++
	defer func() {
		x.settings.JoinFilters = joinFilters
		x.recursing--
	}()
	for len(work) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x.sharedMu.Lock()
		if x.work == nil {
			x.work = map[*planner.WorkTable][]*batch{}
		}
		x.work[r.Work] = work
		x.sharedMu.Unlock()
		step, err := x.run(ctx, r.Step)
		if err != nil {
			return nil, err
		}
		work = fresh(step)
		all = append(all, work...)
	}
	return all, nil
}
