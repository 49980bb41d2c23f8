package exec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// TestGroupPipeMatchesOneThread runs GROUP BYs whose groups split into
// parts aggregated side by side (grouppipe.go) and compares their answers
// with one thread's, where nothing splits: the same groups with the same
// counts and sums, float sums to the last bit (each part meets its rows in
// input order), NULL arguments included (priority has them).
func TestGroupPipeMatchesOneThread(t *testing.T) {
	t.Chdir(moduleRoot(t))
	lowerSplit(t)
	for _, from := range []string{"'fixtures/orders_shuffled.parquet'", "'fixtures/orders_sorted.parquet'", ordersTimes5} {
		for _, key := range []string{"customer_id", "quantity", "order_id"} {
			q := fmt.Sprintf("SELECT %s, count(*), sum(amount), sum(discount), avg(quantity), count(priority), sum(priority) FROM %s GROUP BY %s", key, from, key)
			one := NewSession().Settings
			one.Threads = 1
			want, x := newAnswer(q, one)
			if strings.HasPrefix(want, "error") {
				t.Fatalf("%s: %s", q, want)
			}
			if x.stats.AggregateParts != 0 {
				t.Fatalf("%s: one thread split the groups into %d parts", q, x.stats.AggregateParts)
			}
			for _, threads := range []int{2, 3} {
				s := NewSession().Settings
				s.Threads = threads
				got, x := newAnswer(q, s)
				if x.stats.AggregateParts < 2 {
					t.Fatalf("%s, %d threads: the groups were not aggregated in parts (%d)", q, threads, x.stats.AggregateParts)
				}
				if sortedLines(got) != sortedLines(want) {
					t.Fatalf("%s, %d threads: answers differ\ngot:\n%s\nwant:\n%s", q, threads, firstLines(sortedLines(got), 5), firstLines(sortedLines(want), 5))
				}
			}
		}
	}
}

// TestGroupPipePanicReachesConsumer checks that a part's job that panics
// on its own goroutine panics again on the consumer's, where the session
// turns it into an error, rather than ending the process; and that the
// batch is released all the same.
func TestGroupPipePanicReachesConsumer(t *testing.T) {
	t.Chdir(moduleRoot(t))
	lowerSplit(t)
	st, err := planner.Parse("SELECT customer_id, count(*), sum(quantity) FROM 'fixtures/orders_sorted.parquet' GROUP BY customer_id")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	gc := newGroupCols(p)
	if gc == nil {
		t.Fatal("the plan's groups are not held in columns")
	}
	gc.workers = 2
	keys := &Vector{Type: Type{ID: TypeBigInt}, Int: []int64{1, 2, 3, 4, 5, 6, 7, 8}}
	vals := &Vector{Type: Type{ID: TypeBigInt}, Int: []int64{1, 1, 1, 1, 1, 1, 1, 1}}
	srcs := []source{{vec: keys}, {}, {vec: vals}}
	gc.consume(srcs, 8)
	if gc.pipe == nil {
		t.Fatal("8 groups did not split")
	}
	b := &batch{cols: []*Vector{keys, vals}, n: 8}
	if !gc.consumeOwned(b, srcs) {
		t.Fatal("a batch of plain columns was not queued")
	}
	gc.settle()
	if n := gc.numGroups(); n != 8 {
		t.Fatalf("%d groups, want 8", n)
	}
	// A row past the batch's end: the part's probe indexes out of range.
	hold := &batchHold{b: &batch{cols: []*Vector{keys, vals}, n: 8}}
	hold.refs.Store(1)
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Error("the part's panic did not reach the consumer")
			}
		}()
		sels := make([][]int32, len(gc.parts))
		sels[1] = []int32{100}
		gc.sendHeld(hold, srcs, sels)
		gc.settle()
	}()
	if hold.refs.Load() != 0 {
		t.Error("the batch of the job that panicked was not released")
	}
}
