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

// FitsHugeInt reports whether v is within HUGEINT's range, [-2^127, 2^127-1].
func FitsHugeInt(v *big.Int) bool {
	return v.BitLen() <= 127 || v.Sign() < 0 && v.BitLen() == 128 && v.TrailingZeroBits() == 127
}

// fromBig stores v in a datum of integer type t, failing when it does not fit.
func fromBig(v *big.Int, t Type) (Datum, error) {
	switch t.ID {
	case TypeHugeInt:
		if !FitsHugeInt(v) {
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
	case TypeDate:
		// DuckDB's dates are int32 days with ±(2^31-1) kept for ±infinity.
		if !v.IsInt64() || v.Int64() <= math.MinInt32+1 || v.Int64() >= math.MaxInt32 {
			return Datum{}, fmt.Errorf("%w: Date out of range", ErrOutOfRange)
		}
		return Datum{I: v.Int64()}, nil
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
		return decimalDouble(bigOf(d, t), t)
	case t.ID == TypeHugeInt:
		return hugeDouble(bigOf(d, t))
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
	case TypeInterval:
		return compareIntervals(IntervalOf(a.Bytes), IntervalOf(b.Bytes))
	case TypeBlob, TypeUUID:
		return bytes.Compare(a.Bytes, b.Bytes)
	case TypeNested:
		return compareNested(a.N, b.N)
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
	case TypeInterval:
		return appendIntervalKey(dst, IntervalOf(d.Bytes))
	case TypeBlob, TypeUUID:
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
		return AppendInterval(dst, IntervalOf(d.Bytes))
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
		dst = format.AppendTimestamp(dst, d.I, meta.Micros)
		if d.I == math.MaxInt64 || d.I == -math.MaxInt64 {
			return dst // infinity has no offset
		}
		return append(dst, "+00"...)
	case TypeNested:
		return format.AppendValueText(dst, d.N)
	case TypeNull:
		return dst
	}
	return strconv.AppendInt(dst, d.I, 10)
}

const microsPerDay = 86400 * 1000000

// parseDate reads YYYY-MM-DD (any number of year digits, " (BC)" for
// years before 1, as DuckDB writes them) as days since 1970-01-01.
func parseDate(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	bc := strings.HasSuffix(s, " (BC)")
	days, rest, ok := parseCivil(strings.TrimSuffix(s, " (BC)"))
	if !ok || rest != "" {
		return 0, false
	}
	if bc {
		// parseCivil read the year as AD; year y BC is astronomical 1-y.
		y, m, d := format.Civil(days)
		days = format.DaysFromCivil(1-y, m, d)
	}
	return days, true
}

// parseTimestamp reads YYYY-MM-DD[ HH:MM[:SS[.fffffffff]]] as microseconds
// since the epoch; digits past microseconds are dropped.
func parseTimestamp(s string) (int64, bool) {
	days, nanos, ok := parseDateTime(s)
	if !ok || days > math.MaxInt64/microsPerDay || days < math.MinInt64/microsPerDay {
		return 0, false
	}
	return days*microsPerDay + nanos/1000, true
}

// parseTimestampNS reads a timestamp as nanoseconds since the epoch.
func parseTimestampNS(s string) (int64, bool) {
	days, nanos, ok := parseDateTime(s)
	const nanosPerDay = int64(86400 * 1e9)
	if !ok || days > (math.MaxInt64-nanos)/nanosPerDay || days < math.MinInt64/nanosPerDay+1 {
		return 0, false
	}
	return days*nanosPerDay + nanos, true
}

// parseDateTime reads a date and an optional time of day, separated by a
// space or T, as days since the epoch and nanoseconds of the day.
func parseDateTime(s string) (days, nanos int64, ok bool) {
	s = strings.TrimSpace(s)
	bc := strings.HasSuffix(s, " (BC)")
	if bc {
		s = strings.TrimSuffix(s, " (BC)")
	}
	days, rest, ok := parseCivil(s)
	if !ok {
		return 0, 0, false
	}
	if rest != "" {
		if rest[0] != ' ' && rest[0] != 'T' {
			return 0, 0, false
		}
		if nanos, ok = parseClock(strings.TrimSpace(rest[1:])); !ok {
			return 0, 0, false
		}
	}
	if bc {
		// parseCivil read the year as AD; year y BC is astronomical 1-y.
		y, m, d := format.Civil(days)
		days = format.DaysFromCivil(1-y, m, d)
	}
	return days, nanos, true
}

// parseCivil reads Y-M-D at the start of s and returns the days since the
// epoch and what follows.
func parseCivil(s string) (days int64, rest string, ok bool) {
	num := func(s string, maxDigits int) (int64, string, bool) {
		i := 0
		for i < len(s) && i < maxDigits && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, s, false
		}
		v, err := strconv.ParseInt(s[:i], 10, 64)
		return v, s[i:], err == nil
	}
	y, s, ok1 := num(s, 9)
	if !ok1 || len(s) == 0 || s[0] != '-' {
		return 0, "", false
	}
	m, s, ok2 := num(s[1:], 2)
	if !ok2 || len(s) == 0 || s[0] != '-' {
		return 0, "", false
	}
	d, s, ok3 := num(s[1:], 2)
	if !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, "", false
	}
	return format.DaysFromCivil(y, m, d), s, true
}

// parseClock reads HH:MM[:SS[.fffffffff]] as nanoseconds of the day.
func parseClock(s string) (int64, bool) {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) < 2 {
		return 0, false
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || h < 0 || h > 24 || m < 0 || m > 59 || len(parts[1]) != 2 {
		return 0, false
	}
	var sec, frac int64
	if len(parts) == 3 {
		whole, fraction, hasFrac := strings.Cut(parts[2], ".")
		v, err := strconv.Atoi(whole)
		if err != nil || len(whole) != 2 || v < 0 || v > 59 {
			return 0, false
		}
		sec = int64(v)
		if hasFrac {
			if fraction == "" || len(fraction) > 9 {
				return 0, false
			}
			for i := 0; i < 9; i++ {
				frac *= 10
				if i < len(fraction) {
					c := fraction[i]
					if c < '0' || c > '9' {
						return 0, false
					}
					frac += int64(c - '0')
				}
			}
		}
	}
	n := (int64(h)*3600+int64(m)*60+sec)*1e9 + frac
	if n > 86400*1e9 {
		return 0, false
	}
	return n, true
}

// civil splits days since the epoch into year, month and day.
func civil(days int64) (y, m, d int64) { return format.Civil(days) }

// MicrosOfNanosTZ is a TIMESTAMP WITH TIME ZONE stored in nanoseconds read
// as DuckDB reads it: microseconds truncated toward zero, the largest and
// smallest finite values of int64 (DuckDB's infinity and -infinity)
// staying infinite.
func MicrosOfNanosTZ(ns int64) int64 {
	if ns == math.MaxInt64 || ns == -math.MaxInt64 {
		return ns
	}
	return ns / 1000
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
