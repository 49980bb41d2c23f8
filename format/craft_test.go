package format

import (
	"encoding/binary"
	"errors"
	"strings"
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

func TestAbsentIndexesAndFilters(t *testing.T) {
	b, err := craft.Build(craft.File{NumRows: -1, Schema: flatSchema(column("v", meta.Int64, meta.Required)),
		RowGroups: []craft.RowGroup{{NumRows: 2, Chunks: []craft.Chunk{{NumValues: 2, Pages: []craft.Page{plainInt64Page([]int64{1, 2}, 0)}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := OpenSource(BytesSource(b), "plain.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if ci, err := f.ReadColumnIndex(0, 0); ci != nil || !errors.Is(err, ErrAbsent) {
		t.Errorf("ReadColumnIndex = %v, %v; want ErrAbsent", ci, err)
	}
	if oi, err := f.ReadOffsetIndex(0, 0); oi != nil || !errors.Is(err, ErrAbsent) {
		t.Errorf("ReadOffsetIndex = %v, %v; want ErrAbsent", oi, err)
	}
	if bf, err := f.ReadBloomFilter(0, 0); bf != nil || !errors.Is(err, ErrAbsent) {
		t.Errorf("ReadBloomFilter = %v, %v; want ErrAbsent", bf, err)
	}
}

// An offset index that places rows in pages other than the headers do must
// fail the read of the pages it names, not drop or invent rows.
func TestOffsetIndexContradictingPageHeaders(t *testing.T) {
	// Pages of 300 values, but the index says they start every 200 rows:
	// pages 0..9 of a 2000-row group whose last index page starts at 1800.
	b, err := craft.Build(craft.File{NumRows: -1, Schema: flatSchema(column("v", meta.Int64, meta.Required)),
		RowGroups: []craft.RowGroup{{NumRows: 2000, Chunks: []craft.Chunk{{NumValues: 2000, OffsetIndex: true,
			Pages: func() []craft.Page {
				var ps []craft.Page
				for i := 0; i < 2000; i += 400 {
					var vals []int64
					for v := i; v < i+400; v++ {
						vals = append(vals, int64(v+1))
					}
					ps = append(ps, plainInt64Page(vals, int64(i/2)))
				}
				return ps
			}()}}}}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := OpenSource(BytesSource(b), "misplaced.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	oi, err := f.ReadOffsetIndex(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	rows := f.Meta.RowGroups[0].NumRows
	for i, loc := range oi.PageLocations {
		first, end := PageRows(oi, i, rows)
		ref := PageRef{Range: Range{loc.Offset, int64(loc.CompressedPageSize)}, FirstRow: first, NumRows: end - first}
		_, err := f.ReadPages(0, 0, Range{}, []PageRef{ref}, nil)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "offset index places rows") {
			t.Fatalf("page %d: err = %v; want ErrCorrupt naming the offset index", i, err)
		}
		if !strings.Contains(err.Error(), "row group 0, column v, page at offset") {
			t.Fatalf("page %d: error does not say where: %v", i, err)
		}
		// Passed over unread by NextFrom, the page is still checked.
		r, err := f.NewPageReader(0, 0, Range{}, []PageRef{ref}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.NextFrom(end); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("page %d passed over: err = %v; want ErrCorrupt", i, err)
		}
	}
	// Read whole, in file order, the chunk is sound.
	if s, err := sumInt64(f); err != nil || s != 2001000 {
		t.Fatalf("sum = %d, %v; want 2001000", s, err)
	}
}
