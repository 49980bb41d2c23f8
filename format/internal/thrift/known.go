package thrift

import (
	"bytes"
	"sync/atomic"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/pqsql/pqsql/format/meta"
)

// A Known is what an earlier footer decoded to that the footers of the
// other files of a glob almost always repeat: its schema list, and the
// lists of its column chunks (path, encodings, encoding statistics). A
// footer decoded with it shares what it repeats rather than decode and
// hold a copy a file.
//
// A Known is read-only once made, so footers decoded at once may share it.
type Known struct {
	// raw is the encoded schema list, from its header to its last element.
	// The same bytes decode to the same elements, so a footer whose schema
	// list begins with raw has the elements of this one.
	raw      []byte
	elements []meta.SchemaElement
	// lists are the lists of the chunk at each place of the footer's last
	// row group.
	lists []chunkLists
	// values counts the optional numbers and binary bytes the footer's
	// row groups took, for a footer like it to reserve at once rather than
	// in doubling steps.
	values valueCounts
	// later are the lists of the first row groups decoded of a footer with
	// this schema when its own were passed over (Deferred.Decode): set
	// once, then read-only.
	later atomic.Pointer[[]chunkLists]
}

// chunkLists returns the lists a footer decoded with k shares.
func (k *Known) chunkLists() []chunkLists {
	if len(k.lists) > 0 {
		return k.lists
	}
	if l := k.later.Load(); l != nil {
		return *l
	}
	return nil
}

// valueCounts count what a footer's values took of the decoder's slabs and
// binary arrays.
type valueCounts struct{ i64s, i32s, bools, bytes int }

func (d *decoder) valueCounts() valueCounts {
	return valueCounts{d.i64s.n, d.i32s.n, d.bools.n, d.bytes.n}
}

func (c valueCounts) minus(o valueCounts) valueCounts {
	return valueCounts{c.i64s - o.i64s, c.i32s - o.i32s, c.bools - o.bools, c.bytes - o.bytes}
}

// reserveValues makes room for the values of a footer counted c, within
// what the bytes left could hold: an optional number takes at least two
// (a field header and a value), a binary byte one. The numbers a footer
// has follow from its schema; its statistics' bytes vary with the values,
// so a quarter more are reserved.
func (d *decoder) reserveValues(c valueCounts) {
	left := len(d.r.b) - d.r.pos
	d.i64s.reserve(min(c.i64s, left/2, maxPrealloc))
	d.i32s.reserve(min(c.i32s, left/2, maxPrealloc))
	d.bools.reserve(min(c.bools, left/2, maxPrealloc))
	d.bytes.reserve(min(c.bytes+c.bytes/4, left))
}

// maxKnownRaw bounds the schema list a Known keeps a copy of: a schema of
// thousands of columns is kept by its own file only.
const maxKnownRaw = 64 << 10

// Shares reports whether md's schema elements are k's: md was decoded with
// k and its schema list had k's bytes.
func (k *Known) Shares(md *meta.FileMetaData) bool {
	return k != nil && len(md.Schema) > 0 && len(k.elements) == len(md.Schema) && &k.elements[0] == &md.Schema[0]
}

// DecodeFileMetaDataKnown is DecodeFileMetaData sharing with the first of
// known whose schema list the footer repeats byte for byte. It returns that
// Known, or else one made of this footer for the footers after it (nil
// when its schema list is too large to keep).
func DecodeFileMetaDataKnown(b []byte, known []*Known) (*meta.FileMetaData, *Known, error) {
	d := newDecoder(b)
	d.known, d.keepLists = known, true
	m := new(meta.FileMetaData)
	if err := d.fileMetaData(m); err != nil {
		return nil, nil, at(err, "FileMetaData")
	}
	k := d.matched
	if k == nil && len(d.schemaRaw) > 0 && len(d.schemaRaw) <= maxKnownRaw {
		k = &Known{raw: bytes.Clone(d.schemaRaw), elements: m.Schema, lists: append([]chunkLists(nil), d.lists...),
			values: d.valueCounts().minus(d.schemaValues)}
	}
	d.release()
	return m, k, nil
}

// schemaList reads the footer's schema list, or, when it repeats a known
// one's bytes, passes over them and shares that one's elements and chunk
// lists.
func (d *decoder) schemaList() ([]meta.SchemaElement, error) {
	start := d.r.pos
	d.schemaRaw = nil
	for _, k := range d.known {
		// The compact protocol keeps no state within a list once it is
		// read whole, so passing over its bytes leaves it where reading
		// them would.
		if bytes.HasPrefix(d.r.b[start:], k.raw) {
			d.r.pos += len(k.raw)
			d.matched = k
			d.lists = append(d.lists[:0], k.lists...)
			if !d.deferRowGroups {
				// Most of a footer's values are its row groups'.
				d.reserveValues(k.values)
			}
			return k.elements, nil
		}
	}
	d.matched = nil
	elems, err := readStructList(d, thrift.LIST, d.schemaElement)
	if err == nil {
		d.schemaRaw, d.schemaValues = d.r.b[start:d.r.pos], d.valueCounts()
	}
	return elems, err
}
