package exec

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// poolRowGroup is a row group of synthetic orders for the aggregates of
// TestPartialAggregatesReused, in batches of BatchSize rows: statuses,
// cities (some NULL) and quantities (NULL in every third row group) that
// differ from row group to row group, while every batch has as many rows.
func poolRowGroup(p *planner.Plan, r, batches int) []*batch {
	var bs []*batch
	for k := range batches {
		bs = append(bs, poolBatch(p, r+k, BatchSize))
	}
	return bs
}

// poolBatch is a batch of poolRowGroup.
func poolBatch(p *planner.Plan, r, n int) *batch {
	statuses := []string{"new", "paid", "shipped", "returned", "cancelled"}
	cities := []string{"Oslo", "Lima", "Pune", "Kyiv", "Łódź", "Quito", "Perth"}
	status := &Vector{Type: Type{ID: TypeVarchar}}
	city := &Vector{Type: Type{ID: TypeVarchar}, Nulls: make([]bool, n)}
	quantity := &Vector{Type: Type{ID: TypeSmallInt}}
	if r%3 == 0 {
		quantity.Nulls = make([]bool, n)
	}
	for i := range n {
		status.Str = append(status.Str, statuses[(i*(r+1)+i/3)%len(statuses)])
		city.Str = append(city.Str, cities[(i+r)%len(cities)])
		city.Nulls[i] = (i+r)%11 == 0
		quantity.Int = append(quantity.Int, int64(i%13+r))
		if quantity.Nulls != nil {
			quantity.Nulls[i] = i%5 == 0
		}
	}
	b := &batch{cols: make([]*Vector, len(p.Input)), n: n}
	for _, c := range []*Vector{status, city, quantity} {
		for i, in := range p.Input {
			if strings.EqualFold(in.Name, map[*Vector]string{status: "status", city: "city", quantity: "quantity"}[c]) {
				b.cols[i] = c
			}
		}
	}
	return b
}

// aggregatorLines finishes ag's groups, one line each, sorted.
func aggregatorLines(t *testing.T, ag *aggregator) []string {
	t.Helper()
	var lines []string
	for _, g := range ag.finalGroups() {
		var f []string
		for _, d := range g.keyDatums(nil) {
			f = append(f, fmt.Sprint(d))
		}
		for i, a := range ag.p.Aggs {
			d, err := finish(a, &g.aggs[i])
			if err != nil {
				t.Fatal(err)
			}
			f = append(f, fmt.Sprint(d))
		}
		lines = append(lines, strings.Join(f, "|"))
	}
	slices.Sort(lines)
	return lines
}

