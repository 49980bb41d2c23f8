package planner

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
)

// A Datum is one SQL value. Which field holds it depends on its Type, known
// from the expression that made it: I for integers up to 64 bits (unsigned
// ones as their bit pattern), BOOLEAN in B, DATE days, TIME and TIMESTAMP
// microseconds (nanoseconds for TIMESTAMP_NS); F for FLOAT and DOUBLE; S for
// VARCHAR; Big for HUGEINT and every DECIMAL's unscaled value; Bytes for
// BLOB, UUID and INTERVAL; N for nested values.
type Datum struct {
	Null  bool
	B     bool
	I     int64
	F     float64
	S     string
	Big   *big.Int
	Bytes []byte
	N     format.Value
}

// NullDatum is SQL NULL.
var NullDatum = Datum{Null: true}

// IntDatum is an integer (or DATE, TIME, TIMESTAMP) value.
func IntDatum(v int64) Datum { return Datum{I: v} }

// BoolDatum is TRUE or FALSE.
func BoolDatum(v bool) Datum { return Datum{B: v} }

// intRange is the range of an integer type of at most 64 bits.
func intRange(t TypeID) (lo, hi int64, ok bool) {
	switch t {
	case TypeTinyInt:
		return math.MinInt8, math.MaxInt8, true
	case TypeSmallInt:
		return math.MinInt16, math.MaxInt16, true
	case TypeInteger:
		return math.MinInt32, math.MaxInt32, true
	case TypeBigInt:
		return math.MinInt64, math.MaxInt64, true
	case TypeUTinyInt:
		return 0, math.MaxUint8, true
	case TypeUSmallInt:
		return 0, math.MaxUint16, true
	case TypeUInteger:
		return 0, math.MaxUint32, true
	}
	return 0, 0, false
}

// bigOf is an integer or decimal datum's value as a big.Int (unscaled for
// DECIMAL).
func bigOf(d Datum, t Type) *big.Int {
	switch {
	case t.ID == TypeHugeInt || t.ID == TypeDecimal:
		if d.Big == nil {
			return new(big.Int)
		}
		return d.Big
	case t.ID == TypeUBigInt:
		return new(big.Int).SetUint64(uint64(d.I))
	}
	return big.NewInt(d.I)
}

// fromBig stores v in a datum of integer type t, failing when it does not fit.
func fromBig(v *big.Int, t Type) (Datum, error) {
	switch t.ID {
	case TypeHugeInt:
		if v.BitLen() > 127 {
			return Datum{}, fmt.Errorf("%w: value %s is out of range for HUGEINT", ErrOutOfRange, v)
		}
		return Datum{Big: v}, nil
	case TypeDecimal:
		if len(new(big.Int).Abs(v).String()) > max(t.Precision, 1) && v.Sign() != 0 {
			return Datum{}, fmt.Errorf("%w: value %s does not fit DECIMAL(%d,%d)", ErrOutOfRange,
				format.AppendDecimal(nil, v, t.Scale), t.Precision, t.Scale)
		}
		return Datum{Big: v}, nil
	case TypeUBigInt:
		if v.Sign() < 0 || v.BitLen() > 64 {
			return Datum{}, fmt.Errorf("%w: value %s is out of range for UBIGINT", ErrOutOfRange, v)
		}
		return Datum{I: int64(v.Uint64())}, nil
	}
	lo, hi, ok := intRange(t.ID)
	if !ok && v.IsInt64() {
		// DATE, TIME and TIMESTAMP arithmetic on their tick counts.
		return Datum{I: v.Int64()}, nil
	}
	if !v.IsInt64() || v.Int64() < lo || v.Int64() > hi {
		return Datum{}, fmt.Errorf("%w: value %s is out of range for %s", ErrOutOfRange, v, t)
	}
	return Datum{I: v.Int64()}, nil
}

// floatOf is a numeric datum's value as a float64.
func floatOf(d Datum, t Type) float64 {
	switch {
	case t.ID == TypeFloat || t.ID == TypeDouble:
		return d.F
	case t.ID == TypeDecimal:
		f, _ := new(big.Rat).SetFrac(bigOf(d, t), pow10(t.Scale)).Float64()
		return f
	case t.ID == TypeHugeInt:
		f, _ := new(big.Float).SetInt(bigOf(d, t)).Float64()
		return f
	case t.ID == TypeUBigInt:
		return float64(uint64(d.I))
	case t.ID == TypeBoolean:
		if d.B {
			return 1
		}
		return 0
	}
	return float64(d.I)
}

