package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// A WindowCall is a window function over the rows the window stage sees:
// the input rows after WHERE, or the aggregate rows after HAVING. Its value
// for each row is a column appended after those rows' columns.
type WindowCall struct {
	// Func is a ranking or value function (row_number, lag, ...) or, when
	// Agg is set, the aggregate's name.
	Func string
	// Args are the arguments of a ranking or value function.
	Args []Expr
	// Agg is set for an aggregate used as a window function; its Arg and
	// Params are over the window stage's rows.
	Agg       *AggCall
	Partition []Expr
	Order     []WindowKey
	Frame     WindowFrame
	// RangeKey is the ORDER BY key as DOUBLE, set for RANGE frames with an
	// offset, whose bounds are key values.
	RangeKey Expr
	T        Type
	// IgnoreNulls says the value function (lag, lead, first_value,
	// last_value, nth_value) counts only the rows where its first argument
	// is not NULL.
	IgnoreNulls bool

	label string
}

// Exprs returns every expression w reads over the window stage's rows.
func (w *WindowCall) Exprs() []Expr {
	xs := append([]Expr(nil), w.Args...)
	if w.Agg != nil {
		if w.Agg.Arg != nil {
			xs = append(xs, w.Agg.Arg)
		}
		xs = append(xs, w.Agg.Params...)
	}
	xs = append(xs, w.Partition...)
	for _, k := range w.Order {
		xs = append(xs, k.X)
	}
	if w.RangeKey != nil {
		xs = append(xs, w.RangeKey)
	}
	return xs
}

// A WindowKey is one ORDER BY item of a window.
type WindowKey struct {
	X                Expr
	Desc, NullsFirst bool
}

// A WindowFrame is the set of rows of the partition an aggregate or value
// function sees from each row: ROWS counts rows, RANGE compares the one
// ORDER BY key (or, with offsets absent, takes the current row's peers).
type WindowFrame struct {
	Rows       bool
	Start, End WindowBound
}

// A WindowBound is one end of a frame; Kind is one of sql.UnboundedPreceding,
// sql.Preceding, sql.CurrentRow, sql.Following, sql.UnboundedFollowing, and
// Offset the expression of PRECEDING and FOLLOWING.
type WindowBound struct {
	Kind   string
	Offset Expr
	// Target says Offset is not a distance but the bound itself, per row:
	// the key moved by an INTERVAL, as RangeKey (window_temporal.go).
	Target bool
}

func (w *WindowCall) String() string { return w.label }

// rankingFuncs are the window functions that are not aggregates, with the
// argument counts they take.
var rankingFuncs = map[string][2]int{
	"row_number": {0, 0}, "rank": {0, 0}, "dense_rank": {0, 0}, "percent_rank": {0, 0},
	"cume_dist": {0, 0}, "ntile": {1, 1}, "lag": {1, 3}, "lead": {1, 3},
	"first_value": {1, 1}, "last_value": {1, 1}, "nth_value": {2, 2},
}

// IsWindowFunction reports whether name is a window function that is not
// an aggregate.
func IsWindowFunction(name string) bool {
	_, ok := rankingFuncs[strings.ToLower(name)]
	return ok
}

// windowState collects the window calls of one SELECT. Each call's value
// is referenced by a ColRef whose Index counts from the end of the window
// stage's input row; finish shifts them once that width is known.
type windowState struct {
	calls []*WindowCall
	byStr map[string]int
	refs  []*ColRef
}

// finish makes the references to window values positions after width
// columns.
func (ws *windowState) finish(width int) {
	for _, r := range ws.refs {
		r.Index += width
	}
	ws.refs = nil
}

