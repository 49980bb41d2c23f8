package planner

import (
	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// decorrelateScalars turns each correlated scalar subquery among exprs
// whose correlation is equalities of the subquery's columns with the
// outer query's into a LEFT join of the FROM clause's rows with the
// subquery grouped (when it aggregates) or not by its side of those
// equalities. Without aggregates a row matching more than one row of the
// subquery fails the query (Join.Single), as DuckDB does; with them each
// outer row meets at most one group, and one meeting none takes the
// aggregate's value over no rows (count's 0), computed once. It returns
// the new source and its columns (the outer ones first, at the same
// positions, the subquery's after, which no name reaches) and the value
// of each subquery it planned, for the binder.
func decorrelateScalars(sel *sql.Select, exprs []ast.Expr, scan *Scan, cols []Column, c buildCtx) (*Scan, []Column, map[*ast.Subquery]Expr, error) {
	var subs []*ast.Subquery
	for _, x := range exprs {
		scalarSubqueries(x, &subs)
	}
	var out map[*ast.Subquery]Expr
	for _, sq := range subs {
		j, rcols, val, ok, err := scalarJoin(sel, sq, scan, cols, c)
		if err != nil {
			return nil, nil, nil, err
		}
		if !ok {
			continue
		}
		all := append([]Column(nil), cols...)
		for _, rc := range rcols {
			all = append(all, Column{Name: rc.Name, Type: rc.Type, Hidden: true})
		}
		scan, cols = &Scan{Join: j, Source: "(join)"}, all
		if out == nil {
			out = map[*ast.Subquery]Expr{}
		}
		out[sq] = val
	}
	return scan, cols, out, nil
}

// scalarSubqueries appends the scalar subqueries of x, not those inside
// them, nor the subqueries of EXISTS, IN, ANY and ALL.
func scalarSubqueries(x ast.Expr, out *[]*ast.Subquery) {
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.Subquery:
			*out = append(*out, n)
			return false, nil
		case *ast.ExistsExpr:
			return false, nil
		case *ast.ComparisonExpr:
			if _, ok := n.Right.(*ast.Subquery); ok && (n.Operator == ast.InStr || n.Operator == ast.NotInStr || isQuantified(n.Operator)) {
				scalarSubqueries(n.Left, out)
				return false, nil
			}
		}
		return true, nil
	}, x)
}

// aggregateArgs returns the arguments of the aggregate calls in x, which
// are evaluated on the FROM clause's rows.
func aggregateArgs(x ast.Expr) []ast.Expr {
	var out []ast.Expr
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.FuncExpr:
			if !hasAgg(n) {
				return false, nil
			}
			inner := false
			for _, a := range n.Exprs {
				if ae, ok := a.(*ast.AliasedExpr); ok && hasAgg(ae.Expr) {
					inner = true
				}
			}
			if inner {
				return true, nil
			}
			for _, a := range n.Exprs {
				if ae, ok := a.(*ast.AliasedExpr); ok {
					out = append(out, ae.Expr)
				}
			}
			return false, nil
		}
		return true, nil
	}, x)
	return out
}

