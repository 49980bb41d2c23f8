package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/pqsql/pqsql/format/compress"
	"github.com/pqsql/pqsql/format/encoding/plain"
	"github.com/pqsql/pqsql/format/encoding/rle"
	"github.com/pqsql/pqsql/format/meta"
)

// ColumnData is one leaf's decoded entries from a column chunk, or from the
// pages of it that were selected. An entry is one (repetition, definition)
// level pair; entries whose definition level equals the leaf's maximum carry
// the next value of Values.
type ColumnData struct {
	Leaf *Leaf
	// Def and Rep hold one level per entry; nil when the maximum level is 0.
	Def, Rep []int32
	// NumEntries counts entries (rows, for a flat column).
	NumEntries int
	Values     Values
	// Pages describes the decoded data pages in order.
	Pages []PageSpan
	// Indices and Dict stand in for Values when a PageReader keeps
	// dictionary indices (KeepIndices) and the page is dictionary-encoded:
	// one index into Dict per non-null entry, each checked in range.
	// Dict is nil otherwise.
	Indices []int32
	Dict    *Values
}

// A PageSpan places one decoded data page among the chunk's rows and the
// decoded entries.
type PageSpan struct {
	// FirstRow is the row-group row index of the page's first row.
	FirstRow int64
	// NumRows counts the rows that start in the page.
	NumRows int64
	// FirstEntry and NumEntries locate the page's entries in ColumnData.
	FirstEntry, NumEntries int
	// FirstValue is the index in Values of the page's first non-null value.
	FirstValue int
	// Continued marks a span that continues a page an earlier span began:
	// PageReader.Next returns a large page in slices. The span's fields
	// then describe the slice: its first row, its rows and entries.
	Continued bool
	// NoNulls says every entry of the span holds a value (its definition
	// levels are all the leaf's maximum, or it has none): entry
	// FirstEntry+i is value FirstValue+i. False says nothing.
	NoNulls bool
}

// IsNull reports whether entry i is null at the leaf.
func (c *ColumnData) IsNull(i int) bool { return c.Def != nil && int(c.Def[i]) < c.Leaf.MaxDef }

// A PageRef is a data page to decode, from an OffsetIndex.
type PageRef struct {
	Range    Range
	FirstRow int64
	// NumRows is the rows the offset index places in the page (up to the
	// next page's first row); 0 when unknown. A page whose header or
	// levels disagree fails to decode with ErrCorrupt rather than lose or
	// invent rows.
	NumRows int64
}

// chunkDecoder holds the state of decoding one column chunk.
type chunkDecoder struct {
	f    *File
	rg   int
	col  int
	leaf *Leaf
	md   *meta.ColumnMetaData
	dict *Values
	out  *ColumnData
	idx  []int32
	// decoded counts the entries of the data pages decoded so far.
	decoded int64
	// slot holds the page being decoded (pageSlot).
	slot pageSlot
	// scratch is a decompression buffer reused from page to page where no
	// decoded value points into it.
	scratch []byte
	// check is what the leaf's values are checked or adjusted for.
	check valueCheck
	// held counts the bytes the decoded entries and the dictionary hold,
	// against Limits.MaxDecodedBytes; dictHeld is the dictionary's share.
	held, dictHeld int64
	// keepIdx: dictionary-encoded pages keep their indices (indexed.go).
	keepIdx bool
	// given: dict came from the caller, and the chunk's dictionary page is
	// passed over undecoded.
	given bool
	// reuseBytes: byte-array pages are decompressed into scratch too
	// (PageReader.ReuseByteArrays).
	reuseBytes bool
	// ownDict: dict was decoded from the chunk's dictionary page, not
	// given (Close may recycle it).
	ownDict bool
	// rawKept: byte-array values point into a page's bytes as read, not
	// decompressed, since the reader last looked (chunkStream).
	rawKept bool

	// cur is the data page being decoded, nil between pages; it is
	// cursor, and idxDec its index decoder.
	cur    *pageCursor
	cursor pageCursor
	idxDec *rle.Decoder
	// store holds the storage the decoder took from storePool (newOut).
	store *chunkStore
	// The level decoders of the open page, reset page after page.
	repDec, defDec rle.Decoder
	// blank, until newOut hands it out, is an empty ColumnData of the leaf
	// no caller has seen: out, as the decoder is made.
	blank *ColumnData
}