// window binds a window function call: its arguments, partition, order and
// frame are bound over the window stage's rows by b without windows.
func (b *binder) window(e *ast.FuncExpr) (Expr, error) {
	w := e.Over
	if w == nil {
		return nil, binderError("window call without OVER clause")
	}
	if b.win == nil {
		return nil, binderError("WHERE, GROUP BY and HAVING clauses cannot contain window functions!")
	}
	in := *b
	in.win = nil
	name := e.Name.Lowered()
	wc := &WindowCall{Func: name, IgnoreNulls: e.IgnoreNulls}
	if IsAggregate(name) {
		a, err := in.windowAggregate(e)
		if err != nil {
			return nil, err
		}
		wc.Agg, wc.T, wc.Func = a, a.T, a.Func
	} else {
		n, ok := rankingFuncs[name]
		if !ok {
			if _, scalar := scalarFuncs[name]; scalar {
				return nil, binderError("%s is not an aggregate function", name)
			}
			return nil, fmt.Errorf("%w: Function with name %s does not exist!", ErrCatalog, name)
		}
		if e.Distinct || e.Filter != nil {
			return nil, binderError("DISTINCT and FILTER are not supported for %s", name)
		}
		if len(e.Exprs) < n[0] || len(e.Exprs) > n[1] {
			return nil, binderError("No function matches the given name and argument types '%s' with %d arguments", name, len(e.Exprs))
		}
		for _, se := range e.Exprs {
			ae, ok := se.(*ast.AliasedExpr)
			if !ok {
				return nil, binderError("%s(*) is not allowed", name)
			}
			x, err := in.bind(ae.Expr)
			if err != nil {
				return nil, err
			}
			wc.Args = append(wc.Args, x)
		}
		if err := wc.typeRanking(); err != nil {
			return nil, err
		}
	}
	for _, pe := range w.PartitionBy {
		x, err := in.bind(pe)
		if err != nil {
			return nil, err
		}
		wc.Partition = append(wc.Partition, x)
	}
	for _, o := range w.OrderBy {
		x, err := in.bind(o.Expr)
		if err != nil {
			return nil, err
		}
		// DuckDB's default null order is NULLS LAST, whatever the direction.
		wc.Order = append(wc.Order, WindowKey{X: x, Desc: o.Desc, NullsFirst: o.Nulls == sql.NullsFirst})
	}
	if err := in.windowFrame(wc, w.Frame); err != nil {
		return nil, err
	}
	wc.label = windowLabel(wc)
	if i, ok := b.win.byStr[wc.label]; ok {
		r := &ColRef{Index: i, Name: wc.label, T: b.win.calls[i].T}
		b.win.refs = append(b.win.refs, r)
		return r, nil
	}
	if b.win.byStr == nil {
		b.win.byStr = map[string]int{}
	}
	b.win.byStr[wc.label] = len(b.win.calls)
	b.win.calls = append(b.win.calls, wc)
	r := &ColRef{Index: len(b.win.calls) - 1, Name: wc.label, T: wc.T}
	b.win.refs = append(b.win.refs, r)
	return r, nil
}

// typeRanking checks a ranking or value function's arguments and sets its
// result type.
func (wc *WindowCall) typeRanking() error {
	switch wc.Func {
	case "row_number", "rank", "dense_rank":
		wc.T = tBigInt
	case "percent_rank", "cume_dist":
		wc.T = tDouble
	case "ntile":
		x, err := castTo(wc.Args[0], tBigInt)
		if err != nil {
			return err
		}
		wc.Args[0], wc.T = x, tBigInt
	case "lag", "lead":
		wc.T = wc.Args[0].Type()
		if len(wc.Args) > 1 {
			x, err := castTo(wc.Args[1], tBigInt)
			if err != nil {
				return err
			}
			wc.Args[1] = x
		}
		if len(wc.Args) > 2 {
			if wc.T.ID == TypeNull {
				wc.T = wc.Args[2].Type()
				x, err := castTo(wc.Args[0], wc.T)
				if err != nil {
					return err
				}
				wc.Args[0] = x
			}
			x, err := castTo(wc.Args[2], wc.T)
			if err != nil {
				return err
			}
			wc.Args[2] = x
		}
	case "first_value", "last_value":
		wc.T = wc.Args[0].Type()
	case "nth_value":
		wc.T = wc.Args[0].Type()
		x, err := castTo(wc.Args[1], tBigInt)
		if err != nil {
			return err
		}
		wc.Args[1] = x
	}
	return nil
}

