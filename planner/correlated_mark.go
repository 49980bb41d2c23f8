package planner

import (
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// decorrelateMarks plans the correlated EXISTS, IN, ANY and ALL subqueries
// of exprs that no semi or anti join took (under OR, NOT or CASE, in the
// select list) as mark joins: each becomes a CASE over correlated scalar
// counts (and minimum and maximum) of the subquery's rows, each of which
// is a LEFT join of the FROM clause's rows with those rows grouped by their
// side of the correlation (correlated_scalar.go). A subquery whose counts
// do not all become joins (a correlation that is no equality) is left to
// be planned per outer row (correlated_loop.go). It returns the new source
// and columns, the replacement of each subquery expression, and the
// values of the scalar subqueries the replacements hold.
func decorrelateMarks(sel *sql.Select, exprs []ast.Expr, scan *Scan, cols []Column, c buildCtx) (*Scan, []Column, map[ast.Expr]ast.Expr, map[*ast.Subquery]Expr, error) {
	var marks map[ast.Expr]ast.Expr
	var scalars map[*ast.Subquery]Expr
	for _, x := range exprs {
		for _, m := range markCandidates(x) {
			r, ok := markCase(sel, m, cols, c)
			if !ok {
				continue
			}
			var subs []*ast.Subquery
			scalarSubqueries(r, &subs)
			s2, cols2, vals, err := decorrelateScalars(sel, []ast.Expr{r}, scan, cols, c)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			if len(vals) != len(subs) {
				continue
			}
			scan, cols = s2, cols2
			if marks == nil {
				marks, scalars = map[ast.Expr]ast.Expr{}, map[*ast.Subquery]Expr{}
			}
			marks[m] = r
			for k, v := range vals {
				scalars[k] = v
			}
		}
	}
	return scan, cols, marks, scalars, nil
}

// markCandidates returns the EXISTS, IN, ANY and ALL subquery expressions
// of x, not those inside subqueries.
func markCandidates(x ast.Expr) []ast.Expr {
	var out []ast.Expr
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.ExistsExpr:
			out = append(out, n)
			return false, nil
		case *ast.ComparisonExpr:
			if _, ok := n.Right.(*ast.Subquery); ok && (n.Operator == ast.InStr || n.Operator == ast.NotInStr || isQuantified(n.Operator)) {
				out = append(out, n)
				return false, nil
			}
		}
		return true, nil
	}, x)
	return out
}

