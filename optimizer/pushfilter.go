package optimizer

import "github.com/pqsql/pqsql/planner"

// pushFilters moves each conjunct of a WHERE into the plan whose rows it
// filters: into a subquery (below its DISTINCT or ORDER BY, and below its
// aggregate when it reads grouping keys only), into both sides of a set
// operation, and into the sides of a join, after narrowing an outer join
// whose NULL-extended rows the WHERE rejects (simplifyOuterJoin). Parents
// go first, so a conjunct travels as far down as it may.
func pushFilters(root *planner.Plan) *planner.Plan {
	eachPlan(root, pushWhere)
	return root
}

// pushWhere pushes what it can of p's WHERE into p's source; the rest
// stays.
func pushWhere(p *planner.Plan) {
	s := p.Scan
	if s != nil && s.Join != nil {
		pushJoinCondition(s.Join)
	}
	if p.Where == nil || s == nil {
		return
	}
	if s.Join != nil {
		simplifyOuterJoin(s.Join, conjuncts(p.Where))
	}
	var kept []planner.Expr
	for _, c := range conjuncts(p.Where) {
		switch {
		case isVolatile(c):
			kept = append(kept, c)
		case s.Join != nil:
			if !pushIntoJoin(s.Join, c, true) {
				kept = append(kept, c)
			}
		case s.SetOp != nil:
			// A set operation's rows are its sides' rows, so a condition on
			// a row's values filters each side alike, ALL or not.
			s.SetOp.Left = acceptOrWrap(s.SetOp.Left, c)
			s.SetOp.Right = acceptOrWrap(s.SetOp.Right, c)
		case s.Subquery != nil && accept(s.Subquery, c):
		default:
			kept = append(kept, c)
		}
	}
	p.Where = and(kept...)
}

// accept adds condition c, over q's result columns, to q's WHERE when that
// keeps exactly the rows of q that satisfy c; it reports whether it did.
func accept(q *planner.Plan, c planner.Expr) bool {
	// A LIMIT or OFFSET picks rows before the outer filter sees them.
	if q.Single || q.Limit >= 0 || q.Offset > 0 || windowed(q) {
		return false
	}
	x := replaceColumns(c, q.Project)
	if isVolatile(x) {
		return false
	}
	if q.Aggregate {
		// On grouping keys only: a group is kept or dropped whole. Without
		// GROUP BY the one result row exists even when no row is left.
		// Nor with grouping sets: a key is NULL in the rows of the sets
		// without it, whatever the input rows held.
		if len(q.GroupBy) == 0 || q.GroupingSets != nil {
			return false
		}
		for i := range columnsOf(x) {
			if i >= len(q.GroupBy) {
				return false
			}
		}
		x = replaceColumns(x, q.GroupBy)
	}
	q.Where = and(q.Where, x)
	return true
}

// acceptOrWrap adds c to side's WHERE, or when side cannot take it (a
// LIMIT), returns side wrapped in a plan that filters its rows by c.
func acceptOrWrap(side *planner.Plan, c planner.Expr) *planner.Plan {
	if accept(side, c) {
		return side
	}
	w := &planner.Plan{
		Scan:    &planner.Scan{Subquery: side, Source: "(subquery)"},
		Input:   side.Columns,
		Where:   c,
		Columns: side.Columns,
		Limit:   -1,
	}
	for i, col := range side.Columns {
		w.Project = append(w.Project, &planner.ColRef{Index: i, Name: col.Name, T: col.Type})
	}
	return w
}
