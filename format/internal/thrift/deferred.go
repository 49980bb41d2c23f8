package thrift

import (
	"bytes"
	"fmt"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/pqsql/pqsql/format/meta"
)

// A Deferred locates a footer's row group list, which
// DecodeFileMetaDataDeferred passed over, for Decode. Most of a footer is
// its column chunks' metadata, and a scan that reads two columns of twenty
// needs theirs alone.
type Deferred struct {
	from, to int
	t        thrift.TType
	// known shares its chunks' lists with the row groups decoded.
	known *Known
}

// DecodeFileMetaDataDeferred is DecodeFileMetaDataKnown passing over the
// row group list (RowGroups is nil), which the Deferred returned locates in
// b. A Known made of this footer has its schema alone: its chunks' lists
// were not read.
func DecodeFileMetaDataDeferred(b []byte, known []*Known) (*meta.FileMetaData, *Known, Deferred, error) {
	d := newDecoder(b)
	d.known, d.deferRowGroups = known, true
	m := new(meta.FileMetaData)
	if err := d.fileMetaData(m); err != nil {
		return nil, nil, Deferred{}, at(err, "FileMetaData")
	}
	k := d.matched
	if k == nil && len(d.schemaRaw) > 0 && len(d.schemaRaw) <= maxKnownRaw {
		k = &Known{raw: bytes.Clone(d.schemaRaw), elements: m.Schema, values: d.valueCounts().minus(d.schemaValues)}
	}
	r := d.rowGroups
	r.known = k
	d.release()
	return m, k, r, nil
}

// Decode decodes the row group list r locates in b, the footer r was found
// in, as DecodeFileMetaDataKnown would have, but that a column chunk has
// its metadata (MetaData) only when keep marks its place in the row group:
// keep nil, or a place past its end, decodes it; the others are passed
// over and have none.
func (r Deferred) Decode(b []byte, keep []bool) ([]meta.RowGroup, error) {
	if r.from < 0 || r.from >= r.to || r.to > len(b) {
		return nil, at(at(fmt.Errorf("list at bytes [%d, %d) outside a footer of %d", r.from, r.to, len(b)), "row_groups"), "FileMetaData")
	}
	d := newDecoder(b[r.from:r.to])
	d.keep = keep
	// One level below FileMetaData, as in a whole footer.
	d.depth = 1
	k := r.known
	if k != nil {
		lists := k.chunkLists()
		d.lists = append(d.lists[:0], lists...)
		d.reserveValues(k.values.kept(d, len(lists)))
		// Tracked even in a footer of one row group, for the footers after.
		d.keepLists = true
	}
	rgs, err := readSizedStructList(d, r.t, func(n int) { d.rowGroupsLeft = n }, d.rowGroup)
	if err != nil {
		return nil, at(at(err, "row_groups"), "FileMetaData")
	}
	if d.r.pos != len(d.r.b) {
		return nil, at(at(fmt.Errorf("list ends %d bytes before its extent", len(d.r.b)-d.r.pos), "row_groups"), "FileMetaData")
	}
	if k != nil && len(k.lists) == 0 && k.later.Load() == nil && len(d.lists) > 0 {
		// The lists of the places kept; a dropped chunk's are never
		// tracked (listsBefore).
		lists := append([]chunkLists(nil), d.lists...)
		k.later.CompareAndSwap(nil, &lists)
	}
	d.release()
	return rgs, nil
}

// kept is c, the values of a footer whose row groups have places chunks
// each, for a decoding that keeps the metadata of some places alone:
// their bytes are mostly statistics' bounds, which the others' are left
// without, and are scaled to the places kept; numbers are reserved whole,
// as every chunk has its page indexes' offsets and lengths.
func (c valueCounts) kept(d *decoder, places int) valueCounts {
	if d.keep == nil {
		return c
	}
	if places == 0 {
		return valueCounts{}
	}
	n := 0
	for i := range places {
		if d.keeps(i) {
			n++
		}
	}
	c.bools, c.bytes = c.bools*n/places, c.bytes*n/places
	return c
}
