package sql

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pqsql/pqsql/sql/ast"
	"github.com/xwb1989/sqlparser"
)

// toAST converts a parsed query, the sqlparser tree and its side tables,
// into pqsql's own tree in one pass: each side-table entry becomes a field
// of its node, each recorded position the node's Pos.
func toAST(raw *parsed) ast.SelectStatement {
	c := &converter{raw: raw, at: positionsOf(raw)}
	return c.stmt(raw.AST)
}

type converter struct {
	raw *parsed
	at  map[int]Position // byte offset in raw.posText -> position
}

// positionsOf turns the byte offsets of raw's nodes into positions in one
// sweep over the text, so that many nodes on one long line cost no more
// than the line.
func positionsOf(raw *parsed) map[int]Position {
	offs := make([]int, 0, len(raw.pos))
	seen := make(map[int]bool, len(raw.pos))
	for _, off := range raw.pos {
		if !seen[off] {
			seen[off] = true
			offs = append(offs, off)
		}
	}
	sort.Ints(offs)
	out := make(map[int]Position, len(offs))
	text, base := raw.posText, raw.posBase
	line, col, i := 1, 1, 0
	for _, off := range offs {
		off = min(off, len(text))
		for i < off {
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			i += size
		}
		p := Position{Offset: off, Line: line, Column: col}
		if base.Line > 0 {
			if p.Line == 1 {
				p.Column += base.Column - 1
			}
			p.Line += base.Line - 1
			p.Offset += base.Offset
		}
		out[off] = p
	}
	return out
}

// pos returns where node starts, or the zero Position.
func (c *converter) pos(node sqlparser.SQLNode) ast.At {
	if off, ok := c.raw.pos[node]; ok {
		return ast.At{Pos: c.at[off]}
	}
	return ast.At{}
}

func (c *converter) stmt(s sqlparser.SelectStatement) ast.SelectStatement {
	switch n := s.(type) {
	case *sqlparser.Select:
		return c.sel(n)
	case *sqlparser.Union:
		return &ast.Union{At: c.pos(n), Type: n.Type, Left: c.stmt(n.Left), Right: c.stmt(n.Right),
			OrderBy: c.orderBy(n.OrderBy), Limit: c.limit(n.Limit)}
	case *sqlparser.ParenSelect:
		return &ast.ParenSelect{At: c.pos(n), Select: c.stmt(n.Select)}
	}
	return nil
}

func (c *converter) sel(n *sqlparser.Select) *ast.Select {
	if n == nil {
		return nil
	}
	return &ast.Select{
		At:           c.pos(n),
		Distinct:     n.Distinct,
		SelectExprs:  c.selectExprs(n.SelectExprs),
		From:         c.tableExprs(n.From),
		Where:        c.where(n.Where),
		GroupBy:      ast.GroupBy(c.exprs(n.GroupBy)),
		GroupingSets: c.raw.groupingSets[n],
		Having:       c.where(n.Having),
		Qualify:      c.expr(c.raw.Qualify[n]),
		OrderBy:      c.orderBy(n.OrderBy),
		Limit:        c.limit(n.Limit),
		LimitPercent: c.raw.Percent[n],
		DistinctOn:   c.exprs(c.raw.DistinctOn[n]),
		Sample:       c.raw.Samples[n],
	}
}

func (c *converter) selectExprs(xs sqlparser.SelectExprs) ast.SelectExprs {
	if xs == nil {
		return nil
	}
	out := make(ast.SelectExprs, len(xs))
	for i, x := range xs {
		switch n := x.(type) {
		case *sqlparser.StarExpr:
			st := &ast.StarExpr{At: c.pos(n), TableName: c.tableName(n.TableName)}
			if opts := c.raw.Stars[n]; opts != nil {
				st.Exclude = opts.Exclude
				for _, r := range opts.Replace {
					st.Replace = append(st.Replace, c.aliased(r))
				}
			}
			out[i] = st
		case *sqlparser.AliasedExpr:
			out[i] = c.aliased(n)
		default:
			out[i] = &ast.AliasedExpr{Expr: &ast.Unsupported{Text: sqlparser.String(x)}}
		}
	}
	return out
}

