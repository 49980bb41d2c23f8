package exec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/errclass"
	"github.com/pqsql/pqsql/planner"
)

// ordersTimes5 reads the two 20,000-row orders fixtures five times over:
// 100,000 rows, each order_id five times.
const ordersTimes5 = "read_parquet(['fixtures/orders_shuffled.parquet', 'fixtures/orders_sorted.parquet', " +
	"'fixtures/orders_shuffled.parquet', 'fixtures/orders_sorted.parquet', 'fixtures/orders_shuffled.parquet'])"

// answerText renders every cell of a result, one row a line.
func answerText(res *Result) string {
	var b strings.Builder
	var buf []byte
	for _, bt := range res.Batches {
		for r := range bt.Len {
			for _, v := range bt.Vectors {
				if v.IsNull(r) {
					b.WriteString("NULL")
				} else {
					buf = AppendText(buf[:0], v, r)
					b.Write(buf)
				}
				b.WriteByte('\t')
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// spillRun runs q as Execute does, with the executor at hand: it returns
// the answer, the temporary files the statement wrote and its directory,
// after the statement ended.
func spillRun(t *testing.T, s *Session, q string) (answer string, files int, dir string) {
	t.Helper()
	ctx := context.Background()
	st, err := planner.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	x := newExecutor(ctx, s.Settings, s.store)
	p, err := s.plan(ctx, st.(*planner.Select), x)
	if err != nil {
		t.Fatal(err)
	}
	res, err := x.result(ctx, p)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	files, dir = x.spill.files, x.spill.dir
	if err := x.close(); err != nil {
		t.Fatal(err)
	}
	return answerText(res), files, dir
}

// A sort and a GROUP BY over 100,000 rows under an 8MB memory_limit spill
// to temp_directory and give the answer they give without the limit; the
// temporary files are gone when the statement ends.
func TestSpillSortAndGroupBy(t *testing.T) {
	t.Chdir(moduleRoot(t))
	queries := map[string]string{
		"sort every column": "SELECT * FROM " + ordersTimes5 + " ORDER BY amount DESC, order_id",
		// Ties on city keep the input order: the merge is stable.
		"sort with ties": "SELECT city, order_id, note, status, shipped_at, customer_id, discount FROM " + ordersTimes5 + " ORDER BY city NULLS FIRST",
		// Each order_id's five rows meet in one group wherever it is
		// held; first, string_agg and the float sum see them in order.
		"group by integer": "SELECT order_id, count(*), sum(amount), sum(discount), first(city), string_agg(status, ','), min(note) FROM " +
			ordersTimes5 + " GROUP BY order_id ORDER BY order_id",
		"group by two keys": "SELECT customer_id, status, count(*), max(shipped_at), string_agg(quantity::VARCHAR, '+') FROM " +
			ordersTimes5 + " GROUP BY ALL ORDER BY ALL",
		// Every grouping set's aggregation spills on its own; the () set
		// holds its one group beside them.
		"rollup": "SELECT order_id, city, count(*), sum(amount), max(status) FROM " +
			ordersTimes5 + " GROUP BY ROLLUP(order_id, city) ORDER BY ALL",
		"group by string, unsorted": "SELECT order_id::VARCHAR || city, count(*), sum(quantity), max(note), min(status) FROM " + ordersTimes5 + " GROUP BY 1",
	}
	for name, q := range queries {
		t.Run(name, func(t *testing.T) {
			want, files, _ := spillRun(t, NewSession(), q)
			if files != 0 {
				t.Fatalf("without a limit, %d temporary files", files)
			}
			s := NewSession()
			temp := filepath.Join(t.TempDir(), "spill")
			mustExec(t, s, "SET memory_limit = '8MB'")
			mustExec(t, s, "SET temp_directory = '"+temp+"'")
			got, files, dir := spillRun(t, s, q)
			if files == 0 {
				t.Fatalf("under 8MB nothing spilled")
			}
			if !strings.HasSuffix(q, "GROUP BY 1") {
				if got != want {
					t.Fatalf("under 8MB the answer differs (%d bytes, want %d)", len(got), len(want))
				}
			} else if sortedLines(got) != sortedLines(want) {
				t.Fatalf("under 8MB the groups differ")
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("statement's directory %s left behind: %v", dir, err)
			}
			if left, _ := os.ReadDir(temp); len(left) != 0 {
				t.Fatalf("temp_directory holds %d entries after the statement", len(left))
			}
			// The same through Execute, which streams and cleans up in
			// the query's goroutine.
			res, err := s.Execute(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if got := answerText(res); sortedLines(got) != sortedLines(want) {
				t.Fatalf("Execute under 8MB: the answer differs")
			}
			if left, _ := os.ReadDir(temp); len(left) != 0 {
				t.Fatalf("temp_directory holds %d entries after Execute", len(left))
			}
		})
	}
}

func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// oomMessage is DuckDB's Out of Memory error, naming memory_limit.
func oomMessage(limit string) *regexp.Regexp {
	return regexp.MustCompile(`^Out of Memory Error: failed to allocate data of size [0-9.]+ (bytes|KiB|MiB|GiB) \([0-9.]+ (bytes|KiB|MiB|GiB)/` +
		regexp.QuoteMeta(limit) + ` used\)`)
}

// The operators that do not spill fail past memory_limit with DuckDB's
// Out of Memory error naming the limit: a join's build side, DISTINCT,
// window partitions.
func TestOutOfMemoryWhereNothingSpills(t *testing.T) {
	t.Chdir(moduleRoot(t))
	queries := map[string]string{
		"join build": "SELECT count(*) FROM 'fixtures/orders_sorted.parquet' a JOIN " + ordersTimes5 + " b ON a.order_id = b.order_id",
		"distinct":   "SELECT DISTINCT order_id, note, city FROM " + ordersTimes5,
		"window":     "SELECT order_id, row_number() OVER (PARTITION BY city ORDER BY amount) FROM " + ordersTimes5,
	}
	for name, q := range queries {
		t.Run(name, func(t *testing.T) {
			s := NewSession()
			mustExec(t, s, "SET memory_limit = '1MB'")
			_, err := s.Execute(context.Background(), q)
			if !errors.Is(err, ErrOutOfMemory) || !errors.Is(err, errclass.OutOfMemory) {
				t.Fatalf("err = %v, want Out of Memory", err)
			}
			if !oomMessage("976.5 KiB").MatchString(err.Error()) {
				t.Fatalf("message %q is not DuckDB's naming the limit", err)
			}
			// Under the default limit the same query runs.
			if _, err := NewSession().Execute(context.Background(), q); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// SET memory_limit takes DuckDB's units, duckdb_settings() shows the limit
// as DuckDB does, RESET restores 80% of the machine's memory.
func TestMemoryLimitSetting(t *testing.T) {
	s := NewSession()
	setting := func(name string) string {
		t.Helper()
		res := mustExec(t, s, "SELECT value FROM duckdb_settings() WHERE name = '"+name+"'")
		text, _ := res.Cell(0, 0)
		return text
	}
	for value, want := range map[string]string{
		"'2GB'": "1.8 GiB", "'2GiB'": "2.0 GiB", "'512MiB'": "512.0 MiB", "'100KB'": "97.6 KiB",
		"'1.5 GB'": "1.3 GiB", "'64 mb'": "61.0 MiB",
	} {
		mustExec(t, s, "SET memory_limit = "+value)
		if got := setting("memory_limit"); got != want {
			t.Errorf("SET memory_limit = %s: duckdb_settings() says %s, want %s", value, got, want)
		}
	}
	if _, err := s.Execute(context.Background(), "SET memory_limit = '12 parsecs'"); !errors.Is(err, ErrBadSetting) {
		t.Errorf("bad unit: %v, want ErrBadSetting", err)
	}
	mustExec(t, s, "RESET memory_limit")
	if got, want := setting("memory_limit"), humanBytes(defaultMemoryLimit()); got != want {
		t.Errorf("after RESET: %s, want %s", got, want)
	}
	if n := physicalMemory(); n > 0 && defaultMemoryLimit() != int64(float64(n)*0.8) {
		t.Errorf("default %d, want 80%% of %d", defaultMemoryLimit(), n)
	}
	if got := setting("temp_directory"); got != defaultTempDirectory() {
		t.Errorf("temp_directory %q, want %q", got, defaultTempDirectory())
	}
	mustExec(t, s, "SET temp_directory = '/var/tmp/x'")
	if got := setting("temp_directory"); got != "/var/tmp/x" {
		t.Errorf("temp_directory after SET: %q", got)
	}
	mustExec(t, s, "RESET temp_directory")
	if got := setting("temp_directory"); got != defaultTempDirectory() {
		t.Errorf("temp_directory after RESET: %q", got)
	}
}

// A plain SELECT * streams: its first batch reaches the reader while the
// scan still runs, held back by the reader rather than collected.
func TestStreamFirstBatchBeforeScanEnds(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	res, err := s.Stream(context.Background(), "SELECT * FROM "+ordersTimes5)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	first, err := res.Next()
	if err != nil || first == nil {
		t.Fatalf("first batch: %v, %v", first, err)
	}
	// Give the query time to run ahead as far as it can.
	time.Sleep(300 * time.Millisecond)
	rs := res.stream
	if rs.ended.Load() {
		t.Fatal("the query ended before its reader took a second batch")
	}
	total := int64(100000+BatchSize-1) / BatchSize
	if sent := rs.sent.Load(); sent > streamBuffer+1 || sent >= total {
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
	if rows != 100000 || !rs.ended.Load() {
		t.Fatalf("%d rows, ended %v", rows, rs.ended.Load())
	}
}

// An error part way through a streamed result comes from Next after the
// rows before it, and Close stops a query its reader gave up on.
func TestStreamErrorsAndClose(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	// order_id counts up from 1 in the sorted file: twice it passes
	// SMALLINT's range at order_id 16384, eight batches in.
	res, err := s.Stream(context.Background(), "SELECT order_id, CAST(order_id * 2 AS SMALLINT) FROM 'fixtures/orders_sorted.parquet'")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for {
		b, err := res.Next()
		if err != nil {
			if !errors.Is(err, errclass.Conversion) && !errors.Is(err, errclass.OutOfRange) {
				t.Fatalf("mid-stream error %v, want a Conversion Error", err)
			}
			break
		}
		if b == nil {
			t.Fatal("no error")
		}
		rows += b.Len
	}
	res.Close()
	if rows == 0 || rows > 16383 {
		t.Fatalf("%d rows before the error, want some and at most 16383", rows)
	}
	res, err = s.Stream(context.Background(), "SELECT * FROM "+ordersTimes5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Next(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { res.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not stop the query")
	}
	if !res.stream.ended.Load() {
		t.Fatal("Close returned before the query ended")
	}
}
