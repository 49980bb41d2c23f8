package sql

import "github.com/xwb1989/sqlparser"

// Markers of DuckDB's friendly SQL lowerings; fixAST removes them, except
// AllMarker, which the planner reads.
const (
	// AllMarker is the column name GROUP BY ALL and ORDER BY ALL leave as
	// their only item.
	AllMarker       = reservedPrefix + "all"
	excludeMarker   = reservedPrefix + "exclude"
	distinctOnMark  = reservedPrefix + "distinct_on"
	percentMarker   = reservedPrefix + "percent"
	replaceMarker   = reservedPrefix + "replace"
	distinctMarker  = reservedPrefix + "distinct_from"
	ndistinctMarker = reservedPrefix + "not_distinct_from"
)

// Comparison operators fixAST writes for IS [NOT] DISTINCT FROM.
const (
	// IsDistinctFromStr is a ComparisonExpr Operator: NULL-aware !=.
	IsDistinctFromStr = "is distinct from"
	// IsNotDistinctFromStr is a ComparisonExpr Operator: NULL-aware =.
	IsNotDistinctFromStr = "is not distinct from"
)

// A rawStarOptions is what * EXCLUDE (...) and * REPLACE (...) add to a star.
type rawStarOptions struct {
	// Exclude are the names of the columns left out, as written.
	Exclude []string
	// Replace are the expressions standing for columns, each with the
	// column's name as its alias.
	Replace []*sqlparser.AliasedExpr
}

// StarOptionsOf returns the EXCLUDE and REPLACE lists of a star of the AST,
// or nil.
func (s *parsed) StarOptionsOf(st *sqlparser.StarExpr) *rawStarOptions {
	return s.Stars[st]
}

// lowerFriendly lowers DuckDB's friendly SQL forms that need tokens:
// trailing commas before a clause, GROUP BY ALL and ORDER BY ALL,
// * EXCLUDE / * REPLACE and IS [NOT] DISTINCT FROM.
func (p *parser) lowerFriendly(out []otok) ([]otok, error) {
	for i := 0; i < len(out); i++ {
		switch {
		case isOpTok(out, i, ",") && (i+1 == len(out) || clauseEnds[out[i+1].kw] || out[i+1].kw == "from" ||
			isOpTok(out, i+1, ")") && selectOpens(out, i)):
			out = splice(out, i, i+1)
			i--
		case out[i].kw == "distinct" && kwAt(out, i-1) == "select" && kwAt(out, i+1) == "on" && isOpTok(out, i+2, "("):
			// SELECT DISTINCT ON (keys) list: a first select item marker
			// __pqsql_distinct_on(keys).
			end := matchClose(out, i+2)
			if end < 0 {
				return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
			}
			if end == i+3 {
				return nil, p.errOut(out, end, ErrSyntax, "expected an expression")
			}
			o := out[i].orig
			rep := []otok{invented(distinctOnMark, o)}
			rep = append(rep, out[i+2:end+1]...)
			rep = append(rep, invented(",", out[end].orig))
			out = splice(out, i, end+1, rep...)
		case out[i].kw == "limit" && i+2 < len(out) && out[i+1].kind == tkNumber &&
			(isOpTok(out, i+2, "%") && (i+3 == len(out) || isOpTok(out, i+3, ")") || kwAt(out, i+3) == "offset") || out[i+2].kw == "percent"):
			o := out[i+2].orig
			out = splice(out, i+1, i+3, invented(percentMarker, o), invented("(", o), out[i+1], invented(")", o))
		case out[i].kw == "all" && kwAt(out, i-1) == "by" && (kwAt(out, i-2) == "group" || kwAt(out, i-2) == "order"):
			out[i] = invented(AllMarker, out[i].orig)
		case isOpTok(out, i, "*") && (kwAt(out, i-1) == "select" || kwAt(out, i-1) == "distinct" || isOpTok(out, i-1, ",") || isOpTok(out, i-1, ".") ||
			isOpTok(out, i-1, "(") && kwAt(out, i-2) == "columns"):
			// * EXCLUDE (...) REPLACE (...), either or both.
			for kw := kwAt(out, i+1); (kw == "exclude" || kw == "replace") && isOpTok(out, i+2, "("); kw = kwAt(out, i+1) {
				end := matchClose(out, i+2)
				if end < 0 {
					return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
				}
				if end == i+3 {
					return nil, p.errOut(out, end, ErrSyntax, "expected a column")
				}
				marker := excludeMarker
				if kw == "replace" {
					marker = replaceMarker
				}
				o := out[i+1].orig
				out = splice(out, i+1, i+2, invented(",", o), invented(marker, o))
				i = end + 1
			}
		case out[i].kw == "is" && (kwAt(out, i+1) == "distinct" && kwAt(out, i+2) == "from" ||
			kwAt(out, i+1) == "not" && kwAt(out, i+2) == "distinct" && kwAt(out, i+3) == "from"):
			marker, n := distinctMarker, 3
			if kwAt(out, i+1) == "not" {
				marker, n = ndistinctMarker, 4
			}
			lo := i + n
			hi := operandEnd(out, lo)
			if hi == lo {
				return nil, p.errOut(out, hi, ErrSyntax, "expected an expression")
			}
			o := out[i].orig
			rep := []otok{invented("<=>", o), invented(marker, o), invented("(", o)}
			rep = append(rep, out[lo:hi]...)
			rep = append(rep, invented(")", o))
			out = splice(out, i, hi, rep...)
		}
	}
	return out, nil
}

