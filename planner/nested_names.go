package planner

import (
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/xwb1989/sqlparser"
)

// nestedCall names the front end's nested-syntax calls as DuckDB prints
// them: l[1], l[2:], main.struct_pack(a := 1), main."map"(keys, values)
// and lambdas as (x -> body).
func (n namer) nestedCall(e *sqlparser.FuncExpr, name string) string {
	args := make([]sqlparser.Expr, 0, len(e.Exprs))
	for _, se := range e.Exprs {
		if ae, ok := se.(*sqlparser.AliasedExpr); ok {
			args = append(args, ae.Expr)
		}
	}
	part := func(x sqlparser.Expr) string {
		if c, ok := x.(*sqlparser.ColName); ok && c.Qualifier.IsEmpty() && c.Name.String() == sql.SliceOpen {
			return ""
		}
		return n.expr(x)
	}
	switch {
	case name == sql.TryFunc && len(args) == 1:
		return "TRY_" + n.expr(args[0])
	case name == sql.ExtractFunc && len(args) == 2:
		return n.expr(args[0]) + "[" + n.expr(args[1]) + "]"
	case name == sql.SliceFunc && len(args) == 3:
		return n.expr(args[0]) + "[" + part(args[1]) + ":" + part(args[2]) + "]"
	case name == sql.SliceFunc && len(args) == 4:
		return n.expr(args[0]) + "[" + part(args[1]) + ":" + part(args[2]) + ":" + part(args[3]) + "]"
	case name == sql.StructFunc:
		parts := make([]string, 0, len(args)/2)
		for i := 0; i+1 < len(args); i += 2 {
			key := sqlparser.String(args[i])
			if v, ok := args[i].(*sqlparser.SQLVal); ok {
				key = ident(string(v.Val))
			}
			parts = append(parts, key+" := "+n.expr(args[i+1]))
		}
		return "main.struct_pack(" + strings.Join(parts, ", ") + ")"
	case name == sql.MapFunc:
		var ks, vs []string
		for i := 0; i+1 < len(args); i += 2 {
			ks = append(ks, n.expr(args[i]))
			vs = append(vs, n.expr(args[i+1]))
		}
		return `main."map"(main.list_value(` + strings.Join(ks, ", ") + `), main.list_value(` + strings.Join(vs, ", ") + "))"
	case name == sql.LambdaFunc && len(args) >= 2:
		ps := make([]string, len(args)-1)
		for i, p := range args[:len(args)-1] {
			ps[i] = n.expr(p)
		}
		params := ps[0]
		if len(ps) > 1 {
			params = `main."row"(` + strings.Join(ps, ", ") + ")"
		}
		return "(" + params + " -> " + n.expr(args[len(args)-1]) + ")"
	}
	return sqlparser.String(e)
}
