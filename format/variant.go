package format

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/pqsql/pqsql/format/meta"
)

// A VARIANT value assembles to nil (a Variant null), a VariantPrimitive, a
// List (a Variant array) or a *VariantObject; VariantEncoding.md defines the
// binary form and VariantShredding.md the shredded columns.

// maxVariantDepth bounds how deeply Variant arrays and objects may nest, so
// hostile values cannot exhaust the stack.
const maxVariantDepth = 128

// VariantType is a Variant primitive type id of VariantEncoding.md.
type VariantType uint8

// The Variant primitive types; short strings decode as VariantString.
const (
	VariantNull              VariantType = 0
	VariantTrue              VariantType = 1
	VariantFalse             VariantType = 2
	VariantInt8              VariantType = 3
	VariantInt16             VariantType = 4
	VariantInt32             VariantType = 5
	VariantInt64             VariantType = 6
	VariantDouble            VariantType = 7
	VariantDecimal4          VariantType = 8
	VariantDecimal8          VariantType = 9
	VariantDecimal16         VariantType = 10
	VariantDate              VariantType = 11
	VariantTimestamp         VariantType = 12 // UTC-adjusted, microseconds
	VariantTimestampNTZ      VariantType = 13 // microseconds
	VariantFloat             VariantType = 14
	VariantBinary            VariantType = 15
	VariantString            VariantType = 16
	VariantTime              VariantType = 17 // microseconds, no time zone
	VariantTimestampNanos    VariantType = 18 // UTC-adjusted
	VariantTimestampNTZNanos VariantType = 19
	VariantUUID              VariantType = 20
)

// A VariantPrimitive is a non-null primitive VARIANT value.
type VariantPrimitive struct {
	Type VariantType
	// Int holds integers, DATE days, and TIME and TIMESTAMP ticks.
	Int int64
	// Float holds a float or double.
	Float float64
	// Bytes holds a string, binary or UUID; it may alias page buffers.
	Bytes []byte
	// Unscaled is a decimal16's unscaled value (a decimal4's or decimal8's
	// is in Int), and Scale any decimal's scale.
	Unscaled *big.Int
	Scale    int
}

// A VariantObject is a VARIANT object: Keys parallel Values, in key order.
type VariantObject struct {
	Keys   []string
	Values []Value
}

// AppendText appends p as DuckDB's CAST(variant AS VARCHAR) prints it.
func (p VariantPrimitive) AppendText(dst []byte) []byte {
	switch p.Type {
	case VariantTrue:
		return append(dst, "true"...)
	case VariantFalse:
		return append(dst, "false"...)
	case VariantInt8, VariantInt16, VariantInt32, VariantInt64:
		return strconv.AppendInt(dst, p.Int, 10)
	case VariantDouble:
		return AppendFloat(dst, p.Float, 64)
	case VariantFloat:
		return AppendFloat(dst, p.Float, 32)
	case VariantDecimal4, VariantDecimal8, VariantDecimal16:
		if p.Unscaled == nil {
			return AppendDecimal(dst, big.NewInt(p.Int), p.Scale)
		}
		return AppendDecimal(dst, p.Unscaled, p.Scale)
	case VariantDate:
		return AppendDate(dst, p.Int)
	case VariantTimestamp:
		return append(AppendTimestamp(dst, p.Int, meta.Micros), "+00"...)
	case VariantTimestampNTZ:
		return AppendTimestamp(dst, p.Int, meta.Micros)
	case VariantTimestampNanos:
		// DuckDB keeps TIMESTAMP WITH TIME ZONE in microseconds, truncating.
		return append(AppendTimestamp(dst, p.Int/1000, meta.Micros), "+00"...)
	case VariantTimestampNTZNanos:
		return AppendTimestamp(dst, p.Int, meta.Nanos)
	case VariantTime:
		return AppendTime(dst, p.Int, meta.Micros)
	case VariantBinary:
		return AppendBlob(dst, p.Bytes)
	case VariantString:
		return append(dst, p.Bytes...)
	case VariantUUID:
		return AppendUUID(dst, p.Bytes)
	}
	return append(dst, "NULL"...)
}

// appendText appends o as {'key': value, ...}.
func (o *VariantObject) appendText(dst []byte) []byte {
	dst = append(dst, '{')
	for i, v := range o.Values {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, '\'')
		dst = append(dst, o.Keys[i]...)
		dst = append(dst, "': "...)
		dst = appendElem(dst, v)
	}
	return append(dst, '}')
}

// DecodeVariant decodes a Variant given its metadata and value bytes.
func DecodeVariant(metadata, value []byte) (Value, error) {
	m, err := parseVariantMetadata(metadata)
	if err != nil {
		return nil, err
	}
	return m.decode(value)
}

