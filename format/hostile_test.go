package format

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/format/internal/craft"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

var updateHostile = flag.Bool("update-hostile", false, "rewrite testdata/hostile from the generator in format/internal/craft")

func hostileDir(t testing.TB) string {
	return filepath.Join(testcorpus.ModuleRoot(t), "testdata", "hostile")
}

// The committed files are what the generator writes; -update-hostile
// rewrites them.
func TestHostileFilesMatchGenerator(t *testing.T) {
	dir := hostileDir(t)
	for _, h := range craft.HostileFiles() {
		if h.Large && testing.Short() && !*updateHostile {
			continue
		}
		b, err := h.Build()
		if err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		path := filepath.Join(dir, h.Name)
		if *updateHostile {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s differs from what the generator writes (%v); run go test ./format -run TestHostileFilesMatchGenerator -update-hostile", h.Name, err)
		}
	}
}

// hostileLimits are the reader's limits under a memory budget of 64 MiB
// for decoded data, as a caller with a memory limit sets them.
var hostileLimits = func() Limits {
	l := DefaultLimits
	l.MaxDecodedBytes = 64 << 20
	return l
}()

// readPages decodes every chunk page by page, releasing each page, as a
// scan does, and counts the rows.
func readPages(f *File) (string, error) {
	var rows int64
	for rg := range f.NumRowGroups() {
		for c := range f.Schema.Leaves {
			r, err := f.NewPageReader(rg, c, Range{}, nil, nil)
			if err != nil {
				return "", err
			}
			for {
				cd, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					return "", err
				}
				if c == 0 {
					for _, p := range cd.Pages {
						rows += p.NumRows
					}
				}
				r.Release()
			}
		}
	}
	return strings.Repeat("row\n", int(min(rows, 10))), nil
}

