package format

import (
	"fmt"
	"slices"

	"github.com/pqsql/pqsql/format/meta"
)

// KeepIndices has Next return a dictionary-encoded data page as its
// dictionary indices (ColumnData.Indices, into ColumnData.Dict) rather than
// as values: a caller can then judge a predicate once per dictionary entry
// and look up only the values of the rows it keeps. Pages in other
// encodings still come as Values. It must be called before the first Next.
// A GEOMETRY or GEOGRAPHY leaf, whose every value is checked as WKB as it
// is decoded, always comes as values.
func (r *PageReader) KeepIndices() {
	if k := LogicalOf(r.d.leaf).Kind; k != KindGeometry && k != KindGeography {
		r.d.keepIdx = true
	}
}

// UseDictionary gives the reader the chunk's dictionary, decoded already
// (by ReadDictionary or an earlier reader's Dictionary): the chunk's
// dictionary page is then passed over rather than decoded again. It must
// be called before the first Next, with the dictionary of this very chunk.
func (r *PageReader) UseDictionary(dict *Values) {
	if dict == nil || r.started || dict.Type != r.d.leaf.Type {
		return
	}
	r.d.dict, r.d.given = dict, true
}

// UseDictionaryBefore is UseDictionary for a reader of the whole chunk
// whose dictionary page ends at offset end, where the data pages begin: the
// reader starts there and reads no byte before it.
func (r *PageReader) UseDictionaryBefore(dict *Values, end int64) {
	r.UseDictionary(dict)
	if r.d.given && r.seq {
		r.from = end
	}
}

// Dictionary is the chunk's decoded dictionary once Next has met it, or nil.
func (r *PageReader) Dictionary() *Values { return r.d.dict }

// indexed reports whether the page's values, in encoding enc, are kept as
// dictionary indices.
func (d *chunkDecoder) indexed(enc meta.Encoding) bool {
	return d.keepIdx && (enc == meta.PlainDictionary || enc == meta.RLEDictionary)
}

// lookUp appends the values of dictionary indices idx of a page of
// encoding enc to v, or keeps the indices where the reader asked for them.
func (d *chunkDecoder) lookUp(v *Values, enc meta.Encoding, idx []int32) error {
	if d.indexed(enc) {
		return d.keepIndices(idx)
	}
	if bad, ok := v.appendIndexed(d.dict, idx); !ok {
		return fmt.Errorf("%w: dictionary index %d out of range (dictionary has %d entries)", ErrCorrupt, bad, d.dict.Len())
	}
	return nil
}

// keepIndices appends a page's dictionary indices, checked against the
// dictionary, in place of its values.
func (d *chunkDecoder) keepIndices(idx []int32) error {
	if err := d.inDictionary(idx); err != nil {
		return err
	}
	d.out.Indices = append(d.out.Indices, idx...)
	d.out.Dict = d.dict
	return nil
}

// inDictionary checks that indices idx lie in the dictionary.
func (d *chunkDecoder) inDictionary(idx []int32) error {
	n := int32(d.dict.Len())
	for _, i := range idx {
		if i < 0 || i >= n {
			return fmt.Errorf("%w: dictionary index %d out of range (dictionary has %d entries)", ErrCorrupt, i, n)
		}
	}
	return nil
}

// keepIndicesOf decodes the next n dictionary indices of the page into the
// indices kept, checked against the dictionary, with no scratch between.
func (d *chunkDecoder) keepIndicesOf(c *pageCursor, n int) error {
	if err := d.fits(int64(n)*4, "the page's dictionary indexes"); err != nil {
		return err
	}
	start := len(d.out.Indices)
	kept := slices.Grow(d.out.Indices, n)[:start+n]
	if _, err := c.idx.Decode(kept[start:]); err != nil {
		return err
	}
	if err := d.inDictionary(kept[start:]); err != nil {
		return err
	}
	d.out.Indices, d.out.Dict = kept, d.dict
	return nil
}

// ReadPagesGiven is ReadPages for a chunk whose dictionary the caller has
// decoded already (ReadDictionary): the dictionary page is not read. With
// pages nil it reads the whole chunk from offset from, the end of the
// dictionary page, on; otherwise the listed data pages.
func (f *File) ReadPagesGiven(rg, col int, dict *Values, from int64, pages []PageRef, fetched *Fetched) (*ColumnData, error) {
	r, err := f.NewPageReader(rg, col, Range{}, pages, fetched)
	if err != nil {
		return nil, err
	}
	r.UseDictionaryBefore(dict, from)
	r.d.reserve(r.d.md.NumValues)
	return r.readAll()
}
