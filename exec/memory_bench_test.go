package exec

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// BenchmarkStreamSelectAll reads every column of the 1M-row orders file,
// once and ten times over (10M rows), through a streamed result whose
// reader drops each batch, and reports the largest live heap: it stays
// the same whatever the row count. "collected" is the same 1M rows through
// Execute, which holds the whole result, for comparison. Run with
// -benchtime=1x.
func BenchmarkStreamSelectAll(b *testing.B) {
	path := testcorpus.BenchOrdersFile(b)
	query := func(copies int) string {
		return "SELECT * FROM read_parquet([" + strings.TrimSuffix(strings.Repeat("'"+path+"', ", copies), ", ") + "])"
	}
	for _, copies := range []int{1, 10} {
		q := query(copies)
		b.Run(fmt.Sprintf("streamed/%dM-rows", copies), func(b *testing.B) {
			var peak uint64
			rows := 0
			for b.Loop() {
				peak = maxOf(peak, peakHeap(b, func() error {
					res, err := NewSession().Stream(context.Background(), q)
					if err != nil {
						return err
					}
					defer res.Close()
					rows = 0
					for {
						bt, err := res.Next()
						if err != nil || bt == nil {
							return err
						}
						rows += bt.Len
					}
				}))
			}
			if rows != copies*1000000 {
				b.Fatalf("%d rows", rows)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
	b.Run("collected/1M-rows", func(b *testing.B) {
		var peak uint64
		for b.Loop() {
			peak = maxOf(peak, peakHeap(b, func() error {
				_, err := NewSession().Execute(context.Background(), query(1))
				return err
			}))
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	})
}
