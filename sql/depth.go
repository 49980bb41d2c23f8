package sql

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

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

// runBreakers are the words that end a run of arithmetic: they join or
// separate expressions at a precedence below + and -, or begin a clause.
// A word missing here is taken for an operand, which can only lengthen a
// run; a word here needlessly only shortens one, which is safe.
var runBreakers = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`and or not xor is isnull notnull in like ilike glob similar regexp
		rlike between escape case when then else end select from where group by having qualify order
		limit offset union except intersect all distinct as on using join inner left right full outer
		cross natural positional asof anti semi lateral with recursive values window over partition
		rows range groups preceding following unbounded current row filter within asc desc nulls first
		last exists any some for if collate at explain describe summarize analyze create view drop set
		reset table returning pivot unpivot sample tablesample exclude replace rename div mod lambda
		struct map list array to unnest null true false`) {
		m[w] = true
	}
	return m
}()

// A run counts, at one bracket level, the arithmetic operators that must
// nest into one chain: binary + and - not parted by anything of lower
// precedence parse left-deep, one level each, as do *, / and % between
// them. Prefix minuses are not counted: the parser folds some into
// literals.
type run struct{ add, mul int }

// skipDeepArithmetic turns the pre-pass off, for tests that check it
// refuses only what parsing refuses.
var skipDeepArithmetic bool

// maxRunLevels bounds the bracket levels deepArithmetic tracks; deeper ones
// are not counted, which can only miss a run.
const maxRunLevels = MaxExpressionDepth + 8

// deepArithmetic reports whether text holds a run of arithmetic longer than
// MaxExpressionDepth at one bracket level: such an expression nests past the
// limit however it is written, so the statement can be refused before a
// parser builds its tree (a million-term sum would take gigabytes). It reads
// text as the lexer does, without making tokens, and gives up (false) on
// what the lexer rejects. Every rule errs toward a shorter count, so it
// refuses only what the depth check after parsing refuses too.
func deepArithmetic(text string) bool {
	runs := make([]run, 1, 16)
	skipped := 0      // levels past maxRunLevels
	operand := false  // the last token ends an operand, so + and - are binary
	afterDot := false // a word after "." is a name, keyword or not
	cur := func() *run { return &runs[len(runs)-1] }
	reset := func() {
		if skipped == 0 {
			*cur() = run{}
		}
		operand = false
	}
	i := 0
	for i < len(text) {
		c := text[i]
		dot := false
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				return false
			}
			i += j
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end, ok := blockCommentEnd(text, i)
			if !ok {
				return false
			}
			i = end
			continue
		case c == '\'' || c == '"' || c == '`':
			end, ok := skipQuoted(text, i, c)
			if !ok {
				return false
			}
			i = end
			operand = true
		case isIdentStart(c):
			j := i + 1
			for j < len(text) && isIdentPart(text[j]) {
				j++
			}
			if !afterDot && isBreaker(text[i:j]) {
				reset()
			} else {
				operand = true
			}
			i = j
		case isDigit(c) || (c == '.' && i+1 < len(text) && isDigit(text[i+1])):
			i = scanNumber(text, i)
			operand = true
		default:
			op := string(c)
			for _, o := range operators {
				if strings.HasPrefix(text[i:], o) {
					op = o
					break
				}
			}
			i += len(op)
			switch op {
			case "(", "[", "{":
				if skipped > 0 || len(runs) >= maxRunLevels {
					skipped++
				} else {
					runs = append(runs, run{})
				}
				operand = false
			case ")", "]", "}":
				switch {
				case skipped > 0:
					skipped--
				case len(runs) > 1:
					runs = runs[:len(runs)-1]
				}
				operand = true
			case "+", "-":
				if skipped > 0 {
					operand = false
					break
				}
				if r := cur(); operand {
					if r.add++; r.add > MaxExpressionDepth {
						return true
					}
					r.mul = 0
				}
				operand = false
			case "*", "/", "%":
				if !operand {
					operand = op == "*" // SELECT *, count(*)
					break
				}
				if skipped == 0 {
					r := cur()
					if r.mul++; r.mul > MaxExpressionDepth {
						return true
					}
				}
				operand = false
			case ".":
				dot = true
				operand = false
			case "::", "^", "**":
				// They bind tighter than the operators counted.
				operand = false
			default:
				reset()
			}
		}
		afterDot = dot
	}
	return false
}

// isBreaker reports whether word, in any case, is one of runBreakers,
// without allocating for the common short words.
func isBreaker(word string) bool {
	if len(word) > 16 {
		return false
	}
	var buf [16]byte
	for k := range len(word) {
		c := word[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k] = c
	}
	return runBreakers[string(buf[:len(word)])]
}

// skipQuoted returns the end of the quoted lexeme starting at text[i] == q,
// where a doubled quote stands for one, as scanQuoted reads it.
func skipQuoted(text string, i int, q byte) (int, bool) {
	j := i + 1
	for {
		k := strings.IndexByte(text[j:], q)
		if k < 0 {
			return 0, false
		}
		j += k + 1
		if j < len(text) && text[j] == q {
			j++
			continue
		}
		return j, true
	}
}