func (c *converter) aliased(n *sqlparser.AliasedExpr) *ast.AliasedExpr {
	return &ast.AliasedExpr{At: c.pos(n), Expr: c.expr(n.Expr), As: ast.NewColIdent(n.As.String())}
}

func (c *converter) tableName(t sqlparser.TableName) ast.TableName {
	out := ast.TableName{Name: ast.NewTableIdent(t.Name.String()), Qualifier: ast.NewTableIdent(t.Qualifier.String())}
	if t.Qualifier.IsEmpty() {
		out.Source = c.raw.Sources[t.Name.String()]
	}
	return out
}

func (c *converter) tableExprs(xs sqlparser.TableExprs) ast.TableExprs {
	if xs == nil {
		return nil
	}
	out := make(ast.TableExprs, len(xs))
	for i, x := range xs {
		out[i] = c.tableExpr(x)
	}
	return out
}

func (c *converter) tableExpr(x sqlparser.TableExpr) ast.TableExpr {
	switch n := x.(type) {
	case *sqlparser.AliasedTableExpr:
		t := &ast.AliasedTableExpr{At: c.pos(n), As: ast.NewTableIdent(n.As.String()), Columns: c.raw.SubqueryColumns[n]}
		switch e := n.Expr.(type) {
		case sqlparser.TableName:
			t.Expr = c.tableName(e)
		case *sqlparser.Subquery:
			t.Expr = c.subquery(e)
		}
		return t
	case *sqlparser.ParenTableExpr:
		return &ast.ParenTableExpr{At: c.pos(n), Exprs: c.tableExprs(n.Exprs)}
	case *sqlparser.JoinTableExpr:
		j := &ast.JoinTableExpr{At: c.pos(n), LeftExpr: c.tableExpr(n.LeftExpr), Join: n.Join,
			RightExpr: c.tableExpr(n.RightExpr), Condition: ast.JoinCondition{On: c.expr(n.Condition.On)}}
		if n.Condition.Using != nil {
			j.Condition.Using = make(ast.Columns, len(n.Condition.Using))
			for i, u := range n.Condition.Using {
				j.Condition.Using[i] = ast.NewColIdent(u.String())
			}
		}
		return j
	}
	return nil
}

func (c *converter) where(w *sqlparser.Where) *ast.Where {
	if w == nil {
		return nil
	}
	return &ast.Where{Type: w.Type, Expr: c.expr(w.Expr)}
}

func (c *converter) orderBy(os sqlparser.OrderBy) ast.OrderBy {
	if os == nil {
		return nil
	}
	out := make(ast.OrderBy, len(os))
	for i, o := range os {
		out[i] = &ast.Order{At: c.pos(o), Expr: c.expr(o.Expr), Direction: o.Direction, Nulls: c.raw.Nulls[o]}
	}
	return out
}

func (c *converter) limit(l *sqlparser.Limit) *ast.Limit {
	if l == nil {
		return nil
	}
	return &ast.Limit{Offset: c.expr(l.Offset), Rowcount: c.expr(l.Rowcount)}
}

func (c *converter) exprs(xs []sqlparser.Expr) []ast.Expr {
	if xs == nil {
		return nil
	}
	out := make([]ast.Expr, len(xs))
	for i, x := range xs {
		out[i] = c.expr(x)
	}
	return out
}

func (c *converter) subquery(n *sqlparser.Subquery) *ast.Subquery {
	if n == nil {
		return nil
	}
	return &ast.Subquery{At: c.pos(n), Select: c.stmt(n.Select)}
}

func (c *converter) val(n *sqlparser.SQLVal) *ast.SQLVal {
	if n == nil {
		return nil
	}
	return &ast.SQLVal{At: c.pos(n), Type: ast.ValType(n.Type), Val: n.Val}
}

