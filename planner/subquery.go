package planner

import (
	"fmt"

	"github.com/pqsql/pqsql/sql/ast"
)

// A SubqueryKind says how a subquery expression uses its rows.
type SubqueryKind int

const (
	// ScalarSubquery is the value of its one row (NULL without rows).
	ScalarSubquery SubqueryKind = iota
	// InSubquery is X [NOT] IN (subquery).
	InSubquery
	// ExistsSubquery is EXISTS (subquery).
	ExistsSubquery
)

// A Subquery is an uncorrelated subquery used as an expression. The
// executor runs its plan once, before the query, and puts its result in
// its place (optimizer.Materialize): a constant, or an IN list.
type Subquery struct {
	Kind SubqueryKind
	Plan *Plan
	// X is the value an IN looks for, cast to the type of the plan's one
	// column; nil for the other kinds.
	X   Expr
	Not bool
	T   Type
}

// Type is the scalar's type, or BOOLEAN.
func (e *Subquery) Type() Type {
	if e.Kind == ScalarSubquery {
		return e.T
	}
	return Type{ID: TypeBoolean}
}

func (e *Subquery) String() string {
	switch e.Kind {
	case InSubquery:
		op := " IN "
		if e.Not {
			op = " NOT IN "
		}
		return "(" + e.X.String() + op + "(SUBQUERY))"
	case ExistsSubquery:
		return "EXISTS(SUBQUERY)"
	}
	return "(SUBQUERY)"
}

// subqueryPlan plans the query of a subquery expression in the scope of the
// query it appears in (its views and CTEs, and its row). sc is nil unless
// the subquery reads that row; then it says which columns it read and p
// is planned with NULL for them.
func (b *binder) subqueryPlan(s *ast.Subquery) (p *Plan, sc *outerScope, err error) {
	switch {
	case b.subquery != nil:
		var aggs []outerAggregate
		if aggs, err = b.outerAggregates(s); err != nil {
			return nil, nil, err
		}
		p, sc, err = b.subquery(s.Select, nil, aggs)
		if err == nil && len(sc.reads) == 0 {
			sc = nil
		}
	case b.plan != nil:
		p, err = b.plan(s.Select)
	default:
		return nil, nil, fmt.Errorf("%w: a subquery in this clause", ErrNotImplemented)
	}
	if err != nil {
		// An error of the subquery's own planning is located inside it or
		// not at all; the enclosing expression does not claim it.
		return nil, nil, unlocated(err)
	}
	return p, sc, nil
}

// oneColumn checks that a subquery used as a value or an IN list has one
// column.
func oneColumn(p *Plan) error {
	if len(p.Columns) != 1 {
		return binderError("Subquery returns %d columns - expected 1", len(p.Columns))
	}
	return nil
}

func (b *binder) scalarSubquery(s *ast.Subquery) (Expr, error) {
	p, sc, err := b.subqueryPlan(s)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(p); err != nil {
		return nil, err
	}
	if sc != nil {
		return b.correlated(ScalarSubquery, s, p, sc)
	}
	return &Subquery{Kind: ScalarSubquery, Plan: p, T: p.Columns[0].Type}, nil
}

func (b *binder) existsSubquery(e *ast.ExistsExpr) (Expr, error) {
	p, sc, err := b.subqueryPlan(e.Subquery)
	if err != nil {
		return nil, err
	}
	if sc != nil {
		return b.correlated(ExistsSubquery, e.Subquery, p, sc)
	}
	return &Subquery{Kind: ExistsSubquery, Plan: p}, nil
}

// inSubquery binds x [NOT] IN (subquery): x and the subquery's column meet
// in their common type, as x = value would.
func (b *binder) inSubquery(x Expr, s *ast.Subquery, not bool) (Expr, error) {
	p, sc, err := b.subqueryPlan(s)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(p); err != nil {
		return nil, err
	}
	xs, err := unify(x, &ColRef{Name: p.Columns[0].Name, T: p.Columns[0].Type})
	if err != nil {
		return nil, err
	}
	if p, err = castColumns(p, []Column{{Name: p.Columns[0].Name, Type: xs[1].Type()}}); err != nil {
		return nil, err
	}
	if sc != nil {
		c, err := b.correlated(InSubquery, s, p, sc)
		if err != nil {
			return nil, err
		}
		c.X, c.Not = xs[0], not
		return c, nil
	}
	return &Subquery{Kind: InSubquery, Plan: p, X: xs[0], Not: not}, nil
}

// hasSubquery reports whether x holds a subquery expression.
func hasSubquery(x Expr) bool {
	switch x.(type) {
	case *Subquery, *Correlated:
		return true
	}
	for _, c := range Children(x) {
		if hasSubquery(c) {
			return true
		}
	}
	return false
}
