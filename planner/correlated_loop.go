package planner

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// A Correlated is a subquery expression that reads the row of the query
// it is in, in a form no join rewrite covers (inside OR, NOT or CASE, in
// the select list, in HAVING, with its own GROUP BY, LIMIT or DISTINCT).
// It is planned again for each distinct tuple of the outer values it
// reads, with those values as constants, and run by the executor; the
// answer of each tuple is kept, so a key repeated across rows runs once.
// This is exact for every form, NULLs and duplicates included, as each
// run is the uncorrelated subquery of that row.
type Correlated struct {
	Kind SubqueryKind
	// Args are the outer values the subquery reads, over the row of the
	// query it is in.
	Args []Expr
	// X is the value an IN looks for; nil for the other kinds.
	X   Expr
	Not bool
	T   Type
	// Plan is the subquery planned with NULL for each of Args: its
	// columns, and what EXPLAIN shows.
	Plan *Plan
	// text is the subquery's SQL as DuckDB names it, which tells two of
	// them apart.
	text  string
	build func(args []Datum) (*Plan, error)
	state *correlatedState
}

// A CorrelatedResolver turns the subquery expression of one tuple of
// outer values, now uncorrelated, into its value (optimizer.Materialize).
type CorrelatedResolver func(*Subquery) (Expr, error)

// correlatedState is shared by the copies rewrites make of a Correlated:
// the resolver the executor attaches and the answer of each outer tuple.
type correlatedState struct {
	mu      sync.Mutex
	resolve CorrelatedResolver
	memo    map[string]Expr
}

// Type is the scalar's type, or BOOLEAN.
func (e *Correlated) Type() Type {
	if e.Kind == ScalarSubquery {
		return e.T
	}
	return Type{ID: TypeBoolean}
}

func (e *Correlated) String() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	s := e.text + " CORRELATED ON (" + strings.Join(args, ", ") + ")"
	switch e.Kind {
	case InSubquery:
		op := " IN "
		if e.Not {
			op = " NOT IN "
		}
		return "(" + e.X.String() + op + s + ")"
	case ExistsSubquery:
		return "(EXISTS" + s + ")"
	}
	return s
}

// Attach sets how the executor runs the subquery of one outer tuple.
func (e *Correlated) Attach(r CorrelatedResolver) {
	e.state.mu.Lock()
	defer e.state.mu.Unlock()
	e.state.resolve = r
}

// eval is the subquery's value for row: the answer for its outer values,
// computed on first use of them.
func (e *Correlated) eval(row []Datum) (Datum, error) {
	args := make([]Datum, len(e.Args))
	var key []byte
	for i, a := range e.Args {
		d, err := Eval(a, row)
		if err != nil {
			return Datum{}, err
		}
		args[i] = d
		key = AppendKey(key, d, a.Type())
	}
	x, err := e.answer(string(key), args)
	if err != nil {
		return Datum{}, err
	}
	return Eval(x, row)
}

// answer returns the subquery's value for one tuple of outer values: a
// constant, or for IN the list of values (whose X reads the row). Runs
// are serialized per expression; each is a query of its own.
func (e *Correlated) answer(key string, args []Datum) (Expr, error) {
	st := e.state
	st.mu.Lock()
	defer st.mu.Unlock()
	if x, ok := st.memo[key]; ok {
		return x, nil
	}
	if st.resolve == nil {
		return nil, fmt.Errorf("%w: correlated subquery evaluated without an executor", ErrNotImplemented)
	}
	p, err := e.build(args)
	if err != nil {
		return nil, err
	}
	if e.Kind == InSubquery {
		if p, err = castColumns(p, []Column{{Name: p.Columns[0].Name, Type: e.Plan.Columns[0].Type}}); err != nil {
			return nil, err
		}
	}
	x, err := st.resolve(&Subquery{Kind: e.Kind, Plan: p, X: e.X, Not: e.Not, T: e.T})
	if err != nil {
		return nil, err
	}
	if st.memo == nil {
		st.memo = map[string]Expr{}
	}
	st.memo[key] = x
	return x, nil
}

// An outerScope is the row of a query as the subquery expressions in it
// see it: its columns and, when the subquery is planned for one tuple of
// outer values, their values. Planned without values, it records the
// columns the subquery reads and gives them as NULLs of their type.
type outerScope struct {
	cols   []Column
	values map[int]Datum
	reads  []int
	next   *outerScope
	// aggs are the aggregates of the query the subquery holds (sum(a.x)
	// in a HAVING's subquery), read as the columns after the first base
	// (outer_aggregates.go).
	base int
	aggs []*ast.FuncExpr
}