// sumInt64Pages reads leaf 0, an INT64 column without nulls, page by page
// as readPages does, and gives its rows, sum, min and max.
func sumInt64Pages(f *File) (string, error) {
	var rows, sum int64
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	err := eachLeaf0Page(f, func(cd *ColumnData) {
		rows += cd.Pages[0].NumRows
		for _, v := range cd.Values.Int64 {
			sum += v
			lo, hi = min(lo, v), max(hi, v)
		}
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d rows, sum %d, min %d, max %d", rows, sum, lo, hi), nil
}

// eachLeaf0Page hands each decoded page (or page slice) of leaf 0 to fn,
// releasing it after.
func eachLeaf0Page(f *File, fn func(cd *ColumnData)) error {
	for rg := range f.NumRowGroups() {
		r, err := f.NewPageReader(rg, 0, Range{}, nil, nil)
		if err != nil {
			return err
		}
		for {
			cd, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			fn(cd)
			r.Release()
		}
	}
	return nil
}

// renderAll renders every row as text, one line per row.
func renderAll(f *File) (string, error) {
	rows, err := renderFile(f)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, r := range rows {
		for i, v := range r {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(deref(v))
		}
		sb.WriteByte('\n')
	}
	return sb.String(), nil
}

// readIndexedPages reads each page of leaf 0 through the offset index.
func readIndexedPages(f *File) (string, error) {
	for rg := range f.NumRowGroups() {
		oi, err := f.ReadOffsetIndex(rg, 0)
		if err != nil {
			return "", err
		}
		rows := f.Meta.RowGroups[rg].NumRows
		for i, loc := range oi.PageLocations {
			first, end := PageRows(oi, i, rows)
			ref := PageRef{Range: Range{loc.Offset, int64(loc.CompressedPageSize)}, FirstRow: first, NumRows: end - first}
			if _, err := f.ReadPages(rg, 0, Range{}, []PageRef{ref}, nil); err != nil {
				return "", err
			}
		}
	}
	return "", nil
}

// readBloom reads the Bloom filter of leaf 0 in row group 0 and gives its
// length by its header and by the footer.
func readBloom(f *File) (string, error) {
	bf, err := f.ReadBloomFilter(0, 0)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %d", bf.Length(), *f.Chunk(0, 0).MetaData.BloomFilterLength), nil
}

// TestHostileFiles reads every crafted file under a memory limit and checks
// the exact error class or the exact answer, and that the read allocated
// less than 256 MiB in all (a bound on its peak).
func TestHostileFiles(t *testing.T) {
	cases := map[string]struct {
		read   func(*File) (string, error)
		err    error // the error class, or nil for an answer
		answer string
		// streamed: the read allocates more in all than it holds at once,
		// so its peak heap is bounded rather than its allocations.
		streamed bool
	}{
		// 60M (62914560) rows of 42, streamed in slices.
		"dictionary_rle_amplification.parquet": {read: sumInt64Pages, answer: "62914560 rows, sum 2642411520, min 42, max 42"},
		"list_60m_elements.parquet":            {read: readPages, err: ErrLimit},
		"zstd_bomb.parquet":                    {read: readPages, err: ErrLimit},
		"zstd_bomb_understated.parquet":        {read: readPages, err: ErrCorrupt},
		"gzip_bomb.parquet":                    {read: readPages, err: ErrLimit},
		// 1 GB and 256 MB of values, streamed in slices of at most 16 MiB.
		"delta_byte_array_prefix.parquet":      {read: byteArrayPages, streamed: true, answer: "1048576 rows, 1048576000 bytes, each 1000 bytes of a"},
		"delta_byte_array_long_prefix.parquet": {read: byteArrayPages, streamed: true, answer: "65536 rows, 262144000 bytes, each 4000 bytes of a"},
		"offset_index_misplaced.parquet":       {read: readIndexedPages, err: ErrCorrupt},
		"zero_row_group_zero_offsets.parquet":  {read: renderAll, answer: ""},
		"no_row_groups.parquet":                {read: renderAll, answer: ""},
		"empty_row_groups.parquet":             {read: renderAll, answer: "1\n2\n"},
		"negative_time.parquet":                {read: renderAll, answer: "20:08:21\n01:00:00\n"},
		"invalid_utf8.parquet":                 {read: renderAll, err: ErrInvalidString},
		"date_on_int64.parquet":                {read: renderAll, err: ErrCorrupt},
		"bloom_length_contradiction.parquet":   {read: readBloom, answer: "272 528"},
		"bloom_odd_bitset.parquet":             {read: readBloom, answer: "1264 1264"},
		"num_values_zero.parquet":              {read: renderAll, answer: "1\n2\n3\n4\n5\n6\n7\n8\n"},
	}
	dir := hostileDir(t)
	for _, h := range craft.HostileFiles() {
		t.Run(h.Name, func(t *testing.T) {
			want, ok := cases[h.Name]
			if !ok {
				t.Fatalf("no expectation for %s", h.Name)
			}
			data, err := os.ReadFile(filepath.Join(dir, h.Name))
			if err != nil {
				t.Fatal(err)
			}
			var got string
			read := func() {
				var f *File
				if f, err = OpenSource(BytesSource(data), h.Name, hostileLimits); err == nil {
					got, err = want.read(f)
				}
			}
			if want.streamed {
				peak := peakHeapOf(read)
				t.Logf("%s (%d bytes, %s): peak heap %d KiB; %v", h.Name, len(data), h.What, peak>>10, err)
				if peak >= 256<<20 {
					t.Errorf("the read held %d MiB at its peak, above 256 MiB", peak>>20)
				}
			} else {
				allocated := allocatedBy(read)
				t.Logf("%s (%d bytes, %s): %d KiB allocated; %v", h.Name, len(data), h.What, allocated>>10, err)
				if allocated >= 256<<20 {
					t.Errorf("the read allocated %d MiB, above 256 MiB", allocated>>20)
				}
			}
			switch {
			case want.err != nil && !errors.Is(err, want.err):
				t.Fatalf("err = %v; want %v", err, want.err)
			case want.err == nil && err != nil:
				t.Fatalf("err = %v; want the answer %q", err, want.answer)
			case want.err == nil && got != want.answer:
				t.Fatalf("answer %q; want %q", got, want.answer)
			}
		})
	}
}

// peakHeapOf runs fn under a 256 MiB soft memory limit and returns the
// largest heap of live and unswept objects sampled while it ran.
func peakHeapOf(fn func()) uint64 {
	runtime.GC()
	old := debug.SetMemoryLimit(256 << 20)
	defer debug.SetMemoryLimit(old)
	done, sampled := make(chan struct{}), make(chan uint64)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				sampled <- peak
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	fn()
	close(done)
	return <-sampled
}

// byteArrayPages decodes leaf 0 page by page, releasing each slice, and
// gives its rows, the bytes of its values, and the value they all repeat.
func byteArrayPages(f *File) (string, error) {
	var rows, total int64
	var first []byte
	same := true
	err := eachLeaf0Page(f, func(cd *ColumnData) {
		rows += cd.Pages[0].NumRows
		for _, v := range cd.Values.Bytes {
			total += int64(len(v))
			if first == nil {
				first = bytes.Clone(v)
			}
			same = same && bytes.Equal(v, first)
		}
	})
	if err != nil {
		return "", err
	}
	if !same || len(first) == 0 || strings.Trim(string(first), "a") != "" {
		return fmt.Sprintf("%d rows, %d bytes, values differ", rows, total), nil
	}
	return fmt.Sprintf("%d rows, %d bytes, each %d bytes of a", rows, total, len(first)), nil
}

// A column read whole holds all its values at once, so the decoded-data
// budget still refuses the 1 GB of repeated prefixes a page reader streams.
func TestWholeChunkOfPrefixesExceedsBudget(t *testing.T) {
	f, err := Open(filepath.Join(hostileDir(t), "delta_byte_array_prefix.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Limits = hostileLimits
	if _, err := f.ReadColumn(0, 0); !errors.Is(err, ErrLimit) {
		t.Fatalf("ReadColumn: %v; want %v", err, ErrLimit)
	}
}

// allocatedBy runs fn under a 256 MiB soft memory limit and returns the
// bytes it allocated in all: an upper bound on the heap it needed at once.
func allocatedBy(fn func()) uint64 {
	runtime.GC()
	old := debug.SetMemoryLimit(256 << 20)
	defer debug.SetMemoryLimit(old)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
