package thrift

import (
	"reflect"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// knownFooter is a footer of one row group over columns a and b, whose
// statistics differ by n, as the files of a glob differ.
func knownFooter(t *testing.T, names [2]string, n int64) []byte {
	t.Helper()
	return globFooter(t, names[:], n)
}

// globFooter is knownFooter over the columns names.
func globFooter(t *testing.T, names []string, n int64) []byte {
	t.Helper()
	chunk := func(name string) meta.ColumnChunk {
		return meta.ColumnChunk{MetaData: &meta.ColumnMetaData{
			Type: meta.Int64, Encodings: []meta.Encoding{meta.Plain, meta.RLE, meta.RLEDictionary}, PathInSchema: []string{name},
			Codec: meta.Snappy, NumValues: 10 + n, TotalUncompressedSize: 100, TotalCompressedSize: 80, DataPageOffset: 4 + n,
			Statistics: &meta.Statistics{NullCount: p(n), MinValue: []byte{byte(n)}, MaxValue: []byte{byte(n + 1)}, HasMinValue: true, HasMaxValue: true},
			EncodingStats: []meta.PageEncodingStats{
				{PageType: meta.DictionaryPage, Encoding: meta.Plain, Count: 1},
				{PageType: meta.DataPage, Encoding: meta.RLEDictionary, Count: 2},
			},
		}}
	}
	m := &meta.FileMetaData{Version: 2, NumRows: 10 + n, CreatedBy: p("parquet-cpp-arrow version 19.0.0"),
		Schema:    []meta.SchemaElement{{Name: "schema", NumChildren: p(int32(len(names)))}},
		RowGroups: []meta.RowGroup{{NumRows: 10 + n, TotalByteSize: 100}}}
	for _, name := range names {
		m.Schema = append(m.Schema, meta.SchemaElement{Name: name, Type: p(meta.Int64), RepetitionType: p(meta.Optional)})
		m.RowGroups[0].Columns = append(m.RowGroups[0].Columns, chunk(name))
	}
	b, err := EncodeFileMetaData(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A footer whose schema list repeats a known footer's bytes shares its
// schema elements and its chunks' lists, and decodes to what it encodes; a
// footer with another schema gets its own.
func TestFooterSharesKnownSchema(t *testing.T) {
	same := func(x, y any) bool {
		return reflect.ValueOf(x).Pointer() == reflect.ValueOf(y).Pointer()
	}
	first, k, err := DecodeFileMetaDataKnown(knownFooter(t, [2]string{"a", "b"}, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !k.Shares(first) {
		t.Fatal("the Known made of a footer does not hold its schema elements")
	}
	b := knownFooter(t, [2]string{"a", "b"}, 7)
	want, err := DecodeFileMetaData(b)
	if err != nil {
		t.Fatal(err)
	}
	got, k2, err := DecodeFileMetaDataKnown(b, []*Known{k})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded with a known schema:\n got %+v\nwant %+v", got, want)
	}
	if k2 != k || !k.Shares(got) || !same(got.Schema, first.Schema) {
		t.Error("a footer repeating the known schema list has schema elements of its own")
	}
	for c := range 2 {
		g, f := got.RowGroups[0].Columns[c].MetaData, first.RowGroups[0].Columns[c].MetaData
		if !same(g.PathInSchema, f.PathInSchema) || !same(g.Encodings, f.Encodings) || !same(g.EncodingStats, f.EncodingStats) {
			t.Errorf("column %d: lists equal to the known footer's are not shared", c)
		}
	}

	other := knownFooter(t, [2]string{"a", "c"}, 7)
	want, err = DecodeFileMetaData(other)
	if err != nil {
		t.Fatal(err)
	}
	got, k3, err := DecodeFileMetaDataKnown(other, []*Known{k})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded beside another known schema:\n got %+v\nwant %+v", got, want)
	}
	if k3 == k || k.Shares(got) || !k3.Shares(got) {
		t.Error("a footer of another schema shares the known one's elements, or makes no Known of its own")
	}
	if same(got.RowGroups[0].Columns[1].MetaData.PathInSchema, first.RowGroups[0].Columns[1].MetaData.PathInSchema) {
		t.Error("column c shares column b's path")
	}
}

// A footer decoded beside a known one it repeats allocates only what
// differs: its row group's values, not its schema or its chunks' lists.
func TestKnownFooterAllocations(t *testing.T) {
	_, k, err := DecodeFileMetaDataKnown(knownFooter(t, [2]string{"a", "b"}, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := knownFooter(t, [2]string{"a", "b"}, 7)
	known := []*Known{k}
	shared := testing.AllocsPerRun(100, func() {
		if _, _, err := DecodeFileMetaDataKnown(b, known); err != nil {
			t.Fatal(err)
		}
	})
	alone := testing.AllocsPerRun(100, func() {
		if _, err := DecodeFileMetaData(b); err != nil {
			t.Fatal(err)
		}
	})
	// The schema alone is three elements, a name and options each.
	if shared > alone-6 {
		t.Errorf("decoding beside the known footer: %.0f allocations, alone %.0f; want at least 6 fewer", shared, alone)
	}
}

// Beside a known footer of its schema, a footer's optional numbers and
// statistics' bytes are each cut from one array, sized by the known
// footer's, rather than from arrays doubling from a few values.
func TestKnownFooterSizesValueArrays(t *testing.T) {
	names := make([]string, 40)
	for i := range names {
		names[i] = string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	_, k, err := DecodeFileMetaDataKnown(globFooter(t, names, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := newDecoder(globFooter(t, names, 7))
	d.known, d.keepLists = []*Known{k}, true
	if err := d.fileMetaData(new(meta.FileMetaData)); err != nil {
		t.Fatal(err)
	}
	if d.i64s.n != len(names) || len(d.i64s.buf) != d.i64s.n {
		t.Errorf("%d optional numbers, the last array holds %d", d.i64s.n, len(d.i64s.buf))
	}
	if d.bytes.n != 2*len(names) || len(d.bytes.buf) != d.bytes.n {
		t.Errorf("%d statistics bytes, the last array holds %d", d.bytes.n, len(d.bytes.buf))
	}
}
