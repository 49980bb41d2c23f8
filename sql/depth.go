package sql

import "github.com/xwb1989/sqlparser"

// MaxExpressionDepth is DuckDB's default max_expression_depth: an
// expression nested deeper fails before it is bound, as in DuckDB.
const MaxExpressionDepth = 1000

// clauseDepth is how many levels DuckDB's binder counts above the root of
// a clause's expression: with it, an expression of 994 levels (a sum of 994
// terms, 993 unary minuses around a column) binds and one of 995 fails,
// exactly as in DuckDB 1.5.6; in a scalar subquery, 988 bind.
const clauseDepth = 5

const depthMessage = "Max expression depth limit of 1000 exceeded"

// A shaper checks the depth of every expression of a statement and makes
// chains of AND and of OR balanced trees. Parentheses add no level, and a
// chain of one of AND and OR is one level however long (DuckDB's
// conjunctions are flat), so such a chain may hold any number of terms;
// balancing it keeps every later recursive walk of the tree (binding,
// naming, printing) logarithmic in its length rather than linear. The
// walk stops descending at the limit, so its own stack stays bounded.
type shaper struct {
	tooDeep bool
	// base is the depth of the expression holding the subquery being
	// shaped: DuckDB counts a subquery's levels on from there (one in FROM
	// starts afresh).
	base int
}

// statement shapes a query; false means an expression was too deep.
func (s *shaper) statement(st sqlparser.SelectStatement) bool {
	s.selectStatement(st)
	return !s.tooDeep
}

func (s *shaper) selectStatement(st sqlparser.SelectStatement) {
	// A chain of UNIONs is left-deep; walk its spine without recursion.
	for st != nil && !s.tooDeep {
		switch n := st.(type) {
		case *sqlparser.Select:
			s.selectExprs(n.SelectExprs)
			for _, te := range n.From {
				s.tableExpr(te)
			}
			if n.Where != nil {
				n.Where.Expr = s.root(n.Where.Expr)
			}
			for i := range n.GroupBy {
				n.GroupBy[i] = s.root(n.GroupBy[i])
			}
			if n.Having != nil {
				n.Having.Expr = s.root(n.Having.Expr)
			}
			s.orderLimit(n.OrderBy, n.Limit)
			return
		case *sqlparser.Union:
			s.orderLimit(n.OrderBy, n.Limit)
			s.selectStatement(n.Right)
			st = n.Left
		case *sqlparser.ParenSelect:
			st = n.Select
		default:
			return
		}
	}
}

func (s *shaper) orderLimit(ob sqlparser.OrderBy, l *sqlparser.Limit) {
	for _, o := range ob {
		o.Expr = s.root(o.Expr)
	}
	if l != nil {
		l.Offset = s.root(l.Offset)
		l.Rowcount = s.root(l.Rowcount)
	}
}

func (s *shaper) selectExprs(xs sqlparser.SelectExprs) {
	for _, se := range xs {
		if ae, ok := se.(*sqlparser.AliasedExpr); ok {
			ae.Expr = s.root(ae.Expr)
		}
	}
}

func (s *shaper) tableExpr(te sqlparser.TableExpr) {
	switch t := te.(type) {
	case *sqlparser.AliasedTableExpr:
		if sq, ok := t.Expr.(*sqlparser.Subquery); ok {
			saved := s.base
			s.base = 0
			s.selectStatement(sq.Select)
			s.base = saved
		}
	case *sqlparser.JoinTableExpr:
		s.tableExpr(t.LeftExpr)
		s.tableExpr(t.RightExpr)
		t.Condition.On = s.root(t.Condition.On)
	case *sqlparser.ParenTableExpr:
		for _, x := range t.Exprs {
			s.tableExpr(x)
		}
	}
}

// root shapes the expression of a clause.
func (s *shaper) root(e sqlparser.Expr) sqlparser.Expr {
	return s.expr(e, s.base+clauseDepth+1)
}

// subquery shapes a subquery that is an expression found at depth d.
func (s *shaper) subquery(st sqlparser.SelectStatement, d int) {
	saved := s.base
	s.base = d
	s.selectStatement(st)
	s.base = saved
}

