package ast

// SourceKind says what a Source reads.
type SourceKind int

const (
	// SourceFiles reads Parquet files: a quoted path or glob in FROM, or
	// read_parquet / parquet_scan.
	SourceFiles SourceKind = iota + 1
	// SourceFunction is a metadata table function (parquet_metadata,
	// parquet_schema) over the files in Paths.
	SourceFunction
	// SourceView names a view (or, when none exists, whatever DuckDB would
	// resolve the name to; the planner decides).
	SourceView
)

// String returns "files", "function" or "view".
func (k SourceKind) String() string {
	switch k {
	case SourceFiles:
		return "files"
	case SourceFunction:
		return "function"
	case SourceView:
		return "view"
	}
	return "unknown"
}

// A Source is one data source of a FROM clause (or of DESCRIBE).
type Source struct {
	Kind SourceKind
	// Placeholder is the table name standing for the source in the tree;
	// empty for the source of a Describe.
	Placeholder string
	// Paths are the paths or globs ('*', '**', '?', '[...]') as written, for
	// SourceFiles and SourceFunction; at least one, none empty.
	Paths []string
	// HivePartitioning is read_parquet's hive_partitioning option, and
	// HivePartitioningSet says it was written (DuckDB detects partitions
	// when it is not).
	HivePartitioning, HivePartitioningSet bool
	// Filename is the name of the column read_parquet's filename option
	// adds (filename = true names it "filename"); "" when not asked for.
	Filename string
	// FileRowNumber is read_parquet's file_row_number option: a BIGINT
	// column "file_row_number" holds each row's 0-based position in its file.
	FileRowNumber bool
	// UnionByName is read_parquet's union_by_name option: the files'
	// columns are unified by name rather than taken from the first file.
	UnionByName bool
	// Function is "parquet_metadata", "parquet_schema", "range" or
	// "generate_series" for SourceFunction.
	Function string
	// Args are the integer arguments of range and generate_series.
	Args []int64
	// Name is the view name for SourceView, as written (DuckDB matches names
	// case-insensitively).
	Name string
	// Alias is the table alias given in FROM ("" if none); it is also in the tree (AliasedTableExpr.As).
	Alias string
	// Columns renames the source's first columns: FROM range(3) t(i).
	Columns []string
	// Text is the source as written.
	Text string
	// Pos is where the source starts.
	Pos Position
}
