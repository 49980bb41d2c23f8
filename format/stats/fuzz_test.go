package stats

import (
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// FuzzBounds feeds arbitrary bounds and counts through every leaf kind and
// both column orders: the rules must never panic, and whatever they accept
// must keep its promise (Min <= Max, never a NaN bound, a reason for every
// missing bound).
func FuzzBounds(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0}, []byte{9, 0, 0, 0}, int64(0), int64(0), int64(4), uint8(1), true)
	f.Add(f64b(-1), nan64, int64(1), int64(-1), int64(3), uint8(6), false)
	f.Add([]byte("Århus"), []byte("Zürich"), int64(0), int64(0), int64(2), uint8(3), true)
	f.Add([]byte{0xff}, []byte{0x00, 0x80}, int64(5), int64(0), int64(5), uint8(4), true)
	f.Fuzz(func(t *testing.T, lo, hi []byte, nulls, nans, numValues int64, leafKind uint8, total bool) {
		leaves := testSchema()[1:]
		e := leaves[int(leafKind)%len(leaves)]
		kind := meta.TypeDefinedOrder
		if total {
			kind = meta.IEEE754TotalOrder
		}
		c := Column{Path: e.Name, Leaf: &e, ColumnOrder: &meta.ColumnOrder{Kind: kind}}
		s := &meta.Statistics{MinValue: lo, MaxValue: hi, Min: lo, Max: hi, NullCount: &nulls, NanCount: &nans}
		check := func(b Bounds) {
			if b.Min != nil && b.Max != nil && b.Order.Compare(b.Min, b.Max) > 0 {
				t.Fatalf("accepted min %x above max %x", b.Min, b.Max)
			}
			if b.Order.IsNaN(b.Min) || b.Order.IsNaN(b.Max) {
				t.Fatalf("accepted a NaN bound")
			}
			if (b.Min == nil || b.Max == nil) && b.Refused == "" {
				t.Fatal("a missing bound without a reason")
			}
			_ = b.Report()
			b.MayHoldAbove(lo, true)
			b.MayHoldBelow(hi, false)
			b.MayHoldEqual(lo)
		}
		check(ChunkBounds(c, s, numValues))
		ci := &meta.ColumnIndex{
			NullPages: []bool{nulls%2 == 0, false}, MinValues: [][]byte{lo, hi}, MaxValues: [][]byte{hi, lo},
			BoundaryOrder: meta.BoundaryOrder(leafKind % 4), NullCounts: []int64{nulls, nans}, NanCounts: []int64{nans, nulls},
		}
		for p := -1; p <= 2; p++ {
			check(PageBounds(c, ci, p))
		}
		IndexOrder(c, ci)
	})
}
