package optimizer

import (
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// A file's estimate starts from the rows of the row groups its statistics
// keep for the WHERE, then takes a share per conjunct.
func TestEstimateUsesStatistics(t *testing.T) {
	t.Chdir(testcorpus.ModuleRoot(t))
	cases := []struct {
		q    string
		want int64
	}{
		// Statistics keep one row group of 4,000 rows of the sorted file.
		{"SELECT * FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19000", 800},
		// The shuffled file's row groups all hold every range of order_id.
		{"SELECT * FROM 'fixtures/orders_shuffled.parquet' WHERE order_id > 19000", 4000},
		// Statistics rule out every row group.
		{"SELECT * FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 30000", 0},
		{"SELECT * FROM 'fixtures/orders_sorted.parquet'", 20000},
		{"SELECT * FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19000 AND quantity = 1", 160},
	}
	for _, c := range cases {
		p := optimized(t, c.q)
		e := &estimator{rows: map[string]int64{}}
		if got := e.estimate(p); got != c.want {
			t.Errorf("%s: estimated %d rows, want %d", c.q, got, c.want)
		}
	}
}
