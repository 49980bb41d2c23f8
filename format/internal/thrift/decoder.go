package thrift

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/pqsql/pqsql/format/meta"
)

// maxDepth bounds struct nesting, counting skipped unknown fields too, so a
// crafted footer cannot exhaust the stack. parquet.thrift nests at most seven
// deep (FileMetaData.schema.logicalType.TIMESTAMP.unit.MILLIS).
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
	cfg   *thrift.TConfiguration
	ctx   context.Context
	depth int

	arenas

	// into, when not nil, receives a page header and its parts
	// (DecodePageHeaderInto).
	into *PageHeaderBuf
	// ciBuf, when not nil, receives a column index's lists
	// (DecodeColumnIndexInto).
	ciBuf *ColumnIndexBuf
	// oiBuf, when not nil, receives an offset index's lists
	// (DecodeOffsetIndexInto).
	oiBuf *OffsetIndexBuf

	// names interns path_in_schema elements, which repeat in every row group.
	names map[string]string
	// rowGroupsLeft counts the row groups of the footer not yet decoded,
	// the first included, to size the slabs of their column chunks.
	rowGroupsLeft int

	// chunkAt is the place in its row group of the column chunk being
	// decoded, -1 outside a footer's row groups; lists holds the lists of
	// the chunk at each place in the row group before (sharedList).
	chunkAt int
	lists   []chunkLists
	// Scratch of sharedList, one a list type.
	pathScratch     []string
	encScratch      []meta.Encoding
	encStatsScratch []meta.PageEncodingStats

	// known are the footers' schemas this footer's may repeat, matched the
	// one it does, and schemaRaw its own encoded schema list
	// (DecodeFileMetaDataKnown). keepLists says to track the chunks' lists
	// even in a footer of one row group, to make a Known of them.
	known     []*Known
	matched   *Known
	schemaRaw []byte
	keepLists bool
	// schemaValues counts the values taken once the schema list was read.
	schemaValues valueCounts

	// deferRowGroups: the footer's row group list is passed over and
	// located in rowGroups (DecodeFileMetaDataDeferred).
	deferRowGroups bool
	rowGroups      Deferred
	// keep, when not nil, marks the places in a row group whose column
	// chunks have their metadata decoded (Deferred.Decode); place is the
	// place of the chunk being decoded.
	keep  []bool
	place int
	// discard holds what decoding a chunk's metadata that is not kept
	// takes, written over by the next (discardColumnMetaData); dropped is
	// the metadata.
	discard *arenas
	dropped meta.ColumnMetaData
	// discarding: what is decoded is dropped; strings are read, not made.
	discarding bool
}

// arenas are what a decoder carves the values it hands out from.
type arenas struct {
	// Optional scalars and the structs every column chunk has are carved
	// from slabs: a footer holds thousands, and one allocation each would
	// dominate decoding time.
	i64s  slab[int64]
	i32s  slab[int32]
	bools slab[bool]
	cmds  slab[meta.ColumnMetaData]
	stats slab[meta.Statistics]

	// Small lists and binary values are cut from shared arrays for the same
	// reason; each piece has its capacity clipped, so an append by a caller
	// copies instead of overwriting a neighbour.
	bytes     chunks[byte]
	encodings chunks[meta.Encoding]
	strings   chunks[string]
	encStats  chunks[meta.PageEncodingStats]
}

// rewind empties a's arrays to be written over: nothing handed out of them
// may be used any more.
func (a *arenas) rewind() {
	a.i64s.buf, a.i32s.buf, a.bools.buf = a.i64s.buf[:0], a.i32s.buf[:0], a.bools.buf[:0]
	a.cmds.buf, a.stats.buf = a.cmds.buf[:0], a.stats.buf[:0]
	a.bytes.buf, a.encodings.buf, a.strings.buf, a.encStats.buf = a.bytes.buf[:0], a.encodings.buf[:0], a.strings.buf[:0], a.encStats.buf[:0]
}

