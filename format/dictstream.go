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
// only a local source streams (the caller decides: StreamDictionary).

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
	if !byteValues(d.leaf.Type) && compress.StreamSizes(d.md.Codec, compressed, size) == nil {
		buf = fetchBuffer(int64(size))
	}
	src.body(compressed, h.CRC != nil)
	data, err := compress.DecompressStream(d.md.Codec, buf, src, compressed, size)
	if err == nil && h.CRC != nil && int32(src.crc) != *h.CRC {
		err = fmt.Errorf("%w: stored %08x, computed %08x", ErrChecksum, uint32(*h.CRC), src.crc)
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
// the fetch pools, which serves later reads once the page is decoded. Once
// body is called it serves the page's body alone (compress.Stream), and
// sums the bytes done with when the page has a CRC.
type pageWindow struct {
	buf  []byte
	r, w int
	src  *windowReader
	err  error
	// left, once limited, is how many bytes of the body are not yet done
	// with.
	left    int
	limited bool
	hash    bool
	crc     uint32
}

// newPageWindow returns a pageWindow of window bytes over src; release
// hands its buffer back.
func newPageWindow(src *windowReader, window int) *pageWindow {
	// The codec looks a few bytes ahead (compress.Stream).
	return &pageWindow{buf: fetchBuffer(int64(max(window, 64))), src: src}
}

func (b *pageWindow) release() {
	putFetchBuffer(b.buf)
	b.buf = nil
}

// body has b serve the next n bytes alone, summing them when hash is set.
func (b *pageWindow) body(n int, hash bool) {
	b.left, b.limited, b.hash, b.crc = n, true, hash, 0
}

// Buffer returns the bytes buffered, reading more first when fewer than n
// are; fewer than n only with an error, io.EOF at the end of the bytes.
func (b *pageWindow) Buffer(n int) ([]byte, error) {
	n = min(n, len(b.buf))
	for b.w-b.r < n && b.err == nil {
		if b.r > 0 {
			b.w = copy(b.buf, b.buf[b.r:b.w])
			b.r = 0
		}
		var k int
		k, b.err = b.src.Read(b.buf[b.w:])
		b.w += k
	}
	held := b.buf[b.r:b.w]
	if b.limited && len(held) >= b.left {
		held = held[:b.left]
		if len(held) < n {
			return held, io.EOF
		}
	}
	if len(held) < n {
		if b.err == nil || b.err == io.EOF {
			return held, io.EOF
		}
		return held, b.err
	}
	return held, nil
}

// Discard drops the first n bytes buffered.
func (b *pageWindow) Discard(n int) {
	if b.hash {
		b.crc = crc32.Update(b.crc, crc32.IEEETable, b.buf[b.r:b.r+n])
	}
	b.r += n
	if b.limited {
		b.left -= n
	}
}

// StreamDictionary has a reader of listed pages read its dictionary page
// from the source, window bytes at a time, and decode it as they come when
// it is a page of more than window compressed bytes in a codec that
// streams; any other dictionary page is then read in one request. The
// dictionary's range need not be among the fetched bytes. A reader of a
// whole chunk that streams (StreamChunk) decodes such a page as it streams
// past only when asked this too: the decoder here reads SNAPPY at about
// half the speed of the whole-page one, which a scan holding a chunk's
// window anyway need not pay to save a page's bytes. It must be called
// before the first Next.
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
	head, err := br.Buffer(int(rg.Length))
	if err != nil {
		return fmt.Errorf("%s: dictionary: %w", d.where(), err)
	}
	h, n, err := d.f.pageHeader(head, &d.slot)
	if err == nil && h.Type == meta.DictionaryPage && d.streamsDictionary(h, r.dictWindow) {
		br.Discard(n)
		return d.streamDictionary(h, rg.Offset, n, br, rg.Length-int64(n))
	}
	// Any other page is read whole, from the bytes held on.
	b := make([]byte, rg.Length)
	copy(b, head)
	br.Discard(len(head))
	if _, err := io.ReadFull(br.src, b[len(head):]); err != nil {
		return fmt.Errorf("%s: dictionary: %w", d.where(), err)
	}
	return r.dictionaryPage(b)
}
