package exec

import (
	"context"
	"fmt"

	"github.com/pqsql/pqsql/planner"
)

// virtualSource reports whether a scan's rows come from neither files nor
// a subquery but from a set operation, a join or a table function.
func virtualSource(s *planner.Scan) bool {
	return s.Subquery == nil && (s.SetOp != nil || s.Function != nil || s.Join != nil || s.Recursive != nil || s.WorkTable != nil)
}

// virtualBatches produces the rows of a set operation or a table function,
// in batches of the scan's columns.
func (x *executor) virtualBatches(ctx context.Context, s *planner.Scan) ([]*batch, error) {
	switch {
	case s.SetOp != nil:
		return x.setOp(ctx, s.SetOp)
	case s.Function != nil:
		return x.tableFunction(ctx, s.Function)
	case s.Join != nil:
		return x.join(ctx, s.Join)
	case s.Recursive != nil:
		return x.recursive(ctx, s.Recursive)
	case s.WorkTable != nil:
		x.sharedMu.Lock()
		defer x.sharedMu.Unlock()
		return x.work[s.WorkTable], nil
	}
	return nil, fmt.Errorf("%w: scan of %s", ErrNotImplemented, s.Source)
}

// setOp runs both sides of a set operation and combines their rows. Rows
// match as GROUP BY keys do (NULL equals NULL); the result keeps the left
// side's order, then the right side's new rows for UNION, so it does not
// depend on hashing.
func (x *executor) setOp(ctx context.Context, op *planner.SetOp) ([]*batch, error) {
	left, err := x.run(ctx, op.Left)
	if err != nil {
		return nil, err
	}
	right, err := x.run(ctx, op.Right)
	if err != nil {
		return nil, err
	}
	types := make([]Type, len(op.Left.Columns))
	for i, c := range op.Left.Columns {
		types[i] = c.Type
	}
	if op.Op == "UNION" && op.All {
		out := make([]*batch, 0, len(left)+len(right))
		for _, b := range append(left, right...) {
			out = append(out, &batch{cols: b.cols[:len(types)], n: b.n})
		}
		return out, nil
	}
	var key []byte
	keyOf := func(r []planner.Datum) string {
		key = key[:0]
		for i, t := range types {
			key = planner.AppendKey(key, r[i], t)
		}
		return string(key)
	}
	var rows [][]planner.Datum
	switch op.Op {
	case "UNION":
		seen := map[string]bool{}
		for _, b := range append(left, right...) {
			for _, r := range rowsOf(b) {
				if k := keyOf(r); !seen[k] {
					seen[k] = true
					rows = append(rows, r)
				}
			}
		}
	case "INTERSECT", "EXCEPT":
		// count holds how many copies of each right row are left to match.
		count := map[string]int{}
		for _, b := range right {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for _, r := range rowsOf(b) {
				count[keyOf(r)]++
			}
		}
		seen := map[string]bool{}
		intersect := op.Op == "INTERSECT"
		for _, b := range left {
			for _, r := range rowsOf(b) {
				k := keyOf(r)
				switch {
				case op.All:
					// INTERSECT ALL keeps min(l, r) copies, EXCEPT ALL
					// max(l-r, 0): each left row uses up one right copy.
					matched := count[k] > 0
					if matched {
						count[k]--
					}
					if matched == intersect {
						rows = append(rows, r)
					}
				case !seen[k]:
					seen[k] = true
					if (count[k] > 0) == intersect {
						rows = append(rows, r)
					}
				}
			}
		}
	default:
		return nil, fmt.Errorf("%w: set operation %s", ErrNotImplemented, op.Op)
	}
	var out []*batch
	for start := 0; start < len(rows); start += BatchSize {
		out = append(out, batchOfRows(rows[start:min(start+BatchSize, len(rows))], types))
	}
	return out, nil
}
