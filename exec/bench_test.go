package exec

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/internal/testcorpus"
	"github.com/pqsql/pqsql/planner"
)

// queryBytes is the compressed size of the column chunks q reads: what
// MB/s is measured against.
func queryBytes(b *testing.B, q, path string) int64 {
	b.Helper()
	st, err := planner.Parse(q)
	if err != nil {
		b.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		b.Fatal(err)
	}
	f, err := format.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	leaves := map[int]bool{}
	for _, l := range p.Scan.NeededLeaves() {
		leaves[l] = true
	}
	if p.Where != nil {
		set := map[int]bool{}
		planner.Columns(p.Where, set)
		for i := range set {
			for _, l := range p.Scan.Fields[i].Leaves {
				leaves[l.Index] = true
			}
		}
	}
	var n int64
	for rg := range f.Meta.RowGroups {
		for l := range leaves {
			n += f.Chunk(rg, l).MetaData.TotalCompressedSize
		}
	}
	if n == 0 {
		n = 1
	}
	return n
}

// benchQueries are the queries the executor benchmarks run on the 1M-row
// orders file; {f} stands for the file.
var benchQueries = []struct{ name, q string }{
	// Five NaN discounts, all in row group 0: the filter column is read in
	// full, the other columns only where rows survive.
	{"SelectiveQuery", "SELECT * FROM {f} WHERE discount = 'NaN'::DOUBLE"},
	// About 1 % of the rows, spread over every page.
	{"SelectiveSpread", "SELECT order_id, status, amount FROM {f} WHERE quantity = 42 AND status = 'returned'"},
	{"FullScanAggregate", "SELECT status, count(*), sum(amount), avg(quantity), min(order_date), max(discount) FROM {f} GROUP BY status"},
	{"Aggregate", "SELECT count(*), sum(quantity), min(amount), max(shipped_at), avg(discount) FROM {f}"},
	// About 4,400 groups: too many for partial aggregates per row group.
	{"GroupByManyGroups", "SELECT customer_id, sum(amount), max(city) FROM {f} GROUP BY customer_id"},
	{"CountWhere", "SELECT count(*) FROM {f} WHERE order_id > 500000"},
	{"CountWhereResidual", "SELECT count(*) FROM {f} WHERE quantity % 7 = 3 AND city LIKE 'Z%'"},
	{"MinMax", "SELECT min(order_id), max(amount), min(customer_id) FROM {f}"},
	{"Limit", "SELECT * FROM {f} LIMIT 10"},
	{"SelectAll", "SELECT order_id, customer_id, status, amount FROM {f}"},
	// Every column folded into one row.
	{"AggregateEveryColumn", "SELECT count(*), sum(order_id), sum(customer_id), min(order_date), max(shipped_at), max(status), min(city), sum(quantity), sum(amount), sum(discount), sum(priority), max(note) FROM {f}"},
	{"GroupByCity", "SELECT city, count(*), sum(amount), sum(quantity) FROM {f} GROUP BY city"},
	// A dictionary-encoded column against a constant.
	{"CountCity", "SELECT count(*) FROM {f} WHERE city = 'Łódź'"},
	{"CountDistinctCity", "SELECT count(DISTINCT city) FROM {f}"},
	{"SelectDistinctCity", "SELECT DISTINCT city FROM {f}"},
	// A sorted limit on a column in no order in the file.
	{"TopKAmount", "SELECT * FROM {f} ORDER BY amount DESC LIMIT 10"},
	// The file is sorted by order_id: the last row group holds the answer.
	{"TopKSorted", "SELECT * FROM {f} ORDER BY order_id DESC LIMIT 10"},
	// A sort of every row, without LIMIT.
	{"SortAll", "SELECT order_id, amount FROM {f} ORDER BY amount, order_id"},
}

func BenchmarkQueries(b *testing.B) { benchQueriesThreads(b, 0) }

// BenchmarkQueriesOneThread runs the queries on one worker, to tell the
// gains of batches from those of parallelism.
func BenchmarkQueriesOneThread(b *testing.B) { benchQueriesThreads(b, 1) }

