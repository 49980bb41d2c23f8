package sql

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Markers of the quantified comparisons x op ANY (subquery) and
// x op ALL (subquery), which sqlparser's grammar lacks; fixAST removes them.
const (
	anyMarker = reservedPrefix + "any"
	allMarker = reservedPrefix + "all_of"
)

// Operator suffixes fixAST writes for a quantified comparison: "> any" is
// x > ANY (subquery), "<> all" is x <> ALL (subquery).
const (
	AnySuffix = " any"
	AllSuffix = " all"
)

// Quantified splits a ComparisonExpr Operator written by fixAST for
// op ANY/SOME/ALL (subquery) into the comparison and whether it is ALL; ok
// is false for every other operator.
func Quantified(op string) (cmp string, all, ok bool) {
	if c, found := strings.CutSuffix(op, AnySuffix); found {
		return c, false, true
	}
	if c, found := strings.CutSuffix(op, AllSuffix); found {
		return c, true, true
	}
	return "", false, false
}

// comparisonOps are the operators a quantifier may follow.
var comparisonOps = map[string]bool{"=": true, "==": true, "<>": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// lowerQuantified turns "op ANY (SELECT ...)" (SOME is ANY) and
// "op ALL (SELECT ...)" into "op __pqsql_any((SELECT ...))", a call sqlparser
// parses, which fixAST turns back into a comparison with a subquery.
func lowerQuantified(out []otok) []otok {
	var rs []rewrite
	for i := 1; i+1 < len(out); i++ {
		kw := out[i].kw
		if kw != "any" && kw != "some" && kw != "all" || !isOpTok(out, i+1, "(") || kwAt(out, i+2) != "select" {
			continue
		}
		prev := out[i-1]
		if prev.kind != tkOp || !comparisonOps[prev.val] {
			continue
		}
		end := matchClose(out, i+1)
		if end < 0 {
			continue
		}
		marker := anyMarker
		if kw == "all" {
			marker = allMarker
		}
		o := out[i].orig
		rs = append(rs,
			rewrite{i, i + 1, []otok{invented(marker, o), invented("(", o)}},
			rewrite{end + 1, end + 1, []otok{invented(")", out[end].orig)}})
	}
	return applyRewrites(out, rs)
}

// fixQuantified turns "x op __pqsql_any((subquery))" back into the
// comparison x op ANY (subquery), whose Operator is op+AnySuffix (or
// AllSuffix).
func fixQuantified(n *sqlparser.ComparisonExpr) {
	f, ok := n.Right.(*sqlparser.FuncExpr)
	if !ok || len(f.Exprs) != 1 || !f.Qualifier.IsEmpty() {
		return
	}
	suffix := AnySuffix
	switch f.Name.Lowered() {
	case anyMarker:
	case allMarker:
		suffix = AllSuffix
	default:
		return
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return
	}
	sub, ok := ae.Expr.(*sqlparser.Subquery)
	if !ok {
		return
	}
	op := n.Operator
	if op == "==" {
		op = "="
	}
	n.Operator = op + suffix
	n.Right = sub
}
