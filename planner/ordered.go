package planner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// An aggregate with ORDER BY in its call (string_agg(x, ',' ORDER BY y))
// reaches the executor as an ordinary accumulated aggregate: its argument
// is an orderedExpr, which packs a row's value with its sort keys, and its
// accumulator collects the rows, sorts them once at the end and feeds the
// aggregate's own accumulator in that order. DISTINCT is applied there,
// after the sort; FILTER folds as for any aggregate, a filtered row being
// the NULL the accumulator skips.

// An argKey is one bound ORDER BY key of an aggregate call.
type argKey struct {
	X          Expr
	Desc       bool
	NullsFirst bool
}

// An orderedExpr evaluates an aggregate's value and its sort keys into one
// orderedRow; it is never NULL.
type orderedExpr struct {
	X    Expr
	Keys []argKey
}

type orderedRow struct {
	x    Datum
	keys []Datum
}

var orderedType = Type{ID: TypeNested, Name: "ordered"}

func (e *orderedExpr) Type() Type { return orderedType }

func (e *orderedExpr) String() string {
	parts := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		parts[i] = k.String()
	}
	return e.X.String() + " ORDER BY " + strings.Join(parts, ", ")
}

func (k argKey) String() string {
	s := k.X.String()
	if k.Desc {
		s += " DESC"
	}
	if k.NullsFirst {
		s += " NULLS FIRST"
	}
	return s
}

func evalOrdered(e *orderedExpr, row []Datum) (Datum, error) {
	x, err := Eval(e.X, row)
	if err != nil {
		return Datum{}, err
	}
	keys := make([]Datum, len(e.Keys))
	for i, k := range e.Keys {
		if keys[i], err = Eval(k.X, row); err != nil {
			return Datum{}, err
		}
	}
	return Datum{N: orderedRow{x: x, keys: keys}}, nil
}

func mapOrdered(e *orderedExpr, f func(Expr) Expr) Expr {
	n := &orderedExpr{X: f(e.X), Keys: make([]argKey, len(e.Keys))}
	for i, k := range e.Keys {
		n.Keys[i] = argKey{X: f(k.X), Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return n
}

func (e *orderedExpr) children() []Expr {
	xs := []Expr{e.X}
	for _, k := range e.Keys {
		xs = append(xs, k.X)
	}
	return xs
}

// bindArgOrder binds the ORDER BY keys of an aggregate call over the
// input rows.
func (b *binder) bindArgOrder(order []ast.ArgOrder) ([]argKey, error) {
	var keys []argKey
	for _, o := range order {
		if hasAgg(o.Expr) {
			return nil, b.nestedAggregate(o.Expr)
		}
		x, err := b.agg.inputer.bind(o.Expr)
		if err != nil {
			return nil, err
		}
		// DuckDB's default_null_order is NULLS LAST, whatever the direction.
		keys = append(keys, argKey{X: x, Desc: o.Desc, NullsFirst: o.Nulls == sql.NullsFirst})
	}
	return keys, nil
}

// applyOrder makes a an aggregate over its rows in the order of the keys
// written in its call. The aggregates the executor computes itself (count,
// sum, avg, min, max) do not depend on the order, which DuckDB then ignores
// too.
func (a *AggCall) applyOrder() {
	keys := a.order
	a.order = nil
	if len(keys) == 0 || !a.Accumulates() {
		return
	}
	var b strings.Builder
	b.WriteString(a.Func + "(")
	if a.Distinct {
		b.WriteString("DISTINCT ")
	}
	b.WriteString(a.Arg.String())
	for _, p := range a.Params {
		b.WriteString(", " + p.String())
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	b.WriteString(" ORDER BY " + strings.Join(parts, ", ") + ")")
	if a.Filter != nil {
		b.WriteString(" FILTER (WHERE " + a.Filter.String() + ")")
	}
	inner := *a
	inner.label = ""
	fn := a.entry()
	distinct := a.Distinct
	a.label = b.String()
	a.Arg = &orderedExpr{X: a.Arg, Keys: keys}
	a.Distinct = false
	a.fn = &AggregateFunc{Name: fn.Name, SeesNulls: true, Result: fn.Result, Params: fn.Params,
		New: func(*AggCall) Accumulator {
			return &orderedAcc{inner: &inner, keys: keys, distinct: distinct}
		}}
}

// orderedAcc collects a group's rows and aggregates them sorted.
type orderedAcc struct {
	inner    *AggCall
	keys     []argKey
	distinct bool
	rows     []orderedRow
}

func (o *orderedAcc) Add(d Datum) {
	if r, ok := d.N.(orderedRow); ok && !d.Null {
		o.rows = append(o.rows, r)
	}
}

func (o *orderedAcc) Merge(later Accumulator) {
	o.rows = append(o.rows, later.(*orderedAcc).rows...)
}

func (o *orderedAcc) Result() (Datum, error) {
	// A stable sort: rows with equal keys keep the input order.
	sort.SliceStable(o.rows, func(i, j int) bool {
		for k, key := range o.keys {
			x, y := o.rows[i].keys[k], o.rows[j].keys[k]
			var c int
			switch {
			case x.Null && y.Null:
				continue
			case x.Null || y.Null:
				// NULLs go last unless NULLS FIRST, in either direction.
				if x.Null == key.NullsFirst {
					return true
				}
				return false
			}
			c = Compare(x, y, key.X.Type())
			if key.Desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return false
	})
	acc := o.inner.NewAccumulator()
	at := o.inner.Arg.Type()
	seen := map[string]bool{}
	var buf []byte
	for _, r := range o.rows {
		if r.x.Null && !o.inner.SeesNulls() {
			continue
		}
		if o.distinct {
			buf = AppendKey(buf[:0], r.x, at)
			if seen[string(buf)] {
				continue
			}
			seen[string(buf)] = true
		}
		acc.Add(r.x)
	}
	return acc.Result()
}

// errArgOrderScalar is DuckDB's error for DISTINCT, FILTER or ORDER BY in a
// call of a scalar function.
func errArgOrderScalar(name string) error {
	return fmt.Errorf("%w: Function \"%s\" is a Scalar Function. \"DISTINCT\", \"FILTER\", and \"ORDER BY\" are only applicable to aggregate functions.", ErrInvalidInput, name)
}
