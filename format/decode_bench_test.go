package format

import (
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// BenchmarkDecodeOrders1M decodes every column of every row group of a
// 1M-row orders file; MB/s counts the file's column chunk bytes.
func BenchmarkDecodeOrders1M(b *testing.B) {
	f, err := Open(testcorpus.BenchOrdersFile(b))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var chunkBytes int64
	for rg := range f.Meta.RowGroups {
		for col := range f.Schema.Leaves {
			chunkBytes += f.Chunk(rg, col).MetaData.TotalCompressedSize
		}
	}
	b.SetBytes(chunkBytes)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rows := 0
		for rg := range f.Meta.RowGroups {
			for col := range f.Schema.Leaves {
				d, err := f.ReadColumn(rg, col)
				if err != nil {
					b.Fatal(err)
				}
				if col == 0 {
					rows += d.NumEntries
				}
			}
		}
		if int64(rows) != f.Meta.NumRows {
			b.Fatalf("decoded %d rows, file has %d", rows, f.Meta.NumRows)
		}
	}
	b.ReportMetric(float64(f.Meta.NumRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
