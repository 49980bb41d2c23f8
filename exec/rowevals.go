package exec

import "sync/atomic"

// rowEvals counts the values computed one row at a time by planner.Eval
// over a scan's rows (WHERE, SELECT list and aggregate arguments the
// vectorized kernels do not take): the fallback that is correct for every
// expression and an order of magnitude slower than the kernels.
var rowEvals atomic.Int64

// RowEvaluations is how many values the row-at-a-time evaluator has
// computed over input rows in this process: the benchmark checks that its
// queries never take that path.
func RowEvaluations() int64 { return rowEvals.Load() }
