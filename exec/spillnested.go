package exec

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// The tags of a spilled nested value. A leaf keeps its logical and
// physical type and its one value; a STRUCT keeps the index of its field
// names in the file's table, which stays in memory with the columns'
// types.
const (
	nestedNull byte = iota
	nestedScalar
	nestedList
	nestedStruct
	nestedMap
	nestedVariant
	nestedVariantObject
)

// A fieldTable numbers the distinct lists of STRUCT field names a file
// holds: a value stores the number, not the names.
type fieldTable struct {
	lists [][]*format.Field
	index map[string]int
	// last is the list seen last, which the next struct of a column
	// almost always shares.
	last []*format.Field
	at   int
}

func (ft *fieldTable) number(fields []*format.Field) int {
	if ft.last != nil && len(fields) == len(ft.last) && (len(fields) == 0 || &fields[0] == &ft.last[0]) {
		return ft.at
	}
	var key strings.Builder
	for _, f := range fields {
		key.WriteString(f.Name)
		key.WriteByte(0)
	}
	k := key.String()
	i, ok := ft.index[k]
	if !ok {
		if ft.index == nil {
			ft.index = map[string]int{}
		}
		i = len(ft.lists)
		ft.index[k] = i
		// Only the names are kept: they are all a struct value's fields
		// are read for.
		names := make([]*format.Field, len(fields))
		for j, f := range fields {
			names[j] = &format.Field{Name: f.Name}
		}
		ft.lists = append(ft.lists, names)
	}
	ft.last, ft.at = fields, i
	return i
}

// appendNested appends the encoding of v.
func appendNested(buf []byte, v format.Value, ft *fieldTable) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil:
		return append(buf, nestedNull), nil
	case format.Scalar:
		buf = append(buf, nestedScalar)
		lg := x.Logical
		buf = binary.AppendVarint(buf, int64(lg.Kind))
		buf = binary.AppendVarint(buf, int64(lg.Precision))
		buf = binary.AppendVarint(buf, int64(lg.Scale))
		buf = binary.AppendVarint(buf, int64(lg.Unit))
		buf = append(buf, boolByte(lg.JSON))
		return appendLeaf(buf, x.Values, x.Index)
	case format.List:
		buf = append(buf, nestedList)
		buf = binary.AppendUvarint(buf, uint64(len(x)))
		for _, e := range x {
			if buf, err = appendNested(buf, e, ft); err != nil {
				return nil, err
			}
		}
		return buf, nil
	case *format.Struct:
		if len(x.Fields) != len(x.Values) {
			return nil, fmt.Errorf("%w: a STRUCT value with %d fields and %d values", ErrSpillNested, len(x.Fields), len(x.Values))
		}
		buf = append(buf, nestedStruct)
		buf = binary.AppendUvarint(buf, uint64(ft.number(x.Fields)))
		for _, e := range x.Values {
			if buf, err = appendNested(buf, e, ft); err != nil {
				return nil, err
			}
		}
		return buf, nil
	case *format.Map:
		if len(x.Keys) != len(x.Values) {
			return nil, fmt.Errorf("%w: a MAP value with %d keys and %d values", ErrSpillNested, len(x.Keys), len(x.Values))
		}
		buf = append(buf, nestedMap)
		buf = binary.AppendUvarint(buf, uint64(len(x.Keys)))
		for i := range x.Keys {
			if buf, err = appendNested(buf, x.Keys[i], ft); err != nil {
				return nil, err
			}
			if buf, err = appendNested(buf, x.Values[i], ft); err != nil {
				return nil, err
			}
		}
		return buf, nil
	case format.VariantPrimitive:
		buf = append(buf, nestedVariant, byte(x.Type))
		buf = binary.AppendVarint(buf, x.Int)
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(x.Float))
		buf = appendSpillBytes(buf, x.Bytes)
		buf = appendSpillBig(buf, x.Unscaled)
		return binary.AppendVarint(buf, int64(x.Scale)), nil
	case *format.VariantObject:
		if len(x.Keys) != len(x.Values) {
			return nil, fmt.Errorf("%w: a VARIANT object with %d keys and %d values", ErrSpillNested, len(x.Keys), len(x.Values))
		}
		buf = append(buf, nestedVariantObject)
		buf = binary.AppendUvarint(buf, uint64(len(x.Keys)))
		for i, k := range x.Keys {
			buf = binary.AppendUvarint(buf, uint64(len(k)))
			buf = append(buf, k...)
			if buf, err = appendNested(buf, x.Values[i], ft); err != nil {
				return nil, err
			}
		}
		return buf, nil
	}
	return nil, fmt.Errorf("%w: a nested value of Go type %T", ErrSpillNested, v)
}

