// Package exec runs planned statements over Parquet files and returns their
// results as columnar batches.
//
// A scan follows each file's pushdown plan exactly: skipped row groups are
// never touched, and a kept row group's byte ranges are fetched in one
// coalesced request set before its pages are decoded. Rows move as batches
// of up to BatchSize rows, one Vector per column, from the scan to the
// WHERE, the projection and the aggregates. A local file's plain scan or
// aggregation takes its row groups' plans as they are judged
// (planstream.go), so that the dictionaries the plan decodes for the scan
// live only while their row group is near.
//
// The WHERE runs vectorized for the common shapes (a column against a
// constant, IN, BETWEEN, IS NULL, LIKE, starts_with, integer and float
// arithmetic, under AND, OR and NOT), with SQL's three-valued logic and
// planner.Compare's order (NaN equals NaN and sorts above every number; -0
// equals +0). Anything else, and any batch where vectorized arithmetic would
// overflow or divide by zero, is evaluated by planner.Eval one row at a
// time, and only for the rows the other conditions have not decided.
//
// Materialization is late: the WHERE's columns are decoded first, and the
// other columns are fetched and decoded only in the pages that still hold a
// passing row (using the offset index when the plan reads a chunk whole),
// so a row group the WHERE empties reads nothing more.
//
// Before a query runs, its uncorrelated subquery expressions run once and
// their results replace them in the plan, which package optimizer then
// rewrites (SET optimizer = false skips that). A join (join.go) runs its
// build side first, into a hash table on the equality keys (a nested loop
// when there are none) whose memory counts against memory_limit; for an
// inner join the build side's keys become a join filter on the probe side
// (an IN list of up to 50 values, else their range), pushed into its scan
// so pushdown can skip what cannot match; the probe side then streams
// through batch by batch. SEMI and ANTI joins (correlated EXISTS, IN and
// their negations) keep or drop each probe row once; a join of a
// correlated scalar subquery fails on a row with two matches. A CTE read
// twice with the same optimized plan runs once (run.go), and a recursive
// CTE runs its step round by round until a round adds no rows
// (recursive.go).
//
// Row groups, of one file or many, are read by Settings.Threads workers
// in parallel; their results are merged back in file order, so answers do
// not depend on the thread count. A LIMIT without ORDER BY starts with one
// row group in flight and stops reading once it has its rows. Aggregates
// consume the batches in that order, so float sums add up as a
// row-at-a-time loop would.
//
// A sorted limit (ORDER BY ... LIMIT n) keeps n rows in a heap and boxes
// only the rows that may enter it: each batch is cut first on its typed
// first sort key (topk.go). Once the heap is full, its worst key is a
// bound the scan uses (topkscan.go): row groups are visited most promising
// first, one whose statistics prove no row can beat the bound is skipped
// (pushdown.TopK decides), and in a row group read, the key's pages whose
// column index proves the same are skipped, with the rows they hold in the
// other columns; so are those after the bound the row group's own pages
// prove when there is no WHERE. The key is decoded before the other
// columns, which are fetched only for the rows that can still be among the
// n first (a string key with a dictionary is cut on its entries' ranks,
// not on a string per row; topkdict.go). When the other columns are only
// projected, and the result has fewer rows than the files have pages of
// a column, they are fetched later still: the heap keeps the keys and each
// row's place, and once the scan ends only the pages holding the result's
// rows are read (topklate.go). Ties keep the row earlier in the files, so
// the visiting order never changes an answer. A sort without LIMIT sorts
// row numbers on the typed columns, DISTINCT keeps first rows on encoded
// keys as batches arrive (sortkey.go).
//
// Some aggregates need no data pages: count(*) without WHERE, count(*)
// over row groups whose statistics prove the WHERE for every row, and
// count, min and max of columns whose statistics are trusted and exact
// (package format/stats decides which are).
//
// Memory follows the batch, not the row group: a worker holds a row
// group's fetched (compressed) bytes, but decodes a flat column one page at
// a time as the batches reach it (format.PageReader), reusing the page's
// buffers. Nested columns are still decoded and assembled whole. At most a
// few batches per row group wait for the consumer.
//
// Results stream (Session.Stream): a query without a blocking operator
// (filter, projection, LIMIT, DISTINCT's first rows, UNION ALL, a
// subquery of those) hands its batches to the reader as the scan makes
// them, a few ahead, so the first rows come before the scan ends and a
// result of any size takes constant memory; Session.Execute collects them.
// The operators that hold rows count them against memory_limit
// (memory.go; default 80% of the machine's memory): a sort keeps sorted
// runs as large as the limit allows, spills the others to temp_directory
// and merges them stably (spillsort.go); a hash aggregation that cannot
// hold a new group sends that group's rows, raw, to partition files by
// key hash and aggregates each partition afterwards, so a group sees its
// rows in input order wherever it is built (spillagg.go). A join's hash
// table, DISTINCT's keys, window partitions and the results held for a
// join, a CTE or a set operation fail past the limit with DuckDB's Out of
// Memory error. Each statement's temporary files live in a directory of
// their own, removed when the statement ends.
//
// A second pass over the WHERE's columns (late materialization) decodes
// again only the pages that hold a surviving row. Unless the consumer has
// stopped the scan, every page a row group loads is decoded at least once,
// rows needed or not, so a damaged page fails the query as it did when
// pages were decoded up front.
//
// EXPLAIN (explain.go) prints the plan tree and each file's pushdown plan,
// reading footers, indexes, Bloom filters and dictionaries but never a data
// page. EXPLAIN ANALYZE runs the query with every file read through a
// meter (iometer.go) that counts bytes by purpose: footer, page index,
// bloom and dictionary read to plan, data read by the scan, offset indexes
// the scan read itself. Each purpose balances against the plan exactly;
// the data the plan lists but the scan did not read is declared, by why
// (late materialization, a LIMIT, count(*) answered from statistics).
// EXPLAIN VERIFY runs the query with the session's pruning mechanisms and with none
// and compares the results. EXPLAIN (FORMAT JSON) prints all of it as one
// ExplainJSON object.
package exec
