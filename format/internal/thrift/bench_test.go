package thrift

import (
	"fmt"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// wideFooter builds a footer of cols leaf columns in rgs row groups, each
// chunk with statistics, encoding stats and page index offsets, as a
// typical modern writer produces.
func wideFooter(cols, rgs int) *meta.FileMetaData {
	m := &meta.FileMetaData{Version: 1, CreatedBy: p("parquet-cpp-arrow version 19.0.0"),
		Schema: []meta.SchemaElement{{Name: "schema", NumChildren: p(int32(cols))}}}
	for c := range cols {
		m.Schema = append(m.Schema, meta.SchemaElement{Name: fmt.Sprintf("column_%03d", c),
			Type: p(meta.Int64), RepetitionType: p(meta.Optional)})
		m.ColumnOrders = append(m.ColumnOrders, meta.ColumnOrder{Kind: meta.TypeDefinedOrder})
	}
	for g := range rgs {
		rg := meta.RowGroup{NumRows: 100000, TotalByteSize: 80 << 20, FileOffset: p(int64(4)), Ordinal: p(int16(g))}
		for c := range cols {
			off := int64(g*cols+c) * 8000
			rg.Columns = append(rg.Columns, meta.ColumnChunk{
				FileOffset: off,
				MetaData: &meta.ColumnMetaData{
					Type: meta.Int64, Encodings: []meta.Encoding{meta.Plain, meta.RLE, meta.RLEDictionary},
					PathInSchema: []string{m.Schema[c+1].Name}, Codec: meta.Zstd, NumValues: 100000,
					TotalUncompressedSize: 800000, TotalCompressedSize: 8000, DataPageOffset: off + 100,
					DictionaryPageOffset: p(off),
					Statistics: &meta.Statistics{MinValue: []byte{1, 2, 3, 4, 5, 6, 7, 8}, MaxValue: []byte{8, 7, 6, 5, 4, 3, 2, 1},
						NullCount: p(int64(12)), HasMinValue: true, HasMaxValue: true},
					EncodingStats: []meta.PageEncodingStats{{PageType: meta.DictionaryPage, Encoding: meta.Plain, Count: 1},
						{PageType: meta.DataPage, Encoding: meta.RLEDictionary, Count: 100}},
				},
				OffsetIndexOffset: p(off + 9000000), OffsetIndexLength: p(int32(900)),
				ColumnIndexOffset: p(off + 9500000), ColumnIndexLength: p(int32(2000)),
			})
		}
		m.RowGroups = append(m.RowGroups, rg)
	}
	return m
}

func BenchmarkDecodeFileMetaData100x100(b *testing.B) {
	footer, err := EncodeFileMetaData(wideFooter(100, 100))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(footer)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeFileMetaData(footer); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSkipFileMetaData100x100 is the floor under the decoder: the
// compact protocol reading the same footer while building nothing.
func BenchmarkSkipFileMetaData100x100(b *testing.B) {
	footer, err := EncodeFileMetaData(wideFooter(100, 100))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(footer)))
	for b.Loop() {
		if err := newDecoder(footer).skip(tStruct); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodePageHeader(b *testing.B) {
	h, err := EncodePageHeader(&meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 1 << 20,
		CompressedPageSize: 1 << 18, DataPageHeader: &meta.DataPageHeader{NumValues: 100000,
			Encoding: meta.RLEDictionary, DefinitionLevelEncoding: meta.RLE, RepetitionLevelEncoding: meta.RLE}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := DecodePageHeader(h); err != nil {
			b.Fatal(err)
		}
	}
}

func TestWideFooterRoundTrip(t *testing.T) {
	want := wideFooter(100, 100)
	b, err := EncodeFileMetaData(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeFileMetaData(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.RowGroups) != 100 || len(got.RowGroups[99].Columns) != 100 ||
		got.RowGroups[99].Columns[99].MetaData.PathInSchema[0] != "column_099" {
		t.Errorf("decoded %d row groups", len(got.RowGroups))
	}
}
