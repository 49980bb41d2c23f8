package thrift

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/apache/thrift/lib/go/thrift"
)

// maxDepth bounds struct nesting, counting skipped unknown fields too, so a
// crafted footer cannot exhaust the stack. parquet.thrift nests at most six
// deep (FileMetaData.row_groups.columns.meta_data.statistics).
const maxDepth = 64

// maxPrealloc caps the capacity reserved from a declared list size. The
// protocol already rejects sizes the remaining bytes cannot hold, but one
// byte of input can still stand for a large struct; beyond this the slice
// grows with the data actually decoded.
const maxPrealloc = 4096

// A decoder reads parquet.thrift structs from one byte slice.
type decoder struct {
	r     reader
	p     *thrift.TCompactProtocol
	ctx   context.Context
	depth int
}

func newDecoder(b []byte) *decoder {
	limit := int32(min(len(b), math.MaxInt32))
	if limit < 1 {
		limit = 1
	}
	d := &decoder{r: reader{b: b}, ctx: context.Background()}
	d.p = thrift.NewTCompactProtocolConf(&d.r, &thrift.TConfiguration{
		MaxMessageSize: limit,
		MaxFrameSize:   limit,
	})
	return d
}

// A field is one field of a parquet.thrift struct: its name, for error paths,
// and the wire type the struct definition gives it.
type field struct {
	name string
	typ  thrift.TType
}

// fields describes a struct's fields, indexed by field id.
type fields []field

func (f fields) get(id int16) field {
	if id >= 0 && int(id) < len(f) {
		return f[id]
	}
	return field{}
}

func (f fields) name(id int16) string {
	if n := f.get(id).name; n != "" {
		return n
	}
	return "field " + strconv.Itoa(int(id))
}

// A fieldFunc decodes field id of wire type t into the struct being read. It
// reports false for a field it does not know, which is then skipped.
type fieldFunc func(id int16, t thrift.TType) (known bool, err error)

// readStruct reads one struct, calling fn for each field, and checks that
// every field id in the required bit set was present.
func (d *decoder) readStruct(t thrift.TType, fs fields, required uint32, fn fieldFunc) error {
	if err := wantType(t, thrift.STRUCT); err != nil {
		return err
	}
	return d.readStructBody(fs, required, fn)
}

// readStructBody reads a struct's fields up to its stop marker.
//
// A known field whose wire type differs from parquet.thrift's is skipped as
// if absent, as thrift's generated readers do: some pre-release writers used
// field ids that later got other types (parquet-mr 1.12 snapshots wrote a
// list as field 15 of ColumnMetaData, now bloom_filter_length). A required
// field skipped that way is then reported missing, with its wire type.
func (d *decoder) readStructBody(fs fields, required uint32, fn fieldFunc) error {
	d.depth++
	if d.depth > maxDepth {
		return fmt.Errorf("structs nested deeper than %d", maxDepth)
	}
	if _, err := d.p.ReadStructBegin(d.ctx); err != nil {
		return err
	}
	var seen, mistyped uint32
	for {
		_, t, id, err := d.p.ReadFieldBegin(d.ctx)
		if err != nil {
			return err
		}
		if t == thrift.STOP {
			break
		}
		known := false
		if want := fs.get(id).typ; want != thrift.STOP && want != t {
			if id < 32 {
				mistyped |= 1 << id
			}
		} else {
			known, err = fn(id, t)
		}
		if err == nil && !known {
			err = d.skip(t)
		}
		if err == nil {
			err = d.p.ReadFieldEnd(d.ctx)
		}
		if err != nil {
			return at(err, fs.name(id))
		}
		if known && id > 0 && id < 32 {
			seen |= 1 << id
		}
	}
	if err := d.p.ReadStructEnd(d.ctx); err != nil {
		return err
	}
	d.depth--
	if missing := required &^ seen; missing != 0 {
		id := int16(bits.TrailingZeros32(missing))
		if mistyped&(1<<id) != 0 {
			return fmt.Errorf("required field %s has a wire type other than %v", fs.name(id), fs.get(id).typ)
		}
		return fmt.Errorf("required field %s is missing", fs.name(id))
	}
	return nil
}

// ids builds a required-field bit set.
func ids(id ...int16) uint32 {
	var m uint32
	for _, i := range id {
		m |= 1 << i
	}
	return m
}

// skip reads past a value of type t, within what is left of the depth limit.
func (d *decoder) skip(t thrift.TType) error {
	return thrift.Skip(d.ctx, d.p, t, maxDepth-d.depth)
}

// emptyStruct reads a struct whose fields this package ignores: an empty
// union member such as StringType, or one whose content meta does not keep.
func (d *decoder) emptyStruct(t thrift.TType) error {
	return d.readStruct(t, nil, 0, func(int16, thrift.TType) (bool, error) { return false, nil })
}

// union reads a thrift union, which must have exactly one member.
func (d *decoder) union(t thrift.TType, fs fields, fn func(id int16, t thrift.TType) error) error {
	members := 0
	var ids [2]int16
	err := d.readStruct(t, fs, 0, func(id int16, t thrift.TType) (bool, error) {
		if id <= 0 {
			// No parquet.thrift union has such a member, and its id could
			// not be kept as an unknown member's.
			return false, fmt.Errorf("union member field id %d out of range", id)
		}
		if members++; members > 2 {
			return false, nil
		}
		ids[members-1] = id
		if members > 1 {
			return false, nil // reported below, with the union's path
		}
		return true, fn(id, t)
	})
	switch {
	case err != nil:
		return err
	case members == 0:
		return fmt.Errorf("union has no member")
	case members > 1:
		return fmt.Errorf("union has more than one member (fields %d and %d)", ids[0], ids[1])
	}
	return nil
}

