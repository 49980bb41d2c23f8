package format

import (
	"fmt"

	"github.com/pqsql/pqsql/format/meta"
)

// A chunkStream serves the pages of a column chunk from the source a window
// of bytes at a time, into one buffer it reuses: a reader of a long chunk
// then holds a window of it rather than all of it, and a scan of many
// chunks allocates no buffer per chunk.
type chunkStream struct {
	f   *File
	src Source
	// end is the offset just past the chunk.
	end    int64
	window int64
	// buf holds the file's bytes [base, base+len(buf)).
	buf  []byte
	base int64
	// pinned: values decoded from buf point into it.
	pinned bool
}

func newChunkStream(f *File, chunk Range, window int) chunkStream {
	return chunkStream{f: f, src: f.Source, end: chunk.End(), window: int64(max(window, 1)), base: chunk.Offset}
}

// page reads the page whose header starts at off. pinned says values
// decoded from the bytes served so far point into them: those bytes are
// then never written again, and the next read takes a new buffer.
func (s *chunkStream) page(off int64, pinned bool, slot *pageSlot) (*rawPage, error) {
	h, n, b, err := s.header(off, pinned, slot)
	if err != nil {
		return nil, err
	}
	return s.body(h, n, b, off, slot)
}

// header reads the header of the page at off, as page does, and returns it
// with its size and the bytes held from off on, at least the header's.
func (s *chunkStream) header(off int64, pinned bool, slot *pageSlot) (*meta.PageHeader, int, []byte, error) {
	s.pinned = s.pinned || pinned
	left := s.end - off
	probe := min(s.window, left)
	for {
		b, err := s.bytes(off, probe)
		if err != nil {
			return nil, 0, nil, err
		}
		h, n, err := s.f.pageHeader(b, slot)
		if err != nil {
			// The header may run past the bytes held: look further,
			// up to the chunk's end or the header size limit.
			if probe < left && probe < s.f.Limits.MaxPageHeaderSize {
				probe = min(2*probe, left)
				continue
			}
			return nil, 0, nil, err
		}
		// Every byte held from off on, which may run past the probe.
		return h, n, s.buf[off-s.base:], nil
	}
}

// body reads the rest of the page whose header h, of n bytes, header read
// from off with the bytes b held.
func (s *chunkStream) body(h *meta.PageHeader, n int, b []byte, off int64, slot *pageSlot) (*rawPage, error) {
	left := s.end - off
	if need := int64(n) + int64(h.CompressedPageSize); need > int64(len(b)) {
		var err error
		if b, err = s.bytes(off, min(need, left)); err != nil {
			return nil, err
		}
	}
	return s.f.pageBody(h, n, b, off, slot)
}

// bytes returns the n bytes at off, which lie in the chunk, reading from
// the source what the buffer does not hold: as much as the window allows.
func (s *chunkStream) bytes(off, n int64) ([]byte, error) {
	if off >= s.base && off+n <= s.base+int64(len(s.buf)) {
		i := off - s.base
		return s.buf[i : i+n : i+n], nil
	}
	if off < s.base || off+n > s.end {
		return nil, fmt.Errorf("%w: range [%d, %d) outside the column chunk's bytes", ErrCorrupt, off, off+n)
	}
	var held []byte
	if off < s.base+int64(len(s.buf)) {
		held = s.buf[off-s.base:]
	}
	size := min(max(n, s.window), s.end-off)
	old, buf := s.buf, s.buf
	fresh := s.pinned || int64(cap(buf)) < size
	if fresh {
		buf = fetchBuffer(size)
	}
	buf = buf[:min(int64(cap(buf)), s.end-off)]
	copy(buf, held) // in the same buffer, moves the bytes held to the front
	if fresh && !s.pinned && old != nil {
		putFetchBuffer(old)
	}
	s.pinned = false
	s.buf, s.base = nil, off
	if err := readFull(s.src, buf[len(held):], off+int64(len(held))); err != nil {
		return nil, err
	}
	s.buf = buf
	return buf[:n:n], nil
}

// release hands the buffer back for later reads, unless values point into
// it.
func (s *chunkStream) release(pinned bool) {
	if !pinned && !s.pinned && s.buf != nil {
		putFetchBuffer(s.buf)
	}
	s.buf = nil
}
