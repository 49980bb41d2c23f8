package planner

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// expandColumns expands a select item holding COLUMNS(*) or
// COLUMNS('regex') into one item per matching input column, the call
// replaced by the column, as DuckDB does; ok is false for an item without
// COLUMNS. Every COLUMNS of the item must select the same columns.
func expandColumns(sel *sql.Select, e ast.Expr, cols []Column) (exprs []ast.Expr, names []string, ok bool, err error) {
	var calls []*ast.FuncExpr
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.FuncExpr:
			if n.Qualifier.IsEmpty() && n.Name.Lowered() == "columns" {
				calls = append(calls, n)
				return false, nil
			}
		case *ast.Subquery:
			return false, nil
		}
		return true, nil
	}, e)
	if len(calls) == 0 {
		return nil, nil, false, nil
	}
	var match []int
	for k, c := range calls {
		m, err := columnsMatch(c, cols)
		if err != nil {
			return nil, nil, true, err
		}
		if k > 0 && !reflect.DeepEqual(m, match) {
			return nil, nil, true, binderError("Multiple different STAR/COLUMNS in the same expression are not supported")
		}
		match = m
	}
	for _, i := range match {
		col := &ast.ColName{Name: ast.NewColIdent(cols[i].Name)}
		x := e
		if _, bare := e.(*ast.FuncExpr); !bare || e != ast.Expr(calls[0]) {
			x = cloneExpr(sel, e).(ast.Expr)
			for _, c := range findColumnsCalls(x) {
				x = ast.ReplaceExpr(x, c, col)
			}
		} else {
			x = col
		}
		exprs = append(exprs, x)
		names = append(names, cols[i].Name)
	}
	return exprs, names, true, nil
}

// columnsMatch returns the input columns COLUMNS(*) or COLUMNS('regex')
// selects, in order.
func columnsMatch(c *ast.FuncExpr, cols []Column) ([]int, error) {
	if len(c.Exprs) != 1 {
		return nil, binderError("COLUMNS expects a single argument")
	}
	var re *regexp.Regexp
	var exclude map[string]bool
	switch a := c.Exprs[0].(type) {
	case *ast.StarExpr:
		if len(a.Replace) > 0 {
			return nil, fmt.Errorf("%w: COLUMNS(* REPLACE (...))", ErrNotImplemented)
		}
		exclude = map[string]bool{}
		for _, x := range a.Exclude {
			found := false
			for _, col := range cols {
				found = found || strings.EqualFold(col.Name, x)
			}
			if !found {
				return nil, binderError("Column \"%s\" in EXCLUDE list not found in FROM clause", x)
			}
			exclude[strings.ToLower(x)] = true
		}
	case *ast.AliasedExpr:
		v, ok := a.Expr.(*ast.SQLVal)
		if !ok || v.Type != ast.StrVal {
			return nil, binderError("COLUMNS expects * or a regular expression string")
		}
		var err error
		if re, err = regexp.Compile(string(v.Val)); err != nil {
			return nil, binderError("Failed to compile regex \"%s\": %v", v.Val, err)
		}
	default:
		return nil, binderError("COLUMNS expects * or a regular expression string")
	}
	var m []int
	for i, col := range cols {
		if re == nil && !exclude[strings.ToLower(col.Name)] || re != nil && re.MatchString(col.Name) {
			m = append(m, i)
		}
	}
	if len(m) == 0 && re == nil {
		return nil, binderError("SELECT list is empty after resolving * expressions!")
	}
	if len(m) == 0 {
		return nil, binderError("No matching columns found that match regex \"%s\"", re)
	}
	return m, nil
}

func findColumnsCalls(e ast.Expr) []*ast.FuncExpr {
	var calls []*ast.FuncExpr
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		if f, ok := n.(*ast.FuncExpr); ok && f.Qualifier.IsEmpty() && f.Name.Lowered() == "columns" {
			calls = append(calls, f)
			return false, nil
		}
		return true, nil
	}, e)
	return calls
}

// cloneExpr deep-copies an AST node, so each expansion of COLUMNS binds its
// own tree.
func cloneExpr(sel *sql.Select, n any) any {
	return cloneValue(sel, reflect.ValueOf(n)).Interface()
}

func cloneValue(sel *sql.Select, v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		switch v.Interface().(type) {
		case *ast.Source, *ast.Sample:
			return v // what the tree refers to, not part of it
		}
		c := reflect.New(v.Elem().Type())
		c.Elem().Set(cloneValue(sel, v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(cloneValue(sel, v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(cloneValue(sel, v.Index(i)))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v) // unexported fields keep their values
		for i := 0; i < v.NumField(); i++ {
			if c.Field(i).CanSet() {
				c.Field(i).Set(cloneValue(sel, v.Field(i)))
			}
		}
		return c
	}
	return v
}