func (c *converter) expr(x sqlparser.Expr) ast.Expr {
	switch n := x.(type) {
	case nil:
		return nil
	case *sqlparser.AndExpr:
		return &ast.AndExpr{At: c.pos(n), Left: c.expr(n.Left), Right: c.expr(n.Right)}
	case *sqlparser.OrExpr:
		return &ast.OrExpr{At: c.pos(n), Left: c.expr(n.Left), Right: c.expr(n.Right)}
	case *sqlparser.NotExpr:
		return &ast.NotExpr{At: c.pos(n), Expr: c.expr(n.Expr)}
	case *sqlparser.ParenExpr:
		return &ast.ParenExpr{At: c.pos(n), Expr: c.expr(n.Expr)}
	case *sqlparser.ComparisonExpr:
		return &ast.ComparisonExpr{At: c.pos(n), Operator: n.Operator, Left: c.expr(n.Left), Right: c.expr(n.Right), Escape: c.expr(n.Escape)}
	case *sqlparser.RangeCond:
		return &ast.RangeCond{At: c.pos(n), Operator: n.Operator, Left: c.expr(n.Left), From: c.expr(n.From), To: c.expr(n.To)}
	case *sqlparser.IsExpr:
		return &ast.IsExpr{At: c.pos(n), Operator: n.Operator, Expr: c.expr(n.Expr)}
	case *sqlparser.ExistsExpr:
		return &ast.ExistsExpr{At: c.pos(n), Subquery: c.subquery(n.Subquery)}
	case *sqlparser.SQLVal:
		return c.val(n)
	case *sqlparser.NullVal:
		return &ast.NullVal{At: c.pos(n)}
	case sqlparser.BoolVal:
		return ast.BoolVal(n)
	case *sqlparser.ColName:
		q := ast.TableName{Name: ast.NewTableIdent(n.Qualifier.Name.String()), Qualifier: ast.NewTableIdent(n.Qualifier.Qualifier.String())}
		return &ast.ColName{At: c.pos(n), Name: ast.NewColIdent(n.Name.String()), Qualifier: q}
	case sqlparser.ValTuple:
		return ast.ValTuple(c.exprs(n))
	case *sqlparser.Subquery:
		return c.subquery(n)
	case *sqlparser.BinaryExpr:
		return &ast.BinaryExpr{At: c.pos(n), Operator: n.Operator, Left: c.expr(n.Left), Right: c.expr(n.Right)}
	case *sqlparser.UnaryExpr:
		return &ast.UnaryExpr{At: c.pos(n), Operator: n.Operator, Expr: c.expr(n.Expr)}
	case *sqlparser.IntervalExpr:
		return &ast.IntervalExpr{At: c.pos(n), Expr: c.expr(n.Expr), Unit: n.Unit}
	case *sqlparser.FuncExpr:
		if x := c.nested(n); x != nil {
			return x
		}
		return c.call(n)
	case *sqlparser.SubstrExpr:
		f := &ast.FuncExpr{At: c.pos(n), Name: ast.NewColIdent("substr")}
		for _, a := range []sqlparser.Expr{n.Name, n.From, n.To} {
			if a != nil {
				f.Exprs = append(f.Exprs, &ast.AliasedExpr{Expr: c.expr(a)})
			}
		}
		return f
	case *sqlparser.ConvertExpr:
		cv := &ast.ConvertExpr{At: c.pos(n), Expr: c.expr(n.Expr), TypeText: c.raw.castText[n]}
		if n.Type != nil {
			cv.Type = &ast.ConvertType{Type: n.Type.Type, Length: c.val(n.Type.Length), Scale: c.val(n.Type.Scale)}
		}
		return cv
	case *sqlparser.CaseExpr:
		ce := &ast.CaseExpr{At: c.pos(n), Expr: c.expr(n.Expr), Else: c.expr(n.Else)}
		for _, w := range n.Whens {
			ce.Whens = append(ce.Whens, &ast.When{Cond: c.expr(w.Cond), Val: c.expr(w.Val)})
		}
		return ce
	}
	return &ast.Unsupported{At: c.pos(x), Text: sqlparser.String(x)}
}

// call converts a function call, moving its FILTER, argument ORDER BY and
// OVER clause from the side tables into the node.
func (c *converter) call(n *sqlparser.FuncExpr) *ast.FuncExpr {
	f := &ast.FuncExpr{At: c.pos(n), Qualifier: ast.NewTableIdent(n.Qualifier.String()),
		Name: ast.NewColIdent(n.Name.String()), Distinct: n.Distinct, Exprs: c.selectExprs(n.Exprs),
		Filter: c.expr(c.raw.Filters[n]), IgnoreNulls: c.raw.IgnoreNulls[n]}
	for _, o := range c.raw.argOrders[n] {
		f.OrderBy = append(f.OrderBy, ast.ArgOrder{Expr: c.expr(o.Expr), Desc: o.Desc, Asc: o.Asc, Nulls: o.Nulls})
	}
	if w := c.raw.Windows[n]; w != nil {
		f.Qualifier = ast.TableIdent{}
		f.Over = c.window(w)
	}
	return f
}

