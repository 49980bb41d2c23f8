package exec

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// A file scanned while it is planned ends with the plan plain EXPLAIN makes
// of the whole file first, and EXPLAIN ANALYZE's account of it balances:
// the dictionary pages the plan read count as dictionary, though the scan
// read data meanwhile, and those it gave the scan are not read again; also
// when the scan stops before the file's end.
func TestPlanStreamedAsPlanned(t *testing.T) {
	t.Chdir(moduleRoot(t))
	queries := []string{
		"SELECT count(*), sum(amount) FROM 'fixtures/orders_shuffled.parquet' WHERE city = 'Oslo'",
		"SELECT order_id, city FROM 'fixtures/orders_shuffled.parquet' WHERE city IN ('Oslo', 'Nowhere') AND customer_id <> 17",
		"SELECT count(*) FROM 'fixtures/orders_shuffled.parquet' WHERE order_id < 1000 OR city = 'Reykjavík'",
		"SELECT sum(quantity) FROM 'fixtures/orders_sorted.parquet' WHERE order_id IN (17, 9000, 19999) OR status = 'nope'",
		"SELECT count(*) FROM 'fixtures/orders_shuffled.parquet' WHERE status = 'nope'",
		"SELECT count(*) FROM 'fixtures/orders_s*.parquet' WHERE city LIKE 'O%'",
		// The scan stops before the last row groups: EXPLAIN ANALYZE
		// judges them still, for the whole plan.
		"SELECT DISTINCT city FROM 'fixtures/orders_shuffled.parquet' WHERE city <> 'Oslo' LIMIT 2",
	}
	for _, threads := range []int{1, 2, 3} {
		s := NewSession()
		if _, err := s.Execute(context.Background(), fmt.Sprintf("SET threads = %d", threads)); err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			where := fmt.Sprintf("threads %d: %s", threads, q)
			plain := explainJSON(t, s, "EXPLAIN (FORMAT JSON) "+q)
			run := explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+q)
			if !reflect.DeepEqual(plain.Files, run.Files) || !reflect.DeepEqual(plain.Totals, run.Totals) {
				t.Errorf("%s: the plans run differ from EXPLAIN's:\n%+v\n%+v", where, run.Files, plain.Files)
			}
			a := run.Analyze
			if a == nil || !a.MatchesPlan {
				t.Fatalf("%s: the account does not balance: %+v", where, a)
			}
			if d := a.IO[ioDictionary]; d.Read != d.Planned {
				t.Errorf("%s: dictionary read %d, planned %d", where, d.Read, d.Planned)
			}
			if a.IO[ioOther].Read != 0 {
				t.Errorf("%s: %d bytes read for no structure", where, a.IO[ioOther].Read)
			}
		}
	}
}