func pow10(n int) *big.Int {
	if n <= 0 {
		return big.NewInt(1)
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// CompareFloat orders floats as DuckDB does: NaN equals NaN and is greater
// than every number; -0 equals +0.
func CompareFloat(a, b float64) int { return stats.CompareFloat(a, b) }

// Compare orders two non-NULL datums of type t.
func Compare(a, b Datum, t Type) int {
	switch t.ID {
	case TypeBoolean:
		switch {
		case a.B == b.B:
			return 0
		case b.B:
			return -1
		}
		return 1
	case TypeFloat, TypeDouble:
		return CompareFloat(a.F, b.F)
	case TypeHugeInt, TypeDecimal:
		return bigOf(a, t).Cmp(bigOf(b, t))
	case TypeUBigInt:
		x, y := uint64(a.I), uint64(b.I)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case TypeVarchar:
		return strings.Compare(a.S, b.S)
	case TypeBlob, TypeUUID, TypeInterval:
		return bytes.Compare(a.Bytes, b.Bytes)
	case TypeNested:
		return bytes.Compare(format.AppendValueText(nil, a.N), format.AppendValueText(nil, b.N))
	case TypeNull:
		return 0
	}
	switch {
	case a.I < b.I:
		return -1
	case a.I > b.I:
		return 1
	}
	return 0
}

// AppendKey appends an encoding of d that is equal for equal values (as
// GROUP BY and DISTINCT see them: NaNs alike, -0 as +0).
func AppendKey(dst []byte, d Datum, t Type) []byte {
	if d.Null {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	switch t.ID {
	case TypeBoolean:
		if d.B {
			return append(dst, 1)
		}
		return append(dst, 0)
	case TypeFloat, TypeDouble:
		f := d.F
		switch {
		case math.IsNaN(f):
			f = math.NaN()
		case f == 0:
			f = 0
		}
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	case TypeHugeInt, TypeDecimal:
		s := bigOf(d, t).String()
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		return append(dst, s...)
	case TypeVarchar:
		dst = binary.AppendUvarint(dst, uint64(len(d.S)))
		return append(dst, d.S...)
	case TypeBlob, TypeUUID, TypeInterval:
		dst = binary.AppendUvarint(dst, uint64(len(d.Bytes)))
		return append(dst, d.Bytes...)
	case TypeNested:
		s := format.AppendValueText(nil, d.N)
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		return append(dst, s...)
	}
	return binary.LittleEndian.AppendUint64(dst, uint64(d.I))
}

// AppendText appends d as DuckDB's CAST(d AS VARCHAR) prints it; NULL
// appends nothing.
func AppendText(dst []byte, d Datum, t Type) []byte {
	if d.Null {
		return dst
	}
	switch t.ID {
	case TypeBoolean:
		return strconv.AppendBool(dst, d.B)
	case TypeUBigInt:
		return strconv.AppendUint(dst, uint64(d.I), 10)
	case TypeHugeInt:
		return append(dst, bigOf(d, t).String()...)
	case TypeFloat:
		return format.AppendFloat(dst, d.F, 32)
	case TypeDouble:
		return format.AppendFloat(dst, d.F, 64)
	case TypeDecimal:
		return format.AppendDecimal(dst, bigOf(d, t), t.Scale)
	case TypeVarchar:
		return append(dst, d.S...)
	case TypeBlob:
		return AppendBlobText(dst, t, d.Bytes)
	case TypeUUID:
		return format.AppendUUID(dst, d.Bytes)
	case TypeInterval:
		return format.AppendInterval(dst, d.Bytes)
	case TypeDate:
		return format.AppendDate(dst, d.I)
	case TypeTime:
		return format.AppendTime(dst, d.I, meta.Micros)
	case TypeTimeNS:
		return format.AppendTime(dst, d.I, meta.Nanos)
	case TypeTimeTZ:
		return append(format.AppendTime(dst, d.I, meta.Micros), "+00"...)
	case TypeTimestamp:
		return format.AppendTimestamp(dst, d.I, meta.Micros)
	case TypeTimestampNS:
		return format.AppendTimestamp(dst, d.I, meta.Nanos)
	case TypeTimestampTZ:
		return append(format.AppendTimestamp(dst, d.I, meta.Micros), "+00"...)
	case TypeNested:
		return format.AppendValueText(dst, d.N)
	case TypeNull:
		return dst
	}
	return strconv.AppendInt(dst, d.I, 10)
}

const microsPerDay = 86400 * 1000000

// parseDate reads YYYY-MM-DD as days since 1970-01-01.
func parseDate(s string) (int64, bool) {
	t, err := time.Parse("2006-01-02", strings.TrimSpace(s))
	if err != nil {
		return 0, false
	}
	return format.DaysFromCivil(int64(t.Year()), int64(t.Month()), int64(t.Day())), true
}

// parseTimestamp reads YYYY-MM-DD[ HH:MM:SS[.ffffff]] as microseconds.
func parseTimestamp(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02"} {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		days := format.DaysFromCivil(int64(t.Year()), int64(t.Month()), int64(t.Day()))
		clock := int64(t.Hour())*3600e6 + int64(t.Minute())*60e6 + int64(t.Second())*1e6 + int64(t.Nanosecond()/1000)
		return days*microsPerDay + clock, true
	}
	return 0, false
}

// civil splits days since the epoch into year, month and day.
func civil(days int64) (y, m, d int64) {
	t := time.Unix(days*86400, 0).UTC()
	return int64(t.Year()), int64(t.Month()), int64(t.Day())
}

// floorDiv is a / b rounded toward minus infinity.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// timeUnix is the Unix time in seconds of midnight UTC on y-m-d.
func timeUnix(y, m, d int64) int64 {
	return time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC).Unix()
}

// AppendBlobText appends a binary value of type t: WKT for a GEOMETRY whose
// WKB parses, DuckDB's escaped BLOB text otherwise.
func AppendBlobText(dst []byte, t Type, b []byte) []byte {
	if t.Name == "GEOMETRY" {
		if out, err := format.AppendWKT(dst, b); err == nil {
			return out
		}
	}
	return format.AppendBlob(dst, b)
}
