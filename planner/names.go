package planner

import (
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// nameOf is the column name DuckDB gives an unaliased select expression:
// the expression printed as DuckDB prints its parse tree (operators
// parenthesized, LIKE as ~~, CASE with its ELSE NULL, casts with the type as
// written). A bare column is named by the caller, after binding.
func nameOf(sel *sql.Select, e ast.Expr) string {
	n := namer{sel: sel}
	return n.expr(e)
}

type namer struct{ sel *sql.Select }

// quotedFuncs are functions DuckDB's grammar knows as keywords; it prints
// their names double-quoted, and some qualified with the main schema.
var quotedFuncs = map[string]string{
	"year": `"year"`, "month": `"month"`, "day": `"day"`, "hour": `"hour"`, "minute": `"minute"`,
	"second": `"second"`, "left": `"left"`, "right": `"right"`, "nullif": `"nullif"`,
	"substring": `main."substring"`, "trim": `main."trim"`, "position": `main."position"`,
	"coalesce": "COALESCE", "ifnull": "COALESCE", "list_value": "main.list_value",
}

// negated are the comparisons NOT turns into, as DuckDB's parser does.
var negated = map[string]string{"=": "!=", "!=": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}

// likeOps are the LIKE operators as DuckDB prints them.
var likeOps = map[string]string{
	ast.LikeStr: "~~", ast.NotLikeStr: "!~~", sql.ILikeStr: "~~*", sql.NotILikeStr: "!~~*",
}

func (n namer) expr(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.ColName:
		if e.Qualifier.IsEmpty() {
			return ident(e.Name.String())
		}
		if q := e.Qualifier.Qualifier.String(); q != "" {
			return ident(q) + "." + ident(e.Qualifier.Name.String()) + "." + ident(e.Name.String())
		}
		return ident(e.Qualifier.Name.String()) + "." + ident(e.Name.String())
	case *ast.ParenExpr:
		return n.expr(e.Expr)
	case *ast.SQLVal:
		return literalName(e)
	case *ast.NullVal:
		return "NULL"
	case ast.BoolVal:
		if e {
			return "CAST('t' AS BOOLEAN)"
		}
		return "CAST('f' AS BOOLEAN)"
	case *ast.FuncExpr:
		if e.Over != nil {
			return n.windowCall(e) // window.go
		}
		return n.call(e)
	case *ast.BinaryExpr:
		op := e.Operator
		if op == "div" {
			op = "//"
		}
		return "(" + n.expr(e.Left) + " " + op + " " + n.expr(e.Right) + ")"
	case *ast.ComparisonExpr:
		return n.comparison(e, false)
	case *ast.RangeCond:
		s := "(" + n.expr(e.Left) + " BETWEEN " + n.expr(e.From) + " AND " + n.expr(e.To) + ")"
		if e.Operator == ast.NotBetweenStr {
			return "(NOT " + s + ")"
		}
		return s
	case *ast.IsExpr:
		x := n.expr(e.Expr)
		switch e.Operator {
		case ast.IsNullStr:
			return "(" + x + " IS NULL)"
		case ast.IsNotNullStr:
			return "(" + x + " IS NOT NULL)"
		case ast.IsTrueStr:
			return "(CAST(" + x + " AS BOOLEAN) IS NOT DISTINCT FROM true)"
		case ast.IsNotTrueStr:
			return "(CAST(" + x + " AS BOOLEAN) IS DISTINCT FROM true)"
		case ast.IsFalseStr:
			return "(CAST(" + x + " AS BOOLEAN) IS NOT DISTINCT FROM false)"
		case ast.IsNotFalseStr:
			return "(CAST(" + x + " AS BOOLEAN) IS DISTINCT FROM false)"
		}
	case *ast.NotExpr:
		if x, ok := unparen(e.Expr).(*ast.ExistsExpr); ok {
			return "(NOT " + n.expr(x) + ")"
		}
		if c, ok := unparen(e.Expr).(*ast.ComparisonExpr); ok {
			if _, ok := negated[c.Operator]; ok || c.Operator == ast.InStr {
				return n.comparison(c, true)
			}
		}
		return "(NOT " + n.expr(e.Expr) + ")"
	case *ast.AndExpr:
		return n.conjunction(" AND ", e)
	case *ast.OrExpr:
		return n.conjunction(" OR ", e)
	case *ast.UnaryExpr:
		switch e.Operator {
		case ast.UMinusStr:
			// The parser folds a minus into a number, and two minuses cancel.
			switch x := unparen(e.Expr).(type) {
			case *ast.SQLVal:
				if x.Type == ast.IntVal || x.Type == ast.FloatVal {
					return "-" + literalName(x)
				}
			case *ast.UnaryExpr:
				if v, ok := unparen(x.Expr).(*ast.SQLVal); ok && x.Operator == ast.UMinusStr &&
					(v.Type == ast.IntVal || v.Type == ast.FloatVal) {
					return literalName(v)
				}
			}
			return "-(" + n.expr(e.Expr) + ")"
		case ast.UPlusStr:
			return "+(" + n.expr(e.Expr) + ")"
		}
	case *ast.CaseExpr:
		var b strings.Builder
		b.WriteString("CASE ")
		for _, w := range e.Whens {
			cond := n.expr(w.Cond)
			if e.Expr != nil {
				cond = "(" + n.expr(e.Expr) + " = " + cond + ")"
			}
			b.WriteString(" WHEN (" + cond + ") THEN (" + n.expr(w.Val) + ")")
		}
		b.WriteString(" ELSE ")
		if e.Else != nil {
			b.WriteString(n.expr(e.Else))
		} else {
			b.WriteString("NULL")
		}
		b.WriteString(" END")
		return b.String()
	case *ast.ConvertExpr:
		if e.Try {
			return "TRY_CAST(" + n.expr(e.Expr) + " AS " + e.WrittenType() + ")"
		}
		return "CAST(" + n.expr(e.Expr) + " AS " + e.WrittenType() + ")"
	case *ast.Subquery:
		return n.subquery(e)
	case *ast.ExistsExpr:
		return "EXISTS" + n.subquery(e.Subquery)
	case *ast.Subscript, *ast.FieldAccess, *ast.Slice, *ast.ListLiteral, *ast.StructLiteral, *ast.MapLiteral, *ast.Lambda:
		s, _ := n.nested(e) // nested_names.go
		return s
	case *ast.IntervalExpr:
		if u, ok := intervalUnitFuncs[strings.ToLower(e.Unit)]; ok {
			return intervalExprName(u.fn, u.t, n.expr(e.Expr)) // interval_bind.go
		}
	}
	return n.withSources(ast.String(e))
}