// expr shapes e, found at depth d, and returns it (or its balanced form).
func (s *shaper) expr(e sqlparser.Expr, d int) sqlparser.Expr {
	if e == nil || s.tooDeep {
		return e
	}
	if d >= MaxExpressionDepth {
		s.tooDeep = true
		return e
	}
	switch n := e.(type) {
	case *sqlparser.ParenExpr:
		n.Expr = s.expr(n.Expr, d)
	case *sqlparser.AndExpr, *sqlparser.OrExpr:
		return s.chain(n, d)
	case *sqlparser.NotExpr:
		n.Expr = s.expr(n.Expr, d+1)
	case *sqlparser.ComparisonExpr:
		n.Left = s.expr(n.Left, d+1)
		n.Right = s.expr(n.Right, d+1)
		n.Escape = s.expr(n.Escape, d+1)
	case *sqlparser.RangeCond:
		n.Left = s.expr(n.Left, d+1)
		n.From = s.expr(n.From, d+1)
		n.To = s.expr(n.To, d+1)
	case *sqlparser.IsExpr:
		n.Expr = s.expr(n.Expr, d+1)
	case *sqlparser.ExistsExpr:
		s.subquery(n.Subquery.Select, d)
	case *sqlparser.Subquery:
		s.subquery(n.Select, d)
	case sqlparser.ValTuple:
		for i := range n {
			n[i] = s.expr(n[i], d+1)
		}
	case *sqlparser.BinaryExpr:
		n.Left = s.expr(n.Left, d+1)
		n.Right = s.expr(n.Right, d+1)
	case *sqlparser.UnaryExpr:
		n.Expr = s.expr(n.Expr, d+1)
	case *sqlparser.IntervalExpr:
		n.Expr = s.expr(n.Expr, d+1)
	case *sqlparser.CollateExpr:
		n.Expr = s.expr(n.Expr, d+1)
	case *sqlparser.FuncExpr:
		for _, se := range n.Exprs {
			if ae, ok := se.(*sqlparser.AliasedExpr); ok {
				ae.Expr = s.expr(ae.Expr, d+1)
			}
		}
	case *sqlparser.CaseExpr:
		n.Expr = s.expr(n.Expr, d+1)
		for _, w := range n.Whens {
			w.Cond = s.expr(w.Cond, d+1)
			w.Val = s.expr(w.Val, d+1)
		}
		n.Else = s.expr(n.Else, d+1)
	case *sqlparser.ConvertExpr:
		n.Expr = s.expr(n.Expr, d+1)
	case *sqlparser.SubstrExpr:
		n.From = s.expr(n.From, d+1)
		n.To = s.expr(n.To, d+1)
	case *sqlparser.ConvertUsingExpr:
		n.Expr = s.expr(n.Expr, d+1)
	case *sqlparser.MatchExpr:
		n.Expr = s.expr(n.Expr, d+1)
	case *sqlparser.GroupConcatExpr:
		for _, se := range n.Exprs {
			if ae, ok := se.(*sqlparser.AliasedExpr); ok {
				ae.Expr = s.expr(ae.Expr, d+1)
			}
		}
	}
	return e
}

// chain shapes a chain of AND (or of OR) at depth d: its terms, gathered
// without recursion, sit one level below it, and it is rebuilt balanced.
func (s *shaper) chain(e sqlparser.Expr, d int) sqlparser.Expr {
	_, and := e.(*sqlparser.AndExpr)
	var terms []sqlparser.Expr
	stack := []sqlparser.Expr{e}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n := x.(type) {
		case *sqlparser.AndExpr:
			if and {
				stack = append(stack, n.Right, n.Left)
				continue
			}
		case *sqlparser.OrExpr:
			if !and {
				stack = append(stack, n.Right, n.Left)
				continue
			}
		}
		terms = append(terms, x)
	}
	for i, t := range terms {
		terms[i] = s.expr(t, d+1)
		if s.tooDeep {
			return e
		}
	}
	return balance(terms, and)
}

// balance joins terms with AND (or OR) into a tree of logarithmic depth,
// keeping their order.
func balance(terms []sqlparser.Expr, and bool) sqlparser.Expr {
	if len(terms) == 1 {
		return terms[0]
	}
	mid := len(terms) / 2
	l, r := balance(terms[:mid], and), balance(terms[mid:], and)
	if and {
		return &sqlparser.AndExpr{Left: l, Right: r}
	}
	return &sqlparser.OrExpr{Left: l, Right: r}
}
