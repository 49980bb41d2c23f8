package exec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestIntGroups checks the table against a Go map on keys that collide in
// their low bits, repeat, and reach the extremes of int64.
func TestIntGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		key  func(i int) int64
	}{
		{"dense", func(i int) int64 { return int64(i % 5000) }},
		{"strided", func(i int) int64 { return int64(i%3000) << 20 }},
		{"random", func(int) int64 { return rng.Int64N(1 << 40) }},
		{"extremes", func(i int) int64 { return []int64{math.MinInt64, math.MaxInt64, 0, -1, 1}[i%5] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// tab is filled by find then put, one by findOrPut.
			var tab, one intGroups
			want := map[int64]int32{}
			for i := range 20000 {
				k := tc.key(i)
				id, ok := want[k]
				got := tab.find(k)
				if !ok {
					id = -1
				}
				if got != id {
					t.Fatalf("row %d: find(%d) = %d, want %d", i, k, got, id)
				}
				oneID, added := one.findOrPut(k, int32(len(want)))
				if added == ok || (ok && oneID != id) {
					t.Fatalf("row %d: findOrPut(%d) = %d, %v; want %d, %v", i, k, oneID, added, id, !ok)
				}
				if !ok {
					want[k] = int32(len(want))
					tab.put(k, want[k])
				}
			}
			if tab.len() != len(want) {
				t.Fatalf("len = %d, want %d", tab.len(), len(want))
			}
			for k, id := range want {
				if got := tab.find(k); got != id {
					t.Fatalf("find(%d) = %d, want %d", k, got, id)
				}
				if got := one.find(k); got != id {
					t.Fatalf("after findOrPut: find(%d) = %d, want %d", k, got, id)
				}
			}
		})
	}
}