// budget is Limits.MaxDecodedBytes; zero means the default.
func (l Limits) budget() int64 {
	if l.MaxDecodedBytes > 0 {
		return l.MaxDecodedBytes
	}
	return DefaultLimits.MaxDecodedBytes
}

// fits checks that n more bytes, needed while a page decodes, fit beside
// what the read holds.
func (d *chunkDecoder) fits(n int64, what string) error {
	if limit := d.f.Limits.budget(); n < 0 || d.held+n > limit {
		return fmt.Errorf("%w: %s would take %d bytes beside the %d the read holds, above the decoded-data limit of %d bytes", ErrLimit, what, n, d.held, limit)
	}
	return nil
}

// hold is fits for bytes the read keeps until the caller releases it.
func (d *chunkDecoder) hold(n int64, what string) error {
	if err := d.fits(n, what); err != nil {
		return err
	}
	d.held += n
	return nil
}

// valueBytes is the memory one decoded value of type t takes in Values.
func valueBytes(t meta.Type) int64 {
	switch t {
	case meta.Boolean:
		return 1
	case meta.Int32, meta.Float:
		return 4
	case meta.Int64, meta.Double:
		return 8
	case meta.Int96:
		return 12
	}
	return 24 // a slice header; the bytes are held by a page or an arena
}

func (f *File) newChunkDecoder(rg, col int) (*chunkDecoder, error) {
	d := new(chunkDecoder)
	if err := f.initChunkDecoder(d, rg, col); err != nil {
		return nil, err
	}
	return d, nil
}

// initChunkDecoder makes d a fresh decoder of leaf col in row group rg,
// keeping of what it held only storage no caller saw: the index decoder,
// and its blank ColumnData.
func (f *File) initChunkDecoder(d *chunkDecoder, rg, col int) error {
	if rg < 0 || rg >= len(f.Meta.RowGroups) || col < 0 || col >= len(f.Schema.Leaves) {
		return fmt.Errorf("format: file %s: no row group %d, column %d", f.Name, rg, col)
	}
	if f.Chunk(rg, col).MetaData == nil {
		return f.notDecoded(rg, col)
	}
	leaf := f.Schema.Leaves[col]
	out := d.blank
	if out == nil {
		out = new(ColumnData)
	}
	*out = ColumnData{Leaf: leaf, Values: Values{Type: leaf.Type}}
	*d = chunkDecoder{f: f, rg: rg, col: col, leaf: leaf, md: f.Chunk(rg, col).MetaData, check: newValueCheck(leaf),
		out: out, blank: out, idxDec: d.idxDec}
	return nil
}

// where names the chunk in errors; made only for one, not per chunk read.
func (d *chunkDecoder) where() string {
	return fmt.Sprintf("format: file %s: row group %d, column %s", d.f.Name, d.rg, d.leaf.Path)
}

// Chunks read one after another decode into the storage of those before:
// a column chunk's levels, values, page spans and dictionary indices come
// from a chunkStore of storePool, and go back when its reader closes.
var storePool sync.Pool

// A chunkStore holds storage not in use: empty slices, each kept or nil.
type chunkStore struct {
	c   ColumnData
	idx []int32
}

// take hands out the storage *s holds, emptied, leaving none there.
func take[T any](s *[]T) []T {
	x := *s
	*s = nil
	return x[:0]
}

// keep stores x in *s, when it is larger than what *s holds.
func keep[T any](s *[]T, x []T) {
	if cap(x) > cap(*s) {
		*s = x[:0]
	}
}

