package format

import (
	"fmt"
	"io"
	"sync"

	"github.com/pqsql/pqsql/format/meta"
)

// A PageReader decodes the data pages of one column chunk one at a time, so
// that a reader of a long chunk holds one page's levels and values rather
// than the chunk's. A page of more than Limits.SliceEntries entries comes in
// slices of about that many (a repeated leaf's slices end where a record
// starts), so a page of 64M run-length values holds a slice's worth at a
// time. It decodes the chunk's dictionary once, before the first data page.
//
// Aliasing: the ColumnData Next returns belongs to the reader. It stays
// valid until the caller calls Release; the next Next after a Release
// overwrites its levels, values and page spans in place. Without Release,
// every Next returns fresh storage. Byte-array values (Values.Bytes[i]) point
// into the fetched page bytes, a decompressed page or the dictionary, none of
// which the reader ever writes again, so they stay valid after Release as
// long as the caller keeps them.
type PageReader struct {
	d       *chunkDecoder
	fetched *Fetched
	dict    Range
	pages   []PageRef
	next    int
	// seq: read the whole chunk in file order, from buf (its bytes) at pos.
	seq    bool
	buf    []byte
	base   int64
	pos    int
	row    int64
	values int64
	// started is set once the dictionary (or the chunk's bytes) is read.
	started bool
	// reuse: the caller released the last page, whose storage Next may
	// overwrite.
	reuse bool
	// err ends the reader: io.EOF, or the first decoding error.
	err error
	// skipBefore: data pages whose rows all lie before it are passed over
	// (NextFrom); -1 decodes every page.
	skipBefore int64
	// from, when past the chunk's start, is where a whole-chunk read
	// starts: the end of a dictionary page given (UseDictionaryBefore).
	from int64
	// whole: decode each page at once rather than in slices.
	whole bool
	// window, when above 0, streams a whole chunk read from the source
	// (StreamChunk); st serves it, and size is the chunk's length.
	window int
	st     *chunkStream
	size   int
	// dictWindow, when above 0, streams the listed dictionary page
	// (StreamDictionary).
	dictWindow int
	// chunk is where st points: a reader streams one chunk.
	chunk chunkStream
}

// NewPageReader returns a reader of leaf col in row group rg. With pages nil
// it reads the whole chunk in order (its dictionary page included, dict is
// ignored); otherwise it decodes the dictionary page dict (if Length > 0)
// and then the listed data pages, and a non-nil empty pages reads no data
// page. Bytes come from fetched when it is not nil, and must lie in it;
// otherwise they are read from the file's source, the whole chunk in one
// request or each listed range in one.
func (f *File) NewPageReader(rg, col int, dict Range, pages []PageRef, fetched *Fetched) (*PageReader, error) {
	if err := f.checkHead(); err != nil {
		return nil, err
	}
	r, err := f.pooledReader(rg, col)
	if err != nil {
		return nil, err
	}
	*r = PageReader{d: r.d, fetched: fetched, dict: dict, pages: pages, seq: pages == nil, skipBefore: -1}
	return r, nil
}

// pooledReader is a closed reader of the pool, or a new one, whose decoder
// is made a fresh one of leaf col in row group rg.
func (f *File) pooledReader(rg, col int) (*PageReader, error) {
	r, _ := readerPool.Get().(*PageReader)
	if r == nil {
		r = &PageReader{d: new(chunkDecoder), err: io.EOF}
	}
	if err := f.initChunkDecoder(r.d, rg, col); err != nil {
		readerPool.Put(r)
		return nil, err
	}
	return r, nil
}

// readerPool holds closed readers, each with its decoder, for the next
// chunks: a scan opens a reader for every chunk it reads, row group after
// row group, and a decoder's page slot, cursor and level decoders take a
// kilobyte, which a process's first query would otherwise make for each.
var readerPool sync.Pool

