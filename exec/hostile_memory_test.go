package exec

import (
	"context"
	"runtime/debug"
	"strings"
	"testing"
)

// A page of 62,914,560 RLE dictionary indexes in a 130-byte file is read in
// slices: its queries answer under a 256 MiB memory limit, where decoding
// the page whole takes 720 MB.
func TestHugePageBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 60M rows")
	}
	const file = "'testdata/hostile/dictionary_rle_amplification.parquet'"
	answersInBoundedMemory(t, []struct{ q, want string }{
		{"SELECT * FROM " + file + " LIMIT 1", "42"},
		{"SELECT count(*) FROM " + file, "62914560"},
		{"SELECT sum(v), min(v), max(v), count(v) FROM " + file, "2642411520|42|42|62914560"},
		{"SELECT count(*) FROM " + file + " WHERE v = 42", "62914560"},
	})
}

// A DELTA_BYTE_ARRAY page of 1M values repeating a 1000-byte prefix, 80 KB
// that decode to 1 GB, and one of 64K values of 4000 bytes (256 MB from
// 9 KB) are read in slices of at most 16 MiB of values.
func TestDeltaPrefixPageBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 1 GB of values")
	}
	const file = "'testdata/hostile/delta_byte_array_prefix.parquet'"
	const long = "'testdata/hostile/delta_byte_array_long_prefix.parquet'"
	answersInBoundedMemory(t, []struct{ q, want string }{
		{"SELECT length(s::VARCHAR) FROM " + file + " LIMIT 1", "1000"},
		{"SELECT count(*) FROM " + file, "1048576"},
		{"SELECT sum(length(s::VARCHAR)), min(s) = max(s), count(DISTINCT s) FROM " + file, "1048576000|true|1"},
		{"SELECT sum(length(s::VARCHAR)), min(s) = max(s) FROM " + long, "262144000|true"},
	})
}

// answersInBoundedMemory runs each query under a 256 MiB memory limit and
// checks its answer and that its sampled peak heap stayed below the limit.
func answersInBoundedMemory(t *testing.T, cases []struct{ q, want string }) {
	t.Chdir(moduleRoot(t))
	for _, tc := range cases {
		t.Run(tc.q, func(t *testing.T) {
			old := debug.SetMemoryLimit(256 << 20)
			defer debug.SetMemoryLimit(old)
			var got string
			peak := peakHeap(t, func() error {
				res, err := NewSession().Execute(context.Background(), tc.q)
				if err == nil {
					got = strings.Join(textRows(res), "\n")
				}
				return err
			})
			t.Logf("peak heap %d KiB", peak>>10)
			if got != tc.want {
				t.Fatalf("answer %q, want %q", got, tc.want)
			}
			if peak >= 256<<20 {
				t.Errorf("peak heap %d MiB, above 256 MiB", peak>>20)
			}
		})
	}
}
