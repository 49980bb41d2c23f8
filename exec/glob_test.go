package exec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
	"github.com/pqsql/pqsql/planner"
)

// manyFiles writes n copies of fixtures/statistics.parquet (12 rows in
// three row groups of 4, order_id 1 to 12) into a temporary directory and
// returns a glob of them, quoted for SQL.
func manyFiles(tb testing.TB, n int) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(testcorpus.ModuleRoot(tb), "fixtures", "statistics.parquet"))
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.parquet", i)), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return "'" + filepath.Join(dir, "*.parquet") + "'"
}

// globHeapBound is the live heap a scan of 5,000 small files may reach. The
// scan holds a few files open at a time; a scan holding every file's footer
// until the statement ends passes 150 MB.
const globHeapBound = 48 << 20

// A glob of 5,000 files is read file by file: the live heap stays far below
// what all the footers take, for an answer from row counts, a streamed
// SELECT * and a WHERE that prunes two row groups of three in each file.
func TestGlobOfManyFilesInBoundedMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("writes and scans 5,000 files")
	}
	glob := manyFiles(t, 5000)
	s := NewSession()
	ctx := context.Background()
	for _, tc := range []struct {
		name, q string
		rows    int64 // rows of the result
		sum     int64 // sum of the first column over them
	}{
		{"count", "SELECT count(*) FROM " + glob, 1, 60000},
		{"select-star", "SELECT * FROM " + glob, 60000, 5000 * 78},
		{"pruned-where", "SELECT order_id, city FROM " + glob + " WHERE order_id > 8", 20000, 5000 * (9 + 10 + 11 + 12)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rows, sum int64
			peak := peakHeap(t, func() error {
				res, err := s.Stream(ctx, tc.q)
				if err != nil {
					return err
				}
				defer res.Close()
				for {
					b, err := res.Next()
					if err != nil {
						return err
					}
					if b == nil {
						return nil
					}
					rows += int64(b.Len)
					for i := range b.Len {
						sum += b.Vectors[0].Int[i]
					}
				}
			})
			if rows != tc.rows || sum != tc.sum {
				t.Errorf("%d rows summing to %d, want %d summing to %d", rows, sum, tc.rows, tc.sum)
			}
			if peak > globHeapBound {
				t.Errorf("peak live heap %d MB, want at most %d MB", peak>>20, globHeapBound>>20)
			}
		})
	}
	// The pruning of every file stands: two row groups of three skipped.
	st, err := planner.Parse("SELECT order_id FROM " + glob + " WHERE order_id > 8")
	if err != nil {
		t.Fatal(err)
	}
	x := newExecutor(ctx, s.Settings, s.store)
	defer x.close()
	p, err := s.plan(ctx, st.(*planner.Select), x)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.result(ctx, p); err != nil {
		t.Fatal(err)
	}
	if x.stats.Files != 5000 || x.stats.RowGroupsSkipped != 10000 || x.stats.RowGroups != 5000 {
		t.Errorf("%d files, %d row groups read, %d skipped; want 5000, 5000, 10000",
			x.stats.Files, x.stats.RowGroups, x.stats.RowGroupsSkipped)
	}
}

// BenchmarkGlob scans globs of 500, 1,000 and 5,000 small files: the time
// per file stays flat as the files grow in number, and so does the peak heap.
func BenchmarkGlob(b *testing.B) {
	for _, n := range []int{500, 1000, 5000} {
		glob := manyFiles(b, n)
		for _, bq := range []struct{ name, q string }{
			{"count", "SELECT count(*) FROM " + glob},
			{"select-star", "SELECT * FROM " + glob},
			{"pruned-where", "SELECT order_id, city FROM " + glob + " WHERE order_id > 8"},
		} {
			b.Run(fmt.Sprintf("%s/files=%d", bq.name, n), func(b *testing.B) {
				s := NewSession()
				var peak uint64
				for b.Loop() {
					peak = maxOf(peak, peakHeap(b, func() error {
						res, err := s.Stream(context.Background(), bq.q)
						if err != nil {
							return err
						}
						defer res.Close()
						for {
							batch, err := res.Next()
							if batch == nil || err != nil {
								return err
							}
						}
					}))
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/file")
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			})
		}
	}
}