// appendLeaf appends the physical type and value i of vals.
func appendLeaf(buf []byte, vals *format.Values, i int) ([]byte, error) {
	if vals == nil || i < 0 || i >= vals.Len() {
		return nil, fmt.Errorf("%w: a leaf value outside its column data", ErrSpillNested)
	}
	buf = binary.AppendVarint(buf, int64(vals.Type))
	switch vals.Type {
	case meta.Boolean:
		return append(buf, boolByte(vals.Bool[i])), nil
	case meta.Int32:
		return binary.LittleEndian.AppendUint32(buf, uint32(vals.Int32[i])), nil
	case meta.Int64:
		return binary.LittleEndian.AppendUint64(buf, uint64(vals.Int64[i])), nil
	case meta.Int96:
		return append(buf, vals.Int96[i][:]...), nil
	case meta.Float:
		return binary.LittleEndian.AppendUint32(buf, math.Float32bits(vals.Float[i])), nil
	case meta.Double:
		return binary.LittleEndian.AppendUint64(buf, math.Float64bits(vals.Double[i])), nil
	}
	return appendSpillBytes(buf, vals.Bytes[i]), nil
}

// appendSpillBytes appends b as its length+1, so that nil and empty stay
// apart, and its bytes.
func appendSpillBytes(buf, b []byte) []byte {
	if b == nil {
		return append(buf, 0)
	}
	buf = binary.AppendUvarint(buf, uint64(len(b))+1)
	return append(buf, b...)
}

// appendSpillBig appends x as a sign (0 for nil, 1, or 2 for negative) and
// its magnitude.
func appendSpillBig(buf []byte, x *big.Int) []byte {
	switch {
	case x == nil:
		return append(buf, 0)
	case x.Sign() < 0:
		buf = append(buf, 2)
	default:
		buf = append(buf, 1)
	}
	mag := x.Bytes()
	buf = binary.AppendUvarint(buf, uint64(len(mag)))
	return append(buf, mag...)
}

// A nestedDecoder reads spilled nested values back.
type nestedDecoder struct {
	r      *bufio.Reader
	fields [][]*format.Field
}

