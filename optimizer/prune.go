package optimizer

import "github.com/pqsql/pqsql/planner"

// pruneColumns stops computing the result columns of a subquery, of the
// sides of a UNION ALL or of a join, that the plan reading them never uses: each becomes
// a typed NULL, so the columns it read need not leave the file. Parents go
// first, so the pruning reaches the scans. A DISTINCT (or a set operation
// that removes duplicates) compares whole rows, so its columns all stay.
func pruneColumns(root *planner.Plan) *planner.Plan {
	eachPlan(root, func(p *planner.Plan) {
		s := p.Scan
		if s == nil {
			return
		}
		needs := map[int]bool{}
		for _, x := range p.InputExprs() {
			planner.Columns(x, needs)
		}
		switch {
		case s.SetOp != nil:
			if s.SetOp.All && s.SetOp.Op == "UNION" {
				pruneOutputs(s.SetOp.Left, needs)
				pruneOutputs(s.SetOp.Right, needs)
			}
		case s.Subquery != nil && !s.Subquery.Single:
			pruneOutputs(s.Subquery, needs)
		case s.Join != nil:
			j := s.Join
			nl := len(j.Left.Columns)
			for _, k := range j.Keys {
				planner.Columns(k.L, needs)
				planner.Columns(k.R, needs)
			}
			if j.Residual != nil {
				planner.Columns(j.Residual, needs)
			}
			left, right := map[int]bool{}, map[int]bool{}
			for i := range needs {
				if i < nl {
					left[i] = true
				} else {
					right[i-nl] = true
				}
			}
			pruneOutputs(j.Left, left)
			pruneOutputs(j.Right, right)
		}
	})
	return root
}

// pruneOutputs replaces q's result columns outside needs by NULLs of their
// type, keeping those its ORDER BY sorts on.
func pruneOutputs(q *planner.Plan, needs map[int]bool) {
	if q.Distinct {
		return
	}
	sorted := map[int]bool{}
	for _, k := range q.Order {
		sorted[k.Index] = true
	}
	for i, col := range q.Columns {
		if needs[i] || sorted[i] {
			continue
		}
		if c, ok := q.Project[i].(*planner.Const); ok && c.Value.Null {
			continue
		}
		if hasUnnest(q.Project[i]) {
			continue // it decides how many rows there are
		}
		q.Project[i] = &planner.Const{Value: planner.NullDatum, T: col.Type}
	}
	// Window functions and QUALIFY read the aggregate stage's rows by
	// position: its aggregates stay as they are.
	if q.Aggregate && !windowed(q) {
		pruneAggregates(q)
	}
}

// pruneAggregates drops the aggregates nothing after the aggregation reads
// any more, renumbering the references to the rest, so that their
// arguments' columns need not be read. Group keys stay: they decide the
// groups.
func pruneAggregates(q *planner.Plan) {
	nk := len(q.GroupBy)
	used := map[int]bool{}
	for _, x := range q.Project {
		planner.Columns(x, used)
	}
	if q.Having != nil {
		planner.Columns(q.Having, used)
	}
	renum := make([]int, len(q.Aggs))
	var kept []*planner.AggCall
	for i, a := range q.Aggs {
		renum[i] = -1
		if used[nk+i] {
			renum[i] = nk + len(kept)
			kept = append(kept, a)
		}
	}
	if len(kept) == len(q.Aggs) {
		return
	}
	re := func(x planner.Expr) planner.Expr {
		return substitute(x, func(r *planner.ColRef) planner.Expr {
			if r.Index < nk {
				return r
			}
			return &planner.ColRef{Index: renum[r.Index-nk], Name: r.Name, T: r.T}
		})
	}
	for i, x := range q.Project {
		q.Project[i] = re(x)
	}
	q.Having = re(q.Having)
	q.Aggs = kept
}
