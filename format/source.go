package format

import (
	"fmt"
	"io"
	"os"
	"sort"
	"sync/atomic"
)

// A Source is random-access storage for one file: a local file today, an
// HTTP object tomorrow. Every byte the reader needs comes through ReadAt.
type Source interface {
	io.ReaderAt
	Size() int64
}

// A Range is a byte range [Offset, Offset+Length) of a file.
type Range struct {
	Offset int64
	Length int64
}

// End is the offset just past the range.
func (r Range) End() int64 { return r.Offset + r.Length }

// IOStats counts the reads made through a CountingSource.
type IOStats struct {
	Bytes    int64
	Requests int64
}

// A CountingSource wraps a Source and counts bytes and requests, so that
// EXPLAIN ANALYZE can report what was read. It is safe for concurrent use.
type CountingSource struct {
	src      Source
	bytes    atomic.Int64
	requests atomic.Int64
}

// NewCountingSource wraps src.
func NewCountingSource(src Source) *CountingSource { return &CountingSource{src: src} }

// ReadAt reads len(p) bytes at off and counts them as one request.
func (c *CountingSource) ReadAt(p []byte, off int64) (int, error) {
	c.requests.Add(1)
	n, err := c.src.ReadAt(p, off)
	c.bytes.Add(int64(n))
	return n, err
}

// Size is the size of the underlying source.
func (c *CountingSource) Size() int64 { return c.src.Size() }

// Stats returns the counts so far.
func (c *CountingSource) Stats() IOStats {
	return IOStats{Bytes: c.bytes.Load(), Requests: c.requests.Load()}
}

// localFile is a Source over an open *os.File.
type localFile struct {
	f    *os.File
	size int64
}

func (l *localFile) ReadAt(p []byte, off int64) (int, error) { return l.f.ReadAt(p, off) }
func (l *localFile) Size() int64                             { return l.size }
func (l *localFile) Close() error                            { return l.f.Close() }

// OpenLocal opens a local file as a Source. The caller closes it.
func OpenLocal(path string) (Source, io.Closer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is a directory", path)
	}
	l := &localFile{f: f, size: st.Size()}
	return l, l, nil
}

// BytesSource is a Source over an in-memory byte slice, for tests and fuzzing.
type BytesSource []byte

// ReadAt implements io.ReaderAt.
func (b BytesSource) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Size is len(b).
func (b BytesSource) Size() int64 { return int64(len(b)) }

// readRange reads r fully from src, checking it lies inside the file.
func readRange(src Source, r Range) ([]byte, error) {
	if r.Offset < 0 || r.Length < 0 || r.End() > src.Size() || r.End() < r.Offset {
		return nil, fmt.Errorf("%w: range [%d, %d) outside the file of %d bytes", ErrCorrupt, r.Offset, r.End(), src.Size())
	}
	buf := make([]byte, r.Length)
	if _, err := src.ReadAt(buf, r.Offset); err != nil && !(err == io.EOF && len(buf) == int(r.Length)) {
		return nil, fmt.Errorf("reading [%d, %d): %w", r.Offset, r.End(), err)
	}
	return buf, nil
}

// Coalesce merges ranges whose gap is at most maxGap bytes, so that nearby
// pages cost one request. The result is sorted by offset.
func Coalesce(ranges []Range, maxGap int64) []Range {
	if len(ranges) == 0 {
		return nil
	}
	rs := append([]Range(nil), ranges...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Offset < rs[j].Offset })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.Offset <= last.End()+maxGap {
			if r.End() > last.End() {
				last.Length = r.End() - last.Offset
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// A Fetched holds the bytes of coalesced ranges and serves sub-ranges of them.
type Fetched struct {
	ranges []Range
	data   [][]byte
}

// Fetch reads the given ranges, coalescing those within maxGap bytes, and
// returns a view that serves any sub-range of them without further reads.
func Fetch(src Source, ranges []Range, maxGap int64) (*Fetched, error) {
	merged := Coalesce(ranges, maxGap)
	f := &Fetched{ranges: merged, data: make([][]byte, len(merged))}
	for i, r := range merged {
		b, err := readRange(src, r)
		if err != nil {
			return nil, err
		}
		f.data[i] = b
	}
	return f, nil
}

// Slice returns the bytes of r, which must lie inside one fetched range.
func (f *Fetched) Slice(r Range) ([]byte, bool) {
	i := sort.Search(len(f.ranges), func(i int) bool { return f.ranges[i].End() >= r.End() })
	if i == len(f.ranges) || r.Offset < f.ranges[i].Offset {
		return nil, false
	}
	lo := r.Offset - f.ranges[i].Offset
	return f.data[i][lo : lo+r.Length], true
}
