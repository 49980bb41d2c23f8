package stats

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

func TestChunkRowsContradiction(t *testing.T) {
	for _, tc := range []struct {
		values, rows int64
		repeated     bool
		want         string
	}{
		{8, 8, false, ""},
		{0, 0, false, ""},
		{0, 8, false, "fewer than the row group's 8 rows"},
		{9, 8, false, "differs from the row group's 8 rows"},
		{20, 8, true, ""},
		{7, 8, true, "fewer than"},
	} {
		got := ChunkRowsContradiction(tc.values, tc.rows, tc.repeated)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("ChunkRowsContradiction(%d, %d, %v) = %q; want %q", tc.values, tc.rows, tc.repeated, got, tc.want)
		}
	}
}

func TestPageIndexContradiction(t *testing.T) {
	rows := func(i int) int64 { return 10 }
	for _, tc := range []struct {
		name       string
		nullPages  []bool
		nullCounts []int64
		repeated   bool
		chunkNulls int64
		want       string
	}{
		{"agrees", []bool{false, true}, []int64{3, 10}, false, 13, ""},
		{"no counts", []bool{false, true}, nil, false, 13, ""},
		{"unknown counts", []bool{false, true}, []int64{-1, -1}, false, 0, ""},
		{"more nulls than rows", []bool{false, false}, []int64{11, 0}, false, -1, "gives page 0 11 nulls, but the offset index gives it 10 rows"},
		{"null page with values", []bool{true, false}, []int64{4, 0}, false, -1, "holds only nulls, but gives it 4 nulls of 10 rows"},
		{"all-null page said to hold values", []bool{false, false}, []int64{10, 0}, false, -1, "says it holds values"},
		{"chunk count differs", []bool{false, false}, []int64{1, 2}, false, 4, "counts 3 nulls in the chunk, its statistics 4"},
		{"repeated leaf not judged by rows", []bool{false, false}, []int64{11, 0}, true, -1, ""},
	} {
		ci := &meta.ColumnIndex{NullPages: tc.nullPages, NullCounts: tc.nullCounts}
		got := PageIndexContradiction(ci, rows, tc.repeated, tc.chunkNulls)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q; want %q", tc.name, got, tc.want)
		}
	}
}

// Bounds of a TIME column outside the day are refused: the reader wraps
// such values into the day, so the stored ticks bound nothing read.
func TestTimeBoundsOutsideTheDayRefused(t *testing.T) {
	leaf := &meta.SchemaElement{Name: "t", Type: ptr(meta.Int32), RepetitionType: ptr(meta.Required),
		LogicalType: &meta.LogicalType{Time: &meta.TimeType{Unit: meta.Millis}}, ConvertedType: ptr(meta.ConvTimeMillis)}
	c := Column{Path: "t", Leaf: leaf, ColumnOrder: &meta.ColumnOrder{Kind: meta.TypeDefinedOrder}}
	i32 := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	st := func(lo, hi int32) *meta.Statistics {
		return &meta.Statistics{MinValue: i32(lo), MaxValue: i32(hi), HasMinValue: true, HasMaxValue: true, NullCount: ptr(int64(0))}
	}
	if b := ChunkBounds(c, st(0, 3600000), 2); b.Min == nil || b.Max == nil {
		t.Fatalf("bounds inside the day refused: %s", b.Refused)
	}
	b := ChunkBounds(c, st(-13899000, 3600000), 2)
	if b.Min != nil || b.Max != nil || !strings.Contains(b.Refused, "outside the day") {
		t.Fatalf("bounds with a negative TIME kept (min %x, max %x, refused %q)", b.Min, b.Max, b.Refused)
	}
}
