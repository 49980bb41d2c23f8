package sql

import (
	"reflect"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// sqlparser keeps no positions in its tree, so they are recovered from the
// lowered tokens: the tree is walked in the order its nodes were written in
// the lowered text, and each node is matched to the next token that can
// start it. A token remembers the original token it came from, so every
// position is one in the text as the user wrote it, even where the
// lowering moved tokens (FROM-first queries) or invented them (x::T).
//
// A node whose token is not found within maxPosSkip tokens gets no
// position (an error on it shows no caret) rather than a wrong one far
// ahead; the bound also keeps the walk linear in the tokens.
const maxPosSkip = 64

// A posWalker assigns positions to the nodes of one parsed query.
type posWalker struct {
	p   *parser
	out []otok
	at  int                       // the next token a node may start at
	pos map[sqlparser.SQLNode]int // byte offsets in p.text
}

// positions records where every column reference, function call,
// literal, star, cast, operator, CASE and subquery of sel's AST starts,
// parsed from the lowered tokens out. It runs before fixAST, on the tree
// exactly as sqlparser built it from out. Byte offsets are kept and
// turned into lines and columns only when asked (PosOf): counting them for
// every node would cost time quadratic in a long line.
func (p *parser) positions(sel *parsed, out []otok) {
	w := &posWalker{p: p, out: out, pos: map[sqlparser.SQLNode]int{}}
	w.walk(sel.AST)
	sel.pos, sel.posText, sel.posBase = w.pos, p.text, p.base
}

// find returns the index of the first token from w.at on that ok accepts,
// moving w.at past it, or -1 (w.at unchanged).
func (w *posWalker) find(ok func(o *otok) bool) int {
	end := min(len(w.out), w.at+maxPosSkip)
	for i := w.at; i < end; i++ {
		if ok(&w.out[i]) {
			w.at = i + 1
			return i
		}
	}
	return -1
}

// record gives node the position of lowered token i.
func (w *posWalker) record(node sqlparser.SQLNode, i int) {
	if i < 0 || i >= len(w.out) {
		return
	}
	w.pos[node] = w.p.toks[w.out[i].orig].off
}

// ident finds the identifier name.
func (w *posWalker) ident(name string) int {
	if name == "" {
		return -1
	}
	return w.find(func(o *otok) bool {
		return (o.kind == tkWord || o.kind == tkQIdent) && strings.EqualFold(o.val, name)
	})
}

// operator finds the token after the left operand: the operator, once the
// ")" closing parenthesized operands are passed.
func (w *posWalker) operator() int {
	for w.at < len(w.out) && isOpTok(w.out, w.at, ")") {
		w.at++
	}
	if w.at >= len(w.out) {
		return -1
	}
	w.at++
	return w.at - 1
}

func (w *posWalker) walk(nodes ...sqlparser.SQLNode) {
	// The visitor never fails; Walk's error is always nil.
	_ = sqlparser.Walk(w.visit, nodes...)
}

// visit matches one node and says whether Walk should descend into it;
// nodes whose parts must be matched in between are walked here instead.
func (w *posWalker) visit(node sqlparser.SQLNode) (bool, error) {
	switch n := node.(type) {
	case *sqlparser.Union:
		// Walk skips a Union's ORDER BY and LIMIT.
		w.walk(n.Left, n.Right, n.OrderBy, n.Limit)
		return false, nil
	case *sqlparser.Limit:
		if n == nil {
			return false, nil
		}
		// LIMIT and OFFSET may come in either order.
		from := w.at
		w.walk(n.Rowcount)
		after := w.at
		w.at = from
		w.walk(n.Offset)
		w.at = max(w.at, after)
		return false, nil
	case *sqlparser.ColName:
		first, rest := colParts(n)
		if i := w.ident(first); i >= 0 {
			w.record(n, i)
			for _, r := range rest {
				w.ident(r)
			}
		}
		return false, nil
	case *sqlparser.FuncExpr:
		name := n.Name.String()
		if !n.Qualifier.IsEmpty() {
			name = n.Qualifier.String()
		}
		// The lowering's markers (FILTER, NULLS FIRST, OVER) leave the tree;
		// those of nested syntax become nodes, located where the syntax is
		// ("[", ".", "{", "->").
		if i := w.ident(name); i >= 0 && (!strings.HasPrefix(strings.ToLower(name), reservedPrefix) || nestedFuncs[strings.ToLower(name)]) {
			w.record(n, i)
		}
		w.walk(n.Exprs)
		return false, nil
	case *sqlparser.SQLVal:
		w.literal(n)
		return false, nil
	case *sqlparser.NullVal:
		if i := w.find(func(o *otok) bool { return o.kw == "null" }); i >= 0 {
			w.record(n, i)
		}
		return false, nil
	case *sqlparser.StarExpr:
		i := -1
		if !n.TableName.IsEmpty() {
			i = w.ident(n.TableName.Name.String())
		}
		if star := w.find(func(o *otok) bool { return o.kind == tkOp && o.val == "*" }); i < 0 {
			i = star
		}
		w.record(n, i)
		return false, nil
	case *sqlparser.ConvertExpr:
		w.cast(n)
		return false, nil
	case *sqlparser.BinaryExpr:
		w.binary(n, n.Left, n.Right)
		return false, nil
	case *sqlparser.ComparisonExpr:
		w.binary(n, n.Left, n.Right)
		if n.Escape != nil {
			w.walk(n.Escape)
		}
		return false, nil
	case *sqlparser.AndExpr:
		w.binary(n, n.Left, n.Right)
		return false, nil
	case *sqlparser.OrExpr:
		w.binary(n, n.Left, n.Right)
		return false, nil
	case *sqlparser.RangeCond:
		w.binary(n, n.Left, n.From)
		w.walk(n.To)
		return false, nil
	case *sqlparser.IsExpr:
		w.walk(n.Expr)
		w.record(n, w.operator())
		return false, nil
	case *sqlparser.UnaryExpr:
		if i := w.find(func(o *otok) bool { return o.kind == tkOp && o.val != "(" }); i >= 0 {
			w.record(n, i)
		}
		w.walk(n.Expr)
		return false, nil
	case *sqlparser.NotExpr:
		if i := w.find(func(o *otok) bool { return o.kw == "not" }); i >= 0 {
			w.record(n, i)
		}
		w.walk(n.Expr)
		return false, nil
	case *sqlparser.CaseExpr:
		if i := w.find(func(o *otok) bool { return o.kw == "case" }); i >= 0 {
			w.record(n, i)
		}
	case *sqlparser.ExistsExpr:
		if i := w.find(func(o *otok) bool { return o.kw == "exists" }); i >= 0 {
			w.record(n, i)
		}
		w.walk(n.Subquery.Select)
		return false, nil
	case *sqlparser.Subquery:
		if i := w.find(func(o *otok) bool { return isOpText(o, "(") }); i >= 0 {
			w.record(n, i)
		}
	case *sqlparser.AliasedExpr:
		w.walk(n.Expr)
		w.ident(n.As.String())
		return false, nil
	case *sqlparser.AliasedTableExpr:
		if t, ok := n.Expr.(sqlparser.TableName); ok {
			// A placeholder or a plain name: its position is the Source's.
			w.ident(t.Name.String())
		} else {
			w.walk(n.Expr)
		}
		w.ident(n.As.String())
		return false, nil
	}
	return true, nil
}

// binary walks left, matches node's operator, then walks right.
func (w *posWalker) binary(node sqlparser.SQLNode, left, right sqlparser.SQLNode) {
	w.walk(left)
	w.record(node, w.operator())
	w.walk(right)
}

// literal matches a constant. sqlparser folds a minus sign into a number;
// the position is then the sign's, as in DuckDB.
func (w *posWalker) literal(n *sqlparser.SQLVal) {
	v := string(n.Val)
	switch n.Type {
	case sqlparser.StrVal:
		if i := w.find(func(o *otok) bool { return o.kind == tkString && o.val == v }); i >= 0 {
			w.record(n, i)
		}
	case sqlparser.IntVal, sqlparser.FloatVal, sqlparser.HexNum:
		digits, neg := strings.CutPrefix(v, "-")
		i := w.find(func(o *otok) bool { return o.kind == tkNumber && o.text == digits })
		if i < 0 {
			return
		}
		if neg && i > 0 && isOpText(&w.out[i-1], "-") {
			i--
		}
		w.record(n, i)
	}
}

// cast matches CAST(x AS T) at its CAST and x::T at its "::", as DuckDB
// locates them. A typed literal (DATE '...') gets no position: DuckDB
// reports its conversion errors without one.
func (w *posWalker) cast(n *sqlparser.ConvertExpr) {
	i := w.find(func(o *otok) bool { return o.kind == tkWord && strings.EqualFold(o.text, "cast") })
	if i < 0 {
		w.walk(n.Expr)
		return
	}
	if w.out[i].kw == "cast" {
		w.record(n, i)
		w.walk(n.Expr)
		return
	}
	w.walk(n.Expr)
	as := w.find(func(o *otok) bool { return o.kw == "" && strings.EqualFold(o.text, "as") })
	if as >= 0 {
		if t := w.p.toks[w.out[as].orig]; t.kind == tkOp && t.val == "::" {
			w.record(n, as)
		}
	}
}

// colParts splits a column reference into its first name and the rest.
func colParts(n *sqlparser.ColName) (string, []string) {
	var parts []string
	if q := n.Qualifier.Qualifier.String(); q != "" {
		parts = append(parts, q)
	}
	if q := n.Qualifier.Name.String(); q != "" {
		parts = append(parts, q)
	}
	parts = append(parts, n.Name.String())
	return parts[0], parts[1:]
}

func isOpText(o *otok, op string) bool { return o.kind == tkOp && o.val == op && o.kw == "" }

// PosOf returns where node, a node of the query's AST (or of one of its
// common table expressions), starts in the original text: a column
// reference at its first name, a function call at its name, a literal at
// its first character (a negative number at its sign), a star at its *
// (or table name), CAST(...) at CAST and x::T at "::", a binary or
// comparison operator, IS, NOT and unary operators at the operator, CASE
// at CASE and a subquery at its "(". The second result is false for nodes
// without one: nodes the planner built, typed literals, and nodes of
// another statement.
func (s *parsed) PosOf(node sqlparser.SQLNode) (Position, bool) {
	if s == nil || node == nil || !reflect.TypeOf(node).Comparable() {
		// A tuple (a slice) is no map key, and has no recorded position.
		return Position{}, false
	}
	if off, ok := s.pos[node]; ok {
		return positionAt(s.posText, off, s.posBase), true
	}
	return Position{}, false
}
