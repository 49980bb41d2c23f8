package sql

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Markers of the grouping-set lowering; fixAST removes them.
const (
	groupingSetsMarker = reservedPrefix + "gsets"
	groupingSetMarker  = reservedPrefix + "gset"
)

// maxGroupingSets is DuckDB's bound on the grouping sets of one GROUP BY.
const maxGroupingSets = 65535

// GroupingSetsOf returns the grouping sets of a SELECT whose GROUP BY used
// GROUPING SETS, ROLLUP, CUBE, () or a parenthesized list: each set lists
// positions in the SELECT's GroupBy, which holds every expression once. It
// is nil for a plain GROUP BY (one set of every expression).
func (s *parsed) GroupingSetsOf(n *sqlparser.Select) [][]int {
	return s.groupingSets[n]
}

// lowerGroupingSets rewrites a GROUP BY that uses GROUPING SETS, ROLLUP,
// CUBE, () or a parenthesized list into its expressions, each once, and a
// last item __pqsql_gsets(__pqsql_gset(0, 1), __pqsql_gset(), ...) listing
// the sets by the expressions' positions. The sets are DuckDB's: each item
// of the list unfolds into sets (ROLLUP(a, b) into (a, b), (a), (); CUBE
// into every subset; a parenthesized list into one set), and the items'
// sets combine as a cross product of unions.
func (p *parser) lowerGroupingSets(out []otok) ([]otok, error) {
	for i := 0; i+1 < len(out); i++ {
		if out[i].kw != "group" || out[i+1].kw != "by" {
			continue
		}
		lo := i + 2
		hi := clauseEnd(out, lo)
		items := splitCommas(out, lo, hi)
		if k := len(items) - 1; k > 0 && len(items[k]) == 0 {
			items = items[:k] // a trailing comma, which DuckDB allows
		}
		for j := lo; j+1 < hi; j++ {
			if isOpTok(out, j, ",") && isOpTok(out, j+1, ",") {
				return nil, p.errOut(out, j+1, ErrSyntax, "expected an expression in GROUP BY")
			}
		}
		special := false
		for _, it := range items {
			special = special || isGroupingConstruct(it)
		}
		if !special {
			continue
		}
		g := &groupingLowering{p: p, out: out, index: map[string]int{}}
		sets := [][]int{{}}
		for _, it := range items {
			next, err := g.item(it, hi)
			if err != nil {
				return nil, err
			}
			if len(sets)*len(next) > maxGroupingSets {
				return nil, p.errOut(out, lo, ErrSyntax, "Maximum grouping set count of 65535 exceeded")
			}
			combined := make([][]int, 0, len(sets)*len(next))
			for _, s := range sets {
				for _, t := range next {
					combined = append(combined, union(s, t))
				}
			}
			sets = combined
		}
		o := out[i].orig
		var rep []otok
		for _, e := range g.exprs {
			rep = append(rep, e...)
			rep = append(rep, invented(",", o))
		}
		rep = append(rep, invented(groupingSetsMarker, o), invented("(", o))
		for k, s := range sets {
			if k > 0 {
				rep = append(rep, invented(",", o))
			}
			rep = append(rep, invented(groupingSetMarker, o), invented("(", o))
			for j, x := range s {
				if j > 0 {
					rep = append(rep, invented(",", o))
				}
				rep = append(rep, otok{text: strconv.Itoa(x), kind: tkNumber, val: strconv.Itoa(x), orig: o})
			}
			rep = append(rep, invented(")", o))
		}
		rep = append(rep, invented(")", o))
		out = splice(out, lo, hi, rep...)
		// A subquery among the expressions may have a GROUP BY of its own.
		i = lo - 1
	}
	return out, nil
}

// isGroupingConstruct reports whether a GROUP BY item is more than one
// expression: GROUPING SETS, ROLLUP, CUBE, () or a parenthesized list.
func isGroupingConstruct(it []otok) bool {
	if len(it) == 0 {
		return false
	}
	if isOpTok(it, 0, "(") && matchClose(it, 0) == len(it)-1 {
		return len(it) == 2 || len(splitCommas(it, 1, len(it)-1)) > 1
	}
	switch {
	case it[0].kw == "grouping" && kwAt(it, 1) == "sets":
		return true
	case (it[0].kw == "rollup" || it[0].kw == "cube") && isOpTok(it, 1, "(") && matchClose(it, 1) == len(it)-1:
		return true
	}
	return false
}

// A groupingLowering collects the distinct expressions of one GROUP BY.
type groupingLowering struct {
	p     *parser
	out   []otok
	exprs [][]otok
	index map[string]int
}

