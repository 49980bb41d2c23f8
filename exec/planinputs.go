package exec

import "github.com/pqsql/pqsql/planner"

// inputsOf lists the plans whose rows a scan reads: its subquery, both
// sides of its set operation or join, or its recursive CTE's two parts.
func inputsOf(s *planner.Scan) []*planner.Plan {
	switch {
	case s == nil:
	case s.Subquery != nil:
		return []*planner.Plan{s.Subquery}
	case s.SetOp != nil:
		return []*planner.Plan{s.SetOp.Left, s.SetOp.Right}
	case s.Join != nil:
		return []*planner.Plan{s.Join.Left, s.Join.Right}
	case s.Recursive != nil:
		return []*planner.Plan{s.Recursive.Base, s.Recursive.Step}
	}
	return nil
}
