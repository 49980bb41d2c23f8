package format

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pqsql/pqsql/format/internal/craft"
	"github.com/pqsql/pqsql/format/meta"
)

// shrinkingSource serves data until shrink is set, then only its first
// keep bytes, answering a read past them as *os.File does: the bytes that
// remain and io.EOF, or io.EOF alone.
type shrinkingSource struct {
	data   []byte
	keep   int
	shrunk atomic.Bool
}

func (s *shrinkingSource) ReadAt(p []byte, off int64) (int, error) {
	d := s.data
	if s.shrunk.Load() {
		d = d[:s.keep]
	}
	return BytesSource(d).ReadAt(p, off)
}

func (s *shrinkingSource) Size() int64 { return int64(len(s.data)) }

// lyingSource returns nil with a short count, as a careless Source might.
type lyingSource struct{ shrinkingSource }

func (s *lyingSource) ReadAt(p []byte, off int64) (int, error) {
	n, _ := s.shrinkingSource.ReadAt(p, off)
	return n, nil
}

func TestShrinkingSourceIsTruncatedNotWrong(t *testing.T) {
	data := int64File(t, 2000, 300)
	for _, tc := range []struct {
		name string
		src  interface {
			Source
			shrink()
		}
	}{
		{"eof", &shrinkingSource{data: data, keep: 9000}},
		{"nil error", &lyingSource{shrinkingSource{data: data, keep: 9000}}},
		{"nothing left", &shrinkingSource{data: data, keep: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := OpenSource(tc.src, "sum.parquet", DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			tc.src.shrink()
			s, err := sumInt64(f)
			if !errors.Is(err, ErrTruncated) {
				t.Fatalf("sum = %d, err = %v; want ErrTruncated", s, err)
			}
		})
	}
}

func (s *shrinkingSource) shrink() { s.shrunk.Store(true) }

func TestLocalFileTruncatedWhileReading(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sum.parquet")
	if err := os.WriteFile(path, int64File(t, 2000, 300), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Truncate(path, 9000); err != nil {
		t.Fatal(err)
	}
	s, err := sumInt64(f)
	if !errors.Is(err, ErrTruncated) {
		t.Fatalf("sum = %d, err = %v; want ErrTruncated", s, err)
	}
	if !strings.Contains(err.Error(), "now it is 9000 bytes") {
		t.Fatalf("error does not say what the file is now: %v", err)
	}
}

var _ io.ReaderAt = (*shrinkingSource)(nil)

// A compressed chunk cut short by a file shrinking under the reader is
// reported as the truncation it is, not as a codec's complaint about the
// zeros or the short stream it would otherwise see.
func TestShrinkingCompressedSourceBlamesTheFile(t *testing.T) {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]int64, 4096)
	for i := range vals {
		vals[i] = int64(i) * 2654435761 // spread, so the page compresses little
	}
	page := plainInt64Page(vals, 0)
	page.Header.UncompressedPageSize = int32(len(page.Body))
	page.Body = enc.EncodeAll(page.Body, nil)
	data, err := craft.Build(craft.File{NumRows: -1, Schema: flatSchema(column("v", meta.Int64, meta.Required)),
		RowGroups: []craft.RowGroup{{NumRows: 4096, Chunks: []craft.Chunk{{Codec: meta.Zstd, NumValues: 4096, Pages: []craft.Page{page}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	src := &shrinkingSource{data: data, keep: 1000}
	f, err := OpenSource(src, "zstd.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	src.shrink()
	_, err = f.ReadColumn(0, 0)
	if !errors.Is(err, ErrTruncated) || strings.Contains(err.Error(), "ZSTD") {
		t.Fatalf("err = %v; want ErrTruncated, with no word of the codec", err)
	}
}

func TestOpenWithLimitsBoundsDecodedData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sum.parquet")
	if err := os.WriteFile(path, int64File(t, 2000, 2000), 0o644); err != nil {
		t.Fatal(err)
	}
	limits := DefaultLimits
	limits.MaxDecodedBytes = 8 << 10 // 2000 values of 8 bytes do not fit
	f, err := OpenWith(path, limits)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.ReadColumn(0, 0); !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v; want ErrLimit", err)
	}
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if s, err := sumInt64(g); err != nil || s != 2001000 {
		t.Fatalf("sum = %d, %v; want 2001000", s, err)
	}
}
