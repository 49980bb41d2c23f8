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
// Every scalar and aggregate function is defined once, in the function
// registry (registry.go, and one file per family: strings, numbers, dates,
// regular expressions, strftime, conditionals, aggregates): its names, its
// binding (argument casts and DuckDB's result type) and its evaluation, a
// row at a time for scalars and an [Accumulator] for the aggregates the
// executor does not compute itself. A name without an entry fails at bind
// time with DuckDB's catalog error and the nearest name; a date part,
// cast or operator the evaluator does not handle is an error, never a
// default value. Tests walk the registry and fail for a function without
// a DuckDB-checked record in testdata/queries. A vector kernel for the
// executor's typed vectors belongs next to Eval in the same entry.
//
// LIKE, ILIKE and LIKE ... ESCAPE use pushdown's matcher (pushdown.LikeMatch),
// linear in the pattern times the string, so a row and a page are judged
// by the same code.
//
// Views and common table expressions become subquery scans. A query's
// CTEs are in scope for it and for the CTEs after them (naming a CTE in its
// own body is DuckDB's circular-reference error); they hide views of the
// same name, a view's body never sees them, and a CTE is planned where it is
// used, so one never used is never checked, as in DuckDB.
//
// agg(x) FILTER (WHERE c) is planned as agg(CASE WHEN c THEN x END) (and
// count(*) as count(CASE WHEN c THEN 1 END)), exact since every aggregate
// that takes FILTER skips NULLs (list, first and last, which keep NULLs,
// refuse FILTER); AggCall.Filter keeps the condition for display only.
//
// UNION, INTERSECT and EXCEPT are planned as a Scan of a SetOp, with both
// sides cast to common column types (VARCHAR absorbs anything, as in
// DuckDB); the operation's ORDER BY and LIMIT belong to the plan scanning
// it.
//
// Joins (INNER, LEFT, RIGHT, FULL, CROSS, comma joins, USING, NATURAL; a
// FULL join's USING column is the COALESCE of both sides) are
// planned as a Scan of a Join of two plans whose rows are the left's
// columns then the right's, each column carrying the name its FROM item is
// known by (Column.Table) so that qualified names resolve; a USING or
// NATURAL column's duplicate is Hidden from * and from unqualified names.
// The condition's equalities between the sides become JoinKeys, the rest
// the Residual. Uncorrelated subquery expressions (scalar, IN, EXISTS) are
// Subquery nodes that the executor runs once before the query; x op ANY
// and x op ALL (quantified.go) are IN, NOT IN, or a CASE over the
// subquery's row count, non-NULL minimum or maximum and NULL count.
//
// Correlated subqueries become joins of the FROM clause's rows before the
// WHERE is bound (correlated.go, correlated_scalar.go): a WHERE conjunct
// EXISTS, NOT EXISTS, IN, NOT IN, op ANY or op ALL a SEMI or ANTI join
// (ALL: anti on x op y not TRUE) whose condition is
// the subquery's conditions on the outer row (NOT IN matching where x = y
// is TRUE or NULL); a scalar subquery correlated by equalities a LEFT join,
// with the subquery grouped by its side of them when it aggregates, or
// failing on a second match (Join.Single) when not. Names in a subquery
// resolve to its own columns first, then the outer query's; one naming an
// outer column in a form not planned as a join fails as not implemented.
//
// A recursive CTE (base UNION [ALL] step) is a Scan of a Recursive whose
// step reads the rows the last round added through a WorkTable scan.
//
// The plan is as written: package optimizer rewrites it (inlining views,
// pushing filters into subqueries and join sides, pruning columns) and
// then calls Plan.PrepareScan to derive each scan's columns and pruning
// predicate again.
//
// parquet_metadata(...) and parquet_schema(...) are planned as a Scan of a
// TableFunction with DuckDB's columns; exec reads the files' footers.
//
// Hive partitioning (read_parquet's hive_partitioning, or DuckDB's
// detection when the option is not given) turns key=value directories into
// Scan.Partitions: input columns after the file's, sorted by key and typed
// as DuckDB infers them (DATE, TIMESTAMP, BIGINT, else VARCHAR), whose
// values come from each file's path. A WHERE conjunct that reads only
// partition columns is evaluated per file at plan time; the files it rules
// out leave Scan.Files for Scan.PrunedFiles (path, size, reason) unopened.
// A file named twice in a list is read twice, as in DuckDB.
//
// read_parquet's file_row_number adds a BIGINT input column right after
// the file's (Scan.HasRowNumber, Scan.RowNumber) whose values exec makes
// from row positions; comparisons of it with integers become
// pushdown.RowNumber leaves, decided exactly by the row groups' row
// counts. union_by_name plans the files as runs of one schema, each a
// files scan, under UNION ALL BY NAME (unionbyname.go). Without it, files
// are read with the first file's schema: a later file's columns matched by
// name and cast to the first's types in runs under UNION ALL
// (firstschema.go).
//
// Result columns are named as DuckDB names them: an unaliased expression is
// printed as DuckDB prints its parse tree (count_star(), (a + 1),
// CAST(x AS "DOUBLE"), CASE  WHEN ... ELSE NULL END, (s ~~ 'a%')).
//
// WHERE conjuncts of the form column op literal (and IN, BETWEEN, IS NULL,
// LIKE, starts_with under NOT/AND/OR) become pushdown leaves; everything
// else becomes a pushdown.Residual. Pushdown only prunes: exec still
// evaluates the whole WHERE on every row it reads.
//
// # Errors
//
// Errors carry DuckDB's classes (errors.go). A Binder, Catalog,
// Conversion or Not implemented error raised while binding an expression
// is an *Error holding the position (ast.PosOf) of what DuckDB
// points at: the column reference, the function call, the operator, the
// cast, a string literal an implicit cast could not convert, the inner
// aggregate of a nested one, the source of a missing view or
// read_parquet file. Errors DuckDB reports without one (an overflow while
// folding constants, a missing quoted file, an error inside a view's
// body) have none. Unknown columns and tables suggest DuckDB's candidates
// (candidates.go).
package planner
