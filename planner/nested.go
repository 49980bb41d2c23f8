package planner

import (
	"bytes"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// compareNested orders two nested values as DuckDB does: lists and maps
// element by element, a list that is a prefix of another first; structs
// field by field; a NULL element after every value. Leaves compare by value,
// never by their text, so [5] sorts before [10, 20].
func compareNested(a, b format.Value) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	switch x := a.(type) {
	case format.List:
		y, ok := b.(format.List)
		if !ok {
			break
		}
		for i := 0; i < len(x) && i < len(y); i++ {
			if c := compareNested(x[i], y[i]); c != 0 {
				return c
			}
		}
		return cmpInt(int64(len(x)), int64(len(y)))
	case *format.Struct:
		y, ok := b.(*format.Struct)
		if !ok {
			break
		}
		for i := 0; i < len(x.Values) && i < len(y.Values); i++ {
			if c := compareNested(x.Values[i], y.Values[i]); c != 0 {
				return c
			}
		}
		return cmpInt(int64(len(x.Values)), int64(len(y.Values)))
	case *format.Map:
		y, ok := b.(*format.Map)
		if !ok {
			break
		}
		for i := 0; i < len(x.Keys) && i < len(y.Keys); i++ {
			if c := compareNested(x.Keys[i], y.Keys[i]); c != 0 {
				return c
			}
			if c := compareNested(x.Values[i], y.Values[i]); c != 0 {
				return c
			}
		}
		return cmpInt(int64(len(x.Keys)), int64(len(y.Keys)))
	case format.Scalar:
		if y, ok := b.(format.Scalar); ok && x.Logical.Kind == y.Logical.Kind {
			return compareLeaf(x, y)
		}
	}
	// Values of different shapes never meet in one column; VARIANT values
	// fall back to their text.
	return bytes.Compare(format.AppendValueText(nil, a), format.AppendValueText(nil, b))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareLeaf orders two leaf values of one logical type.
func compareLeaf(x, y format.Scalar) int {
	xv, yv, i, j := x.Values, y.Values, x.Index, y.Index
	switch x.Logical.Kind {
	case format.KindBoolean:
		return cmpInt(int64(b2i(xv.Bool[i])), int64(b2i(yv.Bool[j])))
	case format.KindUint8, format.KindUint16, format.KindUint32:
		return cmpInt(int64(uint32(xv.Int32[i])), int64(uint32(yv.Int32[j])))
	case format.KindUint64:
		a, b := uint64(xv.Int64[i]), uint64(yv.Int64[j])
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	case format.KindFloat:
		return CompareFloat(float64(xv.Float[i]), float64(yv.Float[j]))
	case format.KindFloat16:
		return CompareFloat(float64(format.Float16(xv.Bytes[i])), float64(format.Float16(yv.Bytes[j])))
	case format.KindDouble:
		if x.Logical.Precision > 0 {
			return CompareFloat(format.DecimalFloat(xv, i, x.Logical.Scale), format.DecimalFloat(yv, j, y.Logical.Scale))
		}
		return CompareFloat(xv.Double[i], yv.Double[j])
	case format.KindDecimal:
		return format.DecimalUnscaled(xv, i).Cmp(format.DecimalUnscaled(yv, j))
	case format.KindString:
		return strings.Compare(string(xv.Bytes[i]), string(yv.Bytes[j]))
	case format.KindInt96:
		return cmpInt(format.Int96Micros(xv.Int96[i]), format.Int96Micros(yv.Int96[j]))
	}
	switch xv.Type {
	case meta.Int32:
		return cmpInt(int64(xv.Int32[i]), int64(yv.Int32[j]))
	case meta.Int64:
		return cmpInt(xv.Int64[i], yv.Int64[j])
	case meta.Boolean:
		return cmpInt(int64(b2i(xv.Bool[i])), int64(b2i(yv.Bool[j])))
	case meta.Float:
		return CompareFloat(float64(xv.Float[i]), float64(yv.Float[j]))
	case meta.Double:
		return CompareFloat(xv.Double[i], yv.Double[j])
	case meta.Int96:
		return bytes.Compare(xv.Int96[i][:], yv.Int96[j][:])
	}
	return bytes.Compare(xv.Bytes[i], yv.Bytes[j])
}

// isListType reports whether a nested type is a LIST (its name ends in []).
func isListType(t Type) bool {
	return t.ID == TypeNested && strings.HasSuffix(t.Name, "[]")
}

// listLen is the number of elements of a LIST datum.
func listLen(d Datum) (int64, bool) {
	l, ok := d.N.(format.List)
	if !ok {
		return 0, false
	}
	return int64(len(l)), true
}

// stringList is a LIST of VARCHAR holding ss.
func stringList(ss []string) format.Value {
	vals := &format.Values{Type: meta.ByteArray, Bytes: make([][]byte, len(ss))}
	out := make(format.List, len(ss))
	for i, s := range ss {
		vals.Bytes[i] = []byte(s)
		out[i] = format.Scalar{Logical: format.Logical{Kind: format.KindString}, Values: vals, Index: i}
	}
	return out
}

// leafDatum reads one leaf of a nested value as a datum of its SQL type;
// false for a NULL, a nested element or a kind pqsql cannot compare.
func leafDatum(v format.Value) (Datum, Type, bool) {
	s, ok := v.(format.Scalar)
	if !ok {
		return Datum{}, Type{}, false
	}
	vals, i, lg := s.Values, s.Index, s.Logical
	switch lg.Kind {
	case format.KindBoolean:
		return Datum{B: vals.Bool[i]}, Type{ID: TypeBoolean}, true
	case format.KindInt8:
		return Datum{I: int64(vals.Int32[i])}, Type{ID: TypeTinyInt}, true
	case format.KindInt16:
		return Datum{I: int64(vals.Int32[i])}, Type{ID: TypeSmallInt}, true
	case format.KindInt32:
		return Datum{I: int64(vals.Int32[i])}, Type{ID: TypeInteger}, true
	case format.KindInt64:
		return Datum{I: vals.Int64[i]}, Type{ID: TypeBigInt}, true
	case format.KindUint8:
		return Datum{I: int64(uint32(vals.Int32[i]))}, Type{ID: TypeUTinyInt}, true
	case format.KindUint16:
		return Datum{I: int64(uint32(vals.Int32[i]))}, Type{ID: TypeUSmallInt}, true
	case format.KindUint32:
		return Datum{I: int64(uint32(vals.Int32[i]))}, Type{ID: TypeUInteger}, true
	case format.KindUint64:
		return Datum{I: vals.Int64[i]}, Type{ID: TypeUBigInt}, true
	case format.KindFloat:
		return Datum{F: float64(vals.Float[i])}, Type{ID: TypeFloat}, true
	case format.KindDouble:
		if lg.Precision > 0 {
			return Datum{F: format.DecimalFloat(vals, i, lg.Scale)}, Type{ID: TypeDouble}, true
		}
		return Datum{F: vals.Double[i]}, Type{ID: TypeDouble}, true
	case format.KindDecimal:
		return Datum{Big: format.DecimalUnscaled(vals, i)}, Type{ID: TypeDecimal, Precision: lg.Precision, Scale: lg.Scale}, true
	case format.KindString:
		return Datum{S: string(vals.Bytes[i])}, Type{ID: TypeVarchar}, true
	case format.KindDate:
		return Datum{I: int64(vals.Int32[i])}, Type{ID: TypeDate}, true
	case format.KindTimestamp, format.KindTimestampTZ:
		id := TypeTimestamp
		if lg.Kind == format.KindTimestampTZ {
			id = TypeTimestampTZ
		}
		v := vals.Int64[i]
		switch lg.Unit {
		case meta.Millis:
			v *= 1000
		case meta.Nanos:
			if id == TypeTimestamp {
				return Datum{I: v}, Type{ID: TypeTimestampNS}, true
			}
			v = MicrosOfNanosTZ(v)
		}
		return Datum{I: v}, Type{ID: id}, true
	}
	return Datum{}, Type{}, false
}

// leafOf is d of type t as one leaf of a nested value (nil for NULL), or
// false for a type pqsql cannot hold in a list yet.
func leafOf(d Datum, t Type) (format.Value, bool) {
	if d.Null {
		return nil, true
	}
	lg := format.Logical{}
	vals := &format.Values{}
	switch t.ID {
	case TypeBoolean:
		lg.Kind, vals.Type, vals.Bool = format.KindBoolean, meta.Boolean, []bool{d.B}
	case TypeTinyInt, TypeSmallInt, TypeInteger:
		lg.Kind = map[TypeID]format.Kind{TypeTinyInt: format.KindInt8, TypeSmallInt: format.KindInt16, TypeInteger: format.KindInt32}[t.ID]
		vals.Type, vals.Int32 = meta.Int32, []int32{int32(d.I)}
	case TypeUTinyInt, TypeUSmallInt, TypeUInteger:
		lg.Kind = map[TypeID]format.Kind{TypeUTinyInt: format.KindUint8, TypeUSmallInt: format.KindUint16, TypeUInteger: format.KindUint32}[t.ID]
		vals.Type, vals.Int32 = meta.Int32, []int32{int32(uint32(d.I))}
	case TypeBigInt, TypeUBigInt:
		lg.Kind = format.KindInt64
		if t.ID == TypeUBigInt {
			lg.Kind = format.KindUint64
		}
		vals.Type, vals.Int64 = meta.Int64, []int64{d.I}
	case TypeFloat:
		lg.Kind, vals.Type, vals.Float = format.KindFloat, meta.Float, []float32{float32(d.F)}
	case TypeDouble:
		lg.Kind, vals.Type, vals.Double = format.KindDouble, meta.Double, []float64{d.F}
	case TypeDecimal:
		v := bigOf(d, t)
		if !v.IsInt64() {
			return nil, false
		}
		lg = format.Logical{Kind: format.KindDecimal, Precision: t.Precision, Scale: t.Scale}
		vals.Type, vals.Int64 = meta.Int64, []int64{v.Int64()}
	case TypeVarchar:
		lg.Kind, vals.Type, vals.Bytes = format.KindString, meta.ByteArray, [][]byte{[]byte(d.S)}
	case TypeDate:
		lg.Kind, vals.Type, vals.Int32 = format.KindDate, meta.Int32, []int32{int32(d.I)}
	case TypeTimestamp, TypeTimestampNS, TypeTimestampTZ:
		lg = format.Logical{Kind: format.KindTimestamp, Unit: meta.Micros}
		switch t.ID {
		case TypeTimestampNS:
			lg.Unit = meta.Nanos
		case TypeTimestampTZ:
			lg.Kind = format.KindTimestampTZ
		}
		vals.Type, vals.Int64 = meta.Int64, []int64{d.I}
	case TypeNested:
		return d.N, true
	default:
		return nil, false
	}
	return format.Scalar{Logical: lg, Values: vals}, true
}
