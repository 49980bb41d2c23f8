package planner

import (
	"fmt"

	"github.com/pqsql/pqsql/format"
)

// openSliceBounds fills the bounds a slice x[a:b] or x[a:b:step] leaves
// out (their positions in args, among 1 and 2): from the first element to
// the last, or with a negative step from the last to the first. With a
// bound left out, the step must be a constant.
func openSliceBounds(args []Expr, open []int) error {
	first, last := int64(1), int64(-1)
	if len(args) == 4 && len(open) > 0 {
		c, ok := args[3].(*Const)
		if !ok || !c.T.IsInteger() || c.Value.Null {
			return fmt.Errorf("%w: a slice with a bound left out needs a constant integer step", ErrNotImplemented)
		}
		if c.Value.I < 0 {
			first, last = -1, 1
		}
	}
	for _, i := range open {
		v := first
		if i == 2 {
			v = last
		}
		args[i] = &Const{Value: Datum{I: v}, T: Type{ID: TypeBigInt}}
	}
	return nil
}

// stepSlice is list_slice(l, begin, end, step) as DuckDB computes it:
// bounds 1-based and inclusive, negative ones from the end, clamped to the
// list; a positive step walks from begin up to end, a negative one from
// begin down to end.
func stepSlice(l format.List, begin, end, step int64) (format.List, error) {
	if step == 0 {
		return nil, fmt.Errorf("%w: Slice step cannot be zero", ErrInvalidInput)
	}
	n := int64(len(l))
	if begin < 0 {
		begin += n + 1
	}
	if end < 0 {
		end += n + 1
	}
	out := format.List{}
	// The next position is compared before it is made: a step near the
	// ends of BIGINT would wrap.
	if step > 0 {
		begin, end = max(begin, 1), min(end, n)
		for i := begin; i <= end; i += step {
			out = append(out, l[i-1])
			if step > end-i {
				break
			}
		}
		return out, nil
	}
	begin, end = min(begin, n), max(end, 1)
	for i := begin; i >= end; i += step {
		out = append(out, l[i-1])
		if step < end-i {
			break
		}
	}
	return out, nil
}
