package planner

import (
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/sql"
	"github.com/xwb1989/sqlparser"
)

// nameOf is the column name DuckDB gives an unaliased select expression:
// the expression printed as DuckDB prints its parse tree (operators
// parenthesized, LIKE as ~~, CASE with its ELSE NULL, casts with the type as
// written). A bare column is named by the caller, after binding.
func nameOf(sel *sql.Select, e sqlparser.Expr) string {
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
	sqlparser.LikeStr: "~~", sqlparser.NotLikeStr: "!~~", sql.ILikeStr: "~~*", sql.NotILikeStr: "!~~*",
}

func (n namer) expr(e sqlparser.Expr) string {
	switch e := e.(type) {
	case *sqlparser.ColName:
		if e.Qualifier.IsEmpty() {
			return ident(e.Name.String())
		}
		if q := e.Qualifier.Qualifier.String(); q != "" {
			return ident(q) + "." + ident(e.Qualifier.Name.String()) + "." + ident(e.Name.String())
		}
		return ident(e.Qualifier.Name.String()) + "." + ident(e.Name.String())
	case *sqlparser.ParenExpr:
		return n.expr(e.Expr)
	case *sqlparser.SQLVal:
		return literalName(e)
	case *sqlparser.NullVal:
		return "NULL"
	case sqlparser.BoolVal:
		if e {
			return "CAST('t' AS BOOLEAN)"
		}
		return "CAST('f' AS BOOLEAN)"
	case *sqlparser.FuncExpr:
		if e.Qualifier.String() == sql.WindowQualifier {
			return n.windowCall(e) // window.go
		}
		return n.call(e)
	case *sqlparser.BinaryExpr:
		op := e.Operator
		if op == "div" {
			op = "//"
		}
		return "(" + n.expr(e.Left) + " " + op + " " + n.expr(e.Right) + ")"
	case *sqlparser.ComparisonExpr:
		return n.comparison(e, false)
	case *sqlparser.RangeCond:
		s := "(" + n.expr(e.Left) + " BETWEEN " + n.expr(e.From) + " AND " + n.expr(e.To) + ")"
		if e.Operator == sqlparser.NotBetweenStr {
			return "(NOT " + s + ")"
		}
		return s
	case *sqlparser.IsExpr:
		x := n.expr(e.Expr)
		switch e.Operator {
		case sqlparser.IsNullStr:
			return "(" + x + " IS NULL)"
		case sqlparser.IsNotNullStr:
			return "(" + x + " IS NOT NULL)"
		case sqlparser.IsTrueStr:
			return "(CAST(" + x + " AS BOOLEAN) IS NOT DISTINCT FROM true)"
		case sqlparser.IsNotTrueStr:
			return "(CAST(" + x + " AS BOOLEAN) IS DISTINCT FROM true)"
		case sqlparser.IsFalseStr:
			return "(CAST(" + x + " AS BOOLEAN) IS NOT DISTINCT FROM false)"
		case sqlparser.IsNotFalseStr:
			return "(CAST(" + x + " AS BOOLEAN) IS DISTINCT FROM false)"
		}
	case *sqlparser.NotExpr:
		if x, ok := unparen(e.Expr).(*sqlparser.ExistsExpr); ok {
			return "(NOT " + n.expr(x) + ")"
		}
		if c, ok := unparen(e.Expr).(*sqlparser.ComparisonExpr); ok {
			if _, ok := negated[c.Operator]; ok || c.Operator == sqlparser.InStr {
				return n.comparison(c, true)
			}
		}
		return "(NOT " + n.expr(e.Expr) + ")"
	case *sqlparser.AndExpr:
		return n.conjunction(" AND ", e)
	case *sqlparser.OrExpr:
		return n.conjunction(" OR ", e)
	case *sqlparser.UnaryExpr:
		switch e.Operator {
		case sqlparser.UMinusStr:
			// The parser folds a minus into a number, and two minuses cancel.
			switch x := unparen(e.Expr).(type) {
			case *sqlparser.SQLVal:
				if x.Type == sqlparser.IntVal || x.Type == sqlparser.FloatVal {
					return "-" + literalName(x)
				}
			case *sqlparser.UnaryExpr:
				if v, ok := unparen(x.Expr).(*sqlparser.SQLVal); ok && x.Operator == sqlparser.UMinusStr &&
					(v.Type == sqlparser.IntVal || v.Type == sqlparser.FloatVal) {
					return literalName(v)
				}
			}
			return "-(" + n.expr(e.Expr) + ")"
		case sqlparser.UPlusStr:
			return "+(" + n.expr(e.Expr) + ")"
		}
	case *sqlparser.CaseExpr:
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
	case *sqlparser.ConvertExpr:
		return "CAST(" + n.expr(e.Expr) + " AS " + n.sel.CastTypeText(e) + ")"
	case *sqlparser.Subquery:
		return n.subquery(e)
	case *sqlparser.ExistsExpr:
		return "EXISTS" + n.subquery(e.Subquery)
	case *sqlparser.IntervalExpr:
		if u, ok := intervalUnitFuncs[strings.ToLower(e.Unit)]; ok {
			return intervalExprName(u.fn, u.t, n.expr(e.Expr)) // interval_bind.go
		}
	}
	return n.withSources(sqlparser.String(e))
}

