package exec

import (
	"context"
	"testing"
)

// TestSubqueryNamesQuoteFiles checks the name of a subquery reading a file,
// which the query suite cannot hold (its S3 run rewrites the paths): DuckDB
// 1.5.6 prints the file as a quoted name and a table function as written.
func TestSubqueryNamesQuoteFiles(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	for q, want := range map[string]string{
		`SELECT (SELECT max(order_id) FROM 'fixtures/statistics.parquet')`:                                       `(SELECT max(order_id) FROM "fixtures/statistics.parquet")`,
		`SELECT 2 IN (SELECT order_id FROM read_parquet('fixtures/statistics.parquet') AS t WHERE order_id > 1)`: `(2 = ANY(SELECT order_id FROM read_parquet('fixtures/statistics.parquet') AS t WHERE (order_id > 1)))`,
	} {
		res, err := s.Execute(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(res.Columns) != 1 || res.Columns[0] != want {
			t.Errorf("%s: named %q, want %q", q, res.Columns, want)
		}
	}
}
