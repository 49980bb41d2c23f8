package ast

import (
	"strings"
)

// String prints node as the MySQL-flavoured text the tree was parsed
// from: lower-case keywords, identifiers backquoted where MySQL needs it,
// strings with backslash escapes. The planner's fallback column names and
// some messages use this spelling, so it stays exactly what it has been.
// DuckDB's clauses held as fields (FILTER, ORDER BY inside a call, NULLS
// FIRST/LAST, QUALIFY, DISTINCT ON, USING SAMPLE, EXCLUDE/REPLACE) are not
// printed; a window call prints its OVER clause as written.
func String(node Node) string {
	var p printer
	p.node(node)
	return p.b.String()
}

type printer struct{ b strings.Builder }

func (p *printer) s(s string) { p.b.WriteString(s) }

func (p *printer) node(n Node) {
	switch n := n.(type) {
	case nil:
	case *Select:
		if n == nil {
			return
		}
		p.s("select ")
		p.s(n.Distinct)
		p.node(n.SelectExprs)
		p.s(" from ")
		p.node(n.From)
		p.where(n.Where)
		p.node(n.GroupBy)
		p.where(n.Having)
		p.node(n.OrderBy)
		p.limit(n.Limit)
	case *ParenSelect:
		p.s("(")
		p.node(n.Select)
		p.s(")")
	case *Union:
		p.node(n.Left)
		p.s(" " + n.Type + " ")
		p.node(n.Right)
		p.node(n.OrderBy)
		p.limit(n.Limit)
	case SelectExprs:
		for i, x := range n {
			if i > 0 {
				p.s(", ")
			}
			p.node(x)
		}
	case *StarExpr:
		if !n.TableName.IsEmpty() {
			p.node(n.TableName)
			p.s(".")
		}
		p.s("*")
	case *AliasedExpr:
		p.node(n.Expr)
		if !n.As.IsEmpty() {
			p.s(" as ")
			p.id(n.As.String())
		}
	case TableExprs:
		for i, x := range n {
			if i > 0 {
				p.s(", ")
			}
			p.node(x)
		}
	case *AliasedTableExpr:
		p.node(n.Expr)
		if !n.As.IsEmpty() {
			p.s(" as ")
			p.id(n.As.String())
		}
	case TableName:
		if n.IsEmpty() {
			return
		}
		if !n.Qualifier.IsEmpty() {
			p.id(n.Qualifier.String())
			p.s(".")
		}
		p.id(n.Name.String())
	case *ParenTableExpr:
		p.s("(")
		p.node(n.Exprs)
		p.s(")")
	case *JoinTableExpr:
		p.node(n.LeftExpr)
		p.s(" " + n.Join + " ")
		p.node(n.RightExpr)
		p.node(n.Condition)
	case JoinCondition:
		if n.On != nil {
			p.s(" on ")
			p.node(n.On)
		}
		if n.Using != nil {
			p.s(" using ")
			p.node(n.Using)
		}
	case Columns:
		p.s("(")
		for i, c := range n {
			if i > 0 {
				p.s(", ")
			}
			p.id(c.String())
		}
		p.s(")")
	case *Where:
		p.where(n)
	case GroupBy:
		for i, x := range n {
			if i == 0 {
				p.s(" group by ")
			} else {
				p.s(", ")
			}
			p.node(x)
		}
	case OrderBy:
		for i, x := range n {
			if i == 0 {
				p.s(" order by ")
			} else {
				p.s(", ")
			}
			p.node(x)
		}
	case *Order:
		if _, ok := n.Expr.(*NullVal); ok {
			p.node(n.Expr)
			return
		}
		if f, ok := n.Expr.(*FuncExpr); ok && f.Name.Lowered() == "rand" {
			p.node(n.Expr)
			return
		}
		p.node(n.Expr)
		p.s(" " + n.Direction)
	case *Limit:
		p.limit(n)
	case Exprs:
		p.exprs(n)
	case *AndExpr:
		p.node(n.Left)
		p.s(" and ")
		p.node(n.Right)
	case *OrExpr:
		p.node(n.Left)
		p.s(" or ")
		p.node(n.Right)
	case *NotExpr:
		p.s("not ")
		p.node(n.Expr)
	case *ParenExpr:
		p.s("(")
		p.node(n.Expr)
		p.s(")")
	case *ComparisonExpr:
		p.node(n.Left)
		p.s(" " + n.Operator + " ")
		p.node(n.Right)
		if n.Escape != nil {
			p.s(" escape ")
			p.node(n.Escape)
		}
	case *RangeCond:
		p.node(n.Left)
		p.s(" " + n.Operator + " ")
		p.node(n.From)
		p.s(" and ")
		p.node(n.To)
	case *IsExpr:
		p.node(n.Expr)
		p.s(" " + n.Operator)
	case *ExistsExpr:
		p.s("exists ")
		p.node(n.Subquery)
	case *SQLVal:
		p.val(n)
	case *NullVal:
		p.s("null")
	case BoolVal:
		if n {
			p.s("true")
		} else {
			p.s("false")
		}
	case *ColName:
		if !n.Qualifier.IsEmpty() {
			p.node(n.Qualifier)
			p.s(".")
		}
		p.id(n.Name.String())
	case ValTuple:
		p.s("(")
		p.exprs(Exprs(n))
		p.s(")")
	case *Subquery:
		p.s("(")
		p.node(n.Select)
		p.s(")")
	case *BinaryExpr:
		p.node(n.Left)
		p.s(" " + n.Operator + " ")
		p.node(n.Right)
	case *UnaryExpr:
		p.s(n.Operator)
		if _, ok := n.Expr.(*UnaryExpr); ok {
			p.s(" ")
		}
		p.node(n.Expr)
	case *IntervalExpr:
		p.s("interval ")
		p.node(n.Expr)
		p.s(" " + n.Unit)
	case *FuncExpr:
		if !n.Qualifier.IsEmpty() {
			p.id(n.Qualifier.String())
			p.s(".")
		}
		p.s(n.Name.String() + "(")
		if n.Distinct {
			p.s("distinct ")
		}
		p.node(n.Exprs)
		if n.IgnoreNulls {
			p.s(" ignore nulls")
		}
		p.s(")")
		if n.Over != nil {
			p.s(" " + n.Over.Text)
		}
	case *ConvertExpr:
		if n.Try {
			p.s("try_")
		}
		p.s("convert(")
		p.node(n.Expr)
		p.s(", ")
		p.node(n.Type)
		p.s(")")
	case *ConvertType:
		p.s(n.Type)
		if n.Length != nil {
			p.s("(")
			p.node(n.Length)
			if n.Scale != nil {
				p.s(", ")
				p.node(n.Scale)
			}
			p.s(")")
		}
	case *CaseExpr:
		p.s("case ")
		if n.Expr != nil {
			p.node(n.Expr)
			p.s(" ")
		}
		for _, w := range n.Whens {
			p.node(w)
			p.s(" ")
		}
		if n.Else != nil {
			p.s("else ")
			p.node(n.Else)
			p.s(" ")
		}
		p.s("end")
	case *When:
		p.s("when ")
		p.node(n.Cond)
		p.s(" then ")
		p.node(n.Val)
	case *Unsupported:
		p.s(n.Text)
	case *Subscript:
		p.node(n.Expr)
		p.s("[")
		p.node(n.Index)
		p.s("]")
	case *FieldAccess:
		p.node(n.Expr)
		p.s(".")
		p.id(n.Name)
	case *Slice:
		p.node(n.Expr)
		p.s("[")
		p.node(n.Lo)
		p.s(":")
		p.node(n.Hi)
		if n.Stepped {
			p.s(":")
			p.node(n.Step)
		}
		p.s("]")
	case *ListLiteral:
		p.s("[")
		p.exprs(n.Elems)
		p.s("]")
	case *StructLiteral:
		p.s("{")
		for i, f := range n.Fields {
			if i > 0 {
				p.s(", ")
			}
			p.node(f.Name)
			p.s(": ")
			p.node(f.Value)
		}
		p.s("}")
	case *MapLiteral:
		p.s("map {")
		for i := range n.Keys {
			if i > 0 {
				p.s(", ")
			}
			p.node(n.Keys[i])
			p.s(": ")
			p.node(n.Values[i])
		}
		p.s("}")
	case *Lambda:
		if len(n.Params) == 1 {
			p.node(n.Params[0])
		} else {
			p.s("(")
			p.exprs(n.Params)
			p.s(")")
		}
		p.s(" -> ")
		p.node(n.Body)
	}
}

