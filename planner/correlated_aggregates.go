package planner

import (
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/sql/ast"
)

// outerAggregateTable is the table of the names that stand for an
// enclosing query's aggregates inside a subquery; no query can name it.
const outerAggregateTable = "\x00aggregate"

// An outerAggregate is an aggregate call inside a subquery expression
// whose arguments read only the enclosing query's columns, as in
// HAVING EXISTS (SELECT 1 FROM b WHERE b.y > sum(a.x)). DuckDB computes it
// over the enclosing query's groups; the subquery reads its value as an
// outer column col.
type outerAggregate struct {
	call *ast.FuncExpr
	col  Column
}

// outerAggregates finds the aggregates of b's query inside subquery s, in
// a query that aggregates, binds each as one of b's, and puts a name of
// the outer column it is read as in its place in s's text. Binding s
// again finds those names.
func (b *binder) outerAggregates(s *ast.Subquery) ([]outerAggregate, error) {
	q, ok := s.Select.(*ast.Select)
	if b.agg == nil || !ok {
		return nil, nil
	}
	inner := map[string]bool{}
	fromTables(b, q.From, inner)
	outer := b.agg.inputer.cols
	var found []*ast.ColName
	var calls []*ast.FuncExpr
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.ColName:
			if _, ok := b.agg.outerAggs[n]; ok {
				found = append(found, n)
			}
		case *ast.FuncExpr:
			if hasAgg(n) && n.Over == nil && readsOnly(n, outer, inner) {
				calls = append(calls, n)
				return false, nil
			}
		}
		return true, nil
	}, q)
	for _, call := range calls {
		if b.agg.outerAggs == nil {
			b.agg.outerAggs = map[*ast.ColName]*ast.FuncExpr{}
		}
		name := &ast.ColName{Name: ast.NewColIdent(strconv.Itoa(len(b.agg.outerAggs))),
			Qualifier: ast.TableName{Name: ast.NewTableIdent(outerAggregateTable)}}
		b.agg.outerAggs[name] = call
		replaceIn(q, call, name)
		found = append(found, name)
	}
	var out []outerAggregate
	for _, name := range found {
		call := b.agg.outerAggs[name]
		x, err := b.bind(call)
		if err != nil {
			return nil, err
		}
		out = append(out, outerAggregate{call: call, col: Column{Table: outerAggregateTable, Name: name.Name.String(), Type: x.Type()}})
	}
	return out, nil
}

// scopeAggregates are the outer aggregates a scope was planned with.
func scopeAggregates(sc *outerScope) []outerAggregate {
	var out []outerAggregate
	for j, call := range sc.aggs {
		out = append(out, outerAggregate{call: call, col: sc.cols[sc.base+j]})
	}
	return out
}

// readsOnly reports whether call reads columns, each named with a table
// of cols that is none of the tables inner.
func readsOnly(call *ast.FuncExpr, cols []Column, inner map[string]bool) bool {
	n, ok := 0, true
	_ = ast.Walk(func(x ast.Node) (bool, error) {
		switch x := x.(type) {
		case *ast.Subquery:
			ok = false
		case *ast.ColName:
			q := x.Qualifier.Name.String()
			n++
			ok = ok && q != "" && !inner[strings.ToLower(q)] && hasTable(cols, q)
		}
		return ok, nil
	}, call)
	return ok && n > 0
}

// fromTables adds the names of the tables of a FROM clause, lower case.
func fromTables(b *binder, from ast.TableExprs, out map[string]bool) {
	for _, t := range from {
		switch t := t.(type) {
		case *ast.AliasedTableExpr:
			name := t.As.String()
			if name == "" {
				name = tableName(b.sel, t)
			}
			out[strings.ToLower(name)] = true
		case *ast.JoinTableExpr:
			fromTables(b, ast.TableExprs{t.LeftExpr, t.RightExpr}, out)
		case *ast.ParenTableExpr:
			fromTables(b, t.Exprs, out)
		}
	}
}

// replaceIn puts to in the place of from in the expressions of q.
func replaceIn(q *ast.Select, from, to ast.Expr) {
	for _, se := range q.SelectExprs {
		if ae, ok := se.(*ast.AliasedExpr); ok {
			ae.Expr = ast.ReplaceExpr(ae.Expr, from, to)
		}
	}
	for _, w := range []*ast.Where{q.Where, q.Having} {
		if w != nil {
			w.Expr = ast.ReplaceExpr(w.Expr, from, to)
		}
	}
	for i, g := range q.GroupBy {
		q.GroupBy[i] = ast.ReplaceExpr(g, from, to)
	}
	for _, o := range q.OrderBy {
		o.Expr = ast.ReplaceExpr(o.Expr, from, to)
	}
}