// TestPartialAggregatesReused checks that the row groups' partial
// aggregates of a scan are reused from row group to row group, reset
// rather than made anew: once warm, a row group's partial aggregate,
// consumed and merged, allocates (almost) nothing, where making one costs
// dozens of allocations (the aggregator, its tables, slabs and buffers).
// And that a reset one answers as a new one does: each row group has as
// many rows as the one before (updateFew's per-batch counts), other groups,
// NULL keys and NULL arguments in some.
func TestPartialAggregatesReused(t *testing.T) {
	t.Chdir(moduleRoot(t))
	for _, q := range []string{
		"SELECT status, city, count(*), sum(quantity), max(city) FROM 'fixtures/orders_shuffled.parquet' GROUP BY status, city",
		"SELECT city, count(*), sum(quantity), min(status) FROM 'fixtures/orders_shuffled.parquet' GROUP BY city",
		"SELECT count(*), sum(quantity), max(city), avg(quantity) FROM 'fixtures/orders_shuffled.parquet'",
		// Groups held in columns (groupcols.go).
		"SELECT quantity, count(*), sum(quantity), count(quantity), avg(quantity) FROM 'fixtures/orders_shuffled.parquet' GROUP BY quantity",
		// A DISTINCT set is made for each group of each row group, and
		// taken by the query's aggregate: those allocations stay.
		"SELECT status, city, count(DISTINCT quantity) FROM 'fixtures/orders_shuffled.parquet' GROUP BY status, city",
		"SELECT count(DISTINCT status), min(quantity) FROM 'fixtures/orders_shuffled.parquet'",
	} {
		t.Run(q, func(t *testing.T) {
			st, err := planner.Parse(q)
			if err != nil {
				t.Fatal(err)
			}
			p, err := planner.Build(st.(*planner.Select), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !mergeable(p) {
				t.Fatal("the plan is not aggregated per row group")
			}
			// Rows enough for partial aggregation to be worth it:
			// partialRowsPerGroup for each of up to 40 groups.
			const rowGroups, batches = 40, 6
			if batches*BatchSize < 40*partialRowsPerGroup {
				t.Fatalf("%d rows a row group are too few for partial aggregation", batches*BatchSize)
			}
			consume := func(ag *aggregator, bs []*batch) {
				t.Helper()
				for _, b := range bs {
					if err := ag.consumeBatch(b); err != nil {
						t.Fatal(err)
					}
				}
			}
			var pool aggPool
			pooled, fresh := newAggregator(p), newAggregator(p)
			var first *aggregator
			for r := range rowGroups {
				part := pool.take(p)
				if r == 0 {
					first = part
				} else if part != first {
					t.Fatalf("row group %d: a new partial aggregate, not the one handed back", r)
				}
				if n := part.numGroups(); n != 0 || part.consumed != 0 {
					t.Fatalf("row group %d: the partial aggregate taken holds %d groups, %d rows", r, n, part.consumed)
				}
				consume(part, poolRowGroup(p, r, batches))
				pooled.merge(part)
				one := newAggregator(p)
				consume(one, poolRowGroup(p, r, batches))
				fresh.merge(one)
			}
			got, want := aggregatorLines(t, pooled), aggregatorLines(t, fresh)
			if !slices.Equal(got, want) {
				t.Fatalf("reused partial aggregates answer\n%s\nnew ones\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			bs := poolRowGroup(p, 7, batches)
			allocs := testing.AllocsPerRun(20, func() {
				part := pool.take(p)
				consume(part, bs)
				pooled.merge(part)
			})
			made := testing.AllocsPerRun(20, func() {
				part := newAggregator(p)
				consume(part, bs)
				fresh.merge(part)
			})
			t.Logf("allocations a row group: %.0f reused, %.0f new", allocs, made)
			if strings.Contains(q, "DISTINCT") {
				return
			}
			if allocs > 2 || made < 10 {
				t.Fatalf("a row group's partial aggregate allocates %.0f times reused, %.0f new: want at most 2 reused, and reuse to matter (at least 10 new)", allocs, made)
			}
		})
	}
}

// TestPartialAggregateOfManyGroupsNotKept checks that a partial aggregate
// of more groups than its rows make worth aggregating per row group, after
// which the scan stops doing so, is not kept for reuse with its slabs.
func TestPartialAggregateOfManyGroupsNotKept(t *testing.T) {
	t.Chdir(moduleRoot(t))
	st, err := planner.Parse("SELECT status, city, count(*) FROM 'fixtures/orders_shuffled.parquet' GROUP BY status, city")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	var pool aggPool
	final := newAggregator(p)
	part := pool.take(p)
	// 40 groups in 256 rows.
	if err := part.consumeBatch(poolBatch(p, 1, 256)); err != nil {
		t.Fatal(err)
	}
	final.merge(part)
	if len(pool.free) != 0 {
		t.Fatalf("the pool keeps a partial aggregate of %d groups in %d rows", final.numGroups(), 256)
	}
	part = pool.take(p)
	for _, b := range poolRowGroup(p, 1, 6) {
		if err := part.consumeBatch(b); err != nil {
			t.Fatal(err)
		}
	}
	final.merge(part)
	if len(pool.free) != 1 {
		t.Fatalf("the pool keeps %d partial aggregates of %d rows, want 1", len(pool.free), 6*BatchSize)
	}
}
