package exec

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/errclass"
	"github.com/pqsql/pqsql/optimizer"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/sql"
)

// UNION ALL streams: its branches run one after the other, each batch
// passed on as it is made, so the first reaches the reader while the first
// branch still scans, and the live heap does not grow with the input.
func TestUnionAllStreams(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	const q = "SELECT * FROM " + ordersTimes5 + " UNION ALL SELECT * FROM " + ordersTimes5
	res, err := s.Stream(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	first, err := res.Next()
	if err != nil || first == nil {
		t.Fatalf("first batch: %v, %v", first, err)
	}
	time.Sleep(300 * time.Millisecond)
	rs := res.stream
	if rs.ended.Load() {
		t.Fatal("the query ended before its reader took a second batch")
	}
	if sent := rs.sent.Load(); sent > streamBuffer+1 {
		t.Fatalf("%d batches handed over with one read, want at most %d", sent, streamBuffer+1)
	}
	rows := first.Len
	for {
		b, err := res.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		rows += b.Len
	}
	if rows != 200000 {
		t.Fatalf("%d rows, want 200000", rows)
	}

	// Three times the input takes about the heap of once.
	run := func(q string) uint64 {
		return peakHeap(t, func() error {
			res, err := s.Stream(context.Background(), q)
			if err != nil {
				return err
			}
			defer res.Close()
			for {
				b, err := res.Next()
				if b == nil || err != nil {
					return err
				}
			}
		})
	}
	once := run("SELECT * FROM " + ordersTimes5)
	twice := run("SELECT * FROM " + ordersTimes5 + " UNION ALL SELECT * FROM " + ordersTimes5 + " UNION ALL SELECT * FROM " + ordersTimes5)
	if twice > once+once/2+(8<<20) {
		t.Errorf("peak heap %d MB for three branches, %d MB for one", twice>>20, once>>20)
	}
}

// UNION, INTERSECT and EXCEPT hold their keys, not their inputs: 200,000
// rows of 20,000 distinct ones stay far below the 100 MB the inputs take
// as rows. The keys count against memory_limit, which they fail at with an
// Out of Memory error naming it.
func TestSetOpsHoldKeysOnly(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	const both = "SELECT * FROM " + ordersTimes5 + " %s SELECT * FROM " + ordersTimes5
	var rows int
	peak := peakHeap(t, func() error {
		res, err := s.Stream(context.Background(), fmt.Sprintf(both, "UNION"))
		if err != nil {
			return err
		}
		defer res.Close()
		for {
			b, err := res.Next()
			if b == nil || err != nil {
				return err
			}
			rows += b.Len
		}
	})
	if rows != 20000 {
		t.Errorf("UNION: %d rows, want 20000", rows)
	}
	if peak > 40<<20 {
		t.Errorf("UNION: peak heap %d MB, want at most 40 MB", peak>>20)
	}
	mustExec(t, s, "SET memory_limit = '1MB'")
	for _, op := range []string{"UNION", "INTERSECT", "EXCEPT", "INTERSECT ALL", "EXCEPT ALL"} {
		_, err := s.Execute(context.Background(), fmt.Sprintf(both, op))
		if !errors.Is(err, errclass.OutOfMemory) || !strings.Contains(err.Error(), "/976.5 KiB used)") {
			t.Errorf("%s under 1MB: %v, want an Out of Memory error naming 976.5 KiB", op, err)
		}
	}
}

// valuesQuery sums a VALUES list of n rows.
func valuesQuery(n int) string {
	var b strings.Builder
	b.WriteString("SELECT count(*), sum(y) FROM (VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, %d)", i, 2*i)
	}
	b.WriteString(") t(x, y)")
	return b.String()
}

// The n-1 nested UNION ALLs of a VALUES list of n rows run as one level of
// n sides, so each row moves through one level: with each level passing
// rows to the next, 3,000 rows took 18 s, growing with the square.
func TestUnionAllChainRunsAsOneLevel(t *testing.T) {
	const rows = 1000
	q := valuesQuery(rows)
	st, err := planner.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*sql.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	p = optimizer.Optimize(p)
	for p.Scan.SetOp == nil {
		if p.Scan.Subquery == nil {
			t.Fatal("no UNION ALL in the plan")
		}
		p = p.Scan.Subquery
	}
	if got := len(unionAllSides(p.Scan.SetOp, len(p.Columns))); got != rows {
		t.Fatalf("%d sides, want %d", got, rows)
	}
	res, err := NewSession().Execute(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(textRows(res), "\n"); got != "1000|999000" {
		t.Fatalf("answer %q", got)
	}
}

// BenchmarkValuesRows runs VALUES lists of two sizes: ns/op must grow
// linearly with the rows (go test ./exec -run XXX -bench ValuesRows).
func BenchmarkValuesRows(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		q := valuesQuery(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := NewSession().Execute(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
