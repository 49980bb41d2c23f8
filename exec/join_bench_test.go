package exec

import (
	"context"
	"fmt"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
	"github.com/pqsql/pqsql/planner"
)

// BenchmarkSelectiveJoin joins the 20 customers of a small filtered side
// to the 1M-row orders file on customer_id, with and without join filters;
// it reports the bytes read per query.
func BenchmarkSelectiveJoin(b *testing.B) {
	big := testcorpus.BenchOrdersFile(b)
	b.Chdir(testcorpus.ModuleRoot(b))
	q := fmt.Sprintf("SELECT count(*), sum(b.amount) FROM (SELECT customer_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id <= 20) a JOIN '%s' b ON a.customer_id = b.customer_id", big)
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("join_filters=%v", on), func(b *testing.B) {
			s := NewSession()
			s.Settings.JoinFilters = on
			var bytes int64
			for b.Loop() {
				x := &executor{settings: s.Settings}
				p, err := s.plan(context.Background(), mustSelect(b, q), x)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := x.result(context.Background(), p); err != nil {
					b.Fatal(err)
				}
				bytes = x.stats.IO.Bytes
			}
			b.ReportMetric(float64(bytes), "bytes/op")
		})
	}
}

// mustSelect parses a query.
func mustSelect(b *testing.B, q string) *planner.Select {
	b.Helper()
	st, err := planner.Parse(q)
	if err != nil {
		b.Fatal(err)
	}
	sel, ok := st.(*planner.Select)
	if !ok {
		b.Fatalf("%s is not a query", q)
	}
	return sel
}