// selectOpens reports whether the "(" matching the ")" after i opens a
// subquery, where a trailing comma may close the select list.
func selectOpens(out []otok, i int) bool {
	open := matchOpen(out, i+1)
	return open >= 0 && kwAt(out, open+1) == "select" && !hasKwAtDepth(out, open+1, i, "from")
}

// hasKwAtDepth reports whether keyword kw appears in out[lo:hi] outside
// parentheses.
func hasKwAtDepth(out []otok, lo, hi int, kw string) bool {
	depth := 0
	for j := lo; j < hi; j++ {
		switch {
		case isOpTok(out, j, "("):
			depth++
		case isOpTok(out, j, ")"):
			depth--
		case depth == 0 && out[j].kw == kw:
			return true
		}
	}
	return false
}

// operandEnd returns where the right operand of a comparison starting at
// lo ends: before a token of lower precedence at its depth.
func operandEnd(out []otok, lo int) int {
	depth := 0
	for j := lo; j < len(out); j++ {
		switch {
		case isOpTok(out, j, "("):
			depth++
		case isOpTok(out, j, ")"):
			if depth == 0 {
				return j
			}
			depth--
		case depth > 0:
		case isOpTok(out, j, ","), out[j].kind == tkOp && cmpStop[out[j].val]:
			return j
		case out[j].kind == tkWord && operandStop[out[j].kw]:
			return j
		}
	}
	return len(out)
}

var cmpStop = map[string]bool{"=": true, "==": true, "<": true, ">": true, "<=": true, ">=": true, "<>": true, "!=": true, ";": true}

var operandStop = map[string]bool{
	"and": true, "or": true, "not": true, "is": true, "in": true, "like": true, "ilike": true,
	"between": true, "then": true, "when": true, "else": true, "end": true, "as": true, "asc": true,
	"desc": true, "nulls": true, "from": true, "where": true, "group": true, "having": true,
	"order": true, "limit": true, "offset": true, "union": true, "except": true, "intersect": true,
	"window": true, "qualify": true, "similar": true, "glob": true, "escape": true, "filter": true, "over": true,
}

// fixDistinctOn moves the DISTINCT ON marker, the first select item, into
// sel.DistinctOn; walk visits its keys.
func fixDistinctOn(sel *parsed, n *sqlparser.Select, walk func(sqlparser.Expr) error) error {
	if len(n.SelectExprs) < 2 {
		return nil
	}
	ae, ok := n.SelectExprs[0].(*sqlparser.AliasedExpr)
	f, isF := funcOf(ae, ok)
	if !isF || f.Name.Lowered() != distinctOnMark {
		return nil
	}
	var keys []sqlparser.Expr
	for _, a := range f.Exprs {
		x, ok := a.(*sqlparser.AliasedExpr)
		if !ok || !x.As.IsEmpty() {
			return errInternalWindow
		}
		if err := walk(x.Expr); err != nil {
			return err
		}
		keys = append(keys, x.Expr)
	}
	if sel.DistinctOn == nil {
		sel.DistinctOn = map[*sqlparser.Select][]sqlparser.Expr{}
	}
	sel.DistinctOn[n] = keys
	n.SelectExprs = n.SelectExprs[1:]
	return nil
}

