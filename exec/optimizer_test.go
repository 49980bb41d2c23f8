package exec

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// resultText renders a result's cells, one row a line, for comparing
// answers.
func resultText(t *testing.T, s *Session, q string) string {
	t.Helper()
	res, err := s.Execute(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var b strings.Builder
	for r := range res.NumRows() {
		for c := range res.Columns {
			text, null := res.Cell(r, c)
			if null {
				text = "NULL"
			}
			b.WriteString(text + "\t")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// bytesRead runs q under EXPLAIN ANALYZE and returns the bytes it read.
func bytesRead(t *testing.T, s *Session, q string) int64 {
	t.Helper()
	a := explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+q).Analyze
	if a == nil || !a.MatchesPlan {
		t.Fatalf("%s: analysis %+v", q, a)
	}
	return a.BytesRead
}

// A query through a view, a CTE, a FROM subquery or a UNION ALL reads
// exactly the bytes of the same query written against the files, and
// answers the same; with the optimizer off it reads more, which is what
// the optimizer is for.
func TestOptimizedReadsEqualDirect(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const sorted, shuffled = "'fixtures/orders_sorted.parquet'", "'fixtures/orders_shuffled.parquet'"
	cases := []struct {
		name   string
		setup  string
		q      string
		direct []string // their bytes add up to q's
	}{
		{"view", "CREATE VIEW v AS SELECT * FROM " + sorted,
			"SELECT count(*) FROM v WHERE order_id < 1000",
			[]string{"SELECT count(*) FROM " + sorted + " WHERE order_id < 1000"}},
		{"view on view", "CREATE VIEW w AS SELECT order_id AS id, city, amount FROM " + sorted + " WHERE quantity > 2",
			"SELECT city, amount FROM (SELECT * FROM w) WHERE id BETWEEN 5000 AND 5100",
			[]string{"SELECT city, amount FROM " + sorted + " WHERE quantity > 2 AND order_id BETWEEN 5000 AND 5100"}},
		{"cte", "",
			"WITH c AS (SELECT * FROM " + shuffled + ") SELECT city, sum(amount) FROM c WHERE status = 'returned' GROUP BY city ORDER BY city",
			[]string{"SELECT city, sum(amount) FROM " + shuffled + " WHERE status = 'returned' GROUP BY city ORDER BY city"}},
		{"subquery", "",
			"SELECT sum(a) FROM (SELECT order_id AS id, amount AS a, city FROM " + sorted + ") WHERE city = 'Paris' AND id > 15000",
			[]string{"SELECT sum(amount) FROM " + sorted + " WHERE city = 'Paris' AND order_id > 15000"}},
		{"aggregate key", "",
			"SELECT * FROM (SELECT order_id, max(amount) AS m FROM " + sorted + " GROUP BY order_id) WHERE order_id >= 19995 ORDER BY order_id",
			[]string{"SELECT order_id, max(amount) AS m FROM " + sorted + " WHERE order_id >= 19995 GROUP BY order_id ORDER BY order_id"}},
		{"union all", "",
			"SELECT sum(amount) FROM (SELECT * FROM " + sorted + " UNION ALL SELECT * FROM " + shuffled + ") WHERE order_id < 1000",
			[]string{"SELECT sum(amount) FROM " + sorted + " WHERE order_id < 1000", "SELECT sum(amount) FROM " + shuffled + " WHERE order_id < 1000"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSession()
			if c.setup != "" {
				if _, err := s.Execute(context.Background(), c.setup); err != nil {
					t.Fatal(err)
				}
			}
			var want int64
			for _, d := range c.direct {
				want += bytesRead(t, s, d)
			}
			if got := bytesRead(t, s, c.q); got != want {
				t.Errorf("read %d bytes, the query on the files %d", got, want)
			}
			if len(c.direct) == 1 {
				if got, want := resultText(t, s, c.q), resultText(t, s, c.direct[0]); got != want {
					t.Errorf("answer\n%s\non the files\n%s", got, want)
				}
			}
			s.Settings.Optimizer = false
			if off := bytesRead(t, s, c.q); off <= want {
				t.Errorf("without the optimizer read %d bytes, not more than %d", off, want)
			}
		})
	}
}

// SET optimizer = false shows and runs the plan as written: the view
// stays a subquery reading every column; back on, it is inlined.
func TestSetOptimizer(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	for _, q := range []string{"CREATE VIEW v AS SELECT * FROM 'fixtures/orders_sorted.parquet'", "SET optimizer = false"} {
		if _, err := s.Execute(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	q := "EXPLAIN (FORMAT JSON) SELECT count(*) FROM v WHERE order_id < 1000"
	if p := planLines(explainJSON(t, s, q).Plan); !strings.Contains(p, "SUBQUERY v") || !strings.Contains(p, "columns [order_id, customer_id,") {
		t.Errorf("optimizer off:\n%s", p)
	}
	if _, err := s.Execute(context.Background(), "SET optimizer = true"); err != nil {
		t.Fatal(err)
	}
	if p := planLines(explainJSON(t, s, q).Plan); strings.Contains(p, "SUBQUERY") || !strings.Contains(p, "columns [order_id]") {
		t.Errorf("optimizer on:\n%s", p)
	}
	if _, err := s.Execute(context.Background(), "SET optimizer = maybe"); !errors.Is(err, ErrBadSetting) {
		t.Errorf("SET optimizer = maybe: %v, want ErrBadSetting", err)
	}
	if _, err := s.Execute(context.Background(), "SET memory_limit = 'lots'"); !errors.Is(err, ErrBadSetting) {
		t.Errorf("SET memory_limit = 'lots': %v, want ErrBadSetting", err)
	}
}

// A join whose hash table passes memory_limit fails with an error naming
// the limit; under the limit it runs.
func TestJoinMemoryLimit(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	q := "SELECT count(*) FROM 'fixtures/orders_sorted.parquet' a JOIN 'fixtures/orders_shuffled.parquet' b ON a.order_id = b.order_id"
	if _, err := s.Execute(context.Background(), "SET memory_limit = '100KB'"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Execute(context.Background(), q)
	if !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), "/97.6 KiB used)") {
		t.Errorf("100KB: %v, want ErrOutOfMemory naming the limit", err)
	}
	if _, err := s.Execute(context.Background(), "SET memory_limit = '64MiB'"); err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, s, q); got != "20000\t\n" {
		t.Errorf("64MiB: %q", got)
	}
}

// A CTE read twice with the same plan is run once: the query reads the
// bytes of the CTE's query alone. A reference with a filter of its own
// pushed into it has its own plan and reads again.
func TestCTEReadOnce(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const cte = "WITH c AS (SELECT city, count(*) AS n FROM 'fixtures/orders_sorted.parquet' GROUP BY city) "
	s := NewSession()
	once := bytesRead(t, s, "SELECT city, count(*) AS n FROM 'fixtures/orders_sorted.parquet' GROUP BY city")
	if got := bytesRead(t, s, cte+"SELECT count(*), sum(a.n + b.n) FROM c a JOIN c b ON a.city = b.city"); got != once {
		t.Errorf("a CTE joined with itself read %d bytes, its query alone %d", got, once)
	}
	if got := bytesRead(t, s, cte+"SELECT count(*) FROM c a JOIN c b ON a.city = b.city WHERE b.city = 'Oslo'"); got <= once {
		t.Errorf("with a filter pushed into a reference read %d bytes, not more than %d", got, once)
	}
	got, want := resultText(t, s, cte+"SELECT count(*), sum(a.n + b.n) FROM c a JOIN c b ON a.city = b.city"),
		resultText(t, s, "SELECT count(*), 2 * sum(n) FROM (SELECT city, count(*) AS n FROM 'fixtures/orders_sorted.parquet' GROUP BY city) WHERE city IS NOT NULL")
	if got != want {
		t.Errorf("answer\n%s\nwant\n%s", got, want)
	}
}