// StreamChunk has a reader that reads from the source (fetched nil) read
// window bytes at a time into one buffer it reuses, rather than in one
// request a range: it then holds a window of the chunk rather than all of
// it, and hands the buffer back once the chunk is read. A reader of listed
// pages reads each run of adjacent ranges (the dictionary page's and the
// pages') that way, and never the bytes between two runs. It must be
// called before the first Next.
func (r *PageReader) StreamChunk(window int) {
	if r.fetched == nil && !r.started && window > 0 {
		r.window = window
	}
}

// Close says the caller is done with the reader and with everything it
// returned, the dictionary it decoded included (a dictionary given by
// UseDictionary is the giver's): their storage, and the reader itself,
// may serve later readers. The caller drops the reader: it must not be
// used, or closed again, after Close.
func (r *PageReader) Close() {
	d := r.d
	if d.ownDict && d.dict != nil {
		releaseDict(d.dict)
		d.dict, d.ownDict = nil, false
	}
	if r.st != nil {
		r.st.release(d.rawKept)
		r.st = nil
	}
	if d.scratch != nil {
		putFetchBuffer(d.scratch)
		d.scratch = nil
	}
	out := d.out
	if d.store != nil || out == d.blank {
		// The storage out held went back with the store, or it holds
		// none: the struct serves the next reader's first page.
		d.recycle()
		if out != nil {
			*out = ColumnData{}
		}
	} else {
		out = nil // decoded without a store (readAll): the caller's
	}
	*d = chunkDecoder{idxDec: d.idxDec, blank: out}
	*r = PageReader{d: d, err: io.EOF}
	readerPool.Put(r)
}

// ReuseByteArrays has Next decompress the byte-array pages of the chunk
// into one buffer it reuses, as it does pages of numbers: their values are
// then valid only until Next decodes the next page, so the caller copies
// out what it keeps. It must be called before the first Next.
func (r *PageReader) ReuseByteArrays() {
	if !r.started {
		r.d.reuseBytes = true
	}
}

// Leaf is the leaf the reader decodes.
func (r *PageReader) Leaf() *Leaf { return r.d.leaf }

// Next decodes the next data page, or the next slice of a large one, and
// returns its entries, with one PageSpan whose FirstEntry and FirstValue
// are 0 (Continued for a slice after a page's first). It returns io.EOF
// after the last page; once it has returned an error it returns it again.
func (r *PageReader) Next() (*ColumnData, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.reuse {
		r.d.out.reset()
		r.d.held = r.d.dictHeld
		if c := r.d.cur; c != nil {
			r.d.held += c.held
		}
		r.reuse = false
	} else {
		r.d.out = r.d.newOut()
	}
	if err := r.step(); err != nil {
		r.err = err
		return nil, err
	}
	return r.d.out, nil
}

// NextFrom is Next, except that it passes over, undecoded, the data pages
// whose rows all lie before row (a page already begun is sliced on). Only a leaf without repetition can tell a
// page's rows from its header (its value count); other leaves decode every
// page. A page passed over is checked no further than its header and CRC,
// so NextFrom suits a second pass over pages Next already decoded.
func (r *PageReader) NextFrom(row int64) (*ColumnData, error) {
	r.skipBefore = row
	defer func() { r.skipBefore = -1 }()
	return r.Next()
}

// skippable returns the rows of data page p, if p lies before skipBefore
// and may be passed over.
func (r *PageReader) skippable(p *rawPage, firstRow int64) (rows int64, ok bool) {
	if r.skipBefore <= firstRow || r.d.leaf.MaxRep > 0 {
		return 0, false
	}
	var n int64
	switch h := p.Header; {
	case h.Type == meta.DataPage && h.DataPageHeader != nil:
		n = int64(h.DataPageHeader.NumValues)
	case h.Type == meta.DataPageV2 && h.DataPageHeaderV2 != nil:
		n = int64(h.DataPageHeaderV2.NumValues)
	default:
		return 0, false
	}
	// A count decoding would refuse is left for decoding to report.
	if n < 0 || n > r.d.f.Limits.MaxPageValues || firstRow+n > r.skipBefore {
		return 0, false
	}
	return n, true
}