// newOut is a fresh ColumnData for the pages to come: the first of a
// decoder on released storage, where there is some.
func (d *chunkDecoder) newOut() *ColumnData {
	c := d.blank
	if c != nil {
		d.blank = nil
	} else {
		c = &ColumnData{Leaf: d.leaf, Values: Values{Type: d.leaf.Type}}
	}
	if d.store != nil {
		return c
	}
	st, _ := storePool.Get().(*chunkStore)
	if st == nil {
		st = &chunkStore{}
	}
	d.store = st
	// Only what the leaf uses: a nil Def says there are no levels.
	if d.leaf.MaxDef > 0 {
		c.Def = take(&st.c.Def)
	}
	if d.leaf.MaxRep > 0 {
		c.Rep = take(&st.c.Rep)
	}
	c.Pages, c.Indices = take(&st.c.Pages), take(&st.c.Indices)
	v, sv := &c.Values, &st.c.Values
	switch v.Type {
	case meta.Boolean:
		v.Bool = take(&sv.Bool)
	case meta.Int32:
		v.Int32 = take(&sv.Int32)
	case meta.Int64:
		v.Int64 = take(&sv.Int64)
	case meta.Float:
		v.Float = take(&sv.Float)
	case meta.Double:
		v.Double = take(&sv.Double)
	case meta.ByteArray, meta.FixedLenByteArray:
		v.Bytes = take(&sv.Bytes)
	}
	if d.idx == nil {
		d.idx = take(&st.idx)
	}
	return c
}

// recycle hands the decoder's storage to the chunks decoded next; nothing
// it returned may be used afterwards.
func (d *chunkDecoder) recycle() {
	st := d.store
	if st == nil {
		return
	}
	d.store = nil
	if c := d.out; c != nil {
		d.out = nil
		keep(&st.c.Def, c.Def)
		keep(&st.c.Rep, c.Rep)
		keep(&st.c.Pages, c.Pages)
		keep(&st.c.Indices, c.Indices)
		v, sv := &c.Values, &st.c.Values
		keep(&sv.Bool, v.Bool)
		keep(&sv.Int32, v.Int32)
		keep(&sv.Int64, v.Int64)
		keep(&sv.Float, v.Float)
		keep(&sv.Double, v.Double)
		// Byte-array values point into pages: the slots are cleared so
		// that those can be freed.
		clear(v.Bytes[:cap(v.Bytes)])
		keep(&sv.Bytes, v.Bytes)
	}
	keep(&st.idx, d.idx)
	d.idx = nil
	storePool.Put(st)
}

func (d *chunkDecoder) errorf(off int64, format string, args ...any) error {
	return classify(fmt.Errorf("%s, page at offset %d: "+format, append([]any{d.where(), off}, args...)...))
}

