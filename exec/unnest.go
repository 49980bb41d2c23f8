package exec

import (
	"github.com/pqsql/pqsql/planner"
)

// An unnester computes a projection with unnest(list) calls, as DuckDB
// does: each input row becomes as many rows as its longest unnested list
// (shorter lists padded with NULL, no row when every list is NULL or
// empty), the rest of each expression evaluated on every one of them.
type unnester struct {
	// exprs are the projection's expressions with each unnest call
	// replaced by a read of its element, appended to the row after the
	// input's columns.
	exprs []planner.Expr
	types []Type
	lists []planner.Expr
	width int
	cols  []int
}

// newUnnester returns nil for a projection without unnest.
func newUnnester(exprs []planner.Expr, width int) *unnester {
	var lists []planner.Expr
	var walk func(planner.Expr)
	walk = func(e planner.Expr) {
		if l, ok := planner.IsUnnest(e); ok {
			lists = append(lists, l)
			return
		}
		for _, c := range planner.Children(e) {
			walk(c)
		}
	}
	for _, e := range exprs {
		walk(e)
	}
	if len(lists) == 0 {
		return nil
	}
	u := &unnester{lists: lists, width: width, types: make([]Type, len(exprs)), exprs: make([]planner.Expr, len(exprs))}
	k := 0
	var replace func(planner.Expr) planner.Expr
	replace = func(e planner.Expr) planner.Expr {
		if _, ok := planner.IsUnnest(e); ok {
			k++
			return &planner.LambdaParam{Name: "unnest", Back: len(lists) - k + 1, T: e.Type()}
		}
		return planner.Map(e, replace)
	}
	for i, e := range exprs {
		u.types[i] = e.Type()
		u.exprs[i] = replace(e)
	}
	u.cols = newRowBuffer(width, append(append([]planner.Expr(nil), exprs...), lists...)...).cols
	return u
}

func (u *unnester) apply(b *batch) (*batch, error) {
	out := &batch{cols: make([]*Vector, len(u.exprs))}
	for i, t := range u.types {
		out.cols[i] = newResultVector(t, b.n)
	}
	rb := &rowBuffer{row: make([]planner.Datum, u.width), cols: u.cols}
	elems := make([][]planner.Datum, len(u.lists))
	row := make([]planner.Datum, u.width+len(u.lists))
	for r := range b.n {
		copy(row, rb.load(b, r))
		n := 0
		for k, l := range u.lists {
			d, err := planner.Eval(l, row[:u.width])
			if err != nil {
				return out.head(out.n), err
			}
			if elems[k], err = planner.ListElems(d, l.Type()); err != nil {
				return out.head(out.n), err
			}
			n = max(n, len(elems[k]))
		}
		for j := range n {
			for k := range u.lists {
				row[u.width+k] = planner.NullDatum
				if j < len(elems[k]) {
					row[u.width+k] = elems[k][j]
				}
			}
			for i, e := range u.exprs {
				d, err := planner.Eval(e, row)
				if err != nil {
					return out.head(out.n), err
				}
				out.cols[i].appendDatum(d)
			}
			out.n++
		}
	}
	return out, nil
}
