package sql

import "github.com/xwb1989/sqlparser"

// usingMarker stands for the USING list of a FULL JOIN, which the grammar
// lacks (FULL JOIN reaches it as STRAIGHT_JOIN, which takes only ON).
const usingMarker = reservedPrefix + "using"

// lowerFullUsing turns "FULL JOIN t USING (a, b)" (by now
// "straight_join t using (a, b)") into "straight_join t on
// __pqsql_using(a, b)"; fixFullUsing moves the names back into the
// condition's USING list.
func lowerFullUsing(out []otok) []otok {
	full := []bool{false} // per nesting level: is the last join a FULL one?
	var rs []rewrite
	for i := range out {
		top := len(full) - 1
		switch {
		case isOpTok(out, i, "("):
			full = append(full, false)
		case isOpTok(out, i, ")"):
			if top > 0 {
				full = full[:top]
			}
		case out[i].kind == tkWord && out[i].text == FullJoinStr:
			full[top] = true
		case out[i].kw == "join":
			full[top] = false
		case out[i].kw == "using" && full[top] && isOpTok(out, i+1, "("):
			o := out[i].orig
			rs = append(rs, rewrite{i, i + 1, []otok{invented("on", o), invented(usingMarker, o)}})
			full[top] = false
		}
	}
	return applyRewrites(out, rs)
}

// fixFullUsing turns the condition "on __pqsql_using(a, b)" of a FULL JOIN
// back into USING (a, b).
func fixFullUsing(n *sqlparser.JoinTableExpr) {
	f, ok := n.Condition.On.(*sqlparser.FuncExpr)
	if n.Join != FullJoinStr || !ok || f.Name.Lowered() != usingMarker || !f.Qualifier.IsEmpty() {
		return
	}
	var cols sqlparser.Columns
	for _, a := range f.Exprs {
		ae, ok := a.(*sqlparser.AliasedExpr)
		if !ok {
			return
		}
		c, ok := ae.Expr.(*sqlparser.ColName)
		if !ok || !c.Qualifier.IsEmpty() {
			return
		}
		cols = append(cols, c.Name)
	}
	n.Condition = sqlparser.JoinCondition{Using: cols}
}
