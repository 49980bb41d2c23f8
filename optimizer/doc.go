// Package optimizer rewrites a logical plan (planner.Plan) into an
// equivalent one that reads less, before exec runs it.
//
// It is a list of small rules (Rules), each a pass over the whole plan tree
// named for what it does: simplifying expressions under SQL's three-valued
// logic, inlining subqueries, views and CTEs that only project and filter,
// pushing WHERE conjuncts into subqueries, aggregates (on grouping keys) and
// set operations, reordering chains of inner joins to start from the
// smallest input, pruning the columns nobody reads, and finally deriving
// each Parquet scan's needed columns and pruning predicate from the
// rewritten plan.
//
// The promise: every rule keeps the query's answer, NULLs, errors aside,
// exactly as it was. A filter never moves below a LIMIT or OFFSET, below
// DISTINCT onto columns it does not see, or below an aggregate unless it
// reads grouping keys only; an expression that may return a different value
// on each call stays where it was written.
package optimizer
