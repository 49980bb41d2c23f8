// Package planner turns a parsed SELECT (package sql) into a typed logical
// plan that package exec runs: a scan of Parquet files (or of a subquery)
// with the columns it needs and the pushdown predicate built from WHERE, then
// filter, aggregate, project, distinct, sort and limit.
//
// Every expression is bound to a column position and typed by DuckDB's rules
// (INTEGER + INTEGER is INTEGER, / is DOUBLE division, decimal arithmetic
// keeps its scale, comparisons cast a string literal to the other side's
// type). Constant subexpressions are folded at plan time with the same
// evaluator exec uses ([Eval]), so a folded constant and a computed value
// never disagree.
//
// WHERE conjuncts of the form column op literal (and IN, BETWEEN, IS NULL,
// LIKE, starts_with under NOT/AND/OR) become pushdown leaves; everything
// else becomes a pushdown.Residual. Pushdown only prunes: exec still
// evaluates the whole WHERE on every row it reads.
package planner