// classify makes an error from an encoding or codec package also match one
// of this package's sentinels, so callers can tell bad files from limits.
func classify(err error) error {
	switch {
	case errors.Is(err, ErrCorrupt), errors.Is(err, ErrLimit), errors.Is(err, ErrUnsupported),
		errors.Is(err, ErrChecksum), errors.Is(err, ErrEncrypted), errors.Is(err, ErrTruncated),
		errors.Is(err, ErrInvalidString):
		return err
	case errors.Is(err, compress.ErrUnsupportedCodec):
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

// maxReserve bounds what reserve allocates on the word of the metadata.
const maxReserve = 1 << 20

// reserve sizes the output for n entries, so that appending page after page
// does not copy; the count comes from the file, so it is capped.
func (d *chunkDecoder) reserve(n int64) {
	if n <= 0 {
		return
	}
	c := int(min(n, maxReserve))
	v := &d.out.Values
	switch v.Type {
	case meta.Boolean:
		v.Bool = make([]bool, 0, c)
	case meta.Int32:
		v.Int32 = make([]int32, 0, c)
	case meta.Int64:
		v.Int64 = make([]int64, 0, c)
	case meta.Int96:
		v.Int96 = make([][12]byte, 0, c)
	case meta.Float:
		v.Float = make([]float32, 0, c)
	case meta.Double:
		v.Double = make([]float64, 0, c)
	default:
		v.Bytes = make([][]byte, 0, c)
	}
	if d.leaf.MaxDef > 0 {
		d.out.Def = make([]int32, 0, c)
	}
	if d.leaf.MaxRep > 0 {
		d.out.Rep = make([]int32, 0, c)
	}
}

// ReadColumn decodes every page of leaf col in row group rg, reading the
// chunk's byte range from the source in one request.
func (f *File) ReadColumn(rg, col int) (*ColumnData, error) {
	r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
	if err != nil {
		return nil, err
	}
	r.d.reserve(r.d.md.NumValues)
	return r.readAll()
}

// ReadPages decodes the dictionary page (dict, if Length > 0) and the listed
// data pages of leaf col in row group rg. Bytes come from fetched when it is
// not nil, and must lie in it; otherwise each range is read from the source.
func (f *File) ReadPages(rg, col int, dict Range, pages []PageRef, fetched *Fetched) (*ColumnData, error) {
	if pages == nil {
		pages = []PageRef{} // nil would read the whole chunk
	}
	r, err := f.NewPageReader(rg, col, dict, pages, fetched)
	if err != nil {
		return nil, err
	}
	d := r.d
	// Size the output by the share of the chunk's bytes the pages hold.
	var bytes int64
	for _, p := range pages {
		bytes += p.Range.Length
	}
	if total := d.md.TotalCompressedSize; total > 0 && bytes < total {
		d.reserve(d.md.NumValues*bytes/total + 64)
	} else {
		d.reserve(d.md.NumValues)
	}
	return r.readAll()
}

// page handles a dictionary page.
func (d *chunkDecoder) page(p *rawPage) error {
	if d.given {
		d.given = false // a second dictionary page is still an error
		return nil
	}
	h, err := d.dictionaryHeader(p.Header, p.Offset)
	if err != nil {
		return err
	}
	data, err := d.decompressDictionary(p.Body, int(p.Header.UncompressedPageSize))
	if err != nil {
		return d.errorf(p.Offset, "dictionary page: %w", err)
	}
	// Decompressed, the page is the decoder's own (decompressDictionary).
	owned := d.md.Codec != meta.Uncompressed && len(data) > 0
	return d.takeDictionary(p.Offset, h, data, owned)
}

// dictionaryHeader checks the header of the dictionary page at off and
// holds the memory its dictionary takes.
func (d *chunkDecoder) dictionaryHeader(ph *meta.PageHeader, off int64) (*meta.DictionaryPageHeader, error) {
	h := ph.DictionaryPageHeader
	if h == nil {
		return nil, d.errorf(off, "%w: dictionary page without a dictionary header", ErrCorrupt)
	}
	if d.dict != nil {
		return nil, d.errorf(off, "%w: second dictionary page in one column chunk", ErrCorrupt)
	}
	if h.NumValues < 0 || int64(h.NumValues) > d.f.Limits.MaxDictionaryValues {
		return nil, d.errorf(off, "%w: dictionary of %d values", ErrLimit, h.NumValues)
	}
	if h.Encoding != meta.Plain && h.Encoding != meta.PlainDictionary {
		return nil, d.errorf(off, "%w: dictionary page encoding %s", ErrUnsupported, h.Encoding)
	}
	// The dictionary's values may point into its decompressed page.
	if err := d.hold(int64(ph.UncompressedPageSize)+int64(h.NumValues)*valueBytes(d.leaf.Type), "the dictionary page"); err != nil {
		return nil, d.errorf(off, "%w", err)
	}
	d.dictHeld = d.held
	return h, nil
}

// takeDictionary decodes the dictionary page at off, whose header is h,
// from its uncompressed bytes data (the decoder's own buffer when owned),
// and makes it the chunk's dictionary.
func (d *chunkDecoder) takeDictionary(off int64, h *meta.DictionaryPageHeader, data []byte, owned bool) error {
	dict := &Values{Type: d.leaf.Type}
	if err := decodeDict(dict, data, int(h.NumValues), d.leaf.TypeLength, owned); err != nil {
		return d.errorf(off, "dictionary page: %w", err)
	}
	if err := d.check.apply(dict, 0); err != nil {
		releaseDict(dict)
		return d.errorf(off, "dictionary page: %w", err)
	}
	d.dict, d.ownDict = dict, true
	return nil
}

// openPage begins decoding a DATA_PAGE or DATA_PAGE_V2 whose first row is
// firstRow (ref is the offset index's word on it, zero when none): it
// decompresses the page and places its level and value sections, and
// slicePage then decodes its entries.
func (d *chunkDecoder) openPage(p *rawPage, firstRow int64, ref PageRef) error {
	// One cursor a chunk: nothing refers to a page's cursor once the page
	// is done.
	c := &d.cursor
	*c = pageCursor{p: p, firstRow: firstRow, ref: ref}
	var (
		repBuf, defBuf []byte
		v2             bool
		defEnc, repEnc = meta.RLE, meta.RLE
	)
	switch h := p.Header; h.Type {
	case meta.DataPage:
		if h.DataPageHeader == nil {
			return d.errorf(p.Offset, "%w: data page without a data page header", ErrCorrupt)
		}
		c.n, c.enc = int(h.DataPageHeader.NumValues), h.DataPageHeader.Encoding
		defEnc, repEnc = h.DataPageHeader.DefinitionLevelEncoding, h.DataPageHeader.RepetitionLevelEncoding
		if err := d.holdPage(c, int64(h.UncompressedPageSize)); err != nil {
			return d.errorf(p.Offset, "%w", err)
		}
		data, err := d.decompressPage(p.Body, int(h.UncompressedPageSize), c.enc)
		if err != nil {
			return d.errorf(p.Offset, "%w", err)
		}
		c.values = data
	case meta.DataPageV2:
		h2 := h.DataPageHeaderV2
		if h2 == nil {
			return d.errorf(p.Offset, "%w: data page v2 without its header", ErrCorrupt)
		}
		v2 = true
		c.n, c.enc = int(h2.NumValues), h2.Encoding
		rl, dl := int(h2.RepetitionLevelsByteLength), int(h2.DefinitionLevelsByteLength)
		if rl < 0 || dl < 0 || rl+dl > len(p.Body) || rl+dl > int(h.UncompressedPageSize) {
			return d.errorf(p.Offset, "%w: level lengths %d+%d exceed the page of %d bytes", ErrCorrupt, rl, dl, len(p.Body))
		}
		repBuf, defBuf = p.Body[:rl], p.Body[rl:rl+dl]
		rest := p.Body[rl+dl:]
		size := int(h.UncompressedPageSize) - rl - dl
		if h2.IsCompressed {
			if err := d.holdPage(c, int64(size)); err != nil {
				return d.errorf(p.Offset, "%w", err)
			}
			data, err := d.decompressPage(rest, size, c.enc)
			if err != nil {
				return d.errorf(p.Offset, "%w", err)
			}
			c.values = data
		} else {
			if len(rest) != size {
				return d.errorf(p.Offset, "%w: page values hold %d bytes, header says %d", ErrCorrupt, len(rest), size)
			}
			c.values = rest
			d.rawKept = d.rawKept || byteValues(d.leaf.Type)
		}
	}
	if c.n < 0 || int64(c.n) > d.f.Limits.MaxPageValues {
		return d.errorf(p.Offset, "%w: page of %d values", ErrLimit, c.n)
	}
	if d.leaf.MaxRep == 0 {
		// A flat page holds one row an entry: a page the offset index
		// misplaces fails before any of its rows is returned.
		if err := d.checkRows(ref, int64(c.n)); err != nil {
			return err
		}
	}
	var err error
	if d.leaf.MaxRep > 0 {
		if v2 {
			d.repDec.Reset(repBuf, rle.BitWidth(uint64(d.leaf.MaxRep)))
			c.rep = &d.repDec
		} else if c.rep, c.values, err = levelsV1(&d.repDec, c.values, repEnc, d.leaf.MaxRep, c.n); err != nil {
			return d.errorf(p.Offset, "repetition levels: %w", err)
		}
	}
	c.stride = c.n
	if d.leaf.MaxDef > 0 {
		defs := func() (levelDecoder, []byte, error) {
			if v2 {
				d.defDec.Reset(defBuf, rle.BitWidth(uint64(d.leaf.MaxDef)))
				return &d.defDec, c.values, nil
			}
			return levelsV1(&d.defDec, c.values, defEnc, d.leaf.MaxDef, c.n)
		}
		if c.enc == meta.ByteStreamSplit {
			// Its streams are as long as the page's non-null values, which
			// a decoder of its own counts before the slices begin.
			count, _, err := defs()
			if err == nil {
				c.stride, err = countDefined(count, c.n, d.leaf.MaxDef)
			}
			if err != nil {
				return d.errorf(p.Offset, "definition levels: %w", err)
			}
		}
		if c.def, c.values, err = defs(); err != nil {
			return d.errorf(p.Offset, "definition levels: %w", err)
		}
	}
	d.cur = c
	return nil
}

// slicePage decodes the next entries of the open page, at most max of them
// unless a record or the page's encoding needs more, appending them to
// d.out as one span; it closes the page after its last entry. A repeated
// leaf's slice ends where a record starts, so each slice holds whole rows.
func (d *chunkDecoder) slicePage(max int) error {
	c, out, p := d.cur, d.out, d.cur.p
	k := min(c.n-c.done, max)
	if max != wholePage {
		var err error
		if k, err = d.fitBytes(c, k); err != nil {
			return d.errorf(p.Offset, "%s values: %w", c.enc, err)
		}
	}
	start := out.NumEntries
	span := PageSpan{FirstRow: c.firstRow, FirstEntry: start, FirstValue: out.Values.Len(), Continued: c.done > 0}
	if d.leaf.MaxRep > 0 {
		var err error
		if k, err = d.sliceRep(k, max); err != nil {
			return d.errorf(p.Offset, "repetition levels: %w", err)
		}
		rows := int64(0)
		for _, r := range out.Rep[start : start+k] {
			if r == 0 {
				rows++
			}
		}
		if k > 0 && out.Rep[start] != 0 && d.decoded == 0 {
			return d.errorf(p.Offset, "%w: first value of the column chunk has repetition level %d, not 0", ErrCorrupt, out.Rep[start])
		}
		span.NumRows = rows
	} else {
		span.NumRows = int64(k)
	}
	nonNull := k
	if d.leaf.MaxDef > 0 {
		if err := d.hold(int64(k)*4, "the page's definition levels"); err != nil {
			return d.errorf(p.Offset, "%w", err)
		}
		out.Def = growLevels(out.Def, k)
		if _, err := c.def.Decode(out.Def[start : start+k]); err != nil {
			return d.errorf(p.Offset, "definition levels: %w", err)
		}
		max := int32(d.leaf.MaxDef)
		if v, ok := uniform(c.def); ok && v == max {
			// One run of the maximum, most pages of a nullable column:
			// every entry holds a value.
			span.NoNulls = true
		} else {
			nonNull = 0
			for _, l := range out.Def[start : start+k] {
				if l == max {
					nonNull++
				} else if l > max || l < 0 {
					return d.errorf(p.Offset, "%w: definition level %d above the maximum %d", ErrCorrupt, l, max)
				}
			}
		}
	} else {
		span.NoNulls = true
	}
	if err := d.hold(int64(nonNull)*valueBytes(d.leaf.Type), "the page's values"); err != nil {
		return d.errorf(p.Offset, "%w", err)
	}
	if !d.indexed(c.enc) {
		out.Values.grow(min(nonNull, maxReserve))
	}
	first := out.Values.Len()
	if err := d.decodeSlice(c, nonNull); err != nil {
		return d.errorf(p.Offset, "%s values: %w", c.enc, err)
	}
	if c.enc != meta.PlainDictionary && c.enc != meta.RLEDictionary { // the dictionary was checked
		if err := d.check.apply(&out.Values, first); err != nil {
			return d.errorf(p.Offset, "%s values: %w", c.enc, err)
		}
	}
	if err := d.checkGeometry(first); err != nil {
		return d.errorf(p.Offset, "%w", err)
	}
	span.NumEntries = k
	out.NumEntries += k
	d.decoded += int64(k)
	out.Pages = append(out.Pages, span)
	c.done += k
	c.firstRow += span.NumRows
	c.rows += span.NumRows
	if c.done == c.n {
		d.cur = nil
		if d.leaf.MaxRep > 0 {
			return d.checkRows(c.ref, c.rows)
		}
	}
	return nil
}

// holdPage accounts a data page's decompressed size: held while the page
// is open and byte-array values point into it, needed only while it
// decodes otherwise (dictionary indexes, numbers).
func (d *chunkDecoder) holdPage(c *pageCursor, size int64) error {
	dict := c.enc == meta.PlainDictionary || c.enc == meta.RLEDictionary
	if (d.leaf.Type == meta.ByteArray || d.leaf.Type == meta.FixedLenByteArray) && !dict {
		c.held = size
		return d.hold(size, "the decompressed page")
	}
	return d.fits(size, "the decompressed page")
}

// maxDictionaryRatio bounds the uncompressed size of a dictionary page, as
// a multiple of its compressed size, that is given a buffer up front.
const maxDictionaryRatio = 64

// decompressDictionary is File.decompress for a dictionary page, into a
// pooled buffer when one is free: a large dictionary of numbers, decoded
// row group after row group, otherwise costs a fresh buffer each time.
func (d *chunkDecoder) decompressDictionary(body []byte, size int) ([]byte, error) {
	if d.md.Codec == meta.Uncompressed || size == 0 || byteValues(d.leaf.Type) {
		d.noteRaw()
		return d.f.decompress(d.md.Codec, body, size)
	}
	// A buffer of its size class, pooled or new, so that it serves the
	// next dictionary of that size once released; a claimed size far
	// beyond the body's is left for the codec to refuse before it
	// allocates.
	var buf []byte
	if int64(size) <= maxDictionaryRatio*int64(len(body)) {
		buf = fetchBuffer(int64(size))
	}
	out, err := compress.Decompress(d.md.Codec, buf, body, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.md.Codec, err)
	}
	return out, nil
}

// decompressPage is File.decompress for data pages, into the scratch buffer
// when the page's values never point into it, or the caller copies byte
// arrays out of each page before the next (reuseBytes).
func (d *chunkDecoder) decompressPage(body []byte, size int, enc meta.Encoding) ([]byte, error) {
	// Byte-array values point into the page they are decoded from, unless
	// the page holds dictionary indices: then they point into the
	// dictionary, and the page's buffer can serve the next page.
	indices := enc == meta.RLEDictionary || enc == meta.PlainDictionary
	if d.md.Codec == meta.Uncompressed || size == 0 || (byteValues(d.leaf.Type) && !d.reuseBytes && !indices) {
		d.noteRaw()
		return d.f.decompress(d.md.Codec, body, size)
	}
	if cap(d.scratch) < size {
		// Of a pooled size class, to serve the next chunk once released.
		putFetchBuffer(d.scratch)
		d.scratch = fetchBuffer(int64(size))
	}
	out, err := compress.Decompress(d.md.Codec, d.scratch, body, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.md.Codec, err)
	}
	d.scratch = out
	return out, nil
}

