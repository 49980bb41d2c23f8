package thrift

import (
	"errors"
	"fmt"

	"github.com/apache/thrift/lib/go/thrift"
)

// skipValue passes over a field value of wire type t without decoding it.
// A compact-protocol value says its own extent, so it is passed over in the
// bytes, allocating nothing: thrift.Skip reads every string and binary it
// passes into new memory, and the column chunks a reader leaves undecoded
// are mostly paths and statistics' bounds. A field's boolean is in its
// header, which the protocol holds until read. Walking the bytes leaves
// the protocol as it was, so a value the walk finds malformed is passed
// over again by thrift.Skip, which reports it as the decoding would.
func (d *decoder) skipValue(t thrift.TType) error {
	code, ok := compactCodes[t]
	if !ok || t == thrift.BOOL {
		return d.skip(t)
	}
	from := d.r.pos
	if err := d.r.skipCompact(code, maxDepth-d.depth); err != nil {
		d.r.pos = from
		return d.skip(t)
	}
	return nil
}

// The compact protocol's type codes (and the wire types they stand for).
const (
	compactTrue   = 1
	compactFalse  = 2
	compactByte   = 3
	compactI16    = 4
	compactI32    = 5
	compactI64    = 6
	compactDouble = 7
	compactBinary = 8
	compactList   = 9
	compactSet    = 10
	compactMap    = 11
	compactStruct = 12
	compactUUID   = 13
)

var compactCodes = map[thrift.TType]byte{
	thrift.BOOL: compactTrue, thrift.BYTE: compactByte, thrift.I16: compactI16,
	thrift.I32: compactI32, thrift.I64: compactI64, thrift.DOUBLE: compactDouble,
	thrift.STRING: compactBinary, thrift.LIST: compactList, thrift.SET: compactSet,
	thrift.MAP: compactMap, thrift.STRUCT: compactStruct, thrift.UUID: compactUUID,
}

var errSkipTruncated = errors.New("value runs past the end of its bytes")

// skipCompact passes over a value of compact type code, nested at most
// depth structs, lists or maps deep. Every value takes at least a byte but
// a boolean in a field header, so a declared count larger than the bytes
// left is refused before it is walked.
func (r *reader) skipCompact(code byte, depth int) error {
	switch code {
	case compactTrue, compactFalse:
		// In a field header the value is the type; as an element, a byte.
		return nil
	case compactByte:
		return r.advance(1)
	case compactI16, compactI32, compactI64:
		_, err := r.uvarint()
		return err
	case compactDouble:
		return r.advance(8)
	case compactUUID:
		return r.advance(16)
	case compactBinary:
		n, err := r.uvarint()
		if err != nil {
			return err
		}
		return r.advance(n)
	}
	if depth <= 0 {
		return fmt.Errorf("values nested deeper than %d", maxDepth)
	}
	switch code {
	case compactList, compactSet:
		h, err := r.ReadByte()
		if err != nil {
			return errSkipTruncated
		}
		n, elem := uint64(h>>4), h&0x0f
		if n == 15 {
			if n, err = r.uvarint(); err != nil {
				return err
			}
		}
		if elem == compactTrue || elem == compactFalse {
			return r.advance(n)
		}
		return r.skipElements(n, []byte{elem}, depth)
	case compactMap:
		n, err := r.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := r.ReadByte()
		if err != nil {
			return errSkipTruncated
		}
		return r.skipElements(n, []byte{kv >> 4, kv & 0x0f}, depth)
	case compactStruct:
		for {
			h, err := r.ReadByte()
			if err != nil {
				return errSkipTruncated
			}
			if h == 0 {
				return nil
			}
			if h>>4 == 0 {
				// A field id too far from the last one: its own varint.
				if _, err := r.uvarint(); err != nil {
					return err
				}
			}
			if err := r.skipCompact(h&0x0f, depth-1); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("unknown compact type %d", code)
}

// skipElements passes over n elements, each a value of every type of
// types in turn (a map's entries: a key and a value).
func (r *reader) skipElements(n uint64, types []byte, depth int) error {
	if n > uint64(len(r.b)-r.pos) {
		return errSkipTruncated
	}
	for range n {
		for _, c := range types {
			if c == compactTrue || c == compactFalse {
				// An element's boolean is a byte of its own.
				c = compactByte
			}
			if err := r.skipCompact(c, depth-1); err != nil {
				return err
			}
		}
	}
	return nil
}

// advance moves past n bytes.
func (r *reader) advance(n uint64) error {
	if n > uint64(len(r.b)-r.pos) {
		return errSkipTruncated
	}
	r.pos += int(n)
	return nil
}

// uvarint reads an unsigned LEB128 varint of at most 64 bits.
func (r *reader) uvarint() (uint64, error) {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		b, err := r.ReadByte()
		if err != nil {
			return 0, errSkipTruncated
		}
		x |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("varint longer than 64 bits")
}
