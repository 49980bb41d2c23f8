package exec

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pqsql/pqsql/errclass"
)

// perRowSubquery is a correlated subquery no join rewrite covers (its
// correlation is no equality), so it runs once per distinct outer value:
// about 2,000 runs over the whole file.
const perRowSubquery = "SELECT count(*) FROM 'fixtures/orders_sorted.parquet' a WHERE a.quantity = 10 OR EXISTS " +
	"(SELECT 1 FROM 'fixtures/orders_shuffled.parquet' s WHERE s.order_id > a.order_id + 19990 AND s.quantity > a.quantity)"

// Ctrl-C stops a query while it runs its correlated subquery for one outer
// value after another, promptly, with context.Canceled.
func TestCorrelatedSubqueryStopsWhenCancelled(t *testing.T) {
	t.Chdir(moduleRoot(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err := NewSession().Execute(ctx, perRowSubquery)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the query ran %v, cancelled after 300ms", took)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// The runs of a correlated subquery count against memory_limit: one whose
// rows for one outer value do not fit fails with Out of Memory, not
// silently past the limit.
func TestCorrelatedSubqueryHonoursMemoryLimit(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	mustExec(t, s, "SET memory_limit = '1MB'")
	q := "SELECT a.order_id, (SELECT count(*) FROM (SELECT DISTINCT order_id, note, city FROM " + ordersTimes5 +
		" WHERE order_id > a.order_id) t) FROM 'fixtures/orders_sorted.parquet' a WHERE a.order_id < 3"
	_, err := s.Execute(context.Background(), q)
	if !errors.Is(err, errclass.OutOfMemory) {
		t.Fatalf("err = %v, want Out of Memory", err)
	}
	// Under the default limit the same query runs.
	res := mustExec(t, NewSession(), q)
	var got []int64
	for {
		b, err := res.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		got = append(got, b.Vectors[1].Int...)
	}
	if len(got) != 2 || got[0] != 19999 || got[1] != 19998 {
		t.Fatalf("counts %v, want [19999 19998]", got)
	}
}
