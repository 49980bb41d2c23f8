package planner

import "github.com/pqsql/pqsql/sql/ast"

// orderedSetCall reads quantile_cont(f ORDER BY x) and quantile_disc(f ORDER
// BY x), which percentile_cont(f) WITHIN GROUP (ORDER BY x) lowers to, as
// DuckDB does: the quantile f of x, counted from the top (-f) when the
// order is DESC. It returns nil for any other call.
func orderedSetCall(e *ast.FuncExpr, name string) *ast.FuncExpr {
	if name != "quantile_cont" && name != "quantile_disc" || len(e.Exprs) != 1 || len(e.OrderBy) != 1 || e.Over != nil {
		return nil
	}
	frac, ok := e.Exprs[0].(*ast.AliasedExpr)
	if !ok {
		return nil
	}
	var f ast.Expr = frac.Expr
	if e.OrderBy[0].Desc {
		f = &ast.UnaryExpr{At: frac.At, Operator: ast.UMinusStr, Expr: &ast.ParenExpr{At: frac.At, Expr: f}}
	}
	key := e.OrderBy[0].Expr
	c := *e
	c.OrderBy = nil
	c.Exprs = ast.SelectExprs{&ast.AliasedExpr{Expr: key}, &ast.AliasedExpr{At: frac.At, Expr: f}}
	return &c
}
