// Package pushdown turns a WHERE predicate and a Parquet file's metadata into
// a scan plan: which row groups, rows and pages a query must read, and why
// the rest may be skipped.
//
// The contract, which every mechanism here keeps:
//
//   - A row group or page is skipped only when the predicate can never be
//     true for any row in it. Every decision is "skip" (proven from the
//     metadata) or "cannot rule it out"; unknown means keep.
//   - Index or filter data that cannot be read (a missing, malformed or
//     unreadable column index, offset index, Bloom filter or dictionary)
//     means keep, and the plan says so in its reason or notes.
//   - Corrupt data pages fail the query: the plan never hides them, and the
//     executor reports them when it reads.
//   - Which statistics may be trusted is decided by package format/stats
//     alone; this package only asks its Bounds what they prove. It does
//     reject index data that contradicts itself (a column index with more
//     or fewer pages than its offset index, or "null pages" that hold
//     values), as data that cannot be read.
//
// A predicate is an [Expr] tree as the planner builds it from SQL:
// comparisons between a column (a top-level column or a struct's field,
// named by its leaf's dotted path) and a [Literal], IN lists, BETWEEN,
// IS NULL, [StructIsNull] on a struct itself, LIKE, starts_with and
// [Spatial] predicates between a geometry column and
// a constant geometry, and [RowNumber] comparisons of a row's position in
// its file (decided exactly by the row groups' row counts), under NOT, AND
// and OR to any depth. Anything else is
// a [Residual], which never prunes. [Resolve] binds the tree to one file's
// schema, pushes negations to the leaves (De Morgan, exact under SQL's
// three-valued logic) and [Coerce]s every literal to the column's physical
// type, producing [Cond] leaves over PLAIN bytes, or constants where the
// types alone decide; coerce.go states the comparison semantics. A leaf it
// cannot push down becomes a Residual that still evaluates exactly.
//
// SQL semantics are DuckDB's: NULL satisfies no comparison; NaN equals NaN
// and sorts above every number (so x > 1000 holds for a NaN x); -0 equals
// +0. [Eval] evaluates a predicate on one row with exactly these semantics.
//
// [Plan] judges the resolved predicate with four mechanisms, each switchable
// in [Options] and tried cheapest first, stopping as soon as a row group is
// proven empty: row-group statistics (free, in the footer), Bloom filters for
// = and IN (a small header and one 32-byte block per probe), the page index
// (column and offset indexes: per-page verdicts turned into [RowRanges],
// binary-searched when the boundary order is trusted; the offset index is
// read only once the column index rules a page out, since a chunk whose
// pages are all kept is read whole), and dictionary pages
// for =, !=, IN, NOT IN and LIKE when encoding stats prove every data page
// of a chunk is dictionary-encoded. AND intersects row ranges and OR unites
// them, so predicates across columns prune as well as predicates on one.
//
// A fifth mechanism, spatial, judges [Spatial] leaves, switched with the
// statistics and tried before them: a row group is skipped when the query
// geometry's box (grown by ST_DWithin's distance) misses the chunk's
// geospatial statistics box or the GeoParquet file bbox. Missing, NaN or
// reversed boxes prove nothing; a GEOGRAPHY box that crosses the
// antimeridian proves nothing for planar predicates; NOT of a spatial leaf
// is never judged on boxes. A GeoParquet covering's columns are judged on
// their statistics and page index (never read), which can narrow pages.
//
// [TopK] applies the same contract to ORDER BY key LIMIT n: given the key
// of the n-th row held, a row group is skipped only when its trusted
// statistics prove every row sorts strictly after it (NULL order and NaN
// as SQL sorts them; ties kept), and a page of the key's chunk likewise by
// its column index, when the index agrees with the offset index and the
// chunk (a page without usable bounds is read). A row group's pages alone
// can prove a bound too ([TopK.PagesBound]): the value at which their
// bounds place at least n rows, which holds only when every row of the
// row group is an input row.
//
// A join filter (the build side's keys, pushed by the executor into the
// probe side's predicate) is judged by the same mechanisms; what it ruled
// out beyond the scan's own predicate is credited to the [JoinFilter]
// mechanism ([FilePlan.CreditJoinFilter]), so EXPLAIN ANALYZE counts it on
// its own line.
//
// The result is a [FilePlan]: per row group the verdict, the mechanism and
// the reason in words, the kept row ranges and, for every column read, the
// dictionary page and data pages that hold those rows; bytes skipped per
// mechanism; bytes of index, filter and dictionary fetched to decide; and
// the byte ranges left to read. EXPLAIN prints it ([FilePlan.Format]); the
// executor follows it and nothing else. A [Stream] makes the same plan row
// group by row group, in order, so that a scan can start on the first row
// groups while the later ones are judged.
package pushdown
