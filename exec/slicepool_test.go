package exec

import (
	"runtime/debug"
	"testing"
)

// TestSlicePoolReusesWithoutBoxing: a released slice comes back with its
// storage, and a put followed by a get allocates nothing (sync.Pool alone
// would box each slice put).
func TestSlicePoolReusesWithoutBoxing(t *testing.T) {
	// A collection empties sync.Pools: none may run in between.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var p slicePool[int32]
	if s := p.get(); s != nil {
		t.Fatalf("an empty pool gave %v", s)
	}
	s := make([]int32, 5, 64)
	p.put(s)
	got := p.get()
	if !raceEnabled && (cap(got) != 64 || len(got) != 0 || &got[:1][0] != &s[0]) {
		t.Fatalf("got len %d cap %d, want the slice put, emptied", len(got), cap(got))
	}
	if raceEnabled {
		return // sync.Pool drops what is put at random
	}
	if n := testing.AllocsPerRun(100, func() {
		p.put(got)
		got = p.get()
	}); n > 0 {
		t.Errorf("%v allocations a put and get, want none", n)
	}
}
