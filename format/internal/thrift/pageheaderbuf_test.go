package thrift

import (
	"reflect"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// withoutPageStatistics is h with its parts copied out and their page
// statistics dropped, as DecodePageHeaderInto leaves them.
func withoutPageStatistics(h meta.PageHeader) meta.PageHeader {
	if h.DataPageHeader != nil {
		x := *h.DataPageHeader
		x.Statistics = nil
		h.DataPageHeader = &x
	}
	if h.DataPageHeaderV2 != nil {
		x := *h.DataPageHeaderV2
		x.Statistics = nil
		h.DataPageHeaderV2 = &x
	}
	return h
}

// TestDecodePageHeaderInto decodes headers of every kind one after another
// into one buffer: each must read as a fresh decode does, with nothing left
// over from the header before it (a CRC, a part of another kind).
func TestDecodePageHeaderInto(t *testing.T) {
	stats := fullFileMetaData().RowGroups[0].Columns[0].MetaData.Statistics
	headers := []*meta.PageHeader{
		{Type: meta.DataPage, UncompressedPageSize: 10, CompressedPageSize: 8, CRC: p(int32(7)),
			DataPageHeader: &meta.DataPageHeader{NumValues: 3, Encoding: meta.RLEDictionary, Statistics: stats}},
		{Type: meta.DictionaryPage, UncompressedPageSize: 4, CompressedPageSize: 4,
			DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: 2, IsSorted: p(true)}},
		{Type: meta.DataPageV2, UncompressedPageSize: 9, CompressedPageSize: 9,
			DataPageHeaderV2: &meta.DataPageHeaderV2{NumValues: 1, NumRows: 1, DefinitionLevelsByteLength: 2, Statistics: stats}},
		{Type: meta.DataPageV2, UncompressedPageSize: 5, CompressedPageSize: 3,
			DataPageHeaderV2: &meta.DataPageHeaderV2{NumValues: 4, NumRows: 4, IsCompressed: true}},
		{Type: meta.DictionaryPage, UncompressedPageSize: 1, CompressedPageSize: 1,
			DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: 1}},
		{Type: meta.DataPage, UncompressedPageSize: 6, CompressedPageSize: 6,
			DataPageHeader: &meta.DataPageHeader{NumValues: 2}},
	}
	var buf PageHeaderBuf
	for i, h := range headers {
		b, err := EncodePageHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		want, wn, err := DecodePageHeader(append(b, 0xff, 0xee))
		if err != nil {
			t.Fatal(err)
		}
		n, err := DecodePageHeaderInto(append(b, 0xff, 0xee), &buf)
		if err != nil || n != wn {
			t.Fatalf("header %d: n = %d (want %d), err = %v", i, n, wn, err)
		}
		if got, want := withoutPageStatistics(buf.H), withoutPageStatistics(*want); !reflect.DeepEqual(got, want) {
			t.Errorf("header %d:\n got %+v\nwant %+v", i, got, want)
		}
		if d := buf.H.DataPageHeader; d != nil && d.Statistics != nil {
			t.Errorf("header %d: page statistics decoded", i)
		}
	}
	// What the buffer is for: a page's header costs no allocation.
	b, err := EncodePageHeader(headers[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := DecodePageHeaderInto(b, &buf); err != nil {
			t.Fatal(err)
		}
	}); n > 0 && !raceEnabled {
		t.Errorf("%v allocations a header, want none", n)
	}
}
