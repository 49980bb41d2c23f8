package planner

import (
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/xwb1989/sqlparser"
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
func decorrelateMarks(sel *sql.Select, exprs []sqlparser.Expr, scan *Scan, cols []Column, c buildCtx) (*Scan, []Column, map[sqlparser.Expr]sqlparser.Expr, map[*sqlparser.Subquery]Expr, error) {
	var marks map[sqlparser.Expr]sqlparser.Expr
	var scalars map[*sqlparser.Subquery]Expr
	for _, x := range exprs {
		for _, m := range markCandidates(x) {
			r, ok := markCase(sel, m, cols, c)
			if !ok {
				continue
			}
			var subs []*sqlparser.Subquery
			scalarSubqueries(r, &subs)
			s2, cols2, vals, err := decorrelateScalars(sel, []sqlparser.Expr{r}, scan, cols, c)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			if len(vals) != len(subs) {
				continue
			}
			scan, cols = s2, cols2
			if marks == nil {
				marks, scalars = map[sqlparser.Expr]sqlparser.Expr{}, map[*sqlparser.Subquery]Expr{}
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
func markCandidates(x sqlparser.Expr) []sqlparser.Expr {
	var out []sqlparser.Expr
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.ExistsExpr:
			out = append(out, n)
			return false, nil
		case *sqlparser.ComparisonExpr:
			if _, ok := n.Right.(*sqlparser.Subquery); ok && (n.Operator == sqlparser.InStr || n.Operator == sqlparser.NotInStr || isQuantified(n.Operator)) {
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
func markCase(sel *sql.Select, m sqlparser.Expr, cols []Column, c buildCtx) (sqlparser.Expr, bool) {
	var sub *sqlparser.Subquery
	var cmp *sqlparser.ComparisonExpr
	switch e := m.(type) {
	case *sqlparser.ExistsExpr:
		sub = e.Subquery
	case *sqlparser.ComparisonExpr:
		sub, cmp = e.Right.(*sqlparser.Subquery), e
	}
	s, ok := sub.Select.(*sqlparser.Select)
	if !ok || len(s.GroupBy) > 0 || s.Having != nil || s.Limit != nil && !(cmp == nil && keepsAnyRow(s.Limit)) || len(s.From) == 0 || s.Where == nil ||
		sel.QualifyOf(s) != nil || sel.DistinctOnOf(s) != nil {
		return nil, false
	}
	for _, se := range s.SelectExprs {
		if ae, ok := se.(*sqlparser.AliasedExpr); ok && (hasAgg(ae.Expr) || changesRows(sel, ae.Expr)) {
			return nil, false
		}
	}
	// Only a subquery that reads the outer row: an uncorrelated one runs
	// once, and its IN list prunes.
	if _, sc, err := c.subqueries(sel, cols)(s, nil, nil); err != nil || len(sc.reads) == 0 {
		return nil, false
	}
	count := func(extra sqlparser.Expr, item sqlparser.Expr) sqlparser.Expr {
		return rowsOf(s, extra, item)
	}
	star := &sqlparser.FuncExpr{Name: sqlparser.NewColIdent("count"), Exprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}}
	zero := sqlparser.NewIntVal([]byte("0"))
	if cmp == nil {
		return &sqlparser.ComparisonExpr{Operator: ">", Left: count(nil, star), Right: zero}, true
	}
	if len(s.SelectExprs) != 1 {
		return nil, false
	}
	ae, ok := s.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok || !readsOuterOnly(sel, cmp.Left, s, cols, c) {
		return nil, false
	}
	y, x := ae.Expr, cmp.Left
	op, all, quantified := sql.Quantified(cmp.Operator)
	if op == "<>" {
		op = "!="
	}
	in := cmp.Operator == sqlparser.InStr || cmp.Operator == sqlparser.NotInStr || quantified && (op == "=" && !all || op == "!=" && all)
	if !in {
		r, err := quantifiedCase(x, op, all, y, func(v sqlparser.Expr) sqlparser.Expr { return rowsOf(s, nil, v) })
		return r, err == nil
	}
	positive := func(extra sqlparser.Expr) sqlparser.Expr {
		return &sqlparser.ComparisonExpr{Operator: ">", Left: count(extra, star), Right: zero}
	}
	r := &sqlparser.CaseExpr{
		Whens: []*sqlparser.When{
			{Cond: &sqlparser.ComparisonExpr{Operator: "=", Left: count(nil, star), Right: zero}, Val: sqlparser.BoolVal(false)},
			{Cond: &sqlparser.IsExpr{Operator: sqlparser.IsNullStr, Expr: x}, Val: &sqlparser.NullVal{}},
			{Cond: positive(&sqlparser.ComparisonExpr{Operator: "=", Left: y, Right: x}), Val: sqlparser.BoolVal(true)},
			{Cond: positive(&sqlparser.IsExpr{Operator: sqlparser.IsNullStr, Expr: y}), Val: &sqlparser.NullVal{}},
		},
		Else: sqlparser.BoolVal(false),
	}
	if cmp.Operator == sqlparser.NotInStr || quantified && all {
		return &sqlparser.NotExpr{Expr: &sqlparser.ParenExpr{Expr: r}}, true
	}
	return r, true
}

// rowsOf is (SELECT item FROM s's FROM WHERE s's WHERE [AND extra]).
func rowsOf(s *sqlparser.Select, extra, item sqlparser.Expr) sqlparser.Expr {
	w := s.Where.Expr
	if extra != nil {
		w = &sqlparser.AndExpr{Left: &sqlparser.ParenExpr{Expr: w}, Right: extra}
	}
	return &sqlparser.Subquery{Select: &sqlparser.Select{
		SelectExprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: item}},
		From:        s.From,
		Where:       sqlparser.NewWhere(sqlparser.WhereStr, w),
	}}
}

// changesRows reports whether x, a select item, could make a query's row
// count other than its FROM's (unnest) or reads other rows (a window).
func changesRows(sel *sql.Select, x sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if f, ok := n.(*sqlparser.FuncExpr); ok && (strings.EqualFold(f.Name.String(), "unnest") || sel.Windows[f] != nil) {
			found = true
		}
		_, sub := n.(*sqlparser.Subquery)
		found = found || sub
		return !found, nil
	}, x)
	return found
}

// readsOuterOnly reports whether x, written outside subquery s, keeps its
// meaning moved into s's WHERE: it holds no subquery or aggregate, and no
// name of it is one of s's own columns.
func readsOuterOnly(sel *sql.Select, x sqlparser.Expr, s *sqlparser.Select, cols []Column, c buildCtx) bool {
	if hasAgg(x) || changesRows(sel, x) {
		return false
	}
	_, icols, err := source(sel, s, c.enclosed(cols))
	if err != nil {
		return false
	}
	inner := &binder{cols: icols}
	ok := true
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if cn, isCol := n.(*sqlparser.ColName); isCol {
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
