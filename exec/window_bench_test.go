package exec

import (
	"context"
	"testing"
)

// BenchmarkWindow runs window functions over the 20,000 fixture orders:
// one sort per distinct (PARTITION BY, ORDER BY), then each function.
func BenchmarkWindow(b *testing.B) {
	const f = "'../fixtures/orders_sorted.parquet'"
	queries := []struct{ name, q string }{
		{"RowNumberByCustomer", "SELECT count(*) FROM (SELECT row_number() OVER (PARTITION BY customer_id ORDER BY order_id) AS rn FROM " + f + ") WHERE rn = 1"},
		{"RankWholeInput", "SELECT max(r) FROM (SELECT rank() OVER (ORDER BY quantity) AS r FROM " + f + ")"},
		{"RunningSum", "SELECT max(s) FROM (SELECT sum(quantity) OVER (ORDER BY order_id) AS s FROM " + f + ")"},
		{"SlidingAvg", "SELECT max(a) FROM (SELECT avg(quantity) OVER (ORDER BY order_id ROWS BETWEEN 10 PRECEDING AND 10 FOLLOWING) AS a FROM " + f + ")"},
		{"LagLead", "SELECT count(*) FROM (SELECT lag(order_id) OVER w AS l, lead(order_id) OVER w AS n FROM " + f + " WINDOW w AS (PARTITION BY customer_id ORDER BY order_id)) WHERE l IS NULL"},
	}
	for _, bq := range queries {
		b.Run(bq.name, func(b *testing.B) {
			s := NewSession()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Execute(context.Background(), bq.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
