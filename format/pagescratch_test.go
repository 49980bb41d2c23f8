package format

import (
	"fmt"
	"testing"

	"github.com/klauspost/compress/snappy"

	"github.com/pqsql/pqsql/format/internal/craft"
	"github.com/pqsql/pqsql/format/meta"
)

// TestIndexPagesShareScratch reads a compressed string chunk whose data
// pages alternate between dictionary indices and PLAIN values (a writer
// falling back once its dictionary is full). Index pages are decompressed
// into one reused buffer, as their values point into the dictionary; a
// PLAIN page's values point into its page, which must then be its own:
// every value read, by the whole chunk or page by page, is still right
// after the pages after it were decoded.
func TestIndexPagesShareScratch(t *testing.T) {
	dict := []string{"Łódź", "Reykjavík", "", "Kraków"}
	snap := func(b []byte) ([]byte, int32) { return snappy.Encode(nil, b), int32(len(b)) }
	body, size := snap(plainStrings(dict))
	pages := []craft.Page{{Header: meta.PageHeader{Type: meta.DictionaryPage, UncompressedPageSize: size,
		DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: int32(len(dict)), Encoding: meta.Plain}}, Body: body}}
	var want []string
	for p := range 6 {
		var raw []byte
		enc := meta.RLEDictionary
		var rows []string
		if p%2 == 1 {
			enc = meta.Plain
			for i := range 5 {
				rows = append(rows, fmt.Sprintf("plain page %d row %d", p, i))
			}
			raw = plainStrings(rows)
		} else {
			const width = 8
			raw = []byte{width}
			for i := range 5 {
				e := (p + i) % len(dict)
				raw = craft.RLERun(raw, 1, uint32(e), width)
				rows = append(rows, dict[e])
			}
		}
		body, size := snap(raw)
		pages = append(pages, craft.Page{Header: meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: size,
			DataPageHeader: &meta.DataPageHeader{NumValues: int32(len(rows)), Encoding: enc,
				DefinitionLevelEncoding: meta.RLE, RepetitionLevelEncoding: meta.RLE}}, Body: body})
		want = append(want, rows...)
	}
	b, err := craft.Build(craft.File{NumRows: -1, Schema: flatSchema(column("v", meta.ByteArray, meta.Required)),
		RowGroups: []craft.RowGroup{{NumRows: int64(len(want)), Chunks: []craft.Chunk{{Codec: meta.Snappy,
			NumValues: int64(len(want)), Pages: pages, Meta: func(cc *meta.ColumnChunk) {
				cc.MetaData.Encodings = []meta.Encoding{meta.Plain, meta.RLEDictionary}
			}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := OpenSource(BytesSource(b), "fallback.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: row %d is %q, want %q", what, i, got[i], want[i])
			}
		}
	}
	whole, err := f.ReadColumn(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range whole.Values.Len() {
		got = append(got, string(whole.Values.Bytes[i]))
	}
	check("whole chunk", got)
	// Page by page, keeping each page's values (not copied) until the end.
	r, err := f.NewPageReader(0, 0, Range{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var held [][]byte
	for {
		cd, err := r.Next()
		if err != nil {
			break
		}
		for i := range cd.Values.Len() {
			held = append(held, cd.Values.Bytes[i])
		}
		if cd.Dict != nil {
			for _, x := range cd.Indices {
				held = append(held, cd.Dict.Bytes[x])
			}
		}
	}
	got = got[:0]
	for _, v := range held {
		got = append(got, string(v))
	}
	check("page by page", got)
}