// item unfolds one GROUP BY item into its grouping sets; end is where the
// clause ends, for errors at a missing expression.
func (g *groupingLowering) item(it []otok, end int) ([][]int, error) {
	if len(it) == 0 {
		return nil, g.p.errOut(g.out, end, ErrSyntax, "expected an expression in GROUP BY")
	}
	switch {
	case isOpTok(it, 0, "(") && matchClose(it, 0) == len(it)-1 && len(it) == 2:
		return [][]int{{}}, nil
	case it[0].kw == "grouping" && kwAt(it, 1) == "sets":
		if !isOpTok(it, 2, "(") || matchClose(it, 2) != len(it)-1 {
			return nil, g.p.errAt(it[min(2, len(it)-1)].orig, ErrSyntax, `expected "(" and a list of grouping sets after GROUPING SETS`)
		}
		var sets [][]int
		for _, sub := range splitCommas(it, 3, len(it)-1) {
			s, err := g.item(sub, it[len(it)-1].orig)
			if err != nil {
				return nil, err
			}
			if len(sets)+len(s) > maxGroupingSets {
				return nil, g.p.errAt(it[0].orig, ErrSyntax, "Maximum grouping set count of 65535 exceeded")
			}
			sets = append(sets, s...)
		}
		return sets, nil
	case (it[0].kw == "rollup" || it[0].kw == "cube") && isOpTok(it, 1, "(") && matchClose(it, 1) == len(it)-1:
		if len(it) == 3 {
			return nil, g.p.errAt(it[2].orig, ErrSyntax, "CUBE or ROLLUP column list cannot be empty")
		}
		var elems [][]int
		for _, sub := range splitCommas(it, 2, len(it)-1) {
			e, err := g.row(sub, it[len(it)-1].orig)
			if err != nil {
				return nil, err
			}
			elems = append(elems, e)
		}
		if it[0].kw == "rollup" {
			sets := [][]int{{}}
			var cur []int
			for _, e := range elems {
				cur = union(cur, e)
				sets = append(sets, cur)
			}
			return sets, nil
		}
		if len(elems) >= 16 {
			return nil, g.p.errAt(it[0].orig, ErrSyntax, "Maximum grouping set count of 65535 exceeded")
		}
		var sets [][]int
		cubeSets(nil, elems, &sets)
		return sets, nil
	}
	e, err := g.row(it, end)
	if err != nil {
		return nil, err
	}
	return [][]int{e}, nil
}

// cubeSets appends cur and its unions with every subset of rest, in
// DuckDB's order.
func cubeSets(cur []int, rest [][]int, sets *[][]int) {
	*sets = append(*sets, cur)
	for k := range rest {
		cubeSets(union(cur, rest[k]), rest[k+1:], sets)
	}
}

// row returns the expressions of one element: a parenthesized list
// counts as its members.
func (g *groupingLowering) row(it []otok, end int) ([]int, error) {
	if len(it) == 0 {
		return nil, g.p.errOut(g.out, end, ErrSyntax, "expected an expression in GROUP BY")
	}
	if isOpTok(it, 0, "(") && matchClose(it, 0) == len(it)-1 {
		if len(it) == 2 {
			return nil, nil
		}
		parts := splitCommas(it, 1, len(it)-1)
		if len(parts) == 1 && it[1].kw != "select" && it[1].kw != "with" {
			// (a) is a: one key, however parenthesized.
			return g.row(parts[0], it[len(it)-1].orig)
		}
		if len(parts) > 1 {
			var s []int
			for _, part := range parts {
				e, err := g.row(part, it[len(it)-1].orig)
				if err != nil {
					return nil, err
				}
				s = union(s, e)
			}
			return s, nil
		}
	}
	var key strings.Builder
	for _, t := range it {
		key.WriteString(t.text)
		key.WriteByte(' ')
	}
	k, ok := g.index[key.String()]
	if !ok {
		k = len(g.exprs)
		g.index[key.String()] = k
		g.exprs = append(g.exprs, it)
	}
	return []int{k}, nil
}

// union returns the members of a and then those of b not in a, in a new
// slice.
func union(a, b []int) []int {
	s := append([]int{}, a...)
	for _, x := range b {
		found := false
		for _, y := range s {
			found = found || x == y
		}
		if !found {
			s = append(s, x)
		}
	}
	return s
}

// fixGroupingSets takes the __pqsql_gsets marker off the end of n's GROUP
// BY into sel's grouping sets.
func fixGroupingSets(sel *parsed, n *sqlparser.Select) bool {
	k := len(n.GroupBy) - 1
	if k < 0 {
		return true
	}
	f, ok := n.GroupBy[k].(*sqlparser.FuncExpr)
	if !ok || !f.Qualifier.IsEmpty() || f.Name.Lowered() != groupingSetsMarker {
		return true
	}
	var sets [][]int
	for _, se := range f.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			return false
		}
		g, ok := ae.Expr.(*sqlparser.FuncExpr)
		if !ok || g.Name.Lowered() != groupingSetMarker {
			return false
		}
		set := []int{}
		for _, xe := range g.Exprs {
			xa, ok := xe.(*sqlparser.AliasedExpr)
			if !ok {
				return false
			}
			v, ok := xa.Expr.(*sqlparser.SQLVal)
			if !ok || v.Type != sqlparser.IntVal {
				return false
			}
			x, err := strconv.Atoi(string(v.Val))
			if err != nil || x < 0 || x >= k {
				return false
			}
			set = append(set, x)
		}
		sets = append(sets, set)
	}
	n.GroupBy = n.GroupBy[:k]
	if sel.groupingSets == nil {
		sel.groupingSets = map[*sqlparser.Select][][]int{}
	}
	sel.groupingSets[n] = sets
	return true
}
