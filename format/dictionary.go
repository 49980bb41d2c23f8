package format

import (
	"fmt"

	"github.com/pqsql/pqsql/format/meta"
)

// DictionaryLocation is where a chunk's dictionary page lies: before its
// first data page. With an OffsetIndex (oi may be nil) the first data page is
// known exactly; without one, the footer's dictionary_page_offset and
// data_page_offset bound it. ok is false when the chunk has no dictionary
// page the footer can place.
func (f *File) DictionaryLocation(rg, col int, oi *meta.OffsetIndex) (r Range, ok bool) {
	if oi != nil && len(oi.PageLocations) > 0 {
		r = f.DictionaryRange(rg, col, oi)
		return r, r.Length > 0
	}
	md := f.Chunk(rg, col).MetaData
	if md == nil {
		return Range{}, false
	}
	d := md.DictionaryPageOffset
	// Some writers record 0 for "no dictionary offset"; offset 0 is the magic.
	if d == nil || *d < int64(len(magic)) || *d >= md.DataPageOffset {
		return Range{}, false
	}
	chunk, err := f.ChunkRange(rg, col)
	if err != nil || *d < chunk.Offset || md.DataPageOffset > chunk.End() {
		return Range{}, false
	}
	return Range{*d, md.DataPageOffset - *d}, true
}

// ReadDictionary reads and decodes only the dictionary page of leaf col in
// row group rg, from the bytes DictionaryLocation gives (oi may be nil). It
// returns the dictionary's values and the range it read; values is nil,
// with no error, when the chunk has no dictionary page the footer can place.
func (f *File) ReadDictionary(rg, col int, oi *meta.OffsetIndex) (*Values, Range, error) {
	pr, err := f.pooledReader(rg, col)
	if err != nil {
		return nil, Range{}, err
	}
	d := pr.d
	defer func() {
		// The dictionary returned is the caller's; the decoder serves
		// the next chunk.
		d.dict, d.ownDict = nil, false
		pr.Close()
	}()
	r, ok := f.DictionaryLocation(rg, col, oi)
	if !ok {
		return nil, Range{}, nil
	}
	if r.Length > f.Limits.MaxPageSize+f.Limits.MaxPageHeaderSize {
		return nil, r, d.errorf(r.Offset, "%w: dictionary region of %d bytes exceeds the page size limit", ErrLimit, r.Length)
	}
	if err := f.checkHead(); err != nil {
		return nil, r, err
	}
	if err := checkRange(f.Source, r); err != nil {
		return nil, r, fmt.Errorf("%s: dictionary: %w", d.where(), err)
	}
	b := fetchBuffer(r.Length)
	if d.leaf.Type != meta.ByteArray && d.leaf.Type != meta.FixedLenByteArray {
		// Numbers are copied out of the page: its bytes can serve the
		// next read.
		defer putFetchBuffer(b)
	}
	if err := readFull(f.Source, b, r.Offset); err != nil {
		return nil, r, fmt.Errorf("%s: dictionary: %w", d.where(), err)
	}
	p, err := f.readPage(b, r.Offset, nil)
	if err != nil {
		return nil, r, d.errorf(r.Offset, "%w", err)
	}
	if p.Header.Type != meta.DictionaryPage {
		return nil, r, d.errorf(r.Offset, "%w: expected a dictionary page, found %s", ErrCorrupt, p.Header.Type)
	}
	if err := d.page(p); err != nil {
		return nil, r, err
	}
	return d.dict, r, nil
}
