package pushdown

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"
)

// Judging row groups on several goroutines changes nothing in a plan: not
// a verdict, a byte count, a note nor their order.
func TestPlanThreadsChangeNothing(t *testing.T) {
	for i, name := range []string{"orders_sorted.parquet", "orders_shuffled.parquet", "statistics.parquet"} {
		t.Run(name, func(t *testing.T) {
			f := openFixture(t, name)
			if len(f.Meta.RowGroups) < 2 {
				t.Fatalf("%s has %d row groups; the test needs several", name, len(f.Meta.RowGroups))
			}
			d := decodeFile(t, f)
			g := newTreeGen(d, 7+int64(i))
			r := rand.New(rand.NewSource(11 + int64(i)))
			all := allLeaves(f)
			for range 150 {
				tree := g.tree(0)
				opt := randomOptions(r)
				one, err := Plan(f, tree, all, opt)
				if err != nil {
					t.Fatalf("Plan(%s): %v", describe(tree), err)
				}
				opt.Threads = 2 + r.Intn(3)
				many, err := Plan(f, tree, all, opt)
				if err != nil {
					t.Fatalf("Plan(%s) on %d threads: %v", describe(tree), opt.Threads, err)
				}
				one.Options.Threads = opt.Threads
				var a, b bytes.Buffer
				if err := one.Explain(&a, ExplainOptions{Verbose: true}); err != nil {
					t.Fatal(err)
				}
				if err := many.Explain(&b, ExplainOptions{Verbose: true}); err != nil {
					t.Fatal(err)
				}
				if a.String() != b.String() {
					t.Fatalf("%s: one thread explains\n%s\n%d threads explain\n%s", describe(tree), a.String(), opt.Threads, b.String())
				}
				// A residual's function compares unequal to itself; the
				// text above compared the predicates.
				one.Predicate, many.Predicate = nil, nil
				if !reflect.DeepEqual(one, many) {
					t.Fatalf("%s: the plans on one and on %d threads differ", describe(tree), opt.Threads)
				}
			}
		})
	}
}
