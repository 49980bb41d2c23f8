package format

import (
	"reflect"
	"testing"
)

// The footer's bytes go back to the fetch pools once decoded: nothing
// decoded points into them, and the scan's first reads reuse them.
func TestFooterBytesServeLaterFetches(t *testing.T) {
	f, err := Open("../fixtures/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	n := f.FooterSize - footerTail
	if sizeClass(n) < 0 {
		t.Fatalf("the fixture's footer of %d bytes is too small to pool", n)
	}
	src, closer, err := OpenLocal("../fixtures/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	defer keepIdleBuffers()()
	before := idleOfClass(n)
	g, err := OpenSource(src, "orders_sorted.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if after := idleOfClass(n); after != before+1 {
		t.Errorf("idle buffers able to serve %d bytes: %d after opening, %d before; want one more", n, after, before)
	}
	if !reflect.DeepEqual(g.Meta, f.Meta) {
		t.Error("the footer decoded from pooled bytes differs")
	}
}

// idleOfClass counts the idle buffers that can serve n bytes.
func idleOfClass(n int64) int {
	fp := &fetchPools
	fp.mu.Lock()
	defer fp.mu.Unlock()
	k := 0
	for c := sizeClass(n); c < numClasses; c++ {
		k += len(fp.free[c])
	}
	return k
}

// keepIdleBuffers empties the fetch pools, and returns what puts back
// what they held.
func keepIdleBuffers() func() {
	fp := &fetchPools
	fp.mu.Lock()
	defer fp.mu.Unlock()
	saved, idle := fp.free, fp.idle
	fp.free, fp.idle = [numClasses][][]byte{}, 0
	return func() {
		fp.mu.Lock()
		defer fp.mu.Unlock()
		fp.free, fp.idle = saved, idle
	}
}