func (c *converter) window(w *rawWindow) *ast.Window {
	out := &ast.Window{PartitionBy: c.exprs(w.PartitionBy), Text: w.Text}
	for _, o := range w.OrderBy {
		out.OrderBy = append(out.OrderBy, ast.WindowOrder{Expr: c.expr(o.Expr), Desc: o.Desc, Nulls: o.Nulls})
	}
	if f := w.Frame; f != nil {
		out.Frame = &ast.Frame{Rows: f.Rows,
			Start: ast.FrameBound{Kind: f.Start.Kind, Offset: c.expr(f.Start.Offset)},
			End:   ast.FrameBound{Kind: f.End.Kind, Offset: c.expr(f.End.Offset)}}
	}
	return out
}

// nested converts the calls the lowering writes for DuckDB's nested-value
// syntax, subscripts, slices, literals, lambdas and TRY_CAST, into their
// nodes; it returns nil for any other call. A marker call out of shape
// (never written by the lowering) is Unsupported.
func (c *converter) nested(n *sqlparser.FuncExpr) ast.Expr {
	name := n.Name.Lowered()
	if !n.Qualifier.IsEmpty() || !nestedFuncs[name] && !(name == "list_value" && c.isListLiteral(n)) {
		return nil
	}
	at := c.pos(n)
	args := make([]ast.Expr, 0, len(n.Exprs))
	for _, se := range n.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok || !ae.As.IsEmpty() || n.Distinct {
			return &ast.Unsupported{At: at, Text: sqlparser.String(n)}
		}
		if col, ok := ae.Expr.(*sqlparser.ColName); ok && name == sliceFunc && col.Qualifier.IsEmpty() && col.Name.String() == sliceOpen {
			args = append(args, nil)
			continue
		}
		args = append(args, c.expr(ae.Expr))
	}
	switch {
	case name == "list_value":
		return &ast.ListLiteral{At: at, Elems: args}
	case name == extractFunc && len(args) == 2:
		if off, ok := c.raw.pos[n]; ok && strings.HasPrefix(c.raw.posText[off:], ".") {
			if v, ok := args[1].(*ast.SQLVal); ok && v.Type == ast.StrVal {
				return &ast.FieldAccess{At: at, Expr: args[0], Name: string(v.Val)}
			}
		}
		return &ast.Subscript{At: at, Expr: args[0], Index: args[1]}
	case name == sliceFunc && (len(args) == 3 || len(args) == 4):
		s := &ast.Slice{At: at, Expr: args[0], Lo: args[1], Hi: args[2]}
		if len(args) == 4 {
			s.Step, s.Stepped = args[3], true
		}
		return s
	case name == structFunc && len(args)%2 == 0:
		s := &ast.StructLiteral{At: at}
		for i := 0; i < len(args); i += 2 {
			s.Fields = append(s.Fields, ast.StructField{Name: args[i], Value: args[i+1]})
		}
		return s
	case name == mapFunc && len(args)%2 == 0:
		m := &ast.MapLiteral{At: at, Keys: []ast.Expr{}, Values: []ast.Expr{}}
		for i := 0; i < len(args); i += 2 {
			m.Keys, m.Values = append(m.Keys, args[i]), append(m.Values, args[i+1])
		}
		return m
	case name == lambdaFunc && len(args) >= 2:
		return &ast.Lambda{At: at, Params: args[:len(args)-1], Body: args[len(args)-1]}
	case name == tryFunc && len(args) == 1:
		if cv, ok := args[0].(*ast.ConvertExpr); ok {
			cv.Try = true
			return cv
		}
	}
	return &ast.Unsupported{At: at, Text: sqlparser.String(n)}
}

// isListLiteral tells [a, b] and ARRAY[a, b], which the lowering writes as
// list_value(a, b), from a call of list_value as written.
func (c *converter) isListLiteral(n *sqlparser.FuncExpr) bool {
	off, ok := c.raw.pos[n]
	return ok && !strings.HasPrefix(strings.ToLower(c.raw.posText[off:]), "list_value")
}
