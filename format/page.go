package format

import (
	"fmt"
	"hash/crc32"

	"github.com/pqsql/pqsql/format/compress"
	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
)

// A rawPage is a page header and the page's bytes as stored.
type rawPage struct {
	Header *meta.PageHeader
	// Offset is the file offset of the header.
	Offset int64
	// HeaderSize is the byte length of the thrift header.
	HeaderSize int
	// Body holds CompressedPageSize bytes after the header.
	Body []byte
}

// A pageSlot is where a chunk's decoder puts each page it reads: it decodes
// one page at a time and drops it before reading the next, so one header
// and one rawPage serve every page of the chunk.
type pageSlot struct {
	hdr thrift.PageHeaderBuf
	raw rawPage
}

// readPage decodes the page header at the start of b (which starts at file
// offset off) and slices the page body after it. The page is put in slot
// when it is not nil, over the page slot held.
func (f *File) readPage(b []byte, off int64, slot *pageSlot) (*rawPage, error) {
	h, n, err := f.pageHeader(b, slot)
	if err != nil {
		return nil, err
	}
	return f.pageBody(h, n, b, off, slot)
}

// pageHeader decodes and checks the page header at the start of b, and
// returns it with its size; into slot's header when slot is not nil.
func (f *File) pageHeader(b []byte, slot *pageSlot) (*meta.PageHeader, int, error) {
	hb := b
	if int64(len(hb)) > f.Limits.MaxPageHeaderSize {
		hb = hb[:f.Limits.MaxPageHeaderSize]
	}
	var h *meta.PageHeader
	var n int
	var err error
	if slot != nil {
		n, err = thrift.DecodePageHeaderInto(hb, &slot.hdr)
		h = &slot.hdr.H
	} else {
		h, n, err = thrift.DecodePageHeader(hb)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%w: page header: %v", ErrCorrupt, err)
	}
	if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 {
		return nil, 0, fmt.Errorf("%w: negative page size (compressed %d, uncompressed %d)", ErrCorrupt, h.CompressedPageSize, h.UncompressedPageSize)
	}
	if int64(h.CompressedPageSize) > f.Limits.MaxPageSize || int64(h.UncompressedPageSize) > f.Limits.MaxPageSize {
		return nil, 0, fmt.Errorf("%w: page of %d bytes (%d uncompressed) exceeds the page size limit of %d", ErrLimit, h.CompressedPageSize, h.UncompressedPageSize, f.Limits.MaxPageSize)
	}
	return h, n, nil
}

// pageBody slices the body of the page whose header h, of n bytes, starts
// b, and checks its CRC. The page is slot's when slot is not nil.
func (f *File) pageBody(h *meta.PageHeader, n int, b []byte, off int64, slot *pageSlot) (*rawPage, error) {
	if int(h.CompressedPageSize) > len(b)-n {
		return nil, fmt.Errorf("%w: page of %d bytes runs past its column chunk (%d bytes left)", ErrCorrupt, h.CompressedPageSize, len(b)-n)
	}
	var p *rawPage
	if slot != nil {
		p = &slot.raw
	} else {
		p = new(rawPage)
	}
	*p = rawPage{Header: h, Offset: off, HeaderSize: n, Body: b[n : n+int(h.CompressedPageSize)]}
	if h.CRC != nil {
		if got := crc32.ChecksumIEEE(p.Body); int32(got) != *h.CRC {
			return nil, fmt.Errorf("%w: stored %08x, computed %08x", ErrChecksum, uint32(*h.CRC), got)
		}
	}
	return p, nil
}

// decompress returns the page body uncompressed.
func (f *File) decompress(codec meta.CompressionCodec, body []byte, size int) ([]byte, error) {
	if codec == meta.Uncompressed {
		if len(body) != size {
			return nil, fmt.Errorf("%w: uncompressed page holds %d bytes, header says %d", ErrCorrupt, len(body), size)
		}
		return body, nil
	}
	if size == 0 {
		return nil, nil
	}
	out, err := compress.Decompress(codec, nil, body, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", codec, err)
	}
	return out, nil
}
