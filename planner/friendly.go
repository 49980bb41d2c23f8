package planner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// substituteAliases replaces each bare name in e that is no input column
// but a select item's alias by that item's expression, as DuckDB lets
// WHERE, HAVING and QUALIFY use aliases. Input columns win over aliases.
func substituteAliases(e ast.Expr, in *binder, alias func(string) ast.Expr) ast.Expr {
	var names []*ast.ColName
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.ColName:
			if n.Qualifier.IsEmpty() && in.lookup(n.Name.String()) < 0 && alias(n.Name.String()) != nil {
				names = append(names, n)
			}
		case *ast.Subquery:
			return false, nil
		}
		return true, nil
	}, e)
	for _, c := range names {
		e = ast.ReplaceExpr(e, c, &ast.ParenExpr{Expr: alias(c.Name.String())})
	}
	return e
}

// explicitAliases finds a select item by the alias written for it (AS).
func explicitAliases(s *ast.Select) func(string) ast.Expr {
	return func(name string) ast.Expr {
		for _, se := range s.SelectExprs {
			if ae, ok := se.(*ast.AliasedExpr); ok && strings.EqualFold(ae.As.String(), name) {
				if hasAlias(ae.Expr, name) {
					return nil // a = a + 1: the alias cannot stand for itself
				}
				return ae.Expr
			}
		}
		return nil
	}
}

// hasAlias reports whether e names column name.
func hasAlias(e ast.Expr, name string) bool {
	found := false
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		if c, ok := n.(*ast.ColName); ok && strings.EqualFold(c.Name.String(), name) {
			found = true
		}
		return !found, nil
	}, e)
	return found
}

// isAll reports whether a GROUP BY or ORDER BY list is ALL.
func isAll(e ast.Expr) bool {
	c, ok := e.(*ast.ColName)
	return ok && c.Qualifier.IsEmpty() && c.Name.Lowered() == sql.AllMarker
}

// hasWindow reports whether an AST expression calls a window function.
func hasWindow(e ast.Expr) bool {
	found := false
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		if f, ok := n.(*ast.FuncExpr); ok && f.Over != nil {
			found = true
		}
		return !found, nil
	}, e)
	return found
}

// groupByAll returns GROUP BY ALL's keys: every select item without an
// aggregate or window function.
func groupByAll(exprs []ast.Expr) ast.GroupBy {
	var g ast.GroupBy
	for _, e := range exprs {
		if !hasAgg(e) && !hasWindow(e) {
			g = append(g, e)
		}
	}
	return g
}

// orderByAll returns ORDER BY ALL's items: every select column, left to
// right, in the direction and NULLS order written after ALL.
func orderByAll(sel *sql.Select, all *ast.Order, n int) ast.OrderBy {
	var ob ast.OrderBy
	for i := 1; i <= n; i++ {
		ob = append(ob, &ast.Order{Expr: ast.NewIntVal([]byte(itoa(i))), Direction: all.Direction, Nulls: all.Nulls})
	}
	return ob
}

func itoa(i int) string {
	var b []byte
	for ; i > 0 || len(b) == 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// starColumns expands a * of the select list into the input columns less
// those of EXCLUDE, with REPLACE's expressions standing for their columns.
func starColumns(sel *sql.Select, st *ast.StarExpr, cols []Column) ([]ast.Expr, []string, error) {
	skip := map[string]bool{}
	for _, x := range st.Exclude {
		skip[strings.ToLower(x)] = true
	}
	repl := map[string]ast.Expr{}
	for _, r := range st.Replace {
		repl[strings.ToLower(r.As.String())] = r.Expr
	}
	seen := map[string]bool{}
	var exprs []ast.Expr
	var names []string
	table := st.TableName.Name.String()
	for _, c := range cols {
		// * leaves out a USING column's duplicates; t.* has all of t's
		// columns.
		if table == "" && c.Hidden || table != "" && !strings.EqualFold(c.Table, table) {
			continue
		}
		k := strings.ToLower(c.Name)
		seen[k] = true
		if skip[k] {
			continue
		}
		var e ast.Expr = columnName(c)
		if r, ok := repl[k]; ok {
			e = r
		}
		exprs = append(exprs, e)
		names = append(names, c.Name)
	}
	if table != "" && len(seen) == 0 {
		return nil, nil, binderError("Referenced table \"%s\" not found!", table)
	}
	for _, x := range st.Exclude {
		if !seen[strings.ToLower(x)] {
			return nil, nil, binderError("Column \"%s\" in EXCLUDE list not found in FROM clause", x)
		}
	}
	for _, r := range st.Replace {
		if !seen[strings.ToLower(r.As.String())] {
			return nil, nil, binderError("Column \"%s\" in REPLACE list not found in FROM clause", r.As.String())
		}
	}
	return exprs, names, nil
}

// distinctFrom binds a IS [NOT] DISTINCT FROM b: equality in which NULL
// equals NULL and differs from every value, never NULL itself.
func (b *binder) distinctFrom(e *ast.ComparisonExpr) (Expr, error) {
	l, err := b.bind(e.Left)
	if err != nil {
		return nil, err
	}
	r, err := b.bind(e.Right)
	if err != nil {
		return nil, err
	}
	xs, err := unify(l, r)
	if err != nil {
		return nil, err
	}
	l, r = xs[0], xs[1]
	tBool := Type{ID: TypeBoolean}
	eq := &Binary{Op: "=", L: l, R: r, T: tBool}
	// NOT DISTINCT: CASE WHEN l IS NULL THEN r IS NULL WHEN r IS NULL THEN
	// false ELSE l = r END.
	var x Expr = &Case{Whens: []When{
		{Cond: &IsNull{X: l}, Val: &IsNull{X: r}},
		{Cond: &IsNull{X: r}, Val: &Const{Value: Datum{B: false}, T: tBool}},
	}, Else: eq, T: tBool}
	if e.Operator == sql.IsDistinctFromStr {
		x = &Not{X: x}
	}
	return fold(x)
}

// limitPercent reads LIMIT n% (ok false for any other LIMIT).
func limitPercent(sel *sql.Select, s *ast.Select) (float64, bool, error) {
	if !s.LimitPercent {
		return 0, false, nil
	}
	v, isVal := s.Limit.Rowcount.(*ast.SQLVal)
	if !isVal {
		return 0, true, binderError("LIMIT percentage must be a number")
	}
	pct, err := strconv.ParseFloat(string(v.Val), 64)
	if err != nil || pct < 0 || pct > 100 {
		return 0, true, fmt.Errorf("%w: Limit percentage can't be negative or greater than 100", ErrOutOfRange)
	}
	return pct, true, nil
}
