package format

import (
	"fmt"
	"hash/crc32"
	"io"
	"sync/atomic"

	"github.com/pqsql/pqsql/format/compress"
	"github.com/pqsql/pqsql/format/meta"
)

// A dictionary page of many numbers is most of what a point lookup holds:
// its compressed bytes, read whole, sit beside the buffer they decompress
// into (a chunk of 120k distinct int64s: 580 KB beside 960 KB). A codec
// whose data decodes as it arrives (compress.Streams) lets the page be read
// a window at a time instead, so that only the dictionary is held. The
// bytes read are the same; they take more, smaller requests, which is why
// only a local source streams (the caller decides: StreamDictionary,
// StreamChunk).

// streamsDictionary reports whether the page of header h is a dictionary
// page decoded as its bytes are read: one of more than window compressed
// bytes, in a codec that streams.
func (d *chunkDecoder) streamsDictionary(h *meta.PageHeader, window int) bool {
	return window > 0 && h.Type == meta.DictionaryPage && int64(h.CompressedPageSize) > int64(window) && compress.Streams(d.md.Codec)
}

// streamDictionary handles the dictionary page at off whose header h, of n
// bytes, is read, decoding its body as src yields it; room is how many
// bytes after the header the page may take.
func (d *chunkDecoder) streamDictionary(h *meta.PageHeader, off int64, n int, src *pageWindow, room int64) error {
	if d.given {
		d.given = false // a second dictionary page is still an error
		return nil
	}
	if int64(h.CompressedPageSize) > room {
		return d.errorf(off, "%w: page of %d bytes runs past its column chunk (%d bytes left)", ErrCorrupt, h.CompressedPageSize, room)
	}
	dh, err := d.dictionaryHeader(h, off)
	if err != nil {
		return err
	}
	streamedDictionaries.Add(1)
	size, compressed := int(h.UncompressedPageSize), int(h.CompressedPageSize)
	var buf []byte
	// Byte arrays point into the page, which is then theirs, never pooled:
	// DecompressStream makes it. A size the codec cannot reach is left for
	// it to refuse before anything is allocated.
	if !byteValues(d.leaf.Type) && (d.md.Codec != meta.Uncompressed || size == compressed) && size <= 22*compressed+22 {
		buf = fetchBuffer(int64(size))
	}
	body := &pageBodyReader{r: src, left: compressed, hash: h.CRC != nil}
	data, err := compress.DecompressStream(d.md.Codec, buf, body, compressed, size)
	if err == nil && h.CRC != nil && int32(body.crc) != *h.CRC {
		err = fmt.Errorf("%w: stored %08x, computed %08x", ErrChecksum, uint32(*h.CRC), body.crc)
	}
	if err != nil {
		if buf != nil {
			putFetchBuffer(buf)
		}
		return d.errorf(off, "dictionary page: %w", err)
	}
	return d.takeDictionary(off, dh, data, len(data) > 0)
}

// streamedDictionaries counts the dictionary pages decoded as they were
// read, for tests to see that they are.
var streamedDictionaries atomic.Int64

// A pageBodyReader yields the left bytes of a page's body from r, and their
// CRC-32 when hash is set.
type pageBodyReader struct {
	r    *pageWindow
	left int
	hash bool
	crc  uint32
}

func (b *pageBodyReader) Read(p []byte) (int, error) {
	if b.left == 0 {
		return 0, io.EOF
	}
	n, err := b.r.Read(p[:min(len(p), b.left)])
	b.left -= n
	if b.hash {
		b.crc = crc32.Update(b.crc, crc32.IEEETable, p[:n])
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // the page is cut short
	}
	return n, err
}

func (b *pageBodyReader) ReadByte() (byte, error) {
	if b.left == 0 {
		return 0, io.EOF
	}
	c, err := b.r.ReadByte()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	b.left--
	if b.hash {
		b.crc = crc32.Update(b.crc, crc32.IEEETable, []byte{c})
	}
	return c, nil
}

// A windowReader yields the file's bytes [off, end): first pre, bytes of
// the file read already, then reads of src.
type windowReader struct {
	pre      []byte
	src      Source
	off, end int64
}

