package exec

import (
	"math"
	"math/big"
	"sync"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
)

// A Vector is one column of a batch. Only the slice that fits Type is used;
// Nulls is nil when no row is null.
type Vector struct {
	Type  Type
	Nulls []bool
	// Int holds integers (unsigned ones as their bit pattern), DATE days,
	// TIME and TIMESTAMP ticks (micros; nanos for TIMESTAMP_NS) and the
	// unscaled value of a DECIMAL of up to 18 digits.
	Int   []int64
	Float []float64
	Bool  []bool
	Str   []string
	// Bytes holds BLOB, UUID and INTERVAL values.
	Bytes [][]byte
	// Big holds the unscaled value of a DECIMAL wider than 18 digits.
	Big []*big.Int
	// Nested holds assembled STRUCT, LIST and MAP values.
	Nested []format.Value
	// Codes, while it has a code per row of Str, is each row's entry of the
	// chunk dictionary Dict (-1 for NULL), so that GROUP BY finds a row's
	// group by a small integer. An operation that does not keep them leaves
	// Codes shorter than Str, or nil (dictCodes).
	Dict  *dictVector
	Codes []int32
	// pool, for a vector the scan made, is where release gives it back.
	pool *sync.Pool
}

// dictCodes returns every row's dictionary code, or nil when v has no code
// for some row.
func (v *Vector) dictCodes() []int32 {
	if v.Dict == nil || v.Str == nil || len(v.Codes) != len(v.Str) {
		return nil
	}
	return v.Codes
}

// noteCodes records that the rows about to be appended to Str are the
// entries idx of d; rows of another dictionary or none lose the codes.
func (v *Vector) noteCodes(d *dictVector, idx []int32) {
	switch {
	case len(v.Str) == 0:
		if v.Codes == nil {
			v.Codes = pooled[int32](&codePool, BatchSize)
		}
		v.Dict, v.Codes = d, append(v.Codes[:0], idx...)
	case v.Dict == d && len(v.Codes) == len(v.Str):
		v.Codes = append(v.Codes, idx...)
	case v.Dict == nil && v.allNull():
		// A batch that starts with NULLs learns its dictionary late.
		if v.Codes == nil {
			v.Codes = pooled[int32](&codePool, BatchSize)
		}
		v.Codes = v.Codes[:0]
		for range v.Str {
			v.Codes = append(v.Codes, -1)
		}
		v.Dict, v.Codes = d, append(v.Codes, idx...)
	default:
		v.Dict = nil
	}
}

// allNull reports whether every row of v is NULL.
func (v *Vector) allNull() bool {
	if len(v.Nulls) != len(v.Str) {
		return false
	}
	for _, null := range v.Nulls {
		if !null {
			return false
		}
	}
	return true
}

// nullCodes gives k NULL rows about to be appended code -1.
func (v *Vector) nullCodes(k int) {
	if v.dictCodes() == nil {
		return
	}
	for range k {
		v.Codes = append(v.Codes, -1)
	}
}

// Len is the number of rows.
func (v *Vector) Len() int {
	switch {
	case v.Int != nil:
		return len(v.Int)
	case v.Float != nil:
		return len(v.Float)
	case v.Bool != nil:
		return len(v.Bool)
	case v.Str != nil:
		return len(v.Str)
	case v.Bytes != nil:
		return len(v.Bytes)
	case v.Big != nil:
		return len(v.Big)
	case v.Nested != nil:
		return len(v.Nested)
	}
	return len(v.Nulls)
}

// IsNull reports whether row i is NULL.
func (v *Vector) IsNull(i int) bool { return v.Nulls != nil && v.Nulls[i] }

// wideDecimal reports whether a DECIMAL type needs big integers.
func wideDecimal(t Type) bool { return t.ID == TypeDecimal && t.Precision > 18 }

// newVector allocates an empty vector of t with room for n rows.
func newVector(t Type, n int) *Vector {
	v := &Vector{Type: t}
	switch {
	case t.ID == TypeBoolean:
		v.Bool = make([]bool, 0, n)
	case t.ID == TypeFloat || t.ID == TypeDouble:
		v.Float = make([]float64, 0, n)
	case t.ID == TypeVarchar:
		v.Str = make([]string, 0, n)
	case wideDecimal(t):
		v.Big = make([]*big.Int, 0, n)
	case t.ID == TypeBlob || t.ID == TypeUUID || t.ID == TypeInterval:
		v.Bytes = make([][]byte, 0, n)
	case t.ID == TypeNested:
		v.Nested = make([]format.Value, 0, n)
	default:
		v.Int = make([]int64, 0, n)
	}
	return v
}