// markCase returns the CASE that m, a correlated subquery expression of a
// plain form, equals; ok is false for any other m.
//
//   - EXISTS: count(*) > 0;
//   - x IN: FALSE without rows, else NULL for a NULL x, else TRUE when a
//     row has y = x, else NULL when one has a NULL y, else FALSE; NOT IN is
//     its negation;
//   - x op ANY and ALL: quantifiedCase over the same rows.
func markCase(sel *sql.Select, m ast.Expr, cols []Column, c buildCtx) (ast.Expr, bool) {
	var sub *ast.Subquery
	var cmp *ast.ComparisonExpr
	switch e := m.(type) {
	case *ast.ExistsExpr:
		sub = e.Subquery
	case *ast.ComparisonExpr:
		sub, cmp = e.Right.(*ast.Subquery), e
	}
	s, ok := sub.Select.(*ast.Select)
	if !ok || len(s.GroupBy) > 0 || s.Having != nil || s.Limit != nil && !(cmp == nil && keepsAnyRow(s.Limit)) || len(s.From) == 0 || s.Where == nil ||
		s.Qualify != nil || s.DistinctOn != nil {
		return nil, false
	}
	for _, se := range s.SelectExprs {
		if ae, ok := se.(*ast.AliasedExpr); ok && (hasAgg(ae.Expr) || changesRows(sel, ae.Expr)) {
			return nil, false
		}
	}
	// Only a subquery that reads the outer row: an uncorrelated one runs
	// once, and its IN list prunes.
	if _, sc, err := c.subqueries(sel, cols)(s, nil, nil); err != nil || len(sc.reads) == 0 {
		return nil, false
	}
	count := func(extra ast.Expr, item ast.Expr) ast.Expr {
		return rowsOf(s, extra, item)
	}
	star := &ast.FuncExpr{Name: ast.NewColIdent("count"), Exprs: ast.SelectExprs{&ast.StarExpr{}}}
	zero := ast.NewIntVal([]byte("0"))
	if cmp == nil {
		return &ast.ComparisonExpr{Operator: ">", Left: count(nil, star), Right: zero}, true
	}
	if len(s.SelectExprs) != 1 {
		return nil, false
	}
	ae, ok := s.SelectExprs[0].(*ast.AliasedExpr)
	if !ok || !readsOuterOnly(sel, cmp.Left, s, cols, c) {
		return nil, false
	}
	y, x := ae.Expr, cmp.Left
	op, all, quantified := sql.Quantified(cmp.Operator)
	if op == "<>" {
		op = "!="
	}
	in := cmp.Operator == ast.InStr || cmp.Operator == ast.NotInStr || quantified && (op == "=" && !all || op == "!=" && all)
	if !in {
		r, err := quantifiedCase(x, op, all, y, func(v ast.Expr) ast.Expr { return rowsOf(s, nil, v) })
		return r, err == nil
	}
	positive := func(extra ast.Expr) ast.Expr {
		return &ast.ComparisonExpr{Operator: ">", Left: count(extra, star), Right: zero}
	}
	r := &ast.CaseExpr{
		Whens: []*ast.When{
			{Cond: &ast.ComparisonExpr{Operator: "=", Left: count(nil, star), Right: zero}, Val: ast.BoolVal(false)},
			{Cond: &ast.IsExpr{Operator: ast.IsNullStr, Expr: x}, Val: &ast.NullVal{}},
			{Cond: positive(&ast.ComparisonExpr{Operator: "=", Left: y, Right: x}), Val: ast.BoolVal(true)},
			{Cond: positive(&ast.IsExpr{Operator: ast.IsNullStr, Expr: y}), Val: &ast.NullVal{}},
		},
		Else: ast.BoolVal(false),
	}
	if cmp.Operator == ast.NotInStr || quantified && all {
		return &ast.NotExpr{Expr: &ast.ParenExpr{Expr: r}}, true
	}
	return r, true
}

// rowsOf is (SELECT item FROM s's FROM WHERE s's WHERE [AND extra]).
func rowsOf(s *ast.Select, extra, item ast.Expr) ast.Expr {
	w := s.Where.Expr
	if extra != nil {
		w = &ast.AndExpr{Left: &ast.ParenExpr{Expr: w}, Right: extra}
	}
	return &ast.Subquery{Select: &ast.Select{
		SelectExprs: ast.SelectExprs{&ast.AliasedExpr{Expr: item}},
		From:        s.From,
		Where:       ast.NewWhere(ast.WhereStr, w),
	}}
}

// changesRows reports whether x, a select item, could make a query's row
// count other than its FROM's (unnest) or reads other rows (a window).
func changesRows(sel *sql.Select, x ast.Expr) bool {
	found := false
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		if f, ok := n.(*ast.FuncExpr); ok && (strings.EqualFold(f.Name.String(), "unnest") || f.Over != nil) {
			found = true
		}
		_, sub := n.(*ast.Subquery)
		found = found || sub
		return !found, nil
	}, x)
	return found
}

// readsOuterOnly reports whether x, written outside subquery s, keeps its
// meaning moved into s's WHERE: it holds no subquery or aggregate, and no
// name of it is one of s's own columns.
func readsOuterOnly(sel *sql.Select, x ast.Expr, s *ast.Select, cols []Column, c buildCtx) bool {
	if hasAgg(x) || changesRows(sel, x) {
		return false
	}
	_, icols, err := source(sel, s, c.enclosed(cols))
	if err != nil {
		return false
	}
	inner := &binder{cols: icols}
	ok := true
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		if cn, isCol := n.(*ast.ColName); isCol {
			if cn.Qualifier.IsEmpty() {
				ok = ok && inner.lookup(cn.Name.String()) < 0
			} else {
				ok = ok && !hasTable(icols, cn.Qualifier.Name.String())
			}
		}
		return ok, nil
	}, x)
	return ok
}
