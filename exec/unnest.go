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
	x := u.expander()
	for r := range b.n {
		err := x.expand(rb.load(b, r), func(row []planner.Datum) error {
			for i, e := range u.exprs {
				d, err := planner.Eval(e, row)
				if err != nil {
					return err
				}
				out.cols[i].appendDatum(d)
			}
			out.n++
			return nil
		})
		if err != nil {
			return out.head(out.n), err
		}
	}
	return out, nil
}

// rows projects one row of datums into the rows its unnests make.
func (u *unnester) rows(in []planner.Datum, x *expander, emit func([]planner.Datum)) error {
	return x.expand(in, func(row []planner.Datum) error {
		o := make([]planner.Datum, len(u.exprs))
		for i, e := range u.exprs {
			d, err := planner.Eval(e, row)
			if err != nil {
				return err
			}
			o[i] = d
		}
		emit(o)
		return nil
	})
}

// An expander turns an input row into one row per element of its longest
// unnested list, each element appended after the input's columns.
type expander struct {
	u     *unnester
	elems [][]planner.Datum
	row   []planner.Datum
}

func (u *unnester) expander() *expander {
	return &expander{u: u, elems: make([][]planner.Datum, len(u.lists)), row: make([]planner.Datum, u.width+len(u.lists))}
}

func (x *expander) expand(in []planner.Datum, f func([]planner.Datum) error) error {
	u := x.u
	copy(x.row, in[:u.width])
	n := 0
	for k, l := range u.lists {
		d, err := planner.Eval(l, x.row[:u.width])
		if err != nil {
			return err
		}
		if x.elems[k], err = planner.ListElems(d, l.Type()); err != nil {
			return err
		}
		n = max(n, len(x.elems[k]))
	}
	for j := range n {
		for k := range u.lists {
			x.row[u.width+k] = planner.NullDatum
			if j < len(x.elems[k]) {
				x.row[u.width+k] = x.elems[k][j]
			}
		}
		if err := f(x.row); err != nil {
			return err
		}
	}
	return nil
}