// windowAggregate binds an aggregate used as a window function, its
// argument over the window stage's rows (which may hold aggregates of the
// query's own GROUP BY).
func (b *binder) windowAggregate(e *ast.FuncExpr) (*AggCall, error) {
	name := aggregateFuncs[e.Name.Lowered()].Name
	if name == "grouping" {
		return nil, binderError("GROUPING function is not supported here")
	}
	fn := aggregateFuncs[name]
	// ORDER BY keys in the call order the rows the aggregate reads, as in
	// a query's aggregates (ordered.go); one whose value does not depend
	// on the order ignores them, as DuckDB does.
	var keys []argKey
	for _, o := range e.OrderBy {
		x, err := b.bind(o.Expr)
		if err != nil {
			return nil, err
		}
		keys = append(keys, argKey{X: x, Desc: o.Desc, NullsFirst: o.Nulls == sql.NullsFirst})
	}
	a := &AggCall{Func: name, Distinct: e.Distinct, fn: fn}
	if fn.Pair {
		// The registry's binding of two-argument aggregates, with the
		// window stage's rows as their input.
		tmp := &binder{agg: &aggState{aggStr: map[string]int{}, inputer: b}, sel: b.sel}
		if _, err := tmp.aggregate(e); err != nil {
			return nil, err
		}
		return tmp.agg.aggs[0], nil
	}
	if err := a.countStar(e, name); err != nil {
		return nil, err
	}
	if err := a.bindArgs(e, name, fn, b.bind); err != nil {
		return nil, err
	}
	if f := e.Filter; f != nil {
		x, err := b.boolean(f)
		if err != nil {
			return nil, err
		}
		a.Filter = x
	}
	a.order = keys
	a.applyOrder()
	if a.Filter != nil {
		if err := a.foldFilter(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// windowFrame binds a frame, or DuckDB's default one.
func (b *binder) windowFrame(wc *WindowCall, f *ast.Frame) error {
	if f == nil {
		wc.Frame = WindowFrame{Start: WindowBound{Kind: sql.UnboundedPreceding}, End: WindowBound{Kind: sql.CurrentRow}}
		if len(wc.Order) == 0 {
			wc.Frame.End.Kind = sql.UnboundedFollowing
		}
		return nil
	}
	wc.Frame.Rows = f.Rows
	rank := func(k string) int {
		return map[string]int{sql.UnboundedPreceding: 0, sql.Preceding: 1, sql.CurrentRow: 2, sql.Following: 3, sql.UnboundedFollowing: 4}[k]
	}
	if f.Start.Kind == sql.UnboundedFollowing {
		return binderError("frame start cannot be UNBOUNDED FOLLOWING")
	}
	if f.End.Kind == sql.UnboundedPreceding {
		return binderError("frame end cannot be UNBOUNDED PRECEDING")
	}
	if rank(f.Start.Kind) > rank(f.End.Kind) && !(f.Start.Kind == sql.Following && f.End.Kind == sql.Following) {
		return binderError("frame starting from %s cannot end with %s", strings.ToUpper(f.Start.Kind), strings.ToUpper(f.End.Kind))
	}
	for i, fb := range []ast.FrameBound{f.Start, f.End} {
		wb := WindowBound{Kind: fb.Kind}
		if fb.Offset != nil {
			x, err := b.bind(fb.Offset)
			if err != nil {
				return err
			}
			if !f.Rows {
				if len(wc.Order) != 1 {
					return binderError("RANGE frames with an offset require exactly one ORDER BY expression")
				}
				// Bounds are computed in DOUBLE, exact for integers up to
				// 2^53 (exec refuses larger keys) and DuckDB's own
				// arithmetic for floats; a DECIMAL bound would round.
				kt := wc.Order[0].X.Type()
				if isTemporalRange(kt, x.Type()) {
					// PRECEDING moves toward smaller keys in ascending
					// order, toward larger ones in descending order.
					back := (fb.Kind == sql.Preceding) != wc.Order[0].Desc
					if x, err = temporalTarget(wc.Order[0].X, x, back); err != nil {
						return err
					}
					if wc.RangeKey == nil {
						if wc.RangeKey, err = epochMicros(wc.Order[0].X); err != nil {
							return err
						}
					}
					wb.Offset, wb.Target = x, true
					if i == 0 {
						wc.Frame.Start = wb
					} else {
						wc.Frame.End = wb
					}
					continue
				}
				if !(kt.IsInteger() || kt.ID == TypeFloat || kt.ID == TypeDouble) || !(x.Type().IsInteger() || x.Type().ID == TypeFloat || x.Type().ID == TypeDouble) {
					return fmt.Errorf("%w: RANGE frames with an offset over %s", ErrNotImplemented, kt)
				}
				x, err = castTo(x, tDouble)
				if err == nil && wc.RangeKey == nil {
					wc.RangeKey, err = castTo(wc.Order[0].X, tDouble)
				}
			} else {
				x, err = castTo(x, tBigInt)
			}
			if err != nil {
				return err
			}
			wb.Offset = x
		}
		if i == 0 {
			wc.Frame.Start = wb
		} else {
			wc.Frame.End = wb
		}
	}
	return nil
}

// windowLabel renders a window call as DuckDB names its column.
func windowLabel(wc *WindowCall) string {
	var s strings.Builder
	if wc.Agg != nil {
		s.WriteString(wc.Agg.String())
	} else {
		s.WriteString(wc.Func + "(")
		for i, a := range wc.Args {
			if i > 0 {
				s.WriteString(", ")
			}
			s.WriteString(a.String())
		}
		if wc.IgnoreNulls {
			s.WriteString(" IGNORE NULLS")
		}
		s.WriteString(")")
	}
	s.WriteString(" OVER (")
	sep := ""
	if len(wc.Partition) > 0 {
		s.WriteString("PARTITION BY ")
		for i, p := range wc.Partition {
			if i > 0 {
				s.WriteString(", ")
			}
			s.WriteString(p.String())
		}
		sep = " "
	}
	if len(wc.Order) > 0 {
		s.WriteString(sep + "ORDER BY ")
		for i, o := range wc.Order {
			if i > 0 {
				s.WriteString(", ")
			}
			s.WriteString(o.X.String())
			if o.Desc {
				s.WriteString(" DESC")
			} else {
				s.WriteString(" ASC")
			}
			if o.NullsFirst {
				s.WriteString(" NULLS FIRST")
			} else {
				s.WriteString(" NULLS LAST")
			}
		}
		sep = " "
	}
	f := wc.Frame
	unit := "RANGE"
	if f.Rows {
		unit = "ROWS"
	}
	bound := func(b WindowBound) string {
		if b.Offset != nil {
			return b.Offset.String() + " " + strings.ToUpper(b.Kind)
		}
		return strings.ToUpper(b.Kind)
	}
	s.WriteString(sep + unit + " BETWEEN " + bound(f.Start) + " AND " + bound(f.End) + ")")
	return s.String()
}

// qualify binds a SELECT's QUALIFY condition (nil: none).
// A bare name that is no input column but a select item's alias stands
// for that item, as in DuckDB.
func (ws *windowState) qualify(p *Plan, q ast.Expr, post *binder, in *binder, alias func(string) ast.Expr) error {
	if q == nil {
		return nil
	}
	q = substituteAliases(q, in, alias)
	x, err := post.boolean(q)
	if err != nil {
		return err
	}
	if len(ws.calls) == 0 {
		return binderError("at least one window function must appear in the SELECT column or QUALIFY clause")
	}
	p.Qualify = x
	return nil
}

// attach places the window calls of a bound SELECT after the window
// stage's input columns.
func (ws *windowState) attach(p *Plan) error {
	if len(ws.calls) == 0 {
		return nil
	}
	ws.finish(p.WindowWidth())
	p.Windows = ws.calls
	return nil
}

// WindowWidth is the number of columns of the rows the window stage reads:
// the input's, or the group keys and aggregates.
func (p *Plan) WindowWidth() int {
	if p.Aggregate {
		return len(p.GroupBy) + len(p.Aggs)
	}
	return len(p.Input)
}

// windowCall names a window function call as DuckDB prints it: the call,
// then the OVER clause with upper-case keywords and default directions
// left out.
func (n namer) windowCall(e *ast.FuncExpr) string {
	c := *e
	c.Qualifier = ast.TableIdent{}
	s := n.call(&c) + " OVER ("
	w := e.Over
	if w == nil {
		return s + ")"
	}
	var parts []string
	if len(w.PartitionBy) > 0 {
		var ps []string
		for _, p := range w.PartitionBy {
			ps = append(ps, n.expr(p))
		}
		parts = append(parts, "PARTITION BY "+strings.Join(ps, ", "))
	}
	if len(w.OrderBy) > 0 {
		var os []string
		for _, o := range w.OrderBy {
			t := n.expr(o.Expr)
			if o.Desc {
				t += " DESC"
			}
			switch o.Nulls {
			case sql.NullsFirst:
				t += " NULLS FIRST"
			case sql.NullsLast:
				t += " NULLS LAST"
			}
			os = append(os, t)
		}
		parts = append(parts, "ORDER BY "+strings.Join(os, ", "))
	}
	if f := w.Frame; f != nil {
		unit := "RANGE"
		if f.Rows {
			unit = "ROWS"
		}
		bound := func(b ast.FrameBound) string {
			if b.Offset != nil {
				return n.expr(b.Offset) + " " + strings.ToUpper(b.Kind)
			}
			return strings.ToUpper(b.Kind)
		}
		parts = append(parts, unit+" BETWEEN "+bound(f.Start)+" AND "+bound(f.End))
	}
	return s + strings.Join(parts, " ") + ")"
}

// distinctOn plans SELECT DISTINCT ON (keys) as the first row of each key
// in ORDER BY order: row_number() OVER (PARTITION BY keys ORDER BY the
// query's ORDER BY) = 1, added to QUALIFY.
func (ws *windowState) distinctOn(p *Plan, keys []ast.Expr, post *binder) error {
	in := *post
	in.win = nil
	wc := &WindowCall{Func: "row_number", T: tBigInt}
	for _, k := range keys {
		x, err := in.bind(k)
		if err != nil {
			return err
		}
		wc.Partition = append(wc.Partition, x)
	}
	for _, o := range p.Order {
		x := p.Project[o.Index]
		if ws.refersTo(x) {
			return fmt.Errorf("%w: DISTINCT ON with a window function in ORDER BY", ErrNotImplemented)
		}
		wc.Order = append(wc.Order, WindowKey{X: x, Desc: o.Desc, NullsFirst: o.NullsFirst})
	}
	_ = in.windowFrame(wc, nil)
	wc.label = windowLabel(wc) + " DISTINCT ON"
	ws.calls = append(ws.calls, wc)
	r := &ColRef{Index: len(ws.calls) - 1, Name: wc.label, T: tBigInt}
	ws.refs = append(ws.refs, r)
	first := &Binary{Op: "=", L: r, R: &Const{Value: Datum{I: 1}, T: tBigInt}, T: Type{ID: TypeBoolean}}
	if p.Qualify == nil {
		p.Qualify = first
	} else {
		p.Qualify = &Logic{And: true, Xs: []Expr{p.Qualify, first}}
	}
	return nil
}

// refersTo reports whether x reads a window value.
func (ws *windowState) refersTo(x Expr) bool {
	if c, ok := x.(*ColRef); ok {
		for _, r := range ws.refs {
			if r == c {
				return true
			}
		}
	}
	for _, c := range Children(x) {
		if ws.refersTo(c) {
			return true
		}
	}
	return false
}

// explainWindows writes the QUALIFY filter and the window stage for
// EXPLAIN, above the stages they read.
func (p *Plan) explainWindows(line func(string, ...any)) {
	if p.Qualify != nil {
		line("FILTER (QUALIFY) %s", p.Qualify)
	}
	if len(p.Windows) == 0 {
		return
	}
	calls := make([]string, len(p.Windows))
	for i, w := range p.Windows {
		calls[i] = w.String()
	}
	line("WINDOW %s", strings.Join(calls, ", "))
}
