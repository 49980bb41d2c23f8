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
	t.Chdir(moduleRoot(t))
	const file = "'testdata/hostile/dictionary_rle_amplification.parquet'"
	for _, tc := range []struct{ q, want string }{
		{"SELECT * FROM " + file + " LIMIT 1", "42"},
		{"SELECT count(*) FROM " + file, "62914560"},
		{"SELECT sum(v), min(v), max(v), count(v) FROM " + file, "2642411520|42|42|62914560"},
		{"SELECT count(*) FROM " + file + " WHERE v = 42", "62914560"},
	} {
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
