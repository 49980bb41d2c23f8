package optimizer

import (
	"fmt"

	"github.com/pqsql/pqsql/planner"
)

// A SubqueryRunner runs a subquery's plan (its own subqueries included)
// and returns its rows.
type SubqueryRunner func(p *planner.Plan) ([][]planner.Datum, error)

// Materialize runs each subquery expression of root's plans once, with
// run, and puts its result in its place: a scalar becomes its value (NULL
// without rows), EXISTS TRUE or FALSE, and x IN (subquery) the list of the
// values, with SQL's NULL rules (an empty list is FALSE for IN and TRUE
// for NOT IN whatever x is; a NULL in it makes a miss NULL). The plan is
// then one the other rules, and pushdown, see through: an IN list from a
// subquery prunes row groups and pages like a written one.
//
// A correlated subquery expression is left in place, with each() set to
// run it, while the query runs, for each tuple of outer values it meets,
// with the same rules.
func Materialize(root *planner.Plan, run, each SubqueryRunner) (*planner.Plan, error) {
	var err error
	f := func(x planner.Expr) planner.Expr {
		if c, ok := x.(*planner.Correlated); ok {
			c.Attach(func(sq *planner.Subquery) (planner.Expr, error) { return materialize(sq, each) })
			return x
		}
		sq, ok := x.(*planner.Subquery)
		if !ok || err != nil {
			return x
		}
		var out planner.Expr
		out, err = materialize(sq, run)
		if err != nil {
			return x
		}
		return out
	}
	rw := func(x planner.Expr) planner.Expr {
		if x == nil || !hasSubquery(x) {
			return x
		}
		return transform(x, f)
	}
	eachPlan(root, func(p *planner.Plan) {
		p.Where = rw(p.Where)
		p.Having = rw(p.Having)
		for i, x := range p.Project {
			p.Project[i] = rw(x)
		}
		for i, x := range p.GroupBy {
			p.GroupBy[i] = rw(x)
		}
		for _, a := range p.Aggs {
			a.Arg = rw(a.Arg)
		}
		if j := p.Scan.Join; j != nil {
			j.Residual = rw(j.Residual)
		}
	})
	if err != nil {
		return nil, err
	}
	return root, nil
}

func materialize(sq *planner.Subquery, run SubqueryRunner) (planner.Expr, error) {
	p := sq.Plan
	if sq.Kind == planner.ExistsSubquery && p.Limit < 0 {
		// One row settles EXISTS.
		p.Limit = 1
	}
	rows, err := run(p)
	if err != nil {
		return nil, err
	}
	switch sq.Kind {
	case planner.ExistsSubquery:
		return boolConst(len(rows) > 0), nil
	case planner.ScalarSubquery:
		switch len(rows) {
		case 0:
			return &planner.Const{Value: planner.NullDatum, T: sq.T}, nil
		case 1:
			return &planner.Const{Value: rows[0][0], T: sq.T}, nil
		}
		return nil, ErrSubqueryRows
	case planner.InSubquery:
		if len(rows) == 0 {
			return boolConst(sq.Not), nil
		}
		t := p.Columns[0].Type
		seen := map[string]bool{}
		var list []planner.Expr
		var key []byte
		for _, r := range rows {
			key = planner.AppendKey(key[:0], r[0], t)
			if !seen[string(key)] {
				seen[string(key)] = true
				list = append(list, &planner.Const{Value: r[0], T: t})
			}
		}
		return &planner.InList{X: sq.X, List: list, Not: sq.Not}, nil
	}
	return nil, fmt.Errorf("optimizer: subquery kind %d", sq.Kind)
}

// hasSubquery reports whether x holds a subquery expression.
func hasSubquery(x planner.Expr) bool {
	switch x.(type) {
	case *planner.Subquery, *planner.Correlated:
		return true
	}
	for _, c := range planner.Children(x) {
		if hasSubquery(c) {
			return true
		}
	}
	return false
}