// variantMetadata is a parsed metadata header; dictionary strings are
// read on demand.
type variantMetadata struct {
	b       []byte
	offSize int
	size    int // dictionary entries
	strs    int // where the string bytes start
}

func parseVariantMetadata(b []byte) (*variantMetadata, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty Variant metadata", ErrCorrupt)
	}
	if v := b[0] & 0x0f; v != 1 {
		return nil, fmt.Errorf("%w: Variant metadata version %d", ErrUnsupported, v)
	}
	m := &variantMetadata{b: b, offSize: int(b[0]>>6) + 1}
	if len(b) < 1+m.offSize {
		return nil, fmt.Errorf("%w: truncated Variant metadata", ErrCorrupt)
	}
	n := readUintLE(b[1:], m.offSize)
	if (n+2)*uint64(m.offSize)+1 > uint64(len(b)) {
		return nil, fmt.Errorf("%w: Variant metadata claims %d strings in %d bytes", ErrCorrupt, n, len(b))
	}
	m.size = int(n)
	m.strs = 1 + (m.size+2)*m.offSize
	return m, nil
}

// key returns dictionary string id.
func (m *variantMetadata) key(id uint64) (string, error) {
	if id >= uint64(m.size) {
		return "", fmt.Errorf("%w: Variant field id %d outside a dictionary of %d", ErrCorrupt, id, m.size)
	}
	at := 1 + m.offSize*(int(id)+1)
	start := readUintLE(m.b[at:], m.offSize)
	end := readUintLE(m.b[at+m.offSize:], m.offSize)
	if start > end || end > uint64(len(m.b)-m.strs) {
		return "", fmt.Errorf("%w: Variant dictionary string %d is out of bounds", ErrCorrupt, id)
	}
	return string(m.b[m.strs+int(start) : m.strs+int(end)]), nil
}

func readUintLE(b []byte, n int) uint64 {
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// decode decodes one binary value; trailing bytes are ignored.
func (m *variantMetadata) decode(b []byte) (Value, error) {
	// Values may share bytes through their offsets; the budget charges every
	// decoded part its own bytes so shared parts cannot multiply the work.
	d := variantDecoder{m: m, budget: len(b), keyBudget: 1<<20 + 64*len(b)}
	return d.value(b, 0)
}

type variantDecoder struct {
	m      *variantMetadata
	budget int
	// keyBudget bounds the key bytes all objects may name, so a value
	// cannot name one huge dictionary string a million times.
	keyBudget int
	keys      map[uint64]string
}

// key returns dictionary string id, converting each one once.
func (d *variantDecoder) key(id uint64) (string, error) {
	k, ok := d.keys[id]
	if !ok {
		var err error
		if k, err = d.m.key(id); err != nil {
			return "", err
		}
		if d.keys == nil {
			d.keys = map[uint64]string{}
		}
		d.keys[id] = k
	}
	d.keyBudget -= len(k)
	if d.keyBudget < 0 {
		return "", fmt.Errorf("%w: Variant value names more key bytes than it may", ErrLimit)
	}
	return k, nil
}

func (d *variantDecoder) charge(n int) error {
	d.budget -= n
	if d.budget < 0 {
		return fmt.Errorf("%w: Variant value reuses its bytes", ErrCorrupt)
	}
	return nil
}

func (d *variantDecoder) value(b []byte, depth int) (Value, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: truncated Variant value", ErrCorrupt)
	}
	if depth > maxVariantDepth {
		return nil, fmt.Errorf("%w: Variant value nested deeper than %d", ErrLimit, maxVariantDepth)
	}
	hdr := int(b[0] >> 2)
	switch b[0] & 3 {
	case 0:
		return d.primitive(b, VariantType(hdr))
	case 1:
		if len(b) < 1+hdr {
			return nil, fmt.Errorf("%w: truncated Variant short string", ErrCorrupt)
		}
		if err := d.charge(1 + hdr); err != nil {
			return nil, err
		}
		return VariantPrimitive{Type: VariantString, Bytes: b[1 : 1+hdr]}, nil
	}
	object := b[0]&3 == 2
	offSize := hdr&3 + 1
	idSize := 0
	large := hdr&4 != 0
	if object {
		idSize = (hdr>>2)&3 + 1
		large = hdr&16 != 0
	}
	countSize := 1
	if large {
		countSize = 4
	}
	if len(b) < 1+countSize {
		return nil, fmt.Errorf("%w: truncated Variant container", ErrCorrupt)
	}
	n := readUintLE(b[1:], countSize)
	head := uint64(1+countSize) + n*uint64(idSize) + (n+1)*uint64(offSize)
	if head > uint64(len(b)) {
		return nil, fmt.Errorf("%w: Variant container claims %d elements in %d bytes", ErrCorrupt, n, len(b))
	}
	if err := d.charge(int(head)); err != nil {
		return nil, err
	}
	ids := 1 + countSize
	offs := ids + int(n)*idSize
	fields := b[head:]
	last := readUintLE(b[offs+int(n)*offSize:], offSize)
	if last > uint64(len(fields)) {
		return nil, fmt.Errorf("%w: Variant container's values end past its bytes", ErrCorrupt)
	}
	fields = fields[:last]
	values := make([]Value, int(n))
	var keys []string
	if object {
		keys = make([]string, int(n))
	}
	for i := range values {
		off := readUintLE(b[offs+i*offSize:], offSize)
		if off >= last {
			return nil, fmt.Errorf("%w: Variant element %d starts past its container's values", ErrCorrupt, i)
		}
		v, err := d.value(fields[off:], depth+1)
		if err != nil {
			return nil, err
		}
		values[i] = v
		if object {
			if keys[i], err = d.key(readUintLE(b[ids+i*idSize:], idSize)); err != nil {
				return nil, err
			}
		}
	}
	if object {
		return &VariantObject{Keys: keys, Values: values}, nil
	}
	return List(values), nil
}

