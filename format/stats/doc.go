// Package stats decides which statistics a reader may trust: for every column
// chunk's Statistics and every page of a ColumnIndex, which bounds may be
// used, in what order they compare, and, when it refuses, why, in words a
// user can read in EXPLAIN's statistics-trust report.
//
// # Orders
//
// OrderOf chooses a comparator (an Order) per leaf from its physical type and
// its logical or converted annotation: BOOLEAN; signed or unsigned INT32 and
// INT64; FLOAT, DOUBLE and FLOAT16 by value; BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY as unsigned bytes (byte order, not collation: Århus
// sorts after Zürich); DECIMAL in byte arrays as big-endian two's complement
// of any length. INT96, INTERVAL, GEOMETRY, GEOGRAPHY and unknown logical
// types have no order. Values are always in PLAIN physical form, and the
// Int, Uint, Float, Bytes, Bool and DecimalUnscaled methods put a SQL literal
// in that form so it can be compared with bounds.
//
// Floats compare with SQL's (DuckDB's) semantics, because pushdown answers SQL
// predicates: -0 equals +0, NaN equals NaN and sorts above every number.
//
// # The rules (chapter 8 of the specification, and parquet.thrift)
//
//   - min_value/max_value are used only when column_orders names an order this
//     reader understands for the column: TYPE_ORDER, or IEEE_754_TOTAL_ORDER
//     for a float column. Without column_orders their order is undefined.
//   - The deprecated min/max were computed with signed comparison; they are
//     used only where the column's order is signed and its values are not
//     byte arrays, or where min and max are the same bytes (then no order
//     can make them wrong), and never when the writer is known to be wrong.
//   - Under TYPE_ORDER a NaN bound is refused, together with its partner. A
//     zero bound may stand for either zero: Bounds widen it (min -0, max +0).
//   - A bound flagged inexact (is_*_value_exact = false) is still a bound, but
//     not a value. Unannotated or string byte arrays count as values only when
//     flagged exact (writers shorten them); numbers and decimals unless
//     flagged otherwise.
//   - An absent null_count is not zero; null_count == num_values proves an
//     all-null chunk, which has no bounds but can be skipped by comparisons.
//   - Under IEEE_754_TOTAL_ORDER (PARQUET-2249) bounds may be NaN: a +NaN
//     minimum or a -NaN maximum proves every non-null value is NaN, which
//     makes NaN-only pages indexable; a NaN on one side only leaves that side
//     open. nan_count, where written, says whether NaNs exist. Where it is
//     absent, NaNs are assumed possible even when the bounds are numbers, as
//     parquet.thrift requires ("readers MUST assume NaNs may be present"),
//     because the merged specification stores only non-NaN bounds when a
//     chunk mixes NaNs and numbers.
//   - The same rules apply to ColumnIndex entries (PageBounds), with
//     null_pages for all-null pages; IndexOrder checks boundary_order against
//     the accepted page bounds before a binary search may rely on it.
//
// # Writers known to be wrong
//
// ParseCreatedBy reads created_by, and the rules of parquet-java's
// CorruptStatistics and Arrow's ApplicationVersion::HasCorrectStatistics
// refuse statistics from known-bad releases: parquet-mr before 1.8.0 for
// binary columns (PARQUET-251; Cloudera's 1.5.0-cdh5.5.0 and later excepted),
// parquet-mr whose version cannot be read, a footer without created_by for
// the deprecated binary min/max (PARQUET-297), and parquet-mr before 1.10.0
// and parquet-cpp before 1.3.0 for any column not ordered as signed
// (PARQUET-686), unless min equals max.
//
// # API
//
// Columns lists a footer's leaves as Column values (dotted path, leaf,
// column_orders entry, parsed created_by). ChunkBounds(column, statistics,
// num_values) and PageBounds(column, column index, page) return a Bounds;
// IndexOrder says whether boundary_order may drive a binary search. Every
// Bounds carries its Refused reason and Notes, and Report renders them as
// the lines of EXPLAIN's statistics-trust report, e.g.
//
//	city: min/max refused: the footer has no column_orders, so their order is undefined
//
// # Using bounds
//
// A Bounds promises that every non-null value is NaN (only if MayHoldNaN) or
// lies within [Min, Max], a nil side being open. Pushdown should ask
// MayHoldAbove, MayHoldBelow and MayHoldEqual, which apply that promise with
// NaN above every number, rather than compare Min and Max itself: under
// TYPE_ORDER a chunk with Max 25.0 may still hold a NaN that satisfies
// x > 1000.
package stats