// byteValues reports whether values of type t are slices of the bytes they
// are decoded from.
func byteValues(t meta.Type) bool { return t == meta.ByteArray || t == meta.FixedLenByteArray }

// noteRaw notes that byte-array values about to be decoded point into the
// page's bytes as read when the chunk is stored uncompressed.
func (d *chunkDecoder) noteRaw() {
	if d.md.Codec == meta.Uncompressed && byteValues(d.leaf.Type) {
		d.rawKept = true
	}
}

// grow makes room for n more values, as append would: a page decoded into
// a fresh ColumnData then allocates once, not once per doubling.
func (v *Values) grow(n int) {
	switch v.Type {
	case meta.Boolean:
		v.Bool = slices.Grow(v.Bool, n)
	case meta.Int32:
		v.Int32 = slices.Grow(v.Int32, n)
	case meta.Int64:
		v.Int64 = slices.Grow(v.Int64, n)
	case meta.Int96:
		v.Int96 = slices.Grow(v.Int96, n)
	case meta.Float:
		v.Float = slices.Grow(v.Float, n)
	case meta.Double:
		v.Double = slices.Grow(v.Double, n)
	default:
		v.Bytes = slices.Grow(v.Bytes, n)
	}
}

// growLevels extends levels by n entries.
func growLevels(levels []int32, n int) []int32 {
	if cap(levels)-len(levels) >= n {
		return levels[:len(levels)+n]
	}
	grown := make([]int32, len(levels)+n, 2*len(levels)+n)
	copy(grown, levels)
	return grown
}