// primitiveSizes are the value_data sizes of the fixed-width primitive
// types; 0 marks types without data, -1 those with a length prefix.
var primitiveSizes = [...]int{
	VariantNull: 0, VariantTrue: 0, VariantFalse: 0,
	VariantInt8: 1, VariantInt16: 2, VariantInt32: 4, VariantInt64: 8,
	VariantDouble: 8, VariantDecimal4: 5, VariantDecimal8: 9, VariantDecimal16: 17,
	VariantDate: 4, VariantTimestamp: 8, VariantTimestampNTZ: 8, VariantFloat: 4,
	VariantBinary: -1, VariantString: -1, VariantTime: 8,
	VariantTimestampNanos: 8, VariantTimestampNTZNanos: 8, VariantUUID: 16,
}

func (d *variantDecoder) primitive(b []byte, t VariantType) (Value, error) {
	if int(t) >= len(primitiveSizes) {
		return nil, fmt.Errorf("%w: Variant primitive type %d", ErrUnsupported, t)
	}
	size := primitiveSizes[t]
	data := b[1:]
	if size < 0 {
		if len(data) < 4 {
			return nil, fmt.Errorf("%w: truncated Variant %s", ErrCorrupt, t)
		}
		n := uint64(binary.LittleEndian.Uint32(data))
		if n > uint64(len(data)-4) {
			return nil, fmt.Errorf("%w: Variant %s of %d bytes has %d left", ErrCorrupt, t, n, len(data)-4)
		}
		size = 4 + int(n)
	}
	if len(data) < size {
		return nil, fmt.Errorf("%w: truncated Variant %s", ErrCorrupt, t)
	}
	if err := d.charge(1 + size); err != nil {
		return nil, err
	}
	p := VariantPrimitive{Type: t}
	le := binary.LittleEndian
	switch t {
	case VariantNull:
		return nil, nil
	case VariantInt8:
		p.Int = int64(int8(data[0]))
	case VariantInt16:
		p.Int = int64(int16(le.Uint16(data)))
	case VariantInt32, VariantDate:
		p.Int = int64(int32(le.Uint32(data)))
	case VariantInt64, VariantTimestamp, VariantTimestampNTZ, VariantTime, VariantTimestampNanos, VariantTimestampNTZNanos:
		p.Int = int64(le.Uint64(data))
	case VariantDouble:
		p.Float = math.Float64frombits(le.Uint64(data))
	case VariantFloat:
		p.Float = float64(math.Float32frombits(le.Uint32(data)))
	case VariantDecimal4, VariantDecimal8, VariantDecimal16:
		p.Scale = int(data[0])
		if p.Scale > 38 {
			return nil, fmt.Errorf("%w: Variant decimal scale %d exceeds 38", ErrCorrupt, p.Scale)
		}
		switch t {
		case VariantDecimal4:
			p.Int = int64(int32(le.Uint32(data[1:])))
		case VariantDecimal8:
			p.Int = int64(le.Uint64(data[1:]))
		default:
			var be [16]byte
			for i := range be {
				be[i] = data[16-i]
			}
			p.Unscaled = BigEndianSigned(be[:])
		}
	case VariantBinary, VariantString:
		p.Bytes = data[4:size]
	case VariantUUID:
		p.Bytes = data[:16]
	}
	return p, nil
}

// String names t in errors.
func (t VariantType) String() string {
	switch t {
	case VariantBinary:
		return "binary"
	case VariantString:
		return "string"
	}
	return "primitive " + strconv.Itoa(int(t))
}
