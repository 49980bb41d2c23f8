package exec

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// TestTableMemory checks the memory of large GROUP BY tables held outside
// the Go heap: zeroed when given, counted while mapped, unmapped when a
// table is replaced and when the groups are released.
func TestTableMemory(t *testing.T) {
	if mapTable(1) == nil {
		t.Skip("tables live in the Go heap on this platform")
	}
	base := TableMemory()
	m := &tableMem{}
	big := m.words(ownMapping / 8)
	small := m.words(1000)
	small2 := m.words(1000)
	for _, w := range [][]int64{big, small, small2} {
		for i, x := range w {
			if x != 0 {
				t.Fatalf("word %d of %d is %d, not zero", i, len(w), x)
			}
			w[i] = int64(i)
		}
	}
	if &small[len(small)-1] == &small2[0] || cap(small) != 1000 {
		t.Fatalf("blocks cut from one chunk overlap (cap %d)", cap(small))
	}
	if got := TableMemory() - base; got < ownMapping+chunkBytes {
		t.Fatalf("%d bytes counted, want at least %d", got, ownMapping+chunkBytes)
	}
	m.drop(big)
	if got := TableMemory() - base; got != chunkBytes {
		t.Fatalf("after dropping the large table %d bytes counted, want %d", got, chunkBytes)
	}
	m.drop(small) // not a mapping of its own: nothing happens
	if small2[999] != 999 {
		t.Fatal("a block changed")
	}
	m.release()
	if got := TableMemory() - base; got != 0 {
		t.Fatalf("after release %d bytes counted", got)
	}
}

// TestTableMemoryReleasedAfterQuery runs GROUP BYs whose tables are large
// enough to live outside the Go heap: once their result is read, nothing
// stays mapped; and the table of groups a query abandoned is unmapped when
// the collector finds it unreachable.
func TestTableMemoryReleasedAfterQuery(t *testing.T) {
	if mapTable(1) == nil {
		t.Skip("tables live in the Go heap on this platform")
	}
	base := TableMemory()
	q := "SELECT (i * 7919) % 200000 AS k, count(*), sum(i) FROM (SELECT range AS i FROM range(400000)) GROUP BY k"
	for _, threads := range []int{1, 2} {
		s := NewSession()
		mustExec(t, s, fmt.Sprintf("SET threads = %d", threads))
		if got := len(resultLines(t, s, q)); got != 200000 {
			t.Fatalf("%d groups, want 200000", got)
		}
		if got := TableMemory() - base; got != 0 {
			t.Fatalf("threads %d: %d bytes still mapped after the result", threads, got)
		}
	}
	func() {
		c := &colPart{}
		c.tableMem().words(ownMapping / 8)
	}()
	if TableMemory() == base {
		t.Fatal("nothing mapped")
	}
	for i := 0; TableMemory() != base; i++ {
		if i == 100 {
			t.Fatalf("%d bytes still mapped for groups no one holds", TableMemory()-base)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
