package optimizer

import "github.com/pqsql/pqsql/planner"

// inlineSubqueries merges a subquery (a view, a CTE, a FROM subquery, the
// wrapper of a set operation) that only filters and projects into the plan
// reading it: the outer expressions read the inner projections directly and
// the two WHEREs become one, so the plan of a query through a view is the
// plan of the same query written against the view's source.
func inlineSubqueries(root *planner.Plan) *planner.Plan {
	var visit func(p *planner.Plan)
	visit = func(p *planner.Plan) {
		for _, c := range children(p) {
			visit(c)
		}
		// A window stage reads its rows by position (its results follow
		// the input's columns), so a plan with one keeps its input.
		for p.Scan != nil && p.Scan.Subquery != nil && !windowed(p) && inlinable(p.Scan.Subquery) {
			merge(p, p.Scan.Subquery)
		}
	}
	visit(root)
	return root
}

// inlinable reports whether q's rows are its input's, filtered and
// projected, with nothing that depends on their order or number: no
// aggregate, DISTINCT, ORDER BY, LIMIT or OFFSET, and no projection that
// would be evaluated more than once if read twice.
func inlinable(q *planner.Plan) bool {
	if q.Single || q.Aggregate || q.Distinct || q.Limit >= 0 || q.Offset > 0 || len(q.Order) > 0 || windowed(q) {
		return false
	}
	if len(q.Project) != len(q.Columns) {
		return false
	}
	for _, x := range q.Project {
		if isVolatile(x) {
			return false
		}
	}
	return true
}

// merge makes p read q's input in place of q's rows. q's WHERE runs first
// as before; p's conditions follow, over q's projections.
func merge(p, q *planner.Plan) {
	r := func(x planner.Expr) planner.Expr { return replaceColumns(x, q.Project) }
	p.Where = and(q.Where, r(p.Where))
	for i, x := range p.GroupBy {
		p.GroupBy[i] = r(x)
	}
	for _, a := range p.Aggs {
		a.Arg = r(a.Arg)
		a.Filter = r(a.Filter)
	}
	if !p.Aggregate {
		for i, x := range p.Project {
			p.Project[i] = r(x)
		}
	}
	p.Scan, p.Input = q.Scan, q.Input
}

// windowed reports whether q has a stage that depends on its rows as a
// whole after the WHERE: window functions, QUALIFY, a LIMIT in percent, a
// sample or an unnest, whose rows are not the input's. Neither a filter
// nor a merge may cross it.
func windowed(q *planner.Plan) bool {
	if len(q.Windows) > 0 || q.Qualify != nil || q.HasPercent || q.Sample != nil {
		return true
	}
	for _, x := range q.Project {
		if hasUnnest(x) {
			return true
		}
	}
	return false
}

// hasUnnest reports whether x calls unnest, which makes rows of its own.
func hasUnnest(x planner.Expr) bool {
	if _, ok := planner.IsUnnest(x); ok {
		return true
	}
	for _, c := range planner.Children(x) {
		if hasUnnest(c) {
			return true
		}
	}
	return false
}
