package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/sql"
)

// A TableFunction is a metadata table function used as a source: its rows
// describe Files rather than hold their data. Package exec produces them.
type TableFunction struct {
	// Name is "parquet_metadata" (one row per column chunk) or
	// "parquet_schema" (one row per schema element).
	Name string
	// Files are the matched paths, globs expanded, in the order read.
	Files []string
	// Columns are the function's result columns, DuckDB's names and types.
	Columns []Column
	// Series is set for range and generate_series, which read no files.
	Series *Series
}

var (
	tVarchar = Type{ID: TypeVarchar}
	tBigInt  = Type{ID: TypeBigInt}
	tBool    = Type{ID: TypeBoolean}
)

// GeoBBoxFields are the members of parquet_metadata's geo_bbox STRUCT, in
// order; each is a DOUBLE.
var GeoBBoxFields = []string{"xmin", "xmax", "ymin", "ymax", "zmin", "zmax", "mmin", "mmax"}

// metadataColumns are parquet_metadata's columns, as DuckDB 1.5.6 binds
// them.
var metadataColumns = func() []Column {
	bbox := make([]string, len(GeoBBoxFields))
	for i, f := range GeoBBoxFields {
		bbox[i] = f + " DOUBLE"
	}
	return []Column{
		{"file_name", tVarchar}, {"row_group_id", tBigInt}, {"row_group_num_rows", tBigInt},
		{"row_group_num_columns", tBigInt}, {"row_group_bytes", tBigInt}, {"column_id", tBigInt},
		{"file_offset", tBigInt}, {"num_values", tBigInt}, {"path_in_schema", tVarchar},
		{"type", tVarchar}, {"stats_min", tVarchar}, {"stats_max", tVarchar},
		{"stats_null_count", tBigInt}, {"stats_distinct_count", tBigInt},
		{"stats_min_value", tVarchar}, {"stats_max_value", tVarchar}, {"compression", tVarchar},
		{"encodings", tVarchar}, {"index_page_offset", tBigInt}, {"dictionary_page_offset", tBigInt},
		{"data_page_offset", tBigInt}, {"total_compressed_size", tBigInt},
		{"total_uncompressed_size", tBigInt},
		{"key_value_metadata", Type{ID: TypeNested, Name: "MAP(BLOB, BLOB)"}},
		{"bloom_filter_offset", tBigInt}, {"bloom_filter_length", tBigInt},
		{"min_is_exact", tBool}, {"max_is_exact", tBool}, {"row_group_compressed_bytes", tBigInt},
		{"geo_bbox", Type{ID: TypeNested, Name: "STRUCT(" + strings.Join(bbox, ", ") + ")"}},
		{"geo_types", Type{ID: TypeNested, Name: "VARCHAR[]"}},
	}
}()

// schemaColumns are parquet_schema's columns, as DuckDB 1.5.6 binds them.
var schemaColumns = []Column{
	{"file_name", tVarchar}, {"name", tVarchar}, {"type", tVarchar}, {"type_length", tVarchar},
	{"repetition_type", tVarchar}, {"num_children", tBigInt}, {"converted_type", tVarchar},
	{"scale", tBigInt}, {"precision", tBigInt}, {"field_id", tBigInt}, {"logical_type", tVarchar},
	{"duckdb_type", tVarchar}, {"column_id", tBigInt},
}

// functionSource plans FROM parquet_metadata(...) or parquet_schema(...).
// The files are matched now, as DuckDB binds them; they are opened only
// when the query runs.
func functionSource(src *sql.Source) (*Scan, []Column, error) {
	var cols []Column
	switch src.Function {
	case "range", "generate_series":
		return seriesSource(src) // series.go
	case "parquet_metadata":
		cols = metadataColumns
	case "parquet_schema":
		cols = schemaColumns
	default:
		return nil, nil, fmt.Errorf("%w: %s() as a source", ErrNotImplemented, src.Function)
	}
	files, err := ExpandPaths(src.Paths)
	if err != nil {
		return nil, nil, err
	}
	cols = append([]Column(nil), cols...)
	fn := &TableFunction{Name: src.Function, Files: files, Columns: cols}
	return &Scan{Function: fn, Source: src.Text}, cols, nil
}