func (w *windowReader) Read(p []byte) (int, error) {
	if len(w.pre) > 0 {
		n := copy(p, w.pre)
		w.pre = w.pre[n:]
		return n, nil
	}
	if w.off >= w.end {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), w.end-w.off))
	if err := readFull(w.src, p[:n], w.off); err != nil {
		return 0, err
	}
	w.off += int64(n)
	return n, nil
}

// A pageWindow reads a windowReader a window at a time into a buffer of
// the fetch pools, which serves later reads once the page is decoded.
type pageWindow struct {
	buf  []byte
	r, w int
	src  *windowReader
}

// newPageWindow returns a pageWindow of window bytes over src; release
// hands its buffer back.
func newPageWindow(src *windowReader, window int) *pageWindow {
	return &pageWindow{buf: fetchBuffer(int64(window)), src: src}
}

func (b *pageWindow) release() {
	putFetchBuffer(b.buf)
	b.buf = nil
}

// fill reads more of src after the bytes buffered, moved to the front.
func (b *pageWindow) fill() error {
	if b.r > 0 {
		b.w = copy(b.buf, b.buf[b.r:b.w])
		b.r = 0
	}
	n, err := b.src.Read(b.buf[b.w:])
	b.w += n
	return err
}

// peek returns the next n bytes, fewer with an error when src ends first;
// n is at most the window.
func (b *pageWindow) peek(n int) ([]byte, error) {
	n = min(n, len(b.buf))
	for b.w-b.r < n {
		if err := b.fill(); err != nil {
			return b.buf[b.r:b.w], err
		}
	}
	return b.buf[b.r : b.r+n], nil
}

func (b *pageWindow) discard(n int) { b.r += min(n, b.w-b.r) }

func (b *pageWindow) Read(p []byte) (int, error) {
	if b.r == b.w {
		if len(p) >= len(b.buf) {
			return b.src.Read(p) // no need to pass through the window
		}
		if err := b.fill(); err != nil && b.r == b.w {
			return 0, err
		}
	}
	n := copy(p, b.buf[b.r:b.w])
	b.r += n
	return n, nil
}

func (b *pageWindow) ReadByte() (byte, error) {
	if b.r == b.w {
		if err := b.fill(); err != nil && b.r == b.w {
			return 0, err
		}
	}
	c := b.buf[b.r]
	b.r++
	return c, nil
}

// StreamDictionary has a reader of listed pages read its dictionary page
// from the source, window bytes at a time, and decode it as they come when
// it is a page of more than window compressed bytes in a codec that
// streams; any other dictionary page is then read in one request. The
// dictionary's range need not be among the fetched bytes. It must be
// called before the first Next.
func (r *PageReader) StreamDictionary(window int) {
	if !r.started && window > 0 {
		r.dictWindow = window
	}
}

// streamedDictionary reads and decodes the listed dictionary page as
// StreamDictionary says.
func (r *PageReader) streamedDictionary() error {
	d, rg := r.d, r.dict
	if err := checkRange(d.f.Source, rg); err != nil {
		return fmt.Errorf("%s: dictionary: %w", d.where(), err)
	}
	w := &windowReader{src: d.f.Source, off: rg.Offset, end: rg.End()}
	br := newPageWindow(w, r.dictWindow)
	defer br.release()
	head, err := br.peek(int(rg.Length))
	if err != nil {
		return fmt.Errorf("%s: dictionary: %w", d.where(), err)
	}
	h, n, err := d.f.pageHeader(head, &d.slot)
	if err == nil && h.Type == meta.DictionaryPage && d.streamsDictionary(h, r.dictWindow) {
		br.discard(n)
		return d.streamDictionary(h, rg.Offset, n, br, rg.Length-int64(n))
	}
	// Any other page is read whole, from the bytes held on.
	b := make([]byte, rg.Length)
	copy(b, head)
	br.discard(len(head))
	if _, err := io.ReadFull(br, b[len(head):]); err != nil {
		return fmt.Errorf("%s: dictionary: %w", d.where(), err)
	}
	return r.dictionaryPage(b)
}
