package planner

import (
	"strings"

	"github.com/pqsql/pqsql/sql/ast"
)

// nested names the nested-value syntax as DuckDB prints it: l[1], l[2:],
// main.struct_pack(a := 1), main."map"(keys, values) and lambdas as
// (x -> body); ok is false for any other expression.
func (n namer) nested(e ast.Expr) (string, bool) {
	part := func(x ast.Expr) string {
		if x == nil {
			return "" // a slice bound left out
		}
		return n.expr(x)
	}
	switch e := e.(type) {
	case *ast.Subscript:
		return n.expr(e.Expr) + "[" + n.expr(e.Index) + "]", true
	case *ast.FieldAccess:
		return n.expr(e.Expr) + "[" + n.expr(ast.NewStrVal([]byte(e.Name))) + "]", true
	case *ast.Slice:
		s := n.expr(e.Expr) + "[" + part(e.Lo) + ":" + part(e.Hi)
		if e.Stepped {
			s += ":" + part(e.Step)
		}
		return s + "]", true
	case *ast.ListLiteral:
		return n.call(listValueCall(e)), true
	case *ast.StructLiteral:
		parts := make([]string, 0, len(e.Fields))
		for _, f := range e.Fields {
			key := ast.String(f.Name)
			if v, ok := f.Name.(*ast.SQLVal); ok {
				key = ident(string(v.Val))
			}
			parts = append(parts, key+" := "+n.expr(f.Value))
		}
		return "main.struct_pack(" + strings.Join(parts, ", ") + ")", true
	case *ast.MapLiteral:
		var ks, vs []string
		for i := range e.Keys {
			ks = append(ks, n.expr(e.Keys[i]))
			vs = append(vs, n.expr(e.Values[i]))
		}
		return `main."map"(main.list_value(` + strings.Join(ks, ", ") + `), main.list_value(` + strings.Join(vs, ", ") + "))", true
	case *ast.Lambda:
		ps := make([]string, len(e.Params))
		for i, p := range e.Params {
			ps[i] = n.expr(p)
		}
		params := ps[0]
		if len(ps) > 1 {
			params = `main."row"(` + strings.Join(ps, ", ") + ")"
		}
		return "(" + params + " -> " + n.expr(e.Body) + ")", true
	}
	return "", false
}