func (p *printer) exprs(xs Exprs) {
	for i, x := range xs {
		if i > 0 {
			p.s(", ")
		}
		p.node(x)
	}
}

func (p *printer) where(w *Where) {
	if w == nil || w.Expr == nil {
		return
	}
	p.s(" " + w.Type + " ")
	p.node(w.Expr)
}

func (p *printer) limit(l *Limit) {
	if l == nil {
		return
	}
	p.s(" limit ")
	if l.Offset != nil {
		p.node(l.Offset)
		p.s(", ")
	}
	p.node(l.Rowcount)
}

// val prints a literal; a string is quoted with MySQL's backslash escapes.
func (p *printer) val(v *SQLVal) {
	switch v.Type {
	case StrVal:
		p.s("'")
		for _, c := range v.Val {
			if e, ok := escapes[c]; ok {
				p.b.WriteByte('\\')
				p.b.WriteByte(e)
			} else {
				p.b.WriteByte(c)
			}
		}
		p.s("'")
	case HexVal:
		p.s("X'" + string(v.Val) + "'")
	case BitVal:
		p.s("B'" + string(v.Val) + "'")
	case ValArg:
		p.s(string(v.Val))
	default:
		p.s(string(v.Val))
	}
}

// escapes are the bytes a printed string escapes with a backslash.
var escapes = map[byte]byte{
	0: '0', '\'': '\'', '"': '"', '\b': 'b', '\n': 'n', '\r': 'r', '\t': 't', 26: 'Z', '\\': '\\',
}

// id prints a name, backquoted unless it is a plain word MySQL does not
// reserve.
func (p *printer) id(s string) {
	plain := true
	for i, c := range s {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '@'
		if !letter && (i == 0 || c < '0' || c > '9') {
			plain = false
			break
		}
	}
	if plain && !mysqlKeywords[strings.ToLower(s)] {
		p.s(s)
		return
	}
	p.s("`" + strings.ReplaceAll(s, "`", "``") + "`")
}