// keeps reports whether the column chunk at place i has its metadata
// decoded.
func (d *decoder) keeps(i int) bool {
	return d.keep == nil || i < 0 || i >= len(d.keep) || d.keep[i]
}

// chunkLists are the lists of a column chunk's metadata that repeat, equal,
// in the chunk of the same column in every row group: its path, encodings
// and encoding statistics. A footer of many row groups shares one of each
// between them rather than hold a copy a chunk.
type chunkLists struct {
	path     []string
	enc      []meta.Encoding
	encStats []meta.PageEncodingStats
}

// listsBefore is the lists of the chunk at this one's place in the row
// group before, nil outside a footer's row groups.
func (d *decoder) listsBefore() *chunkLists {
	if d.chunkAt < 0 || d.discarding {
		// A dropped chunk's lists are in memory written over: never
		// shared.
		return nil
	}
	for len(d.lists) <= d.chunkAt {
		d.lists = append(d.lists, chunkLists{})
	}
	return &d.lists[d.chunkAt]
}

// sharedList reads a list of elem-typed values, element i by read, into
// scratch, and returns before when it holds the same values, or else a
// copy cut from c, which then serves the next row group as before.
func sharedList[T comparable](d *decoder, t, elem thrift.TType, c *chunks[T], scratch *[]T, before *[]T, read func(*T) error) ([]T, error) {
	if before == nil {
		return readList(d, t, elem, c, read)
	}
	n, err := d.listBegin(t, elem)
	if err != nil {
		return nil, err
	}
	got, err := readElements(d, n, (*scratch)[:0], read)
	if err != nil {
		return nil, err
	}
	*scratch = got
	if len(got) > 0 && slices.Equal(got, *before) {
		return *before, nil
	}
	out := c.take(len(got))
	if out == nil {
		out = make([]T, len(got))
	}
	copy(out, got)
	*before = out
	return out, nil
}

// decoders recycles decoders, and their protocol, across calls: a page
// header is decoded for every page, and a fresh protocol costs more than
// the header.
var decoders = sync.Pool{New: func() any {
	d := &decoder{ctx: context.Background(), cfg: &thrift.TConfiguration{}}
	d.p = thrift.NewTCompactProtocolConf(&d.r, d.cfg)
	return d
}}

// newDecoder returns a decoder over b. Its message size limits are len(b),
// so no length or count read from b can claim more than b holds.
func newDecoder(b []byte) *decoder {
	d := decoders.Get().(*decoder)
	d.chunkAt = -1
	limit := int32(min(max(len(b), 1), math.MaxInt32))
	d.cfg.MaxMessageSize, d.cfg.MaxFrameSize = limit, limit
	d.r = reader{b: b}
	return d
}

// release returns d to the pool after a successful decode, which leaves the
// protocol's field stack balanced. What d handed out now belongs to the
// caller alone. After an error the protocol state is unknown, so the
// decoder is dropped instead.
func (d *decoder) release() {
	// The lists and scratch arrays are kept, emptied, for the next
	// footer: a glob decodes one a file.
	clear(d.lists)
	clear(d.pathScratch)
	*d = decoder{p: d.p, cfg: d.cfg, ctx: d.ctx, lists: d.lists[:0], pathScratch: d.pathScratch[:0],
		encScratch: d.encScratch[:0], encStatsScratch: d.encStatsScratch[:0], discard: d.discard}
	decoders.Put(d)
}

// A slab hands out pointers into shared, geometrically growing arrays.
type slab[T any] struct {
	buf []T
	// n counts the values handed out.
	n int
}

func (s *slab[T]) alloc() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, min(max(2*cap(s.buf), 4), 1024))
	}
	s.n++
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// reserve makes room for n more without growing in steps: a footer's
// column chunks are counted before they are decoded, and the steps would
// leave arrays up to three times what the footer needs.
func (s *slab[T]) reserve(n int) {
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make([]T, 0, n)
	}
}

// chunks hands out short slices of shared arrays.
type chunks[T any] struct {
	buf []T
	// n counts the elements handed out.
	n int
}

// chunksSize bounds the arrays chunks shares.
const chunksSize = 4096