func (n namer) call(e *ast.FuncExpr) string {
	name := e.Name.Lowered()
	star := len(e.Exprs) == 1
	if star {
		_, star = e.Exprs[0].(*ast.StarExpr)
	}
	var s string
	switch {
	case name == "count" && star && !e.Distinct:
		s = "count_star()"
	case !e.Qualifier.IsEmpty():
		s = e.Qualifier.String() + "." + name
	case name == "grouping" || name == "grouping_id":
		s = "GROUPING"
	case quotedFuncs[name] != "":
		s = quotedFuncs[name]
	default:
		s = name
	}
	if s != "count_star()" {
		parts := make([]string, len(e.Exprs))
		for i, se := range e.Exprs {
			if ae, ok := se.(*ast.AliasedExpr); ok {
				parts[i] = n.expr(ae.Expr)
			} else {
				parts[i] = "*"
			}
		}
		d := ""
		if e.Distinct {
			d = "DISTINCT "
		}
		s += "(" + d + strings.Join(parts, ", ") + n.argOrder(e) + ")"
	}
	if f := e.Filter; f != nil {
		s += " FILTER (WHERE " + n.expr(f) + ")"
	}
	return s
}

// comparison prints a comparison, negated when under NOT.
func (n namer) comparison(e *ast.ComparisonExpr, not bool) string {
	l := n.expr(e.Left)
	op := e.Operator
	if sub, ok := e.Right.(*ast.Subquery); ok {
		// DuckDB names IN and ALL by ANY: x IN (q) is (x = ANY(q)), and
		// x op ALL (q) is (NOT (x negated-op ANY(q))).
		cmp, all, quantified := sql.Quantified(op)
		switch {
		case op == ast.InStr || op == ast.NotInStr:
			cmp, all = "=", false
			not = not != (op == ast.NotInStr)
		case !quantified:
			cmp = ""
		}
		if cmp != "" {
			if cmp == "<>" || cmp == "==" {
				cmp = map[string]string{"<>": "!=", "==": "="}[cmp]
			}
			if all {
				cmp, not = negated[cmp], !not
			}
			s := "(" + l + " " + cmp + " ANY" + n.subquery(sub) + ")"
			if not {
				return "(NOT " + s + ")"
			}
			return s
		}
	}
	switch op {
	case ast.InStr, ast.NotInStr:
		if not {
			op = ast.NotInStr
		}
		var r string
		if t, ok := e.Right.(ast.ValTuple); ok {
			parts := make([]string, len(t))
			for i, x := range t {
				parts[i] = n.expr(x)
			}
			r = "(" + strings.Join(parts, ", ") + ")"
		} else {
			r = ast.String(e.Right)
		}
		return "(" + l + " " + strings.ToUpper(op) + " " + r + ")"
	}
	if op == sql.IsDistinctFromStr || op == sql.IsNotDistinctFromStr {
		if not {
			return "(NOT (" + l + " " + strings.ToUpper(op) + " " + n.expr(e.Right) + "))"
		}
		return "(" + l + " " + strings.ToUpper(op) + " " + n.expr(e.Right) + ")"
	}
	if like, ok := likeOps[op]; ok {
		return "(" + l + " " + like + " " + n.expr(e.Right) + ")"
	}
	if not {
		op = negated[op]
	}
	return "(" + l + " " + op + " " + n.expr(e.Right) + ")"
}

