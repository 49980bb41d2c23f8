package sql

import "github.com/xwb1989/sqlparser"

// NaturalFullJoinStr is the JoinTableExpr.Join of NATURAL FULL [OUTER]
// JOIN, which the grammar lacks (its NATURAL takes JOIN, LEFT and RIGHT
// only); like NATURAL JOIN it has no condition.
const NaturalFullJoinStr = "natural full join"

// naturalMarker stands for the missing condition of a NATURAL FULL JOIN.
const naturalMarker = reservedPrefix + "natural"

// lowerNaturalJoins turns "NATURAL FULL [OUTER] JOIN t" (by now "natural
// straight_join t") into "straight_join t on __pqsql_natural()", which
// fixNaturalFull turns back, and "NATURAL INNER JOIN" into "NATURAL JOIN",
// which is what it means.
func lowerNaturalJoins(out []otok) []otok {
	var rs []rewrite
	for i := range out {
		switch {
		case out[i].kw == "inner" && kwAt(out, i-1) == "natural" && kwAt(out, i+1) == "join":
			rs = append(rs, rewrite{i, i + 1, nil})
		case out[i].kind == tkWord && out[i].text == FullJoinStr && kwAt(out, i-1) == "natural":
			end := factorEnd(out, i+1)
			o := out[i].orig
			if end < len(out) {
				// An error about what follows the item points at it.
				o = out[end].orig
			}
			rs = append(rs, rewrite{i - 1, i, nil},
				rewrite{end, end, []otok{invented("on", o), invented(naturalMarker, o), invented("(", o), invented(")", o)}})
		}
	}
	return applyRewrites(out, rs)
}

// factorEnd returns where the FROM item starting at i ends: at the next
// join, comma or clause of its own nesting, or the ")" closing it.
func factorEnd(out []otok, i int) int {
	depth := 0
	for ; i < len(out); i++ {
		switch {
		case isOpTok(out, i, "("):
			depth++
		case isOpTok(out, i, ")"):
			if depth == 0 {
				return i
			}
			depth--
		case depth > 0:
		case isOpTok(out, i, ",") || isOpTok(out, i, ";") || clauseEnds[out[i].kw] || factorEnders[out[i].kw]:
			return i
		case out[i].kind == tkWord && out[i].text == FullJoinStr:
			return i
		}
	}
	return len(out)
}

// factorEnders are the words that end a FROM item besides a clause.
var factorEnders = map[string]bool{
	"join": true, "left": true, "right": true, "inner": true, "cross": true, "natural": true,
	"full": true, "outer": true, "on": true, "using": true, "positional": true, "asof": true,
	"semi": true, "anti": true,
}

// fixNaturalFull turns the FULL JOIN with condition "on
// __pqsql_natural()" back into a NATURAL FULL JOIN.
func fixNaturalFull(n *sqlparser.JoinTableExpr) {
	f, ok := n.Condition.On.(*sqlparser.FuncExpr)
	if n.Join != FullJoinStr || !ok || f.Name.Lowered() != naturalMarker || !f.Qualifier.IsEmpty() || len(f.Exprs) != 0 {
		return
	}
	n.Join = NaturalFullJoinStr
	n.Condition = sqlparser.JoinCondition{}
}
