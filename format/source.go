package format

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"sync/atomic"
	"time"
)

// A Source is random-access storage for one file: a local file, an object
// in a store. Every byte the reader needs comes through ReadAt.
//
// The contract, for every implementation:
//   - Size is the object's size when it was opened, and stays fixed; the
//     reader checks every range it reads against it.
//   - ReadAt follows io.ReaderAt: it returns n == len(p) or an error saying
//     why not. A read that ends at Size may return io.EOF with n == len(p).
//   - A read that cannot be served because the object changed or shrank
//     since it was opened returns an error wrapping ErrTruncated, saying
//     what was seen at open and what is seen now (size, modification time,
//     an ETag), never zeroed or stale bytes with a nil error.
//   - ReadAt is safe for concurrent use.
//
// The reader checks the count ReadAt returns, so a Source that breaks the
// second rule still yields ErrTruncated rather than a wrong answer.
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

// Credit counts reads made through another source on the same file, such
// as the footer read once and decoded for an earlier stage.
func (c *CountingSource) Credit(st IOStats) {
	c.bytes.Add(st.Bytes)
	c.requests.Add(st.Requests)
}

// Stats returns the counts so far.
func (c *CountingSource) Stats() IOStats {
	return IOStats{Bytes: c.bytes.Load(), Requests: c.requests.Load()}
}

// localFile is a Source over an open *os.File.
type localFile struct {
	f     *os.File
	path  string
	size  int64
	mtime time.Time
}

// ReadAt reads from the file; a short read says how the file changed since
// it was opened.
func (l *localFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := l.f.ReadAt(p, off)
	if n < len(p) && (err == nil || err == io.EOF) {
		return n, l.changed(n, len(p), off)
	}
	return n, err
}

// changed describes a short read of n of want bytes at off by what the file
// is now against what it was at open.
func (l *localFile) changed(n, want int, off int64) error {
	now := "cannot be examined"
	if st, err := l.f.Stat(); err == nil {
		now = fmt.Sprintf("is %d bytes", st.Size())
		if !st.ModTime().Equal(l.mtime) {
			now += ", modified " + st.ModTime().UTC().Format(time.RFC3339Nano)
		}
	}
	return fmt.Errorf("%w: %s: read %d of %d bytes at offset %d; at open the file was %d bytes, modified %s; now it %s",
		ErrTruncated, l.path, n, want, off, l.size, l.mtime.UTC().Format(time.RFC3339Nano), now)
}

func (l *localFile) Size() int64  { return l.size }
func (l *localFile) Close() error { return l.f.Close() }

// OpenLocal opens a local file as a Source. The caller closes it. Anything
// but a regular file (a directory, a FIFO, a device, a socket) is refused
// before it is opened: opening a FIFO blocks until a writer appears, and a
// device may never end.
func OpenLocal(path string) (Source, io.Closer, error) {
	st, err := statPath(path)
	if err != nil {
		return nil, nil, err
	}
	if err := regular(path, st.mode); err != nil {
		return nil, nil, err
	}
	// The path may have been replaced between the stat and the open; open
	// without blocking on a FIFO and check again what was opened.
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	if st, err = statFile(f); err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := regular(path, st.mode); err != nil {
		f.Close()
		return nil, nil, err
	}
	l := &localFile{f: f, path: path, size: st.size, mtime: st.mtime}
	return l, l, nil
}

// A localStat is what opening a local file needs of its status.
type localStat struct {
	mode  os.FileMode // its type bits alone are set
	size  int64
	mtime time.Time
}

// regular refuses a file that is not a regular file, naming what it is.
func regular(path string, m os.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case m.IsDir():
		kind = "a directory"
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	case m&os.ModeCharDevice != 0:
		kind = "a character device"
	case m&os.ModeDevice != 0:
		kind = "a device"
	}
	return fmt.Errorf("%w: %s is %s", ErrNotRegular, path, kind)
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
	if err := checkRange(src, r); err != nil {
		return nil, err
	}
	buf := make([]byte, r.Length)
	if err := readFull(src, buf, r.Offset); err != nil {
		return nil, err
	}
	return buf, nil
}

// readPooled is readRange into a buffer of the fetch pools, which the
// caller hands back (putFetchBuffer) once nothing points into it.
func readPooled(src Source, r Range) ([]byte, error) {
	if err := checkRange(src, r); err != nil {
		return nil, err
	}
	buf := fetchBuffer(r.Length)
	if err := readFull(src, buf, r.Offset); err != nil {
		putFetchBuffer(buf)
		return nil, err
	}
	return buf, nil
}

// checkRange fails unless r lies inside the file.
func checkRange(src Source, r Range) error {
	if r.Offset < 0 || r.Length < 0 || r.End() > src.Size() || r.End() < r.Offset {
		return fmt.Errorf("%w: range [%d, %d) outside the file of %d bytes", ErrCorrupt, r.Offset, r.End(), src.Size())
	}
	return nil
}

// readFull fills buf from src at off. The count ReadAt returns is what
// counts: a short read is an error even when ReadAt calls it io.EOF or
// nothing at all, since the range lies inside the size seen at open.
func readFull(src Source, buf []byte, off int64) error {
	n, err := src.ReadAt(buf, off)
	if n == len(buf) && (err == nil || err == io.EOF) {
		return nil
	}
	end := off + int64(len(buf))
	if n > len(buf) || n < 0 {
		return fmt.Errorf("reading [%d, %d): the source returned a count of %d", off, end, n)
	}
	switch {
	case errors.Is(err, ErrTruncated):
		return fmt.Errorf("reading [%d, %d): %w", off, end, err)
	case err == nil || err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("reading [%d, %d): %w: read %d of %d bytes; the file was %d bytes at open", off, end, ErrTruncated, n, len(buf), src.Size())
	}
	return fmt.Errorf("reading [%d, %d): %w", off, end, err)
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
// Its buffers may come from earlier Fetches released (fetchpool.go).
type Fetched struct {
	ranges []Range
	data   [][]byte
	// pinned: values decoded from the bytes point into them (byte arrays
	// of a page stored uncompressed), so Release must not pool them.
	pinned atomic.Bool
}

// Fetch reads the given ranges, coalescing those within maxGap bytes, and
// returns a view that serves any sub-range of them without further reads.
func Fetch(src Source, ranges []Range, maxGap int64) (*Fetched, error) {
	merged := Coalesce(ranges, maxGap)
	f := &Fetched{ranges: merged, data: make([][]byte, len(merged))}
	for i, r := range merged {
		if err := checkRange(src, r); err != nil {
			f.Release()
			return nil, err
		}
		b := fetchBuffer(r.Length)
		f.data[i] = b
		if err := readFull(src, b, r.Offset); err != nil {
			f.Release()
			return nil, err
		}
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
	// Capped, so no append runs on into bytes of another range or of a
	// pooled buffer's stale tail.
	return f.data[i][lo : lo+r.Length : lo+r.Length], true
}