// appendNull appends a NULL row.
func (v *Vector) appendNull() {
	v.nullCodes(1)
	n := v.Len()
	if v.Nulls == nil {
		v.Nulls = nullFlags(n, cap(v.Int)+cap(v.Float)+cap(v.Str)+cap(v.Bool)+cap(v.Bytes)+cap(v.Big)+cap(v.Nested)+1)
	}
	v.Nulls = append(v.Nulls, true)
	switch {
	case v.Bool != nil || v.Type.ID == TypeBoolean:
		v.Bool = append(v.Bool, false)
	case v.Float != nil || v.Type.ID == TypeFloat || v.Type.ID == TypeDouble:
		v.Float = append(v.Float, 0)
	case v.Str != nil || v.Type.ID == TypeVarchar:
		v.Str = append(v.Str, "")
	case v.Big != nil || wideDecimal(v.Type) && v.Int == nil:
		v.Big = append(v.Big, nil)
	case v.Bytes != nil || v.Type.ID == TypeBlob || v.Type.ID == TypeUUID || v.Type.ID == TypeInterval:
		v.Bytes = append(v.Bytes, nil)
	case v.Nested != nil || v.Type.ID == TypeNested:
		v.Nested = append(v.Nested, nil)
	default:
		v.Int = append(v.Int, 0)
	}
}

// appendNulls appends k NULL rows, as k calls of appendNull would.
func (v *Vector) appendNulls(k int) {
	if k <= 0 {
		return
	}
	// appendNull, finding the codes one ahead, adds none.
	v.nullCodes(k)
	v.appendNull() // makes Nulls and picks the value slice
	k--
	if k == 0 {
		return
	}
	var nulls []bool
	v.Nulls, nulls = extend(v.Nulls, k)
	for i := range nulls {
		nulls[i] = true
	}
	// The same choice as appendNull's; a grown slice may hold old values.
	switch {
	case v.Bool != nil || v.Type.ID == TypeBoolean:
		v.Bool = extendZero(v.Bool, k)
	case v.Float != nil || v.Type.ID == TypeFloat || v.Type.ID == TypeDouble:
		v.Float = extendZero(v.Float, k)
	case v.Str != nil || v.Type.ID == TypeVarchar:
		v.Str = extendZero(v.Str, k)
	case v.Big != nil || wideDecimal(v.Type) && v.Int == nil:
		v.Big = extendZero(v.Big, k)
	case v.Bytes != nil || v.Type.ID == TypeBlob || v.Type.ID == TypeUUID || v.Type.ID == TypeInterval:
		v.Bytes = extendZero(v.Bytes, k)
	case v.Nested != nil || v.Type.ID == TypeNested:
		v.Nested = extendZero(v.Nested, k)
	default:
		v.Int = extendZero(v.Int, k)
	}
}

// extendZero lengthens s by n zero values.
func extendZero[T any](s []T, n int) []T {
	s, tail := extend(s, n)
	clear(tail)
	return s
}

// markNotNull extends Nulls after a non-null append when it exists.
func (v *Vector) markNotNull() {
	if v.Nulls != nil {
		v.Nulls = append(v.Nulls, false)
	}
}