// take returns a zeroed slice of n elements with capacity n, or nil when n is
// too large to share an array.
func (c *chunks[T]) take(n int) []T {
	if n > chunksSize/8 {
		return nil
	}
	if cap(c.buf)-len(c.buf) < n {
		c.buf = make([]T, 0, max(min(2*cap(c.buf), chunksSize), 64, n))
	}
	c.n += n
	start := len(c.buf)
	c.buf = c.buf[:start+n]
	return c.buf[start : start+n : start+n]
}

// reserve makes room for n more in one array, up to the arrays' bound.
func (c *chunks[T]) reserve(n int) {
	if n = min(n, chunksSize); cap(c.buf)-len(c.buf) < n {
		c.buf = make([]T, 0, n)
	}
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

// ids builds a required-field bit set.
func ids(id ...int16) uint32 {
	var m uint32
	for _, i := range id {
		m |= 1 << i
	}
	return m
}

// A structReader iterates over the fields of one struct:
//
//	s := d.begin(t, someFields)
//	for s.next() {
//		var err error
//		switch s.id { case 1: ...; default: err = s.skip() }
//		s.done(err)
//	}
//	return s.end(required)
//
// The first error sticks: next then reports no more fields and end returns
// the error, with the failing field's name on its path.
//
// A known field whose wire type differs from parquet.thrift's is skipped as
// if absent, as thrift's generated readers do: some pre-release writers used
// field ids that later got other types (parquet-mr 1.12 snapshots wrote a
// list as field 15 of ColumnMetaData, now bloom_filter_length). A required
// field skipped that way is then reported missing, with its wire type.
type structReader struct {
	d        *decoder
	fs       fields
	id       int16
	t        thrift.TType
	err      error
	seen     uint32
	mistyped uint32

	// A union must have exactly one member; a second one is skipped and
	// reported by end.
	union   bool
	members int
	ids     [2]int16
}

// begin starts reading a struct of wire type t.
func (d *decoder) begin(t thrift.TType, fs fields) structReader {
	if t != thrift.STRUCT {
		return structReader{err: wireTypeError(t, thrift.STRUCT)}
	}
	return d.beginBody(fs)
}

// beginUnion starts reading a union of wire type t.
func (d *decoder) beginUnion(t thrift.TType, fs fields) structReader {
	s := d.begin(t, fs)
	s.union = true
	return s
}

// beginBody starts reading a struct whose wire type is already known: the
// top-level struct, or a list element.
func (d *decoder) beginBody(fs fields) structReader {
	s := structReader{d: d, fs: fs}
	d.depth++
	if d.depth > maxDepth {
		s.err = fmt.Errorf("structs nested deeper than %d", maxDepth)
		return s
	}
	_, s.err = d.p.ReadStructBegin(d.ctx)
	return s
}

// next reads the next field header, reporting false at the struct's end or
// after an error.
func (s *structReader) next() bool {
	for s.err == nil {
		_, t, id, err := s.d.p.ReadFieldBegin(s.d.ctx)
		if err != nil {
			s.err = err
			return false
		}
		if t == thrift.STOP {
			return false
		}
		s.id, s.t = id, t
		if want := s.fs.get(id).typ; want != thrift.STOP && want != t {
			if id > 0 && id < 32 {
				s.mistyped |= 1 << id
			}
			s.done(s.skip())
			continue
		}
		if s.union {
			if id <= 0 {
				// No parquet.thrift union has such a member, and its id
				// could not be kept as an unknown member's.
				s.err = at(fmt.Errorf("union member field id %d out of range", id), s.fs.name(id))
				return false
			}
			if s.members < len(s.ids) {
				s.ids[s.members] = id
			}
			s.members++
			if s.members > 1 {
				s.done(s.skip())
				continue
			}
		}
		return true
	}
	return false
}

// skip reads past the current field's value.
func (s *structReader) skip() error { return s.d.skip(s.t) }

// done records the outcome of decoding the current field.
func (s *structReader) done(err error) {
	if err == nil {
		err = s.d.p.ReadFieldEnd(s.d.ctx)
	}
	if err != nil {
		s.err = at(err, s.fs.name(s.id))
		return
	}
	if s.id > 0 && s.id < 32 && s.mistyped&(1<<s.id) == 0 {
		s.seen |= 1 << s.id
	}
}

// end finishes the struct and checks that the required fields were present.
func (s *structReader) end(required uint32) error {
	if s.err != nil {
		return s.err
	}
	if err := s.d.p.ReadStructEnd(s.d.ctx); err != nil {
		return err
	}
	s.d.depth--
	if s.union {
		switch {
		case s.members == 0:
			return fmt.Errorf("union has no member")
		case s.members > 1:
			return fmt.Errorf("union has more than one member (fields %d and %d)", s.ids[0], s.ids[1])
		}
	}
	if missing := required &^ s.seen; missing != 0 {
		id := int16(bits.TrailingZeros32(missing))
		if s.mistyped&(1<<id) != 0 {
			return fmt.Errorf("required field %s has a wire type other than %v", s.fs.name(id), s.fs.get(id).typ)
		}
		return fmt.Errorf("required field %s is missing", s.fs.name(id))
	}
	return nil
}

// skip reads past a value of type t, within what is left of the depth limit.
func (d *decoder) skip(t thrift.TType) error {
	return thrift.Skip(d.ctx, d.p, t, maxDepth-d.depth)
}

// emptyStruct reads a struct whose fields this package ignores: an empty
// union member such as StringType, or one whose content meta does not keep.
func (d *decoder) emptyStruct(t thrift.TType) error {
	s := d.begin(t, nil)
	for s.next() {
		s.done(s.skip())
	}
	return s.end(0)
}

func wireTypeError(t, want thrift.TType) error {
	return fmt.Errorf("wire type %v, want %v", t, want)
}

// The scalar readers check the wire type again, which a field table already
// did; the check is cheap and keeps a table typo from misreading input.

func (d *decoder) i8(t thrift.TType) (int8, error) {
	if t != thrift.BYTE {
		return 0, wireTypeError(t, thrift.BYTE)
	}
	return d.p.ReadByte(d.ctx)
}

func (d *decoder) i16(t thrift.TType) (int16, error) {
	if t != thrift.I16 {
		return 0, wireTypeError(t, thrift.I16)
	}
	return d.p.ReadI16(d.ctx)
}

func (d *decoder) i32(t thrift.TType) (int32, error) {
	if t != thrift.I32 {
		return 0, wireTypeError(t, thrift.I32)
	}
	return d.p.ReadI32(d.ctx)
}

func (d *decoder) i64(t thrift.TType) (int64, error) {
	if t != thrift.I64 {
		return 0, wireTypeError(t, thrift.I64)
	}
	return d.p.ReadI64(d.ctx)
}

func (d *decoder) bool(t thrift.TType) (bool, error) {
	if t != thrift.BOOL {
		return false, wireTypeError(t, thrift.BOOL)
	}
	return d.p.ReadBool(d.ctx)
}

func (d *decoder) double(t thrift.TType) (float64, error) {
	if t != thrift.DOUBLE {
		return 0, wireTypeError(t, thrift.DOUBLE)
	}
	return d.p.ReadDouble(d.ctx)
}

// raw reads a string or binary value: a varint length, then the bytes. It
// reads from the transport directly rather than through the protocol's
// ReadBinary, to check the length against the bytes left before anything is
// allocated and to let the caller decide where the bytes go. The compact
// protocol keeps no read-ahead, so this stays in step with it.
func (d *decoder) raw() ([]byte, error) {
	rest := d.r.b[d.r.pos:]
	n, k := binary.Uvarint(rest)
	switch {
	case k == 0:
		return nil, io.ErrUnexpectedEOF
	case k < 0 || n > math.MaxInt32:
		return nil, fmt.Errorf("malformed length")
	case n > uint64(len(rest)-k):
		return nil, fmt.Errorf("length %d exceeds the %d bytes left", n, len(rest)-k)
	}
	d.r.pos += k + int(n)
	return rest[k : k+int(n)], nil
}

// binaryValue copies a binary value out of the input; an empty one is
// non-nil, so "present but empty" stays distinct from "absent".
func (d *decoder) binaryValue() ([]byte, error) {
	v, err := d.raw()
	if err != nil {
		return nil, err
	}
	out := d.bytes.take(len(v))
	if out == nil {
		out = make([]byte, len(v))
	}
	copy(out, v)
	return out, nil
}

func (d *decoder) binary(t thrift.TType) ([]byte, error) {
	if t != thrift.STRING {
		return nil, wireTypeError(t, thrift.STRING)
	}
	return d.binaryValue()
}

func (d *decoder) str(t thrift.TType) (string, error) {
	if t != thrift.STRING {
		return "", wireTypeError(t, thrift.STRING)
	}
	v, err := d.raw()
	if d.discarding {
		return "", err
	}
	return string(v), err
}

func (d *decoder) optI32(t thrift.TType) (*int32, error) {
	v, err := d.i32(t)
	if err != nil {
		return nil, err
	}
	p := d.i32s.alloc()
	*p = v
	return p, nil
}

func (d *decoder) optI64(t thrift.TType) (*int64, error) {
	v, err := d.i64(t)
	if err != nil {
		return nil, err
	}
	p := d.i64s.alloc()
	*p = v
	return p, nil
}

func (d *decoder) optBool(t thrift.TType) (*bool, error) {
	v, err := d.bool(t)
	if err != nil {
		return nil, err
	}
	p := d.bools.alloc()
	*p = v
	return p, nil
}

// The rarer optional fields allocate one by one.

func (d *decoder) optI16(t thrift.TType) (*int16, error) {
	v, err := d.i16(t)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (d *decoder) optI8(t thrift.TType) (*int8, error) {
	v, err := d.i8(t)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (d *decoder) optString(t thrift.TType) (*string, error) {
	v, err := d.str(t)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (d *decoder) optDouble(t thrift.TType) (*float64, error) {
	v, err := d.double(t)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// listBegin reads a list header of elements of type elem and returns its size.
func (d *decoder) listBegin(t, elem thrift.TType) (int, error) {
	if t != thrift.LIST {
		return 0, wireTypeError(t, thrift.LIST)
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

// readList reads a list of elem-typed values, element i into out[i] by read.
// A short list is cut from c when c is not nil.
func readList[T any](d *decoder, t, elem thrift.TType, c *chunks[T], read func(*T) error) ([]T, error) {
	n, err := d.listBegin(t, elem)
	if err != nil {
		return nil, err
	}
	var out []T
	if c != nil {
		out = c.take(n)[:0]
	}
	if out == nil {
		out = make([]T, 0, min(n, maxPrealloc))
	}
	return readElements(d, n, out, read)
}

// readListInto is readList into the array of *spare, which keeps it for
// the next list: it allocates only when a list outgrows it. The list
// returned has its capacity clipped.
func readListInto[T any](d *decoder, t, elem thrift.TType, spare *[]T, read func(*T) error) ([]T, error) {
	n, err := d.listBegin(t, elem)
	if err != nil {
		return nil, err
	}
	if cap(*spare) < n || *spare == nil {
		// Non-nil even when empty: a list present but empty is not absent.
		*spare = make([]T, 0, min(n, maxPrealloc))
	}
	out, err := readElements(d, n, (*spare)[:0], read)
	if err != nil {
		return nil, err
	}
	*spare = out
	return out[:len(out):len(out)], nil
}

func (d *decoder) readBool(v *bool) (err error) {
	*v, err = d.p.ReadBool(d.ctx)
	return err
}

func (d *decoder) readI64(v *int64) (err error) {
	*v, err = d.p.ReadI64(d.ctx)
	return err
}

// readRaw reads a binary value as a slice of the input, its capacity
// clipped so that an append copies it.
func (d *decoder) readRaw(v *[]byte) error {
	b, err := d.raw()
	*v = b[:len(b):len(b)]
	return err
}

// readElements reads the n elements of a list whose header is read, each by
// read, into out, and the list's end.
func readElements[T any](d *decoder, n int, out []T, read func(*T) error) ([]T, error) {
	for i := range n {
		var zero T
		out = append(out, zero)
		if err := read(&out[i]); err != nil {
			return nil, atIndex(err, i)
		}
	}
	return out, d.p.ReadListEnd(d.ctx)
}

// readStructList reads a list of structs, each by read.
func readStructList[T any](d *decoder, t thrift.TType, read func(*T) error) ([]T, error) {
	return readList(d, t, thrift.STRUCT, nil, read)
}

// readSizedStructList is readStructList that tells sized the list's length
// before its first element is read.
func readSizedStructList[T any](d *decoder, t thrift.TType, sized func(n int), read func(*T) error) ([]T, error) {
	n, err := d.listBegin(t, thrift.STRUCT)
	if err != nil {
		return nil, err
	}
	sized(n)
	out := make([]T, 0, min(n, maxPrealloc))
	return readElements(d, n, out, read)
}

// minColumnChunkBytes is less than any column chunk with metadata takes in
// the compact protocol (its required fields alone take more), so that
// reserving by a count the remaining bytes could not hold is impossible.
const minColumnChunkBytes = 16

// reserveChunks sizes the slabs of column chunk metadata for the n chunks
// of a row group and those of the row groups after it, assumed alike.
func (d *decoder) reserveChunks(n int) {
	if d.keep != nil {
		kept := 0
		for i := range min(n, maxPrealloc) {
			if d.keeps(i) {
				kept++
			}
		}
		n = kept
	}
	total := n * max(d.rowGroupsLeft, 1)
	if n > 0 && total/n != max(d.rowGroupsLeft, 1) {
		total = maxPrealloc // overflow
	}
	total = min(total, (len(d.r.b)-d.r.pos)/minColumnChunkBytes+1, maxPrealloc)
	d.cmds.reserve(total)
	d.stats.reserve(total)
}

func (d *decoder) i32List(t thrift.TType) ([]int32, error) {
	return readList(d, t, thrift.I32, nil, func(v *int32) (err error) {
		*v, err = d.p.ReadI32(d.ctx)
		return err
	})
}

func (d *decoder) i64List(t thrift.TType) ([]int64, error) {
	return readList(d, t, thrift.I64, nil, func(v *int64) (err error) {
		*v, err = d.p.ReadI64(d.ctx)
		return err
	})
}

func (d *decoder) boolList(t thrift.TType) ([]bool, error) {
	return readList(d, t, thrift.BOOL, nil, func(v *bool) (err error) {
		*v, err = d.p.ReadBool(d.ctx)
		return err
	})
}

func (d *decoder) binaryList(t thrift.TType) ([][]byte, error) {
	return readList(d, t, thrift.STRING, nil, func(v *[]byte) (err error) {
		*v, err = d.binaryValue()
		return err
	})
}

func (d *decoder) stringList(t thrift.TType) ([]string, error) {
	return readList(d, t, thrift.STRING, &d.strings, func(v *string) error {
		b, err := d.raw()
		*v = string(b)
		return err
	})
}

// pathList reads a path_in_schema, interning its names: the same paths
// repeat in every row group of a footer. A name that the chunk at this
// place in the row group before has too is taken from there.
func (d *decoder) pathList(t thrift.TType) ([]string, error) {
	var before *[]string
	if l := d.listsBefore(); l != nil {
		before = &l.path
	}
	i := 0
	return sharedList(d, t, thrift.STRING, &d.strings, &d.pathScratch, before, func(v *string) error {
		b, err := d.raw()
		if err != nil || d.discarding {
			return err
		}
		if before != nil && i < len(*before) && (*before)[i] == string(b) {
			*v = (*before)[i]
			i++
			return nil
		}
		i++
		if d.names == nil {
			d.names = make(map[string]string)
		}
		name, ok := d.names[string(b)]
		if !ok {
			name = string(b)
			d.names[name] = name
		}
		*v = name
		return nil
	})
}
