package pushdown

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/pqsql/pqsql/format/meta"
)

// LiteralKind is the SQL type of a literal as the planner typed it.
type LiteralKind int8

// The kinds of literal.
const (
	// LitNull is the NULL literal.
	LitNull LiteralKind = iota
	// LitBool is TRUE or FALSE.
	LitBool
	// LitInt is an integer of any size (INTEGER, BIGINT, HUGEINT).
	LitInt
	// LitFloat is a DOUBLE: 5e9, 'NaN'::DOUBLE, infinities.
	LitFloat
	// LitDecimal is an exact decimal such as 1.5 (DuckDB types 1.5 as DECIMAL).
	LitDecimal
	// LitString is a VARCHAR, compared as its UTF-8 bytes.
	LitString
	// LitBytes is a BLOB.
	LitBytes
	// LitDate is a DATE, in days since 1970-01-01.
	LitDate
	// LitTimestamp is a TIMESTAMP in Unit since 1970-01-01 00:00:00 UTC.
	LitTimestamp
)

// A Literal is a typed constant of a predicate. Build one with the
// constructors (IntLiteral, DecimalLiteral, ...); the zero Literal is NULL.
type Literal struct {
	Kind LiteralKind
	Bool bool
	// Int is a LitInt's value or a LitDecimal's unscaled value.
	Int *big.Int
	// Scale is a LitDecimal's scale: Int / 10^Scale.
	Scale int32
	Float float64
	// Str is a LitString's text.
	Str string
	// Bytes is a LitBytes's value.
	Bytes []byte
	// Time is a LitDate's days or a LitTimestamp's count of Unit.
	Time int64
	// Unit is a LitTimestamp's unit (meta.Millis, meta.Micros or meta.Nanos).
	Unit meta.TimeUnit
}

// NullLiteral is NULL.
func NullLiteral() Literal { return Literal{Kind: LitNull} }

// BoolLiteral is TRUE or FALSE.
func BoolLiteral(v bool) Literal { return Literal{Kind: LitBool, Bool: v} }

// IntLiteral is an integer.
func IntLiteral(v int64) Literal { return Literal{Kind: LitInt, Int: big.NewInt(v)} }

// BigIntLiteral is an integer of any size; v is copied.
func BigIntLiteral(v *big.Int) Literal { return Literal{Kind: LitInt, Int: new(big.Int).Set(v)} }

// FloatLiteral is a DOUBLE, NaN and infinities included.
func FloatLiteral(v float64) Literal { return Literal{Kind: LitFloat, Float: v} }

// DecimalLiteral is unscaled / 10^scale; unscaled is copied.
func DecimalLiteral(unscaled *big.Int, scale int32) Literal {
	return Literal{Kind: LitDecimal, Int: new(big.Int).Set(unscaled), Scale: scale}
}

// ParseDecimal reads a decimal literal such as "-12.30" exactly, keeping
// its scale (2 here).
func ParseDecimal(s string) (Literal, error) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimLeft(t, "+-")
	whole, frac, _ := strings.Cut(t, ".")
	digits := whole + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" || len(frac) > math.MaxInt16 {
		return Literal{}, fmt.Errorf("%w: %q is not a decimal number", ErrBadPredicate, s)
	}
	u, _ := new(big.Int).SetString(digits, 10)
	if neg {
		u.Neg(u)
	}
	return Literal{Kind: LitDecimal, Int: u, Scale: int32(len(frac))}, nil
}

// StringLiteral is a VARCHAR.
func StringLiteral(v string) Literal { return Literal{Kind: LitString, Str: v} }

// BytesLiteral is a BLOB; v is copied.
func BytesLiteral(v []byte) Literal {
	return Literal{Kind: LitBytes, Bytes: append([]byte{}, v...)}
}

// DateLiteral is a DATE, days since 1970-01-01.
func DateLiteral(days int64) Literal { return Literal{Kind: LitDate, Time: days} }