// Release says the caller is done with the ColumnData the last Next
// returned: the next Next may reuse its storage.
func (r *PageReader) Release() { r.reuse = r.d.out != nil }

// reset empties c, keeping its storage. Byte-array slots are cleared so the
// pages they point into can be freed.
func (c *ColumnData) reset() {
	c.Def, c.Rep, c.NumEntries, c.Pages = c.Def[:0], c.Rep[:0], 0, c.Pages[:0]
	v := &c.Values
	clear(v.Bytes)
	v.Bool, v.Int32, v.Int64, v.Int96 = v.Bool[:0], v.Int32[:0], v.Int64[:0], v.Int96[:0]
	v.Float, v.Double, v.Bytes = v.Float[:0], v.Double[:0], v.Bytes[:0]
	c.Indices, c.Dict = c.Indices[:0], nil
}

// get returns the bytes of r, a listed range: the dictionary page's, or
// the page before r.next.
func (r *PageReader) get(rg Range) ([]byte, error) {
	if r.fetched != nil {
		if b, ok := r.fetched.Slice(rg); ok {
			return b, nil
		}
		return nil, fmt.Errorf("range [%d, %d) was not fetched", rg.Offset, rg.End())
	}
	if r.window > 0 {
		return r.stream(rg)
	}
	return readRange(r.d.f.Source, rg)
}

// stream serves a listed range through the reader's window: the read may
// run on through the listed ranges adjacent to it, no further.
func (r *PageReader) stream(rg Range) ([]byte, error) {
	if err := checkRange(r.d.f.Source, rg); err != nil {
		return nil, err
	}
	if r.st == nil {
		r.chunk = chunkStream{f: r.d.f, src: r.d.f.Source, window: int64(r.window)}
		r.st = &r.chunk
	}
	end, k := rg.End(), r.next
	if rg == r.dict {
		k = 0
	}
	for ; k < len(r.pages) && r.pages[k].Range.Offset == end; k++ {
		if err := checkRange(r.d.f.Source, r.pages[k].Range); err != nil {
			break // read alone when its turn comes, and fail then
		}
		end = r.pages[k].Range.End()
	}
	r.st.end = end
	r.st.pinned = r.st.pinned || r.d.rawKept
	r.d.rawKept = false
	return r.st.bytes(rg.Offset, rg.Length)
}

// step decodes the next slice of a data page, appending it to r.d.out, or
// returns io.EOF.
func (r *PageReader) step() error {
	if r.d.cur != nil {
		return r.slice()
	}
	if r.seq {
		return r.stepSequential()
	}
	d := r.d
	if !r.started {
		r.started = true
		switch {
		case r.dict.Length > 0 && r.dictWindow > 0:
			if err := r.streamedDictionary(); err != nil {
				return err
			}
		case r.dict.Length > 0:
			b, err := r.get(r.dict)
			if err != nil {
				return fmt.Errorf("%s: dictionary: %w", d.where(), err)
			}
			if err := r.dictionaryPage(b); err != nil {
				return err
			}
		}
	}
	for r.next < len(r.pages) {
		pr := r.pages[r.next]
		r.next++
		b, err := r.get(pr.Range)
		if err != nil {
			return fmt.Errorf("%s: %w", d.where(), err)
		}
		p, err := d.f.readPage(b, pr.Range.Offset, &d.slot)
		if err != nil {
			return d.errorf(pr.Range.Offset, "%w", err)
		}
		if p.Header.Type != meta.DataPage && p.Header.Type != meta.DataPageV2 {
			return d.errorf(pr.Range.Offset, "%w: offset index points at a %s", ErrCorrupt, p.Header.Type)
		}
		if n, ok := r.skippable(p, pr.FirstRow); ok {
			if err := d.checkRows(pr, n); err != nil {
				return err
			}
			continue
		}
		if err := d.openPage(p, pr.FirstRow, pr); err != nil {
			return err
		}
		r.notePinned()
		return r.slice()
	}
	if r.st != nil {
		r.st.release(d.rawKept)
	}
	r.dropScratch()
	return io.EOF
}

