package format

import (
	"encoding/binary"
	"testing"

	"github.com/pqsql/pqsql/format/internal/craft"
	"github.com/pqsql/pqsql/format/meta"
)

func ptr[T any](v T) *T { return &v }

// flatSchema is a root with one leaf per element of leaves.
func flatSchema(leaves ...meta.SchemaElement) []meta.SchemaElement {
	return append([]meta.SchemaElement{{Name: "schema", NumChildren: ptr(int32(len(leaves)))}}, leaves...)
}

// column is a leaf of physical type t and repetition r.
func column(name string, t meta.Type, r meta.Repetition) meta.SchemaElement {
	return meta.SchemaElement{Name: name, Type: ptr(t), RepetitionType: ptr(r)}
}

// plainInt64Page is an uncompressed v1 PLAIN page of required INT64 values.
func plainInt64Page(vals []int64, firstRow int64) craft.Page {
	var body []byte
	for _, v := range vals {
		body = binary.LittleEndian.AppendUint64(body, uint64(v))
	}
	return craft.Page{Header: meta.PageHeader{Type: meta.DataPage, DataPageHeader: &meta.DataPageHeader{
		NumValues: int32(len(vals)), Encoding: meta.Plain, DefinitionLevelEncoding: meta.RLE, RepetitionLevelEncoding: meta.RLE}},
		Body: body, FirstRow: firstRow}
}

// int64File is a file of one required INT64 column "v" holding 1..n in
// pages of perPage values, with an offset index.
func int64File(t testing.TB, n, perPage int) []byte {
	t.Helper()
	var pages []craft.Page
	for first := 0; first < n; first += perPage {
		var vals []int64
		for i := first; i < min(first+perPage, n); i++ {
			vals = append(vals, int64(i+1))
		}
		pages = append(pages, plainInt64Page(vals, int64(first)))
	}
	b, err := craft.Build(craft.File{NumRows: -1,
		Schema:    flatSchema(column("v", meta.Int64, meta.Required)),
		RowGroups: []craft.RowGroup{{NumRows: int64(n), Chunks: []craft.Chunk{{NumValues: int64(n), Pages: pages, OffsetIndex: true}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sumInt64 sums leaf 0 of every row group.
func sumInt64(f *File) (int64, error) {
	var s int64
	for rg := range f.NumRowGroups() {
		cd, err := f.ReadColumn(rg, 0)
		if err != nil {
			return 0, err
		}
		for _, v := range cd.Values.Int64 {
			s += v
		}
	}
	return s, nil
}

func TestCraftedFileReads(t *testing.T) {
	f, err := OpenSource(BytesSource(int64File(t, 2000, 300)), "sum.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := sumInt64(f); err != nil || s != 2001000 {
		t.Fatalf("sum = %d, %v; want 2001000", s, err)
	}
}
