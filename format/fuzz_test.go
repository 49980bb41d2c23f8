package format

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadFile opens arbitrary bytes as a Parquet file and decodes every
// column chunk, page index and Bloom filter header: errors are fine, panics
// and unbounded allocations are not.
func FuzzReadFile(f *testing.F) {
	for _, p := range []string{"alltypes_tiny_pages.parquet", "nested_lists.snappy.parquet", "datapage_v2.snappy.parquet",
		"delta_byte_array.parquet", "rle_boolean_encoding.parquet", "data_index_bloom_encoding_stats.parquet"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "shared", "parquet-testing", "data", p)); err == nil {
			f.Add(b)
		}
	}
	limits := Limits{MaxFooterSize: 1 << 20, MaxPageSize: 4 << 20, MaxPageHeaderSize: 1 << 16, MaxDictionaryValues: 1 << 16, MaxPageValues: 1 << 20, MaxDecodedBytes: 64 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := OpenSource(BytesSource(data), "fuzz.parquet", limits)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotParquet) && !errors.Is(err, ErrLimit) &&
				!errors.Is(err, ErrEncrypted) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("unclassified open error: %v", err)
			}
			return
		}
		for rg := range file.Meta.RowGroups {
			for col := range file.Schema.Leaves {
				file.ReadColumn(rg, col)
				file.ReadColumnIndex(rg, col)
				file.ReadOffsetIndex(rg, col)
				if bf, err := file.ReadBloomFilter(rg, col); err == nil && bf != nil {
					bf.MayContain(Hash([]byte("x")))
				}
			}
		}
	})
}