// appendLeaf appends value i of a decoded leaf, converted to the vector's type.
func (v *Vector) appendLeaf(lg format.Logical, vals *format.Values, i int) {
	switch lg.Kind {
	case format.KindBoolean:
		v.Bool = append(v.Bool, vals.Bool[i])
	case format.KindInt8, format.KindInt16, format.KindInt32, format.KindNull:
		v.Int = append(v.Int, int64(vals.Int32[i]))
	case format.KindUint8, format.KindUint16, format.KindUint32:
		v.Int = append(v.Int, int64(uint32(vals.Int32[i])))
	case format.KindInt64, format.KindUint64:
		v.Int = append(v.Int, vals.Int64[i])
	case format.KindFloat:
		v.Float = append(v.Float, float64(vals.Float[i]))
	case format.KindFloat16:
		v.Float = append(v.Float, float64(format.Float16(vals.Bytes[i])))
	case format.KindDouble:
		if lg.Precision > 0 {
			v.Float = append(v.Float, format.DecimalFloat(vals, i, lg.Scale))
		} else {
			v.Float = append(v.Float, vals.Double[i])
		}
	case format.KindDecimal:
		switch {
		case wideDecimal(v.Type):
			v.Big = append(v.Big, format.DecimalUnscaled(vals, i))
		case vals.Type == meta.Int32:
			v.Int = append(v.Int, int64(vals.Int32[i]))
		case vals.Type == meta.Int64:
			v.Int = append(v.Int, vals.Int64[i])
		default:
			v.Int = append(v.Int, format.DecimalUnscaled(vals, i).Int64())
		}
	case format.KindString:
		v.Str = append(v.Str, string(vals.Bytes[i]))
	case format.KindDate:
		v.Int = append(v.Int, int64(vals.Int32[i]))
	case format.KindTime, format.KindTimeTZ:
		t := int64(0)
		if vals.Type == meta.Int32 {
			t = int64(vals.Int32[i])
		} else {
			t = vals.Int64[i]
		}
		if v.Type.ID == TypeTimeNS {
			v.Int = append(v.Int, t)
		} else {
			v.Int = append(v.Int, toMicros(t, lg.Unit))
		}
	case format.KindTimestamp, format.KindTimestampTZ:
		if v.Type.ID == TypeTimestampNS {
			v.Int = append(v.Int, vals.Int64[i])
		} else {
			v.Int = append(v.Int, toMicros(vals.Int64[i], lg.Unit))
		}
	case format.KindInt96:
		v.Int = append(v.Int, format.Int96Micros(vals.Int96[i]))
	default:
		if vals.Type == meta.Int96 {
			v.Bytes = append(v.Bytes, vals.Int96[i][:])
		} else {
			v.Bytes = append(v.Bytes, vals.Bytes[i])
		}
	}
	v.markNotNull()
}

// toMicros converts ticks of unit u to microseconds; nanoseconds as DuckDB
// reads them (see planner.MicrosOfNanosTZ, which pushdown mirrors).
func toMicros(t int64, u meta.TimeUnit) int64 {
	switch u {
	case meta.Millis:
		if t > math.MaxInt64/1000 || t < math.MinInt64/1000 {
			return t
		}
		return t * 1000
	case meta.Nanos:
		return planner.MicrosOfNanosTZ(t)
	}
	return t
}

// repeat returns a vector of n copies of v's row 0: a constant column of a
// batch (a pruned column is a typed NULL), made without gathering through
// a selection of n zeros.
func (v *Vector) repeat(n int) *Vector {
	out := &Vector{Type: v.Type}
	if v.Nulls != nil && v.Nulls[0] && n > 0 {
		out.Nulls = fill(true, n, false)
	}
	switch {
	case v.Int != nil:
		out.Int = fill(v.Int[0], n, v.Int[0] == 0)
	case v.Float != nil:
		out.Float = fill(v.Float[0], n, false)
	case v.Bool != nil:
		out.Bool = fill(v.Bool[0], n, !v.Bool[0])
	case v.Str != nil:
		out.Str = fill(v.Str[0], n, v.Str[0] == "")
	case v.Bytes != nil:
		out.Bytes = fill(v.Bytes[0], n, v.Bytes[0] == nil)
	case v.Big != nil:
		out.Big = fill(v.Big[0], n, v.Big[0] == nil)
	case v.Nested != nil:
		out.Nested = fill(v.Nested[0], n, v.Nested[0] == nil)
	}
	return out
}

// clip returns the first n rows of v, sharing its storage, with each
// slice's capacity ending at n.
func (v *Vector) clip(n int) *Vector {
	out := *v
	if out.Nulls != nil {
		out.Nulls = out.Nulls[:n:n]
	}
	switch {
	case v.Int != nil:
		out.Int = v.Int[:n:n]
	case v.Float != nil:
		out.Float = v.Float[:n:n]
	case v.Bool != nil:
		out.Bool = v.Bool[:n:n]
	case v.Str != nil:
		out.Str = v.Str[:n:n]
	case v.Bytes != nil:
		out.Bytes = v.Bytes[:n:n]
	case v.Big != nil:
		out.Big = v.Big[:n:n]
	case v.Nested != nil:
		out.Nested = v.Nested[:n:n]
	}
	return &out
}

// fill makes n copies of x; zero says x is T's zero value, which make
// already wrote (storing it again would cost a write barrier per pointer).
func fill[T any](x T, n int, zero bool) []T {
	s := make([]T, n)
	if !zero {
		for i := range s {
			s[i] = x
		}
	}
	return s
}
