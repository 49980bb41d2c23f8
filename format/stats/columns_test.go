package stats

import (
	"slices"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// Footers that share their schema elements, writer and column orders (the
// files of a glob) share one list of columns; a footer that differs in any
// of them gets its own, pointing into its own elements.
func TestColumnsSharedBetweenFooters(t *testing.T) {
	schema := []meta.SchemaElement{{Name: "s", NumChildren: ptr(int32(2))},
		{Name: "a", Type: ptr(meta.Int64)}, {Name: "b", Type: ptr(meta.ByteArray)}}
	orders := []meta.ColumnOrder{{Kind: meta.TypeDefinedOrder}, {Kind: meta.TypeDefinedOrder}}
	footer := func(schema []meta.SchemaElement, createdBy string, orders []meta.ColumnOrder) *meta.FileMetaData {
		return &meta.FileMetaData{Schema: schema, CreatedBy: &createdBy, ColumnOrders: slices.Clone(orders)}
	}
	columns := func(md *meta.FileMetaData) []Column {
		t.Helper()
		cols, err := Columns(md)
		if err != nil || len(cols) != 2 {
			t.Fatalf("Columns = %d columns, %v", len(cols), err)
		}
		return cols
	}
	first := columns(footer(schema, "parquet-mr version 1.12.3", orders))
	if again := columns(footer(schema, "parquet-mr version 1.12.3", orders)); &again[0] != &first[0] {
		t.Error("footers sharing schema, writer and column orders have a list each")
	}
	if w := columns(footer(schema, "parquet-cpp-arrow version 19.0.0", orders)); &w[0] == &first[0] || w[1].Writer.App != "parquet-cpp-arrow" {
		t.Errorf("another writer's footer has writer %q", w[1].Writer.App)
	}
	if o := columns(footer(schema, "parquet-mr version 1.12.3", nil)); &o[0] == &first[0] || o[0].ColumnOrder != nil {
		t.Error("a footer without column orders has the list of one with them")
	}
	own := slices.Clone(schema)
	if c := columns(footer(own, "parquet-mr version 1.12.3", orders)); &c[0] == &first[0] || c[1].Leaf != &own[2] {
		t.Error("a footer with schema elements of its own has columns pointing into another's")
	}
}
