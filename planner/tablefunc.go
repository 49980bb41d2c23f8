package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/sql"
)

// A TableFunction is a metadata table function used as a source: its rows
// describe Files rather than hold their data. Package exec produces them.
type TableFunction struct {
	// Name is "parquet_metadata" (one row per column chunk),
	// "parquet_schema" (one row per schema element), "parquet_file_metadata"
	// (one row per file) or "parquet_kv_metadata" (one row per key/value
	// entry of a file's footer).
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
		{Name: "file_name", Type: tVarchar}, {Name: "row_group_id", Type: tBigInt}, {Name: "row_group_num_rows", Type: tBigInt},
		{Name: "row_group_num_columns", Type: tBigInt}, {Name: "row_group_bytes", Type: tBigInt}, {Name: "column_id", Type: tBigInt},
		{Name: "file_offset", Type: tBigInt}, {Name: "num_values", Type: tBigInt}, {Name: "path_in_schema", Type: tVarchar},
		{Name: "type", Type: tVarchar}, {Name: "stats_min", Type: tVarchar}, {Name: "stats_max", Type: tVarchar},
		{Name: "stats_null_count", Type: tBigInt}, {Name: "stats_distinct_count", Type: tBigInt},
		{Name: "stats_min_value", Type: tVarchar}, {Name: "stats_max_value", Type: tVarchar}, {Name: "compression", Type: tVarchar},
		{Name: "encodings", Type: tVarchar}, {Name: "index_page_offset", Type: tBigInt}, {Name: "dictionary_page_offset", Type: tBigInt},
		{Name: "data_page_offset", Type: tBigInt}, {Name: "total_compressed_size", Type: tBigInt},
		{Name: "total_uncompressed_size", Type: tBigInt},
		{Name: "key_value_metadata", Type: Type{ID: TypeNested, Name: "MAP(BLOB, BLOB)"}},
		{Name: "bloom_filter_offset", Type: tBigInt}, {Name: "bloom_filter_length", Type: tBigInt},
		{Name: "min_is_exact", Type: tBool}, {Name: "max_is_exact", Type: tBool}, {Name: "row_group_compressed_bytes", Type: tBigInt},
		{Name: "geo_bbox", Type: Type{ID: TypeNested, Name: "STRUCT(" + strings.Join(bbox, ", ") + ")"}},
		{Name: "geo_types", Type: Type{ID: TypeNested, Name: "VARCHAR[]"}},
	}
}()

// secretsColumns are duckdb_secrets()'s columns, as DuckDB 1.5.6 binds
// them.
var secretsColumns = []Column{
	{Name: "name", Type: tVarchar}, {Name: "type", Type: tVarchar}, {Name: "provider", Type: tVarchar}, {Name: "persistent", Type: tBool},
	{Name: "storage", Type: tVarchar}, {Name: "scope", Type: Type{ID: TypeNested, Name: "VARCHAR[]"}}, {Name: "secret_string", Type: tVarchar},
}

// settingsColumns are duckdb_settings()'s columns, as DuckDB 1.5.6 binds
// them.
var settingsColumns = []Column{
	{Name: "name", Type: tVarchar}, {Name: "value", Type: tVarchar}, {Name: "description", Type: tVarchar},
	{Name: "input_type", Type: tVarchar}, {Name: "scope", Type: tVarchar}, {Name: "aliases", Type: Type{ID: TypeNested, Name: "VARCHAR[]"}},
}

// schemaColumns are parquet_schema's columns, as DuckDB 1.5.6 binds them.
var schemaColumns = []Column{
	{Name: "file_name", Type: tVarchar}, {Name: "name", Type: tVarchar}, {Name: "type", Type: tVarchar}, {Name: "type_length", Type: tVarchar},
	{Name: "repetition_type", Type: tVarchar}, {Name: "num_children", Type: tBigInt}, {Name: "converted_type", Type: tVarchar},
	{Name: "scale", Type: tBigInt}, {Name: "precision", Type: tBigInt}, {Name: "field_id", Type: tBigInt}, {Name: "logical_type", Type: tVarchar},
	{Name: "duckdb_type", Type: tVarchar}, {Name: "column_id", Type: tBigInt},
}

// fileMetadataColumns are parquet_file_metadata's columns, as DuckDB 1.5.6
// binds them.
var fileMetadataColumns = []Column{
	{Name: "file_name", Type: tVarchar}, {Name: "created_by", Type: tVarchar}, {Name: "num_rows", Type: tBigInt},
	{Name: "num_row_groups", Type: tBigInt}, {Name: "format_version", Type: tBigInt}, {Name: "encryption_algorithm", Type: tVarchar},
	{Name: "footer_signing_key_metadata", Type: tVarchar}, {Name: "file_size_bytes", Type: Type{ID: TypeUBigInt}},
	{Name: "footer_size", Type: Type{ID: TypeUBigInt}}, {Name: "column_orders", Type: Type{ID: TypeNested, Name: "VARCHAR[]"}},
}

// kvMetadataColumns are parquet_kv_metadata's columns, as DuckDB 1.5.6
// binds them.
var kvMetadataColumns = []Column{
	{Name: "file_name", Type: tVarchar}, {Name: "key", Type: Type{ID: TypeBlob}}, {Name: "value", Type: Type{ID: TypeBlob}},
}

// functionSource plans FROM parquet_metadata(...) or parquet_schema(...).
// The files are matched now, as DuckDB binds them; they are opened only
// when the query runs.
func functionSource(src *sql.Source, c buildCtx) (*Scan, []Column, error) {
	var cols []Column
	switch src.Function {
	case sql.SecretsFunction:
		cols = append([]Column(nil), secretsColumns...)
		return &Scan{Function: &TableFunction{Name: src.Function, Columns: cols}, Source: src.Text}, cols, nil
	case "range", "generate_series":
		return seriesSource(src) // series.go
	case sql.SettingsFunction:
		cols = append([]Column(nil), settingsColumns...)
		return &Scan{Function: &TableFunction{Name: src.Function, Columns: cols}, Source: src.Text}, cols, nil
	case "parquet_metadata":
		cols = metadataColumns
	case "parquet_schema":
		cols = schemaColumns
	case "parquet_file_metadata":
		cols = fileMetadataColumns
	case "parquet_kv_metadata":
		cols = kvMetadataColumns
	default:
		return nil, nil, fmt.Errorf("%w: %s() as a source", ErrNotImplemented, src.Function)
	}
	files, err := expandPaths(c.ctx, c.store, src.Paths)
	if err != nil {
		return nil, nil, err
	}
	cols = append([]Column(nil), cols...)
	fn := &TableFunction{Name: src.Function, Files: files, Columns: cols}
	return &Scan{Function: fn, Source: src.Text}, cols, nil
}