// conjunction prints a chain of one of AND and OR flat, as DuckDB does.
func (n namer) conjunction(op string, e ast.Expr) string {
	var parts []string
	var walk func(x ast.Expr)
	walk = func(x ast.Expr) {
		switch y := x.(type) {
		case *ast.AndExpr:
			if op == " AND " {
				walk(y.Left)
				walk(y.Right)
				return
			}
		case *ast.OrExpr:
			if op == " OR " {
				walk(y.Left)
				walk(y.Right)
				return
			}
		}
		parts = append(parts, n.expr(x))
	}
	walk(e)
	return "(" + strings.Join(parts, op) + ")"
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}

// literalName prints a constant as DuckDB names it: strings quoted, numbers
// as written except that a number with an exponent is a DOUBLE.
func literalName(v *ast.SQLVal) string {
	s := string(v.Val)
	switch v.Type {
	case ast.StrVal:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case ast.FloatVal:
		if strings.ContainsAny(s, "eE") {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return string(AppendText(nil, Datum{F: f}, Type{ID: TypeDouble}))
			}
		}
	}
	return s
}

// nameKeywords are words DuckDB double-quotes when it prints an identifier.
var nameKeywords = map[string]bool{
	"select": true, "from": true, "where": true, "group": true, "by": true, "having": true, "order": true,
	"limit": true, "offset": true, "union": true, "except": true, "intersect": true, "all": true,
	"and": true, "or": true, "not": true, "in": true, "is": true, "like": true, "ilike": true,
	"between": true, "case": true, "when": true, "then": true, "else": true, "end": true, "as": true,
	"on": true, "join": true, "distinct": true, "null": true, "true": true, "false": true, "cast": true,
	"with": true, "table": true, "create": true, "asc": true, "desc": true, "default": true, "check": true,
	"column": true, "constraint": true, "foreign": true, "primary": true, "references": true,
	"unique": true, "using": true, "inner": true, "outer": true, "window": true, "qualify": true, "any": true, "some": true,
	"array": true, "both": true, "leading": true, "trailing": true, "for": true, "into": true,
	"only": true, "to": true, "do": true, "fetch": true, "grant": true, "returning": true,
	"analyse": true, "analyze": true, "symmetric": true, "asymmetric": true, "collate": true,
	"current_date": true, "current_time": true, "current_timestamp": true, "current_user": true,
	"deferrable": true, "initially": true, "lateral": true, "localtime": true, "localtimestamp": true,
	"placing": true, "pivot": true, "unpivot": true, "variadic": true, "user": true, "session_user": true,
	"current_role": true, "current_catalog": true, "describe": true, "show": true, "summarize": true,
}

// ident prints an identifier as DuckDB does: double-quoted when it is a
// keyword or holds anything but letters, digits and underscores.
func ident(s string) string {
	plain := s != "" && !('0' <= s[0] && s[0] <= '9')
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	if plain && !nameKeywords[strings.ToLower(s)] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// dedupNames renames repeated column names as DuckDB does when a file's
// schema repeats one: names compare case-insensitively, and a repeat of
// name becomes name_N with the smallest N (from 1, per name) that gives a
// name not yet taken, "x_1" written in the file included. The first
// occurrence keeps its name, so a file without repeats is unchanged.
func dedupNames(cols []Column) {
	taken := make(map[string]int, len(cols)) // lower-cased name -> the suffix to try next, less one
	for i := range cols {
		name := cols[i].Name
		low := strings.ToLower(name)
		if _, dup := taken[low]; !dup {
			taken[low] = 0
			continue
		}
		n := taken[low]
		for {
			n++
			cand := name + "_" + strconv.Itoa(n)
			if _, used := taken[strings.ToLower(cand)]; !used {
				cols[i].Name = cand
				taken[strings.ToLower(cand)] = 0
				break
			}
		}
		taken[low] = n - 1
	}
}

// sharedLeafPaths returns the indexes of the fields with a leaf whose path
// another leaf also has (a schema that repeats a column name). Pushdown
// finds a column's statistics by path, so it must never judge such a
// field: it could judge the other leaf's statistics.
func sharedLeafPaths(fields []*format.Field) []int {
	count := make(map[string]int)
	for _, f := range fields {
		if f == nil {
			continue
		}
		for _, l := range f.Leaves {
			count[l.Path]++
		}
	}
	var out []int
	for i, f := range fields {
		if f == nil {
			continue
		}
		for _, l := range f.Leaves {
			if count[l.Path] > 1 {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// argOrder prints the ORDER BY written inside a call as DuckDB names it:
// ASC and NULLS LAST only where written.
func (n namer) argOrder(e *ast.FuncExpr) string {
	order := e.OrderBy
	if order == nil {
		return ""
	}
	parts := make([]string, len(order))
	for i, o := range order {
		parts[i] = n.expr(o.Expr)
		switch {
		case o.Desc:
			parts[i] += " DESC"
		case o.Asc:
			parts[i] += " ASC"
		}
		if o.Nulls != sql.NullsDefault {
			parts[i] += " " + o.Nulls.String()
		}
	}
	return " ORDER BY " + strings.Join(parts, ", ")
}
