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

// virtualBatches produces the rows of a table function, a join or a
// recursive CTE, in batches of the scan's columns; set operations stream
// (streamSetOp).
func (x *executor) virtualBatches(ctx context.Context, s *planner.Scan) ([]*batch, error) {
	switch {
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

// keyBytes is what one distinct key of a set operation holds beyond its
// bytes: the map's entry and the string's header.
const keyBytes = 64

// streamSetOp runs the sides of a set operation one after the other and
// passes the result's rows to emit as they are found. Rows match as GROUP
// BY keys do (NULL equals NULL); the result keeps the left side's order,
// then the right side's new rows for UNION, so it does not depend on
// hashing. Only the keys are held: UNION's seen, INTERSECT's and EXCEPT's
// right side, counted against memory_limit, which they fail at with an Out
// of Memory error.
func (x *executor) streamSetOp(ctx context.Context, op *planner.SetOp, emit emitFunc) error {
	types := make([]Type, len(op.Left.Columns))
	for i, c := range op.Left.Columns {
		types[i] = c.Type
	}
	n := len(types)
	if op.Op == "UNION" && op.All {
		for _, side := range unionAllSides(op, n) {
			stopped := false
			err := x.stream(ctx, side.p, func(b *batch) (bool, error) {
				cols := make([]*Vector, n)
				for i, c := range side.cols {
					if c < 0 {
						cols[i] = nullVector(types[i], b.n)
						continue
					}
					cols[i] = b.cols[c]
				}
				stop, err := emit(&batch{cols: cols, n: b.n})
				stopped = stop
				return stop, err
			})
			if err != nil || stopped {
				return err
			}
		}
		return nil
	}
	var held int64
	defer func() { x.mem.release(held) }()
	var key []byte
	keyOf := func(b *batch, i int) string {
		key = key[:0]
		for c, t := range types {
			key = planner.AppendKey(key, datumAt(b.cols[c], i), t)
		}
		return string(key)
	}
	hold := func(k string) error {
		if err := x.mem.reserve(int64(len(k)) + keyBytes); err != nil {
			return err
		}
		held += int64(len(k)) + keyBytes
		return nil
	}
	// pass emits the rows of b that keep says to keep.
	stopped := false
	pass := func(b *batch, keep func(k string) (bool, error)) (bool, error) {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		var sel []int32
		for i := range b.n {
			ok, err := keep(keyOf(b, i))
			if err != nil {
				return true, err
			}
			if ok {
				sel = append(sel, int32(i))
			}
		}
		if len(sel) == 0 {
			return false, nil
		}
		stop, err := emit((&batch{cols: b.cols[:n], n: b.n}).take(sel))
		stopped = stop
		return stop, err
	}
	switch op.Op {
	case "UNION":
		seen := map[string]bool{}
		keep := func(k string) (bool, error) {
			if seen[k] {
				return false, nil
			}
			seen[k] = true
			return true, hold(k)
		}
		for _, side := range []*planner.Plan{op.Left, op.Right} {
			err := x.stream(ctx, side, func(b *batch) (bool, error) { return pass(b, keep) })
			if err != nil || stopped {
				return err
			}
		}
		return nil
	case "INTERSECT", "EXCEPT":
		// count holds how many copies of each right row are left to match.
		count := map[string]int{}
		err := x.stream(ctx, op.Right, func(b *batch) (bool, error) {
			if err := ctx.Err(); err != nil {
				return true, err
			}
			for i := range b.n {
				k := keyOf(b, i)
				if count[k] == 0 {
					if err := hold(k); err != nil {
						return true, err
					}
				}
				count[k]++
			}
			return false, nil
		})
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		intersect := op.Op == "INTERSECT"
		keep := func(k string) (bool, error) {
			if op.All {
				// INTERSECT ALL keeps min(l, r) copies, EXCEPT ALL
				// max(l-r, 0): each left row uses up one right copy.
				matched := count[k] > 0
				if matched {
					count[k]--
				}
				return matched == intersect, nil
			}
			if seen[k] {
				return false, nil
			}
			seen[k] = true
			return (count[k] > 0) == intersect, hold(k)
		}
		return x.stream(ctx, op.Left, func(b *batch) (bool, error) { return pass(b, keep) })
	}
	return fmt.Errorf("%w: set operation %s", ErrNotImplemented, op.Op)
}

// A unionSide is a plan whose rows a UNION ALL appends, and which of its
// columns make the operation's row.
type unionSide struct {
	p    *planner.Plan
	cols []int
}

// unionAllSides lists the plans whose rows a UNION ALL appends, in order. A
// side that only passes on columns of a nested UNION ALL's rows is
// replaced by that operation's sides, so the n-1 nested UNION ALLs of n
// queries (a VALUES list of n rows) move each row through one level, not
// up to n.
func unionAllSides(op *planner.SetOp, n int) []unionSide {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var out []unionSide
	stack := []unionSide{{op.Right, all}, {op.Left, all}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if inner, idx := passedUnionAll(s.p); inner != nil {
			cols := make([]int, len(s.cols))
			for i, c := range s.cols {
				cols[i] = -1
				if c >= 0 {
					cols[i] = idx[c]
				}
			}
			stack = append(stack, unionSide{inner.Right, cols}, unionSide{inner.Left, cols})
			continue
		}
		out = append(out, s)
	}
	return out
}

// passedUnionAll returns the UNION ALL whose rows p passes on with only
// columns chosen (idx: p's column i is the operation's column idx[i], or
// NULL where idx[i] is -1): nothing computed, filtered, grouped, sorted or
// limited.
func passedUnionAll(p *planner.Plan) (*planner.SetOp, []int) {
	s := p.Scan
	if s == nil || s.SetOp == nil || s.Subquery != nil || s.CTE != nil || s.SetOp.Op != "UNION" || !s.SetOp.All {
		return nil, nil
	}
	if p.Where != nil || p.Aggregate || len(p.GroupBy) > 0 || len(p.GroupingSets) > 0 || len(p.Aggs) > 0 ||
		p.Having != nil || len(p.Windows) > 0 || p.Qualify != nil || p.Distinct || len(p.Order) > 0 ||
		p.Limit >= 0 || p.Offset != 0 || p.HasPercent || p.Single || p.Sample != nil || len(p.Columns) != len(p.Project) {
		return nil, nil
	}
	inner := s.SetOp.Left.Columns
	idx := make([]int, len(p.Project))
	for i, e := range p.Project {
		if k, ok := e.(*planner.Const); ok && k.Value.Null && k.T == p.Columns[i].Type {
			idx[i] = -1 // a column no one reads, made NULL by the optimizer
			continue
		}
		c, ok := e.(*planner.ColRef)
		if !ok || c.Index < 0 || c.Index >= len(inner) || c.T != inner[c.Index].Type || p.Columns[i].Type != c.T {
			return nil, nil
		}
		idx[i] = c.Index
	}
	return s.SetOp, idx
}
