package format

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// A Fetch after a Release reuses its buffers and serves the new bytes
// exactly: none of the earlier file's bytes shows, and no slice it serves
// can grow into them.
func TestFetchReusesReleasedBuffers(t *testing.T) {
	const n = 100 << 10
	first := BytesSource(bytes.Repeat([]byte{0xAA}, n))
	f, err := Fetch(first, []Range{{0, n}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	buf := f.data[0]
	f.Release()
	if _, ok := f.Slice(Range{0, 1}); ok {
		t.Error("a released Fetched still serves bytes")
	}
	second := make([]byte, n)
	for i := range second {
		second[i] = byte(i)
	}
	const lo, length = 1000, 70 << 10
	g, err := Fetch(BytesSource(second), []Range{{lo, length}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Release()
	b, ok := g.Slice(Range{lo, length})
	if !ok {
		t.Fatal("the fetched range is not served")
	}
	if !bytes.Equal(b, second[lo:lo+length]) {
		t.Error("the reused buffer serves other bytes than the file's")
	}
	if cap(b) != length {
		t.Errorf("a served slice has capacity %d beyond its %d bytes", cap(b), length)
	}
	if &g.data[0][0] != &buf[0] {
		t.Error("the second Fetch did not reuse the buffer the first released")
	}
}

// The idle buffers are bounded: releasing more than maxIdleBytes keeps no
// more than that.
func TestIdleBuffersAreBounded(t *testing.T) {
	const size = 8 << 20
	var bufs [][]byte
	for range 2 * maxIdleBytes / size {
		bufs = append(bufs, fetchBuffer(size))
	}
	for _, b := range bufs {
		putFetchBuffer(b)
	}
	fetchPools.mu.Lock()
	idle := fetchPools.idle
	fetchPools.mu.Unlock()
	if idle > maxIdleBytes {
		t.Errorf("%d bytes idle, above the bound of %d", idle, maxIdleBytes)
	}
	for range bufs {
		if b := pooledBuffer(size); b == nil {
			break
		}
	}
}

// A range outside the file fails the Fetch, after the ranges before it
// were read, and leaves nothing served.
func TestFetchOutsideTheFileFails(t *testing.T) {
	src := BytesSource(make([]byte, 200<<10))
	_, err := Fetch(src, []Range{{0, 70 << 10}, {190 << 10, 20 << 10}}, 0)
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("got %v, want ErrCorrupt", err)
	}
}

// Each size is served by the smallest class that holds it, at most an
// eighth larger above 4 KiB, and a buffer of a class's size goes back to
// that class.
func TestSizeClass(t *testing.T) {
	for _, tc := range []struct {
		n, want int64 // want 0: not pooled
	}{
		{0, 0}, {1, 0}, {2 << 10, 0}, {2<<10 + 1, 4 << 10}, {4 << 10, 4 << 10}, {4<<10 + 1, 4<<10 + 512},
		{64 << 10, 64 << 10}, {64<<10 + 1, 72 << 10}, {650466, 640 << 10}, {1 << 20, 1 << 20},
		{1<<20 + 1, 1<<20 + 128<<10}, {64 << 20, 64 << 20}, {64<<20 + 1, 0},
	} {
		c := sizeClass(tc.n)
		if got := int64(0); c >= 0 && classSize(c) != tc.want || c < 0 && tc.want != 0 {
			if c >= 0 {
				got = classSize(c)
			}
			t.Errorf("sizeClass(%d) makes %d bytes, want %d", tc.n, got, tc.want)
		}
	}
	for n := int64(2<<10 + 1); n <= 64<<20; n += n/7 + 1 {
		c := sizeClass(n)
		if c < 0 || classSize(c) < n || c > 0 && classSize(c-1) >= n {
			t.Fatalf("sizeClass(%d) = %d: not the smallest class holding it", n, c)
		}
		if classSize(c) > n+n/8 && n > 4<<10 {
			t.Fatalf("sizeClass(%d) makes %d bytes, more than an eighth above", n, classSize(c))
		}
		if f := floorClass(classSize(c)); f != c {
			t.Fatalf("a buffer of %d bytes goes back to class %d, not %d", classSize(c), f, c)
		}
		if f := floorClass(classSize(c) + 1); f != c {
			t.Fatalf("a buffer of %d bytes goes back to class %d, not %d", classSize(c)+1, f, c)
		}
	}
	if floorClass(4<<10-1) >= 0 || floorClass(128<<20) >= 0 {
		t.Error("buffers outside the classes are pooled")
	}
}

// A request takes an idle buffer of a larger class, up to four times its
// size, and the smallest there is.
func TestPooledBufferTakesLargerClasses(t *testing.T) {
	drain := func() {
		fetchPools.mu.Lock()
		defer fetchPools.mu.Unlock()
		for i := range fetchPools.free {
			for _, b := range fetchPools.free[i] {
				fetchPools.idle -= int64(cap(b))
			}
			fetchPools.free[i] = nil
		}
	}
	drain()
	defer drain()
	big, bigger, huge := make([]byte, 900<<10), make([]byte, 1200<<10), make([]byte, 3<<20)
	for _, b := range [][]byte{huge, bigger, big} {
		putFetchBuffer(b)
	}
	got := pooledBuffer(600 << 10)
	if got == nil || &got[0] != &big[0] || len(got) != 600<<10 {
		t.Fatal("a request of 600 KiB did not take the 900 KiB buffer, the smallest that serves it")
	}
	if got := pooledBuffer(600 << 10); got == nil || &got[0] != &bigger[0] {
		t.Fatal("a request of 600 KiB did not take the 1.2 MiB buffer")
	}
	if got := pooledBuffer(600 << 10); got != nil {
		t.Fatalf("a request of 600 KiB took a buffer of %d bytes, above four times its class", cap(got))
	}
	if got := pooledBuffer(1 << 20); got == nil || &got[0] != &huge[0] {
		t.Fatal("a request of 1 MiB did not take the 3 MiB buffer")
	}
}

// Values decoded from fetched bytes survive the bytes' release: a page
// stored uncompressed hands out byte arrays that are slices of the fetched
// buffer, which must then stay out of the pool, while a chunk whose values
// are copied out (numbers, compressed pages) hands its buffer to the next
// Fetch. The next Fetch fills the reused buffer with other bytes, so a
// buffer pooled while values point into it shows as changed values.
func TestReleasedFetchKeepsPinnedValues(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	var pinned, reused int
	for _, name := range []string{"alltypes_tiny_pages_plain.parquet", "alltypes_tiny_pages.parquet",
		"delta_byte_array.parquet", "lz4_raw_compressed_larger.parquet", "datapage_v1-uncompressed-checksum.parquet"} {
		f, err := Open(filepath.Join(data, name))
		if err != nil {
			t.Fatal(err)
		}
		for rg := range f.Meta.RowGroups {
			for col := range f.Schema.Leaves {
				chunk, err := f.ChunkRange(rg, col)
				if err != nil {
					t.Fatal(err)
				}
				if sizeClass(chunk.Length) < 0 {
					continue
				}
				fetched, err := Fetch(f.Source, []Range{chunk}, 0)
				if err != nil {
					t.Fatal(err)
				}
				buf := fetched.data[0]
				r, err := f.NewPageReader(rg, col, Range{}, nil, fetched)
				if err != nil {
					t.Fatal(err)
				}
				var kept, want [][]byte
				for {
					cd, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, b := range cd.Values.Bytes {
						kept = append(kept, b)
						want = append(want, bytes.Clone(b))
					}
				}
				r.Close()
				fetched.Release()
				junk, err := Fetch(BytesSource(bytes.Repeat([]byte{0xEE}, int(chunk.Length))), []Range{{0, chunk.Length}}, 0)
				if err != nil {
					t.Fatal(err)
				}
				if &junk.data[0][0] == &buf[0] {
					reused++
				} else {
					pinned++
				}
				for i := range kept {
					if !bytes.Equal(kept[i], want[i]) {
						t.Fatalf("%s: row group %d, leaf %d: value %d changed to %q after the fetched bytes were released", name, rg, col, i, kept[i])
					}
				}
				junk.Release()
			}
		}
		f.Close()
	}
	if pinned == 0 || reused == 0 {
		t.Errorf("%d chunks pinned and %d reused: the corpus no longer exercises both", pinned, reused)
	}
}

// A reader of numbers that reaches the end of its pages hands back the
// buffer it decompressed them into, closed or not, so that a scan that
// drops its readers does not draw a fresh buffer for every chunk; the
// numbers it returned are copies and stay as they were.
func TestPageReaderEndHandsBackScratch(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	var numbers int
	for _, name := range []string{"datapage_v1-snappy-compressed-checksum.parquet", "alltypes_plain.snappy.parquet", "delta_binary_packed.parquet", "byte_stream_split_extended.gzip.parquet"} {
		f, err := Open(filepath.Join(data, name))
		if err != nil {
			t.Fatal(err)
		}
		numbers += endHandsBackScratch(t, f)
		f.Close()
	}
	if numbers == 0 {
		t.Error("no compressed leaf of numbers in the files")
	}
}

func endHandsBackScratch(t *testing.T, f *File) (numbers int) {
	t.Helper()
	for col, l := range f.Schema.Leaves {
		if byteValues(l.Type) {
			continue
		}
		md := f.Meta.RowGroups[0].Columns[col].MetaData
		if md == nil || md.Codec == meta.Uncompressed {
			continue
		}
		want, err := f.ReadColumn(0, col)
		if err != nil {
			t.Fatal(err)
		}
		_, _, wv := wholeOf(want)
		r, err := f.NewPageReader(0, col, Range{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]byte
		var kept []*ColumnData
		for {
			cd, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, cd)
		}
		if r.d.scratch != nil {
			t.Errorf("leaf %d: the reader holds its decompression buffer past its last page", col)
		}
		// Another chunk's pages take the buffer handed back.
		if _, err := f.ReadColumn(0, col); err != nil {
			t.Fatal(err)
		}
		for _, cd := range kept {
			for i := range cd.Values.Len() {
				got = append(got, cd.Values.PlainBytes(i, nil))
			}
		}
		if len(got) != len(wv) {
			t.Fatalf("leaf %d: %d values, want %d", col, len(got), len(wv))
		}
		for i := range got {
			if !bytes.Equal(got[i], wv[i]) {
				t.Fatalf("leaf %d: value %d is %x after the buffer was reused, want %x", col, i, got[i], wv[i])
			}
		}
		numbers++
	}
	return numbers
}
