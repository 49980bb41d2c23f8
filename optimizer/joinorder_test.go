package optimizer

import (
	"slices"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
	"github.com/pqsql/pqsql/planner"
)

// optimized plans and optimizes q.
func optimized(t *testing.T, q string) *planner.Plan {
	t.Helper()
	st, err := planner.Parse(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	p, err := planner.Build(st.(*planner.Select), views{})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return Optimize(p)
}

// scanSource returns the source of the file scan p reads directly
// (through projections and filters), "" when it reads something else.
func scanSource(p *planner.Plan) string {
	for p.Scan != nil && p.Scan.Subquery != nil && !p.Scan.Subquery.Single {
		p = p.Scan.Subquery
	}
	if s := p.Scan; s != nil && len(s.Files) > 0 && s.Join == nil {
		return s.Source
	}
	return ""
}

// joinsOf returns the joins in p, parents first.
func joinsOf(p *planner.Plan) []*planner.Join {
	var out []*planner.Join
	eachPlan(p, func(q *planner.Plan) {
		if q.Scan != nil && q.Scan.Join != nil {
			out = append(out, q.Scan.Join)
		}
	})
	return out
}

// The smallest input of a chain is joined first and is the hash table's
// side, wherever it was written; the result keeps the written columns.
func TestJoinOrderBuildsOnSmallestInput(t *testing.T) {
	t.Chdir(testcorpus.ModuleRoot(t))
	const (
		sorted   = "'fixtures/orders_sorted.parquet'"
		shuffled = "'fixtures/orders_shuffled.parquet'"
		stats    = "'fixtures/statistics.parquet'"
		types    = "'fixtures/types.parquet'"
	)
	cases := []struct {
		name, q string
		// small is the input that must be built on at the deepest join,
		// next the one it must be joined with.
		small, next string
		columns     []string
	}{
		{"small written last",
			"SELECT a.order_id, b.city, s.coupon FROM " + sorted + " a JOIN " + shuffled + " b ON a.order_id = b.order_id JOIN " + stats + " s ON s.order_id = b.order_id",
			stats, shuffled, []string{"order_id", "city", "coupon"}},
		{"comma joins, small first in the WHERE",
			"SELECT * FROM " + sorted + " a, " + shuffled + " b, " + types + " t WHERE t.id = b.order_id AND a.order_id = b.order_id",
			types, shuffled, nil},
		{"four inputs, the filter makes the smallest",
			"SELECT count(*) FROM " + types + " t, " + sorted + " a, " + shuffled + " b, " + stats + " s WHERE a.order_id = b.order_id AND s.order_id = a.order_id AND t.id = s.order_id AND s.delta < 0 AND s.city <> 'Berlin' AND s.coupon IS NOT NULL",
			stats, types, []string{"count_star()"}},
		{"an input connected to the smallest beats a smaller one that is not",
			"SELECT count(*) FROM " + sorted + " a, " + types + " t, " + shuffled + " b, " + stats + " s WHERE a.order_id = s.order_id AND b.customer_id = a.customer_id AND t.id = b.order_id AND s.delta < 0 AND s.city <> 'Berlin'",
			stats, sorted, []string{"count_star()"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			written := optimized(t, c.q)
			joins := joinsOf(written)
			if len(joins) < 2 {
				t.Fatalf("%d joins:\n%s", len(joins), written.Explain())
			}
			deepest := joins[len(joins)-1]
			build, probe := deepest.Right, deepest.Left
			if deepest.BuildLeft {
				build, probe = deepest.Left, deepest.Right
			}
			if got := scanSource(build); got != c.small {
				t.Errorf("deepest join builds on %q, want %q:\n%s", got, c.small, written.Explain())
			}
			if got := scanSource(probe); got != c.next {
				t.Errorf("deepest join probes %q, want %q:\n%s", got, c.next, written.Explain())
			}
			if joins[0].Order == "" {
				t.Errorf("the chain's last join does not say its order:\n%s", written.Explain())
			}
			if c.columns != nil {
				var names []string
				for _, col := range written.Columns {
					names = append(names, col.Name)
				}
				if !slices.Equal(names, c.columns) {
					t.Errorf("columns %v, want %v", names, c.columns)
				}
			}
		})
	}
}

// A chain whose written order is already the chosen one keeps its
// columns without a projection on top, as does a join of two inputs
// one of which is an outer join.
func TestJoinOrderKeepsWrittenOrder(t *testing.T) {
	t.Chdir(testcorpus.ModuleRoot(t))
	cases := []struct{ name, q string }{
		{"already smallest first",
			"SELECT count(*) FROM 'fixtures/types.parquet' t JOIN 'fixtures/statistics.parquet' s ON t.id = s.order_id JOIN 'fixtures/orders_sorted.parquet' a ON a.order_id = s.order_id"},
		{"two inputs and an outer join",
			"SELECT count(*) FROM 'fixtures/orders_sorted.parquet' a LEFT JOIN 'fixtures/orders_shuffled.parquet' b ON a.order_id = b.order_id JOIN 'fixtures/statistics.parquet' s ON s.order_id = a.order_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := optimized(t, c.q)
			// count(*) reads the join's rows directly: no projection was
			// put between them.
			if p.Scan.Join == nil {
				t.Fatalf("a plan between the aggregate and the join:\n%s", p.Explain())
			}
		})
	}
}

// A chain with a condition calling a volatile function keeps its written
// order: the condition is evaluated on the pairs it was written for.
func TestJoinOrderKeepsVolatileChain(t *testing.T) {
	t.Chdir(testcorpus.ModuleRoot(t))
	st, err := planner.Parse("SELECT count(*) FROM 'fixtures/orders_sorted.parquet' a JOIN 'fixtures/orders_shuffled.parquet' b ON a.order_id = b.order_id JOIN 'fixtures/statistics.parquet' s ON s.order_id = b.order_id")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), views{})
	if err != nil {
		t.Fatal(err)
	}
	p = pushFilters(p)
	j := p.Scan.Join
	// No volatile function is implemented yet; the rule must hold for
	// the day one is.
	j.Residual = &planner.Binary{Op: "<", L: &planner.Call{Name: "random", T: planner.Type{ID: planner.TypeDouble}},
		R: &planner.Const{Value: planner.Datum{F: 2}, T: planner.Type{ID: planner.TypeDouble}}, T: planner.Type{ID: planner.TypeBoolean}}
	before := p.Explain()
	if after := orderJoins(p).Explain(); after != before {
		t.Errorf("reordered a chain with a volatile condition:\n%s", after)
	}
	j.Residual = nil
	if after := orderJoins(p).Explain(); after == before {
		t.Errorf("without the volatile condition the chain should be reordered:\n%s", after)
	}
}