// scalarJoin plans one scalar subquery as a LEFT join when it is
// correlated by equalities only; ok is false otherwise, leaving it to the
// uncorrelated path.
func scalarJoin(sel *sql.Select, sq *ast.Subquery, scan *Scan, cols []Column, c buildCtx) (*Join, []Column, Expr, bool, error) {
	s, ok := sq.Select.(*ast.Select)
	if !ok || len(s.GroupBy) > 0 || s.Having != nil || s.Limit != nil || len(s.OrderBy) > 0 ||
		s.Distinct != "" || len(s.From) == 0 || s.Where == nil || len(s.SelectExprs) != 1 {
		return nil, nil, nil, false, nil
	}
	item, ok := s.SelectExprs[0].(*ast.AliasedExpr)
	if !ok {
		return nil, nil, nil, false, nil
	}
	_, icols, err := source(sel, s, c.enclosed(cols))
	if err != nil {
		return nil, nil, nil, false, nil
	}
	n := len(cols)
	all := append(append([]Column(nil), cols...), icols...)
	sub := func(st ast.SelectStatement) (*Plan, error) { return build(sel, st, c.enclosed(all)) }
	both := &binder{cols: all, sel: sel, plan: sub, outer: n}
	var innerWhere ast.Expr
	var innerKeys []ast.Expr
	var outerKeys []Expr
	for _, y := range astConjuncts(s.Where.Expr) {
		b, err := both.boolean(y)
		if err != nil {
			return nil, nil, nil, false, nil
		}
		if !readsBelow(b, n) {
			innerWhere = andAST(innerWhere, y)
			continue
		}
		cmp, ok := unparen(y).(*ast.ComparisonExpr)
		if !ok || cmp.Operator != ast.EqualStr {
			return nil, nil, nil, false, nil
		}
		l, errL := both.bind(cmp.Left)
		r, errR := both.bind(cmp.Right)
		if errL != nil || errR != nil {
			return nil, nil, nil, false, nil
		}
		switch {
		case readsOnlyBelow(l, n) && !readsBelow(r, n) && readsAny(r):
			outerKeys, innerKeys = append(outerKeys, l), append(innerKeys, cmp.Right)
		case readsOnlyBelow(r, n) && !readsBelow(l, n) && readsAny(l):
			outerKeys, innerKeys = append(outerKeys, r), append(innerKeys, cmp.Left)
		default:
			return nil, nil, nil, false, nil
		}
	}
	if len(outerKeys) == 0 {
		return nil, nil, nil, false, nil
	}
	aggregate := hasAgg(item.Expr)
	if !aggregate {
		if v, err := both.bind(item.Expr); err != nil || readsBelow(v, n) {
			return nil, nil, nil, false, nil
		}
	}
	// The subquery's rows: its value, a marker that is NULL only where no
	// row matched, then its side of each equality.
	q := &ast.Select{From: s.From, SelectExprs: ast.SelectExprs{
		&ast.AliasedExpr{Expr: item.Expr, As: ast.NewColIdent("value")},
		&ast.AliasedExpr{Expr: ast.BoolVal(true), As: ast.NewColIdent("matched")},
	}}
	for _, k := range innerKeys {
		q.SelectExprs = append(q.SelectExprs, &ast.AliasedExpr{Expr: k})
		if aggregate {
			q.GroupBy = append(q.GroupBy, k)
		}
	}
	if innerWhere != nil {
		q.Where = ast.NewWhere(ast.WhereStr, innerWhere)
	}
	right, err := build(sel, q, c.enclosed(cols))
	if err != nil {
		// A value reading the outer row (max(y) + a.x): planned per outer
		// row instead (correlated_loop.go).
		return nil, nil, nil, false, nil
	}
	var conds []Expr
	for i, ok := range outerKeys {
		rc := right.Columns[2+i]
		xs, err := unify(ok, &ColRef{Index: n + 2 + i, Name: rc.Name, T: rc.Type})
		if err != nil {
			return nil, nil, nil, false, err
		}
		conds = append(conds, &Binary{Op: "=", L: xs[0], R: xs[1], T: Type{ID: TypeBoolean}})
	}
	readsAll(scan)
	j := &Join{Kind: JoinLeft, Left: passThrough(scan, cols), Right: right, LeftRows: -1, RightRows: -1, Single: !aggregate}
	SplitJoinCondition(j, conds, n)
	t := right.Columns[0].Type
	var val Expr = &ColRef{Index: n, Name: right.Columns[0].Name, T: t}
	if aggregate {
		// An outer row without a group takes the value over no rows.
		empty, err := build(sel, &ast.Select{From: s.From, SelectExprs: s.SelectExprs,
			Where: ast.NewWhere(ast.WhereStr, ast.BoolVal(false))}, c.enclosed(cols))
		if err != nil {
			return nil, nil, nil, false, err
		}
		matched := &ColRef{Index: n + 1, Name: right.Columns[1].Name, T: right.Columns[1].Type}
		val = &Case{Whens: []When{{Cond: &IsNull{X: matched}, Val: &Subquery{Kind: ScalarSubquery, Plan: empty, T: t}}}, Else: val, T: t}
	}
	return j, right.Columns, val, true, nil
}

// readsOnlyBelow reports whether x reads columns and all below n.
func readsOnlyBelow(x Expr, n int) bool {
	cols := map[int]bool{}
	Columns(x, cols)
	for i := range cols {
		if i >= n {
			return false
		}
	}
	return len(cols) > 0
}

// readsAny reports whether x reads a column.
func readsAny(x Expr) bool {
	cols := map[int]bool{}
	Columns(x, cols)
	return len(cols) > 0
}

func andAST(x, y ast.Expr) ast.Expr {
	if x == nil {
		return y
	}
	return &ast.AndExpr{Left: x, Right: y}
}
