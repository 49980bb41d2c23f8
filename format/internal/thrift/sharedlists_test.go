package thrift

import (
	"reflect"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// The lists a column's chunk repeats in every row group (path, encodings,
// encoding statistics) are decoded once and shared by the row groups that
// repeat them; a row group whose list differs gets its own, and the footer
// decodes to what was encoded.
func TestFooterSharesRepeatedLists(t *testing.T) {
	chunk := func(name string, encs []meta.Encoding, dictPages int32) meta.ColumnChunk {
		return meta.ColumnChunk{MetaData: &meta.ColumnMetaData{
			Type: meta.Int64, Encodings: encs, PathInSchema: []string{name}, Codec: meta.Snappy,
			NumValues: 10, TotalUncompressedSize: 100, TotalCompressedSize: 80, DataPageOffset: 4,
			EncodingStats: []meta.PageEncodingStats{
				{PageType: meta.DictionaryPage, Encoding: meta.Plain, Count: dictPages},
				{PageType: meta.DataPage, Encoding: meta.RLEDictionary, Count: 1},
			},
		}}
	}
	plain := []meta.Encoding{meta.Plain, meta.RLE}
	dict := []meta.Encoding{meta.Plain, meta.RLE, meta.RLEDictionary}
	m := &meta.FileMetaData{Version: 2, NumRows: 40, Schema: []meta.SchemaElement{{Name: "s", NumChildren: p(int32(2))},
		{Name: "a", Type: p(meta.Int64)}, {Name: "b", Type: p(meta.Int64)}}}
	for rg := range 4 {
		encs, pages := dict, int32(1)
		if rg >= 2 {
			// From the third row group on, b fell back to PLAIN.
			encs, pages = plain, 0
		}
		m.RowGroups = append(m.RowGroups, meta.RowGroup{NumRows: 10, TotalByteSize: 100,
			Columns: []meta.ColumnChunk{chunk("a", dict, 1), chunk("b", encs, pages)}})
	}
	b, err := EncodeFileMetaData(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeFileMetaData(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("decoded footer differs from the one encoded:\n got %+v\nwant %+v", got, m)
	}
	same := func(x, y any) bool {
		return reflect.ValueOf(x).Pointer() == reflect.ValueOf(y).Pointer()
	}
	md := func(rg, c int) *meta.ColumnMetaData { return got.RowGroups[rg].Columns[c].MetaData }
	for rg := 1; rg < 4; rg++ {
		for c := range 2 {
			if !same(md(rg, c).PathInSchema, md(0, c).PathInSchema) {
				t.Errorf("row group %d, column %d: path not shared with row group 0", rg, c)
			}
		}
		if !same(md(rg, 0).Encodings, md(0, 0).Encodings) || !same(md(rg, 0).EncodingStats, md(0, 0).EncodingStats) {
			t.Errorf("row group %d, column a: encodings not shared with row group 0", rg)
		}
	}
	if same(md(2, 1).Encodings, md(1, 1).Encodings) || same(md(2, 1).EncodingStats, md(1, 1).EncodingStats) {
		t.Error("row group 2, column b: its own encodings are shared with row group 1's")
	}
	if !same(md(3, 1).Encodings, md(2, 1).Encodings) {
		t.Error("row group 3, column b: encodings equal to row group 2's are not shared")
	}
	// A shared list's capacity is its length: an append by a caller copies.
	if e := md(1, 0).Encodings; cap(e) != len(e) {
		t.Errorf("a shared list has capacity %d beyond its %d values", cap(e), len(e))
	}
}