// read is column i of the scope as a subquery sees it.
func (s *outerScope) read(i int) Expr {
	t := s.cols[i].Type
	if s.values != nil {
		return &Const{Value: s.values[i], T: t}
	}
	seen := false
	for _, r := range s.reads {
		seen = seen || r == i
	}
	if !seen {
		s.reads = append(s.reads, i)
	}
	return &Const{Value: NullDatum, T: t}
}

// outerColumn binds a name that is none of the query's own columns but
// one of an enclosing query's, the innermost first; ok is false when it
// is not such a name.
func (b *binder) outerColumn(e *ast.ColName) (x Expr, ok bool, err error) {
	if b.scope == nil {
		return nil, false, nil
	}
	own := b
	if b.agg != nil {
		own = b.agg.inputer
	}
	name := e.Name.String()
	q := ""
	if !e.Qualifier.IsEmpty() {
		q = e.Qualifier.Name.String()
		// s.f is a field of the query's own STRUCT column s before a
		// column of an outer table s.
		if hasTable(own.cols, q) || own.lookup(q) >= 0 {
			return nil, false, nil
		}
	} else if own.lookup(name) >= 0 {
		return nil, false, nil
	}
	for s := b.scope; s != nil; s = s.next {
		if q != "" && !hasTable(s.cols, q) {
			continue
		}
		i, err := (&binder{cols: s.cols}).resolveColumn(e)
		if err != nil {
			return nil, true, err
		}
		if i >= 0 && !s.cols[i].Hidden {
			return s.read(i), true, nil
		}
		if q != "" {
			return nil, false, nil
		}
	}
	return nil, false, nil
}

// A subqueryBuilder plans a subquery expression of a query in the scope of
// its row, with the values of the columns given (nil: none known), and of
// the query's aggregates aggs the subquery holds; it returns the scope,
// which says which columns the subquery read.
type subqueryBuilder func(st ast.SelectStatement, values map[int]Datum, aggs []outerAggregate) (*Plan, *outerScope, error)

// subqueries is the builder of the subquery expressions of a query of sel
// whose rows have the layout cols.
func (c buildCtx) subqueries(sel *sql.Select, cols []Column) subqueryBuilder {
	return func(st ast.SelectStatement, values map[int]Datum, aggs []outerAggregate) (*Plan, *outerScope, error) {
		cc := c.enclosed(cols)
		sc := &outerScope{cols: cols, values: values, next: c.scope, base: len(cols)}
		if len(aggs) > 0 {
			sc.cols = append(cols[:len(cols):len(cols)], make([]Column, len(aggs))...)
			for j, a := range aggs {
				sc.cols[len(cols)+j] = a.col
				sc.aggs = append(sc.aggs, a.call)
			}
		}
		cc.scope = sc
		p, err := build(sel, st, cc)
		return p, sc, err
	}
}

// correlated binds a subquery expression that reads the outer row: p is
// its plan with NULL outer values, sc the scope that recorded them.
func (b *binder) correlated(kind SubqueryKind, s *ast.Subquery, p *Plan, sc *outerScope) (*Correlated, error) {
	e := &Correlated{Kind: kind, Plan: p, text: nameOf(b.sel, s), state: &correlatedState{}}
	if kind == ScalarSubquery {
		e.T = p.Columns[0].Type
	}
	reads := append([]int(nil), sc.reads...)
	aggs := scopeAggregates(sc)
	for _, i := range reads {
		if i >= sc.base {
			x, err := b.bind(sc.aggs[i-sc.base])
			if err != nil {
				return nil, err
			}
			e.Args = append(e.Args, x)
			continue
		}
		c := sc.cols[i]
		ref := &ast.ColName{Name: ast.NewColIdent(c.Name)}
		if c.Table != "" {
			ref.Qualifier = ast.TableName{Name: ast.NewTableIdent(c.Table)}
		}
		x, err := b.argument(ref, i)
		if err != nil {
			return nil, err
		}
		e.Args = append(e.Args, x)
	}
	build, st := b.subquery, s.Select
	e.build = func(args []Datum) (*Plan, error) {
		values := make(map[int]Datum, len(reads))
		for k, i := range reads {
			values[i] = args[k]
		}
		p, _, err := build(st, values, aggs)
		return p, err
	}
	return e, nil
}

// argument binds outer column i, named ref, as the query reads it: the
// column itself, or after aggregation the group key it is.
func (b *binder) argument(ref *ast.ColName, i int) (Expr, error) {
	if b.agg == nil {
		if b.needed != nil {
			b.needed[i] = true
		}
		return &ColRef{Index: i, Name: b.cols[i].Name, T: b.cols[i].Type}, nil
	}
	x, err := b.bind(ref)
	if errors.Is(err, ErrNotGrouped) {
		// DuckDB's words for an outer column a subquery reads.
		return nil, fmt.Errorf("%w: column %s must appear in the GROUP BY clause or be used in an aggregate function", ErrNotGrouped, ref.Name.String())
	}
	return x, err
}