func (n namer) call(e *sqlparser.FuncExpr) string {
	name := e.Name.Lowered()
	if sql.IsNestedFunc(name) {
		return n.nestedCall(e, name) // nested_names.go
	}
	star := len(e.Exprs) == 1
	if star {
		_, star = e.Exprs[0].(*sqlparser.StarExpr)
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
			if ae, ok := se.(*sqlparser.AliasedExpr); ok {
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
	if f := n.sel.FilterOf(e); f != nil {
		s += " FILTER (WHERE " + n.expr(f) + ")"
	}
	return s
}

// comparison prints a comparison, negated when under NOT.
func (n namer) comparison(e *sqlparser.ComparisonExpr, not bool) string {
	l := n.expr(e.Left)
	op := e.Operator
	if sub, ok := e.Right.(*sqlparser.Subquery); ok {
		// DuckDB names IN and ALL by ANY: x IN (q) is (x = ANY(q)), and
		// x op ALL (q) is (NOT (x negated-op ANY(q))).
		cmp, all, quantified := sql.Quantified(op)
		switch {
		case op == sqlparser.InStr || op == sqlparser.NotInStr:
			cmp, all = "=", false
			not = not != (op == sqlparser.NotInStr)
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
	case sqlparser.InStr, sqlparser.NotInStr:
		if not {
			op = sqlparser.NotInStr
		}
		var r string
		if t, ok := e.Right.(sqlparser.ValTuple); ok {
			parts := make([]string, len(t))
			for i, x := range t {
				parts[i] = n.expr(x)
			}
			r = "(" + strings.Join(parts, ", ") + ")"
		} else {
			r = sqlparser.String(e.Right)
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
func (n namer) conjunction(op string, e sqlparser.Expr) string {
	var parts []string
	var walk func(x sqlparser.Expr)
	walk = func(x sqlparser.Expr) {
		switch y := x.(type) {
		case *sqlparser.AndExpr:
			if op == " AND " {
				walk(y.Left)
				walk(y.Right)
				return
			}
		case *sqlparser.OrExpr:
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

func unparen(e sqlparser.Expr) sqlparser.Expr {
	for {
		p, ok := e.(*sqlparser.ParenExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}

// literalName prints a constant as DuckDB names it: strings quoted, numbers
// as written except that a number with an exponent is a DOUBLE.
func literalName(v *sqlparser.SQLVal) string {
	s := string(v.Val)
	switch v.Type {
	case sqlparser.StrVal:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case sqlparser.FloatVal:
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
func (n namer) argOrder(e *sqlparser.FuncExpr) string {
	order := n.sel.ArgOrderOf(e)
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