// dictionaryPage decodes the listed dictionary page, whose bytes are b.
func (r *PageReader) dictionaryPage(b []byte) error {
	d := r.d
	p, err := d.f.readPage(b, r.dict.Offset, &d.slot)
	if err != nil {
		return d.errorf(r.dict.Offset, "%w", err)
	}
	if p.Header.Type != meta.DictionaryPage {
		return d.errorf(r.dict.Offset, "%w: expected a dictionary page, found %s", ErrCorrupt, p.Header.Type)
	}
	if err := d.page(p); err != nil {
		return err
	}
	r.notePinned()
	return nil
}

// dropScratch hands back the buffer pages were decompressed into once the
// last page is decoded: numbers were copied out of it, and a reader that
// is dropped rather than closed would otherwise keep it from the next
// chunk. Byte arrays decoded from it (ReuseByteArrays) stay the caller's
// until Close.
func (r *PageReader) dropScratch() {
	if d := r.d; d.scratch != nil && !byteValues(d.leaf.Type) {
		putFetchBuffer(d.scratch)
		d.scratch = nil
	}
}

// notePinned pins the fetched bytes once values decoded from a page point
// into them, so that releasing them does not hand them to another read.
func (r *PageReader) notePinned() {
	if r.d.rawKept && r.fetched != nil {
		r.fetched.pin()
	}
}

// slice decodes the next slice of the open page: all of it for readAll.
func (r *PageReader) slice() error {
	d := r.d
	max := d.f.Limits.sliceEntries()
	if r.whole {
		max = wholePage
	}
	before := d.out.NumEntries
	if err := d.slicePage(max); err != nil {
		return err
	}
	r.values += int64(d.out.NumEntries - before)
	r.row += d.out.Pages[len(d.out.Pages)-1].NumRows
	return nil
}

// checkRows fails when a data page holds other than the rows the offset
// index placed in it: the index would have the caller skip rows it holds or
// take rows of another page for its own.
func (d *chunkDecoder) checkRows(pr PageRef, rows int64) error {
	if pr.NumRows <= 0 || rows == pr.NumRows {
		return nil
	}
	return d.errorf(pr.Range.Offset, "%w: the page holds %d rows, the offset index places rows [%d, %d) in it", ErrCorrupt, rows, pr.FirstRow, pr.FirstRow+pr.NumRows)
}

