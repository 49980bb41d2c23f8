package planner

import (
	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// quantified binds x op ANY (subquery) and x op ALL (subquery) whose
// subquery binds on its own (a correlated one in a WHERE became a join,
// correlated.go). = ANY is IN and <> ALL is NOT IN, with their NULL rules.
// The others are decided by the subquery's row count, its non-NULL
// minimum or maximum, and whether it holds a NULL, with DuckDB's rules:
//
//   - no rows: ANY is FALSE, ALL is TRUE, even for a NULL x;
//   - x NULL: NULL;
//   - ANY is TRUE when x op y holds for some y, ALL is FALSE when it fails
//     for some y (a NULL y decides neither);
//   - else NULL when the subquery holds a NULL, else FALSE (ANY) or TRUE
//     (ALL).
//
// x op y holding for some y is x op min(y) for > and >=, x op max(y) for
// < and <=; failing for some y is the other way round; for = and <> it
// is a comparison with both.
func (b *binder) quantified(e *ast.ComparisonExpr, op string, all bool) (Expr, error) {
	sub, ok := e.Right.(*ast.Subquery)
	if !ok {
		return nil, binderError("ANY and ALL need a subquery")
	}
	if op == "<>" {
		op = "!="
	}
	if !all && op == "=" || all && op == "!=" {
		x, err := b.bind(e.Left)
		if err != nil {
			return nil, err
		}
		return b.inSubquery(x, sub, all)
	}
	p, _, err := b.subqueryPlan(sub)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(p); err != nil {
		return nil, err
	}
	col := &ast.ColName{Name: ast.NewColIdent(p.Columns[0].Name)}
	// over is (SELECT x FROM (subquery)) as an expression.
	over := func(x ast.Expr) ast.Expr {
		return &ast.Subquery{Select: &ast.Select{
			SelectExprs: ast.SelectExprs{&ast.AliasedExpr{Expr: x}},
			From:        ast.TableExprs{&ast.AliasedTableExpr{Expr: sub}},
		}}
	}
	c, err := quantifiedCase(e.Left, op, all, col, over)
	if err != nil {
		return nil, err
	}
	return b.bind(c)
}

// quantifiedCase is x op ANY or ALL (subquery) for an op other than = ANY
// and <> ALL, as a CASE over scalar subqueries of the subquery's rows:
// over(v) is (SELECT v FROM those rows), col the subquery's value.
func quantifiedCase(x ast.Expr, op string, all bool, col ast.Expr, over func(ast.Expr) ast.Expr) (ast.Expr, error) {
	call := func(name string, arg ast.SelectExpr) *ast.FuncExpr {
		return &ast.FuncExpr{Name: ast.NewColIdent(name), Exprs: ast.SelectExprs{arg}}
	}
	agg := func(name string) ast.Expr {
		return over(call(name, &ast.AliasedExpr{Expr: col}))
	}
	cmp := func(op string, y ast.Expr) ast.Expr {
		return &ast.ComparisonExpr{Operator: op, Left: x, Right: y}
	}
	// decides is TRUE when some y decides the answer: x op y is TRUE for
	// it (ANY) or FALSE for it (ALL). A NULL bound leaves it NULL.
	var decides ast.Expr
	switch {
	case op == "=" || op == "!=":
		// = ALL fails, and <> ANY holds, on a y other than x.
		decides = &ast.OrExpr{Left: cmp("!=", agg("min")), Right: cmp("!=", agg("max"))}
	case (op == ">" || op == ">=") == all:
		decides = cmp(op, agg("max"))
	case op == ">" || op == ">=" || op == "<" || op == "<=":
		decides = cmp(op, agg("min"))
	default:
		return nil, binderError("ANY and ALL need a comparison, found %s", op)
	}
	if all && op != "=" {
		decides = &ast.NotExpr{Expr: decides}
	}
	star := func() *ast.FuncExpr { return call("count", &ast.StarExpr{}) }
	return &ast.CaseExpr{
		Whens: []*ast.When{
			{Cond: &ast.ComparisonExpr{Operator: "=", Left: over(star()), Right: ast.NewIntVal([]byte("0"))}, Val: ast.BoolVal(all)},
			{Cond: &ast.IsExpr{Operator: ast.IsNullStr, Expr: x}, Val: &ast.NullVal{}},
			{Cond: decides, Val: ast.BoolVal(!all)},
			{Cond: over(&ast.ComparisonExpr{Operator: ">", Left: star(), Right: call("count", &ast.AliasedExpr{Expr: col})}), Val: &ast.NullVal{}},
		},
		Else: ast.BoolVal(all),
	}, nil
}

// isQuantified reports whether a comparison operator is op ANY or op ALL.
func isQuantified(op string) bool {
	_, _, ok := sql.Quantified(op)
	return ok
}