// DistinctOnOf returns the keys of SELECT DISTINCT ON (keys), or nil.
func (s *parsed) DistinctOnOf(n *sqlparser.Select) []sqlparser.Expr {
	return s.DistinctOn[n]
}

// fixStar moves the EXCLUDE or REPLACE markers following a star into
// sel.Stars; walk visits the REPLACE expressions taken out of the list.
func fixStar(sel *parsed, n *sqlparser.Select, walk func(sqlparser.Expr) error) bool {
	return fixStarList(sel, &n.SelectExprs, walk)
}

// fixStarList is fixStar on a select list or on the arguments of
// COLUMNS(* EXCLUDE (...)).
func fixStarList(sel *parsed, xs *sqlparser.SelectExprs, walk func(sqlparser.Expr) error) bool {
	for i := 0; i+1 < len(*xs); i++ {
		st, ok := (*xs)[i].(*sqlparser.StarExpr)
		if !ok {
			continue
		}
		ae, ok := (*xs)[i+1].(*sqlparser.AliasedExpr)
		f, isF := funcOf(ae, ok)
		if !isF || f.Name.Lowered() != excludeMarker && f.Name.Lowered() != replaceMarker {
			continue
		}
		opts := sel.Stars[st]
		if opts == nil {
			opts = &rawStarOptions{}
		}
		for _, a := range f.Exprs {
			x, ok := a.(*sqlparser.AliasedExpr)
			if !ok {
				return false
			}
			if f.Name.Lowered() == excludeMarker {
				c, ok := x.Expr.(*sqlparser.ColName)
				if !ok || !x.As.IsEmpty() {
					return false
				}
				opts.Exclude = append(opts.Exclude, c.Name.String())
				continue
			}
			if x.As.IsEmpty() {
				return false
			}
			if walk(x.Expr) != nil {
				return false
			}
			opts.Replace = append(opts.Replace, x)
		}
		if sel.Stars == nil {
			sel.Stars = map[*sqlparser.StarExpr]*rawStarOptions{}
		}
		sel.Stars[st] = opts
		*xs = append((*xs)[:i+1], (*xs)[i+2:]...)
		i-- // a REPLACE may follow an EXCLUDE
	}
	return true
}

// fixDistinctFrom turns "a <=> __pqsql_[not_]distinct_from(b)" into the
// comparison IS [NOT] DISTINCT FROM.
func fixDistinctFrom(n *sqlparser.ComparisonExpr) {
	f, ok := n.Right.(*sqlparser.FuncExpr)
	if n.Operator != sqlparser.NullSafeEqualStr || !ok || len(f.Exprs) != 1 {
		return
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return
	}
	switch f.Name.Lowered() {
	case distinctMarker:
		n.Operator = IsDistinctFromStr
	case ndistinctMarker:
		n.Operator = IsNotDistinctFromStr
	case bboxMarker:
		n.Operator = BBoxOverlapStr
	case globMarker:
		n.Operator = GlobStr
	case similarMarker:
		n.Operator = SimilarToStr
	case notSimilarMarker:
		n.Operator = NotSimilarToStr
	default:
		return
	}
	n.Right = ae.Expr
}

// fixPercent records LIMIT __pqsql_percent(n) of a SELECT in sel.Percent,
// leaving LIMIT n in the AST.
func fixPercent(sel *parsed, n *sqlparser.Select) {
	if n.Limit == nil {
		return
	}
	f, ok := n.Limit.Rowcount.(*sqlparser.FuncExpr)
	if !ok || f.Name.Lowered() != percentMarker || len(f.Exprs) != 1 {
		return
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return
	}
	n.Limit.Rowcount = ae.Expr
	if sel.Percent == nil {
		sel.Percent = map[*sqlparser.Select]bool{}
	}
	sel.Percent[n] = true
}

// IsLimitPercent reports whether the LIMIT of a SELECT of the AST was
// written as a percentage (LIMIT n% or LIMIT n PERCENT).
func (s *parsed) IsLimitPercent(n *sqlparser.Select) bool {
	return s.Percent[n]
}