// TimestampLiteral is a TIMESTAMP of v units since the epoch (UTC).
func TimestampLiteral(v int64, unit meta.TimeUnit) Literal {
	return Literal{Kind: LitTimestamp, Time: v, Unit: unit}
}

// IsNull reports whether the literal is NULL.
func (l Literal) IsNull() bool { return l.Kind == LitNull }

// unitsPerSecond is how many of u make a second; 0 for an unknown unit.
func unitsPerSecond(u meta.TimeUnit) int64 {
	switch u {
	case meta.Millis:
		return 1e3
	case meta.Micros:
		return 1e6
	case meta.Nanos:
		return 1e9
	}
	return 0
}

// rat is an Int or Decimal literal's exact value.
func (l Literal) rat() (*big.Rat, bool) {
	if l.Int == nil {
		return nil, false
	}
	switch l.Kind {
	case LitInt:
		return new(big.Rat).SetInt(l.Int), true
	case LitDecimal:
		return new(big.Rat).SetFrac(l.Int, pow10(l.Scale)), true
	}
	return nil, false
}

// seconds is a Date or Timestamp literal's exact instant in seconds.
func (l Literal) seconds() (*big.Rat, bool) {
	switch l.Kind {
	case LitDate:
		return new(big.Rat).SetInt64(l.Time * 86400), l.Time > -1e14 && l.Time < 1e14
	case LitTimestamp:
		per := unitsPerSecond(l.Unit)
		if per == 0 {
			return nil, false
		}
		return big.NewRat(l.Time, per), true
	}
	return nil, false
}

// pow10 is 10^n for n >= 0 (1 for negative n).
func pow10(n int32) *big.Int {
	if n <= 0 {
		return big.NewInt(1)
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// String renders the literal as SQL.
func (l Literal) String() string {
	switch l.Kind {
	case LitNull:
		return "NULL"
	case LitBool:
		if l.Bool {
			return "TRUE"
		}
		return "FALSE"
	case LitInt:
		if l.Int == nil {
			return "0"
		}
		return l.Int.String()
	case LitFloat:
		switch {
		case math.IsNaN(l.Float):
			return "'NaN'::DOUBLE"
		case math.IsInf(l.Float, 1):
			return "'Infinity'::DOUBLE"
		case math.IsInf(l.Float, -1):
			return "'-Infinity'::DOUBLE"
		}
		s := strconv.FormatFloat(l.Float, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s + "::DOUBLE"
	case LitDecimal:
		if l.Int == nil {
			return "0"
		}
		return formatDecimal(l.Int, l.Scale)
	case LitString:
		return "'" + strings.ReplaceAll(l.Str, "'", "''") + "'"
	case LitBytes:
		return "'\\x" + hex.EncodeToString(l.Bytes) + "'::BLOB"
	case LitDate:
		return "DATE '" + time.Unix(l.Time*86400, 0).UTC().Format("2006-01-02") + "'"
	case LitTimestamp:
		per := unitsPerSecond(l.Unit)
		if per == 0 {
			return fmt.Sprintf("TIMESTAMP(%d units)", l.Time)
		}
		sec, frac := l.Time/per, l.Time%per
		if frac < 0 {
			sec, frac = sec-1, frac+per
		}
		t := time.Unix(sec, frac*(1e9/per)).UTC()
		name := "TIMESTAMP"
		if l.Unit == meta.Nanos {
			name = "TIMESTAMP_NS"
		}
		return name + " '" + t.Format("2006-01-02 15:04:05.999999999") + "'"
	}
	return "?"
}

// formatDecimal renders unscaled / 10^scale with exactly scale decimals.
func formatDecimal(unscaled *big.Int, scale int32) string {
	s := new(big.Int).Abs(unscaled).String()
	if scale > 0 && scale < 1000 {
		for len(s) <= int(scale) {
			s = "0" + s
		}
		s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	}
	if unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}