// levelsV1 places the n v1 page levels at the front of data: it returns
// their decoder, into when they are run-length encoded, and what follows
// them.
func levelsV1(into *rle.Decoder, data []byte, enc meta.Encoding, max, n int) (levelDecoder, []byte, error) {
	width := rle.BitWidth(uint64(max))
	switch enc {
	case meta.RLE:
		if len(data) < 4 {
			return nil, nil, fmt.Errorf("%w: level length prefix missing", ErrCorrupt)
		}
		l := binary.LittleEndian.Uint32(data)
		if uint64(l) > uint64(len(data)-4) {
			return nil, nil, fmt.Errorf("%w: levels of %d bytes exceed the page's %d", ErrCorrupt, l, len(data)-4)
		}
		into.Reset(data[4:4+l], width)
		return into, data[4+l:], nil
	case meta.BitPacked:
		need := (uint64(n)*uint64(width) + 7) / 8
		if need > uint64(len(data)) {
			return nil, nil, fmt.Errorf("%w: %d BIT_PACKED levels of %d bits need %d bytes, have %d", rle.ErrTruncated, n, width, need, len(data))
		}
		return rle.NewBitPackedDecoder(data[:need], width), data[need:], nil
	default:
		return nil, nil, fmt.Errorf("%w: level encoding %s", ErrUnsupported, enc)
	}
}