func (d *nestedDecoder) value() (format.Value, error) {
	tag, err := d.r.ReadByte()
	if err != nil {
		return nil, err
	}
	switch tag {
	case nestedNull:
		return nil, nil
	case nestedScalar:
		var n [4]int64
		for i := range n {
			if n[i], err = binary.ReadVarint(d.r); err != nil {
				return nil, err
			}
		}
		json, err := d.r.ReadByte()
		if err != nil {
			return nil, err
		}
		vals, err := d.leaf()
		if err != nil {
			return nil, err
		}
		lg := format.Logical{Kind: format.Kind(n[0]), Precision: int(n[1]), Scale: int(n[2]), Unit: meta.TimeUnit(n[3]), JSON: json == 1}
		return format.Scalar{Logical: lg, Values: vals}, nil
	case nestedList:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		l := make(format.List, n)
		for i := range l {
			if l[i], err = d.value(); err != nil {
				return nil, err
			}
		}
		return l, nil
	case nestedStruct:
		k, err := binary.ReadUvarint(d.r)
		if err != nil {
			return nil, err
		}
		if k >= uint64(len(d.fields)) {
			return nil, fmt.Errorf("STRUCT field list %d of %d", k, len(d.fields))
		}
		s := &format.Struct{Fields: d.fields[k], Values: make([]format.Value, len(d.fields[k]))}
		for i := range s.Values {
			if s.Values[i], err = d.value(); err != nil {
				return nil, err
			}
		}
		return s, nil
	case nestedMap:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		m := &format.Map{Keys: make([]format.Value, n), Values: make([]format.Value, n)}
		for i := range m.Keys {
			if m.Keys[i], err = d.value(); err != nil {
				return nil, err
			}
			if m.Values[i], err = d.value(); err != nil {
				return nil, err
			}
		}
		return m, nil
	case nestedVariant:
		t, err := d.r.ReadByte()
		if err != nil {
			return nil, err
		}
		p := format.VariantPrimitive{Type: format.VariantType(t)}
		if p.Int, err = binary.ReadVarint(d.r); err != nil {
			return nil, err
		}
		raw, err := d.raw(8)
		if err != nil {
			return nil, err
		}
		p.Float = math.Float64frombits(binary.LittleEndian.Uint64(raw))
		if p.Bytes, err = d.bytes(); err != nil {
			return nil, err
		}
		if p.Unscaled, err = d.big(); err != nil {
			return nil, err
		}
		scale, err := binary.ReadVarint(d.r)
		if err != nil {
			return nil, err
		}
		p.Scale = int(scale)
		return p, nil
	case nestedVariantObject:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		o := &format.VariantObject{Keys: make([]string, n), Values: make([]format.Value, n)}
		for i := range o.Keys {
			l, err := d.count()
			if err != nil {
				return nil, err
			}
			raw, err := d.raw(l)
			if err != nil {
				return nil, err
			}
			o.Keys[i] = string(raw)
			if o.Values[i], err = d.value(); err != nil {
				return nil, err
			}
		}
		return o, nil
	}
	return nil, fmt.Errorf("unknown nested value tag %d", tag)
}

// leaf reads a physical type and one value of it.
func (d *nestedDecoder) leaf() (*format.Values, error) {
	t, err := binary.ReadVarint(d.r)
	if err != nil {
		return nil, err
	}
	v := &format.Values{Type: meta.Type(t)}
	switch v.Type {
	case meta.Boolean:
		b, err := d.r.ReadByte()
		if err != nil {
			return nil, err
		}
		v.Bool = []bool{b == 1}
	case meta.Int32, meta.Float:
		raw, err := d.raw(4)
		if err != nil {
			return nil, err
		}
		if x := binary.LittleEndian.Uint32(raw); v.Type == meta.Int32 {
			v.Int32 = []int32{int32(x)}
		} else {
			v.Float = []float32{math.Float32frombits(x)}
		}
	case meta.Int64, meta.Double:
		raw, err := d.raw(8)
		if err != nil {
			return nil, err
		}
		if x := binary.LittleEndian.Uint64(raw); v.Type == meta.Int64 {
			v.Int64 = []int64{int64(x)}
		} else {
			v.Double = []float64{math.Float64frombits(x)}
		}
	case meta.Int96:
		raw, err := d.raw(12)
		if err != nil {
			return nil, err
		}
		v.Int96 = [][12]byte{[12]byte(raw)}
	default:
		b, err := d.bytes()
		if err != nil {
			return nil, err
		}
		v.Bytes = [][]byte{b}
	}
	return v, nil
}

// count reads a length, refusing one no file of this process could hold.
func (d *nestedDecoder) count() (int, error) {
	n, err := binary.ReadUvarint(d.r)
	if err != nil {
		return 0, err
	}
	if n > math.MaxInt32 {
		return 0, fmt.Errorf("length %d", n)
	}
	return int(n), nil
}

// raw reads n bytes into a new slice: values keep them.
func (d *nestedDecoder) raw(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(d.r, b); err != nil {
		return nil, err
	}
	return b, nil
}

func (d *nestedDecoder) bytes() ([]byte, error) {
	l, err := d.count()
	if err != nil || l == 0 {
		return nil, err
	}
	return d.raw(l - 1)
}

func (d *nestedDecoder) big() (*big.Int, error) {
	sign, err := d.r.ReadByte()
	if err != nil || sign == 0 {
		return nil, err
	}
	l, err := d.count()
	if err != nil {
		return nil, err
	}
	raw, err := d.raw(l)
	if err != nil {
		return nil, err
	}
	x := new(big.Int).SetBytes(raw)
	if sign == 2 {
		x.Neg(x)
	}
	return x, nil
}