func benchQueriesThreads(b *testing.B, threads int) {
	path := testcorpus.BenchOrdersFile(b)
	for _, bq := range benchQueries {
		q := strings.ReplaceAll(bq.q, "{f}", "'"+path+"'")
		b.Run(bq.name, func(b *testing.B) {
			b.SetBytes(queryBytes(b, q, path))
			b.ReportAllocs()
			s := NewSession()
			s.Settings.Threads = threads
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := s.Execute(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time, summed over threads, varies less than wall time
			// on a machine other work shares.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkSelectiveQuery and BenchmarkFullScanAggregate are the two
// headline numbers.
func BenchmarkSelectiveQuery(b *testing.B) { benchOne(b, "SelectiveQuery") }

func BenchmarkFullScanAggregate(b *testing.B) { benchOne(b, "FullScanAggregate") }

func benchOne(b *testing.B, name string) {
	path := testcorpus.BenchOrdersFile(b)
	for _, bq := range benchQueries {
		if bq.name != name {
			continue
		}
		q := strings.ReplaceAll(bq.q, "{f}", "'"+path+"'")
		b.SetBytes(queryBytes(b, q, path))
		b.ReportAllocs()
		s := NewSession()
		for b.Loop() {
			if _, err := s.Execute(context.Background(), q); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPeakHeap reports the largest live heap seen while a streaming
// aggregate runs over the 1M-row file, for the columnar executor and for
// the row-at-a-time one it replaced.
func BenchmarkPeakHeap(b *testing.B) {
	path := testcorpus.BenchOrdersFile(b)
	q := strings.ReplaceAll("SELECT status, count(*), sum(amount), max(city) FROM {f} GROUP BY status", "{f}", "'"+path+"'")
	stmt, err := planner.Parse(q)
	if err != nil {
		b.Fatal(err)
	}
	p, err := planner.Build(stmt.(*planner.Select), nil)
	if err != nil {
		b.Fatal(err)
	}
	run := map[string]func() error{
		"columnar": func() error {
			_, err := (&executor{settings: NewSession().Settings}).result(context.Background(), p)
			return err
		},
		"row-at-a-time": func() error {
			_, err := (&refExecutor{settings: NewSession().Settings}).refRun(context.Background(), p)
			return err
		},
	}
	for _, name := range []string{"columnar", "row-at-a-time"} {
		b.Run(name, func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				peak = maxOf(peak, peakHeap(b, run[name]))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// peakHeap runs f and returns the largest live heap seen meanwhile.
func peakHeap(b testing.TB, f func() error) uint64 {
	runtime.GC()
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var max uint64
		for {
			metrics.Read(sample)
			max = maxOf(max, sample[0].Value.Uint64())
			select {
			case <-done:
				sampled <- max
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	err := f()
	close(done)
	peak := <-sampled
	if err != nil {
		b.Fatal(err)
	}
	return peak
}

// manyCustomersFile returns a shuffled 1M-row orders file whose customer
// pool makes GROUP BY customer_id about half a million groups, written once
// into the temp directory; the benchmark skips when it cannot be made.
func manyCustomersFile(b *testing.B) string {
	b.Helper()
	path := filepath.Join(os.TempDir(), "pqsql-bench-orders-1m-800k-customers.parquet")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	sorted := path + ".sorted"
	cmd := osexec.Command("go", "run", ".", "-big", "1000000", "-big-out", sorted, "-big-shuffled-out", path,
		"-big-page-rows", "2000", "-big-customers", "800000")
	cmd.Dir = filepath.Join(testcorpus.ModuleRoot(b), "fixtures", "gen")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Skipf("cannot generate the benchmark file with fixtures/gen: %v\n%s", err, out)
	}
	os.Remove(sorted)
	return path
}

// BenchmarkManyGroups runs aggregates of about half a million groups and
// reports CPU time and the largest live heap of a query.
func BenchmarkManyGroups(b *testing.B) {
	path := manyCustomersFile(b)
	for _, bq := range []struct{ name, q string }{
		{"CountSum", "SELECT customer_id, count(*), sum(amount) FROM {f} GROUP BY customer_id"},
		{"SumMax", "SELECT customer_id, sum(amount), max(city) FROM {f} GROUP BY customer_id"},
	} {
		q := strings.ReplaceAll(bq.q, "{f}", "'"+path+"'")
		b.Run(bq.name, func(b *testing.B) {
			b.ReportAllocs()
			s := NewSession()
			var peak uint64
			cpu0 := cpuTime()
			for b.Loop() {
				peak = maxOf(peak, peakHeap(b, func() error {
					_, err := s.Execute(context.Background(), q)
					return err
				}))
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

func maxOf(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// BenchmarkRowAtATime runs the same queries through the row-at-a-time
// executor this package replaced, for comparison.
func BenchmarkRowAtATime(b *testing.B) {
	path := testcorpus.BenchOrdersFile(b)
	for _, bq := range benchQueries {
		q := strings.ReplaceAll(bq.q, "{f}", "'"+path+"'")
		b.Run(bq.name, func(b *testing.B) {
			b.SetBytes(queryBytes(b, q, path))
			b.ReportAllocs()
			for b.Loop() {
				if got := refAnswer(q, NewSession().Settings); strings.HasPrefix(got, "error") {
					b.Fatal(got)
				}
			}
		})
	}
}