// checkGeometry fails on a GEOMETRY or GEOGRAPHY value from index first on
// that is not well-formed WKB, as DuckDB fails the read, rather than let a
// query print it as bytes.
func (d *chunkDecoder) checkGeometry(first int) error {
	if k := LogicalOf(d.leaf).Kind; k != KindGeometry && k != KindGeography {
		return nil
	}
	var buf []byte
	for i, b := range d.out.Values.Bytes[first:] {
		var err error
		if buf, err = AppendWKT(buf[:0], b); err != nil {
			return fmt.Errorf("value %d of the page is not valid WKB: %w", i, err)
		}
	}
	return nil
}

// decodePlain appends n PLAIN values of v.Type.
func decodePlain(v *Values, data []byte, n, width int) error {
	var err error
	switch v.Type {
	case meta.Boolean:
		v.Bool, err = plain.Booleans(v.Bool, data, n)
	case meta.Int32:
		v.Int32, err = plain.Int32s(v.Int32, data, n)
	case meta.Int64:
		v.Int64, err = plain.Int64s(v.Int64, data, n)
	case meta.Int96:
		v.Int96, err = plain.Int96s(v.Int96, data, n)
	case meta.Float:
		v.Float, err = plain.Floats(v.Float, data, n)
	case meta.Double:
		v.Double, err = plain.Doubles(v.Double, data, n)
	case meta.ByteArray:
		v.Bytes, err = plain.ByteArrays(v.Bytes, data, n)
	case meta.FixedLenByteArray:
		v.Bytes, err = plain.FixedLenByteArrays(v.Bytes, data, n, width)
	}
	return err
}