// stepSequential walks the pages of the whole chunk up to the next data
// page, decoding the dictionary page on the way.
func (r *PageReader) stepSequential() error {
	d := r.d
	if !r.started {
		r.started = true
		if d.f.Meta.RowGroups[d.rg].NumRows == 0 && d.md.NumValues == 0 {
			// A row group of no rows needs no bytes; writers leave its
			// chunks' offsets 0.
			return io.EOF
		}
		cr, err := d.f.ChunkRange(d.rg, d.col)
		if err != nil {
			return fmt.Errorf("format: file %s: %w", d.f.Name, err)
		}
		if r.from > cr.Offset && r.from < cr.End() {
			cr = Range{r.from, cr.End() - r.from} // past a dictionary given
		}
		r.base, r.size = cr.Offset, int(cr.Length)
		if r.window > 0 {
			if err := checkRange(d.f.Source, cr); err != nil {
				return fmt.Errorf("%s: %w", d.where(), err)
			}
			r.chunk = newChunkStream(d.f, cr, r.window)
			r.st = &r.chunk
		} else if r.buf, err = r.get(cr); err != nil {
			return fmt.Errorf("%s: %w", d.where(), err)
		}
	}
	rows := d.f.Meta.RowGroups[d.rg].NumRows
	// A leaf without repetition holds one entry a row, so the row group's
	// row count says where its pages end; num_values may lie (0 in a row
	// group of 8 rows, which DuckDB reads). A repeated leaf needs both
	// counts: its last row may continue into a later page.
	repeated := d.leaf.MaxRep > 0
	for r.pos < r.size && (r.row < rows || (repeated && r.values < d.md.NumValues)) {
		off := r.base + int64(r.pos)
		var p *rawPage
		var err error
		if r.st != nil {
			var h *meta.PageHeader
			var n int
			var b []byte
			h, n, b, err = r.st.header(off, d.rawKept, &d.slot)
			d.rawKept = false
			if err == nil && r.dictWindow > 0 && d.streamsDictionary(h, r.window) {
				// Decoded as it is read, past the window held.
				room := int64(r.size - r.pos - n)
				end := min(r.base+int64(r.size), off+int64(n)+int64(h.CompressedPageSize))
				pre := b[n:min(int64(len(b)), end-off)]
				w := &windowReader{pre: pre, src: d.f.Source, off: off + int64(n+len(pre)), end: end}
				br := newPageWindow(w, r.window)
				err = d.streamDictionary(h, off, n, br, room)
				br.release()
				if err != nil {
					return err
				}
				r.pos += n + int(h.CompressedPageSize)
				continue
			}
			if err == nil {
				p, err = r.st.body(h, n, b, off, &d.slot)
			}
		} else {
			p, err = d.f.readPage(r.buf[r.pos:], off, &d.slot)
		}
		if err != nil {
			return d.errorf(off, "%w", err)
		}
		r.pos += p.HeaderSize + len(p.Body)
		switch p.Header.Type {
		case meta.DictionaryPage:
			if err := d.page(p); err != nil {
				return err
			}
			r.notePinned()
		case meta.DataPage, meta.DataPageV2:
			if n, ok := r.skippable(p, r.row); ok {
				r.values += n
				r.row += n
				continue
			}
			if err := d.openPage(p, r.row, PageRef{}); err != nil {
				return err
			}
			r.notePinned()
			return r.slice()
		}
	}
	if r.row != rows {
		return fmt.Errorf("%s: %w: chunk holds %d rows, the row group %d", d.where(), ErrCorrupt, r.row, rows)
	}
	if repeated && r.values != d.md.NumValues {
		return fmt.Errorf("%s: %w: chunk holds %d values, metadata says %d", d.where(), ErrCorrupt, r.values, d.md.NumValues)
	}
	if r.st != nil {
		r.st.release(d.rawKept)
	}
	r.dropScratch()
	return io.EOF
}

// readAll decodes every remaining page into one ColumnData, as ReadColumn
// and ReadPages return it.
func (r *PageReader) readAll() (*ColumnData, error) {
	r.whole = true
	r.d.blank = nil // out is the caller's
	for {
		err := r.step()
		if err == io.EOF {
			return r.d.out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// DataPageEntries returns the number of entries (levels; rows, for a leaf
// without repetition) the header of data page p of leaf col in row group rg
// declares, reading only the header. Bytes come from fetched when it is not
// nil, and must lie in it; otherwise from the source. It lets a caller check
// an offset index against the pages before decoding them.
func (f *File) DataPageEntries(rg, col int, p PageRef, fetched *Fetched) (int64, error) {
	r, err := f.NewPageReader(rg, col, Range{}, []PageRef{}, fetched)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	d := r.d
	b, err := r.get(p.Range)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", d.where(), err)
	}
	rp, err := f.readPage(b, p.Range.Offset, nil)
	if err != nil {
		return 0, d.errorf(p.Range.Offset, "%w", err)
	}
	switch h := rp.Header; {
	case h.Type == meta.DataPage && h.DataPageHeader != nil:
		return int64(h.DataPageHeader.NumValues), nil
	case h.Type == meta.DataPageV2 && h.DataPageHeaderV2 != nil:
		return int64(h.DataPageHeaderV2.NumValues), nil
	}
	return 0, d.errorf(p.Range.Offset, "%w: offset index points at a %s without its header", ErrCorrupt, rp.Header.Type)
}