func wantType(t, want thrift.TType) error {
	if t != want {
		return fmt.Errorf("wire type %v, want %v", t, want)
	}
	return nil
}

func (d *decoder) i8(t thrift.TType) (int8, error) {
	if err := wantType(t, thrift.BYTE); err != nil {
		return 0, err
	}
	return d.p.ReadByte(d.ctx)
}

func (d *decoder) i16(t thrift.TType) (int16, error) {
	if err := wantType(t, thrift.I16); err != nil {
		return 0, err
	}
	return d.p.ReadI16(d.ctx)
}

func (d *decoder) i32(t thrift.TType) (int32, error) {
	if err := wantType(t, thrift.I32); err != nil {
		return 0, err
	}
	return d.p.ReadI32(d.ctx)
}

func (d *decoder) i64(t thrift.TType) (int64, error) {
	if err := wantType(t, thrift.I64); err != nil {
		return 0, err
	}
	return d.p.ReadI64(d.ctx)
}

func (d *decoder) bool(t thrift.TType) (bool, error) {
	if err := wantType(t, thrift.BOOL); err != nil {
		return false, err
	}
	return d.p.ReadBool(d.ctx)
}

func (d *decoder) double(t thrift.TType) (float64, error) {
	if err := wantType(t, thrift.DOUBLE); err != nil {
		return 0, err
	}
	return d.p.ReadDouble(d.ctx)
}

// checkLength rejects a string or binary whose declared length is larger
// than the bytes left, before the protocol reads or allocates anything.
func (d *decoder) checkLength() error {
	rest := d.r.b[d.r.pos:]
	n, k := binary.Uvarint(rest)
	if k <= 0 {
		return nil // malformed or truncated varint: the protocol reports it
	}
	if n > uint64(len(rest)-k) {
		return fmt.Errorf("length %d exceeds the %d bytes left", n, len(rest)-k)
	}
	return nil
}

// binary reads a binary value; an empty one is non-nil, so "present but
// empty" stays distinct from "absent".
func (d *decoder) binary(t thrift.TType) ([]byte, error) {
	if err := wantType(t, thrift.STRING); err != nil {
		return nil, err
	}
	if err := d.checkLength(); err != nil {
		return nil, err
	}
	return d.p.ReadBinary(d.ctx)
}

func (d *decoder) str(t thrift.TType) (string, error) {
	if err := wantType(t, thrift.STRING); err != nil {
		return "", err
	}
	if err := d.checkLength(); err != nil {
		return "", err
	}
	return d.p.ReadString(d.ctx)
}

// listBegin reads a list header of elements of type elem and returns its size.
func (d *decoder) listBegin(t, elem thrift.TType) (int, error) {
	if err := wantType(t, thrift.LIST); err != nil {
		return 0, err
	}
	et, n, err := d.p.ReadListBegin(d.ctx)
	if err != nil {
		return 0, err
	}
	if n > 0 && et != elem {
		return 0, fmt.Errorf("list of %v, want list of %v", et, elem)
	}
	return n, nil
}

// readList reads a list of elem-typed values with one call of read per element.
func readList[T any](d *decoder, t, elem thrift.TType, read func(*T) error) ([]T, error) {
	n, err := d.listBegin(t, elem)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, min(n, maxPrealloc))
	for i := range n {
		var v T
		if err := read(&v); err != nil {
			return nil, atIndex(err, i)
		}
		out = append(out, v)
	}
	return out, d.p.ReadListEnd(d.ctx)
}

// readStructList reads a list of structs, decoding each in place.
func readStructList[T any](d *decoder, t thrift.TType, read func(*T) error) ([]T, error) {
	n, err := d.listBegin(t, thrift.STRUCT)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, min(n, maxPrealloc))
	for i := range n {
		var zero T
		out = append(out, zero)
		if err := read(&out[i]); err != nil {
			return nil, atIndex(err, i)
		}
	}
	return out, d.p.ReadListEnd(d.ctx)
}

func (d *decoder) i32List(t thrift.TType) ([]int32, error) {
	return readList(d, t, thrift.I32, func(v *int32) (err error) {
		*v, err = d.p.ReadI32(d.ctx)
		return err
	})
}

func (d *decoder) i64List(t thrift.TType) ([]int64, error) {
	return readList(d, t, thrift.I64, func(v *int64) (err error) {
		*v, err = d.p.ReadI64(d.ctx)
		return err
	})
}

func (d *decoder) boolList(t thrift.TType) ([]bool, error) {
	return readList(d, t, thrift.BOOL, func(v *bool) (err error) {
		*v, err = d.p.ReadBool(d.ctx)
		return err
	})
}

func (d *decoder) stringList(t thrift.TType) ([]string, error) {
	return readList(d, t, thrift.STRING, func(v *string) (err error) {
		if err := d.checkLength(); err != nil {
			return err
		}
		*v, err = d.p.ReadString(d.ctx)
		return err
	})
}

func (d *decoder) binaryList(t thrift.TType) ([][]byte, error) {
	return readList(d, t, thrift.STRING, func(v *[]byte) (err error) {
		if err := d.checkLength(); err != nil {
			return err
		}
		*v, err = d.p.ReadBinary(d.ctx)
		return err
	})
}

// Optional scalars become pointers; these helpers keep the field switches short.

func optI32(v int32, err error) (*int32, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func optI64(v int64, err error) (*int64, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func optI16(v int16, err error) (*int16, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func optI8(v int8, err error) (*int8, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func optBool(v bool, err error) (*bool, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func optString(v string, err error) (*string, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func optDouble(v float64, err error) (*float64, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}
