package pushdown

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// TestPlannerReuse checks that one Planner planning files one after
// another, as a scan of a glob does, returns the plans fresh planners
// return, and that a later plan leaves the earlier ones as they were: the
// scratch it keeps from file to file must not show through.
func TestPlannerReuse(t *testing.T) {
	ds, gens := fixtureGens(t, 7)
	r := rand.New(rand.NewSource(11))
	var pl Planner
	type planned struct {
		what         string
		reused, want *FilePlan
	}
	var all []planned
	for k := range 300 {
		i := r.Intn(len(ds))
		d := ds[i]
		var tree Expr
		if k%5 != 0 {
			tree = gens[i].tree(0)
		}
		opt := randomOptions(r)
		opt.Threads = 1 + r.Intn(3)
		var leaves []int
		for l := range d.f.Schema.Leaves {
			if r.Intn(2) == 0 {
				leaves = append(leaves, l)
			}
		}
		want, werr := Plan(d.f, tree, leaves, opt)
		got, gerr := pl.Plan(d.f, tree, leaves, opt)
		what := d.name + ": no predicate"
		if tree != nil {
			what = d.name + ": " + describe(tree)
		}
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s (options %s): reused planner: %v, fresh: %v", what, opt, gerr, werr)
		}
		if werr != nil {
			continue
		}
		if !samePlan(got, want) {
			t.Fatalf("%s (options %s): the reused planner's plan differs from a fresh one's:\n%s\nwant\n%s", what, opt, explainText(got), explainText(want))
		}
		all = append(all, planned{what, got, want})
	}
	for _, p := range all {
		if !samePlan(p.reused, p.want) {
			t.Fatalf("%s: the plan changed once later files were planned", p.what)
		}
	}
}

func explainText(p *FilePlan) string {
	var b strings.Builder
	if err := p.Explain(&b, ExplainOptions{Verbose: true}); err != nil {
		return err.Error()
	}
	return b.String()
}

// samePlan compares two plans of one file and predicate. The resolved
// predicates are compared as written: residual parts hold functions, which
// compare equal only when nil.
func samePlan(a, b *FilePlan) bool {
	x, y := *a, *b
	x.Predicate, y.Predicate = nil, nil
	return a.Predicate.String() == b.Predicate.String() && reflect.DeepEqual(x, y)
}

// fixtureGens decodes the fixtures whose plans the planner tests compare,
// each with a generator of predicates over its values seeded from seed.
func fixtureGens(t *testing.T, seed int64) ([]*fileData, []*treeGen) {
	var ds []*fileData
	var gens []*treeGen
	for i, name := range []string{"orders_sorted.parquet", "orders_shuffled.parquet", "statistics.parquet", "types.parquet", "nested.parquet", "structs.parquet"} {
		d := decodeFile(t, openFixture(t, name))
		ds = append(ds, d)
		gens = append(gens, newTreeGen(d, seed+int64(i)))
	}
	return ds, gens
}
