package optimizer

import "github.com/pqsql/pqsql/planner"

// prepareScans derives each Parquet scan's needed columns, pruning
// predicate, partition pruning and metadata count from the rewritten plan
// reading it (planner.Plan.PrepareScan).
func prepareScans(root *planner.Plan) *planner.Plan {
	eachPlan(root, (*planner.Plan).PrepareScan)
	return root
}
