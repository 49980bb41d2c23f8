package stats

import (
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// arrow-go's FLOAT16 bounds are ordered by bits: types.parquet records -0 as
// the minimum of a chunk that holds -65504. Both its chunk statistics and
// its column index must be refused, with the reason.
func TestArrowGoFloat16BoundsRefused(t *testing.T) {
	f, err := format.Open("../../fixtures/types.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	leaf := f.Schema.LeafByPath("float16_col")
	if leaf == nil {
		t.Fatal("types.parquet has no float16_col")
	}
	cols, err := Columns(f.Meta)
	if err != nil {
		t.Fatal(err)
	}
	c := cols[leaf.Index]
	md := f.Chunk(0, leaf.Index).MetaData
	b := ChunkBounds(c, md.Statistics, md.NumValues)
	if b.Min != nil || !strings.Contains(b.Refused, "FLOAT16 bounds by their bits") {
		t.Errorf("chunk bounds: min %x, refused %q", b.Min, b.Refused)
	}
	ci, err := f.ReadColumnIndex(0, leaf.Index)
	if err != nil || ci == nil {
		t.Fatalf("column index: %v", err)
	}
	if pb := PageBounds(c, ci, 0); pb.Min != nil || !strings.Contains(pb.Refused, "FLOAT16") {
		t.Errorf("page bounds: min %x, refused %q", pb.Min, pb.Refused)
	}
	// A correct writer's FLOAT16 bounds are still used.
	other := c
	other.Writer = ParseCreatedBy("parquet-cpp-arrow version 16.0.0")
	if b := ChunkBounds(other, md.Statistics, md.NumValues); b.Refused != "" {
		t.Errorf("parquet-cpp-arrow FLOAT16 bounds refused: %s", b.Refused)
	}
}

func TestNullPagesContradiction(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ci     meta.ColumnIndex
		maxDef int
		want   string
	}{
		{"consistent", meta.ColumnIndex{NullPages: []bool{false, true}, NullCounts: []int64{0, 10}}, 1, ""},
		{"no null counts", meta.ColumnIndex{NullPages: []bool{true}}, 1, ""},
		{"required column", meta.ColumnIndex{NullPages: []bool{false, true}}, 0, "page 1 holds only nulls, but the column is required"},
		{"parquet-mr without statistics", meta.ColumnIndex{NullPages: []bool{true}, NullCounts: []int64{-1}}, 1, "gives it -1 nulls"},
		{"zero nulls", meta.ColumnIndex{NullPages: []bool{true}, NullCounts: []int64{0}}, 2, "gives it 0 nulls"},
	} {
		got := NullPagesContradiction(&tc.ci, tc.maxDef)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
