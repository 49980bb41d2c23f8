package pushdown

import (
	"sort"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// TestReadDictionary checks format.File.ReadDictionary, which this package
// added: it decodes only the dictionary page, located by the offset index
// or, without one, by the footer's offsets, and the two agree.
func TestReadDictionary(t *testing.T) {
	f := openFixture(t, "orders_sorted.parquet")
	status := f.Schema.LeafByPath("status").Index
	oi, err := f.ReadOffsetIndex(0, status)
	if err != nil {
		t.Fatal(err)
	}
	byIndex, r1, err := f.ReadDictionary(0, status, oi)
	if err != nil {
		t.Fatal(err)
	}
	byFooter, r2, err := f.ReadDictionary(0, status, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r1 != r2 || r1 != f.DictionaryRange(0, status, oi) || r1.End() != oi.PageLocations[0].Offset {
		t.Errorf("dictionary ranges: by offset index %v, by footer %v, first data page at %d", r1, r2, oi.PageLocations[0].Offset)
	}
	var got []string
	for i := 0; i < byIndex.Len(); i++ {
		got = append(got, string(byIndex.PlainBytes(i, nil)))
		if string(byFooter.PlainBytes(i, nil)) != got[i] {
			t.Errorf("entry %d differs between the two reads", i)
		}
	}
	sort.Strings(got)
	if want := "cancelled delivered pending returned shipped"; strings.Join(got, " ") != want {
		t.Errorf("status dictionary = %v, want %s", got, want)
	}
	// A PLAIN chunk has no dictionary: no values, no error.
	orderID := f.Schema.LeafByPath("order_id").Index
	if v, r, err := f.ReadDictionary(0, orderID, nil); v != nil || r.Length != 0 || err != nil {
		t.Errorf("order_id dictionary = %v, %v, %v", v, r, err)
	}
	ok, why := allDictionary(f.Chunk(0, orderID).MetaData)
	if ok || !strings.Contains(why, "PLAIN") {
		t.Errorf("allDictionary(order_id) = %v, %q", ok, why)
	}
}

func TestAllDictionary(t *testing.T) {
	tests := []struct {
		stats []meta.PageEncodingStats
		want  bool
	}{
		{nil, false},
		{[]meta.PageEncodingStats{{PageType: meta.DictionaryPage, Encoding: meta.Plain, Count: 1}, {PageType: meta.DataPage, Encoding: meta.RLEDictionary, Count: 16}}, true},
		{[]meta.PageEncodingStats{{PageType: meta.DictionaryPage, Encoding: meta.PlainDictionary, Count: 1}, {PageType: meta.DataPageV2, Encoding: meta.PlainDictionary, Count: 3}}, true},
		// A dictionary that overflowed: later pages fell back to PLAIN.
		{[]meta.PageEncodingStats{{PageType: meta.DictionaryPage, Encoding: meta.Plain, Count: 1}, {PageType: meta.DataPage, Encoding: meta.RLEDictionary, Count: 3}, {PageType: meta.DataPage, Encoding: meta.Plain, Count: 2}}, false},
		{[]meta.PageEncodingStats{{PageType: meta.DataPage, Encoding: meta.RLEDictionary, Count: 3}}, false},
	}
	for i, tt := range tests {
		if got, why := allDictionary(&meta.ColumnMetaData{EncodingStats: tt.stats}); got != tt.want {
			t.Errorf("case %d: allDictionary = %v (%s), want %v", i, got, why, tt.want)
		}
	}
}
