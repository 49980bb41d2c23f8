package optimizer

import "github.com/pqsql/pqsql/planner"

// A Rule is one rewrite of a whole plan tree; Apply returns the new root.
type Rule struct {
	Name  string
	Apply func(p *planner.Plan) *planner.Plan
}

// Rules are the optimizer's rules in the order Optimize applies them. Each
// leaves a valid plan, so any prefix of them does too.
var Rules = []Rule{
	{"inline_subqueries", inlineSubqueries},
	{"push_filters", pushFilters},
	// After the two above, which put expressions where constants meet.
	{"simplify_expressions", simplifyExpressions},
	// After the filters are in the joins' inputs, which sizes them.
	{"order_joins", orderJoins},
	{"prune_columns", pruneColumns},
	{"choose_build_sides", chooseBuildSides},
	{"prepare_scans", prepareScans},
}

// Optimize rewrites p with every rule and returns the plan to run. It
// changes p in place; the plan to use is the one returned.
func Optimize(p *planner.Plan) *planner.Plan {
	for _, r := range Rules {
		p = r.Apply(p)
	}
	return p
}

// children returns the plans p reads rows from: a subquery, both sides
// of a set operation or a join, or a recursive CTE's base and step.
func children(p *planner.Plan) []*planner.Plan {
	s := p.Scan
	switch {
	case s == nil:
		return nil
	case s.SetOp != nil:
		return []*planner.Plan{s.SetOp.Left, s.SetOp.Right}
	case s.Join != nil:
		return []*planner.Plan{s.Join.Left, s.Join.Right}
	case s.Recursive != nil:
		// Rules work inside the base and the step; nothing crosses into
		// them from above (no rule knows the scan).
		return []*planner.Plan{s.Recursive.Base, s.Recursive.Step}
	case s.Subquery != nil && !s.Subquery.Single:
		return []*planner.Plan{s.Subquery}
	}
	return nil
}

// PushJoinFilter adds condition c, over j's joined rows and reading one
// side only (left or not), to that side as deep as the rules let it go,
// and prepares that side's scans again. The executor uses it for join
// filters: conditions on the probe side it learns from the build side's
// keys, which drop only rows that match nothing.
func PushJoinFilter(j *planner.Join, c planner.Expr, left bool) {
	side := &j.Left
	if !left {
		side = &j.Right
		c = shift(c, -len(j.Left.Columns))
	}
	p := acceptOrWrap(*side, c)
	for _, r := range []func(*planner.Plan) *planner.Plan{pushFilters, simplifyExpressions, prepareScans} {
		p = r(p)
	}
	*side = p
}

// eachPlan calls f on p and every plan below it, parents first.
func eachPlan(p *planner.Plan, f func(*planner.Plan)) {
	f(p)
	for _, c := range children(p) {
		eachPlan(c, f)
	}
}
