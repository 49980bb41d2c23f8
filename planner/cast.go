package planner

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// castError is DuckDB's message for a failed cast.
func castError(d Datum, from, to Type) error {
	return fmt.Errorf("%w: Could not convert %s '%s' to %s", ErrConversion, from, AppendText(nil, d, from), to)
}

// stringCastError is DuckDB's message for text that does not convert to
// a number or a boolean.
func stringCastError(s string, to Type) error {
	if to.ID == TypeDecimal {
		return fmt.Errorf("%w: Could not convert string \"%s\" to %s", ErrConversion, s, to)
	}
	return fmt.Errorf("%w: Could not convert string '%s' to %s", ErrConversion, s, physicalName(to))
}

// CastDatum converts d from type from to type to, as CAST does. A value
// outside the target type is a Conversion Error, as in DuckDB (arithmetic
// overflow is an Out of Range Error instead), with DuckDB's message for
// the pair of types.
func CastDatum(d Datum, from, to Type) (Datum, error) {
	res, err := castDatum(d, from, to)
	if errors.Is(err, ErrOutOfRange) {
		return Datum{}, outOfRangeCast(d, from, to)
	}
	return res, err
}

func outOfRangeCast(d Datum, from, to Type) error {
	text := string(AppendText(nil, d, from))
	switch {
	case to.ID == TypeDecimal && from.ID == TypeDecimal:
		return fmt.Errorf("%w: Casting value \"%s\" to type %s failed: value is out of range!", ErrConversion, text, to)
	case to.ID == TypeDecimal && (from.ID == TypeFloat || from.ID == TypeDouble):
		return fmt.Errorf("%w: Could not cast value %f to %s", ErrConversion, d.F, to)
	case to.ID == TypeDecimal:
		return fmt.Errorf("%w: Could not cast value %s to %s", ErrConversion, text, to)
	case from.ID == TypeDecimal && to.IsInteger():
		return fmt.Errorf("%w: Failed to cast decimal value %s to type %s", ErrConversion, roundBig(bigOf(d, from), from.Scale), physicalName(to))
	}
	return fmt.Errorf("%w: Type %s with value %s can't be cast because the value is out of range for the destination type %s",
		ErrConversion, physicalName(from), text, physicalName(to))
}

func castDatum(d Datum, from, to Type) (Datum, error) {
	if d.Null || from == to || from.ID == TypeNull {
		if d.Null || from.ID == TypeNull {
			return NullDatum, nil
		}
		return d, nil
	}
	if from.ID == TypeNested && to.ID == TypeNested && !isVariant(from) && !isVariant(to) {
		v, err := convertNested(d.N, from, to)
		return Datum{N: v}, err
	}
	if to.ID == TypeVarchar {
		return Datum{S: string(AppendText(nil, d, from))}, nil
	}
	if from.ID == TypeVarchar {
		return castString(d.S, from, to)
	}
	switch {
	case to.ID == TypeBoolean && from.IsNumeric():
		return Datum{B: floatOf(d, from) != 0}, nil
	case from.ID == TypeBoolean && to.IsNumeric():
		v := int64(0)
		if d.B {
			v = 1
		}
		return CastDatum(Datum{I: v}, Type{ID: TypeInteger}, to)
	case to.ID == TypeFloat && (from.IsNumeric() || from.ID == TypeBoolean):
		if r, ok := float32Of(d, from); ok {
			return Datum{F: float64(r)}, nil
		}
		f := floatOf(d, from)
		if r := float32(f); math.IsInf(float64(r), 0) && !math.IsInf(f, 0) {
			// A finite value past FLOAT's range does not become infinity.
			return Datum{}, ErrOutOfRange
		}
		return Datum{F: float64(float32(f))}, nil
	case to.ID == TypeDouble && from.IsNumeric():
		return Datum{F: floatOf(d, from)}, nil
	case to.IsInteger() && from.IsInteger():
		return fromBig(bigOf(d, from), to)
	case to.IsInteger() && from.ID == TypeDecimal:
		return fromBig(roundBig(bigOf(d, from), from.Scale), to)
	case to.IsInteger() && (from.ID == TypeFloat || from.ID == TypeDouble):
		f := math.RoundToEven(d.F)
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1.7e38 {
			return Datum{}, outOfRangeCast(d, from, to)
		}
		bf, _ := new(big.Float).SetFloat64(f).Int(nil)
		return fromBig(bf, to)
	case to.ID == TypeDecimal && from.IsInteger():
		return fromBig(new(big.Int).Mul(bigOf(d, from), pow10(to.Scale)), to)
	case to.ID == TypeDecimal && from.ID == TypeDecimal:
		v := bigOf(d, from)
		if to.Scale >= from.Scale {
			v = new(big.Int).Mul(v, pow10(to.Scale-from.Scale))
		} else {
			v = roundBig(v, from.Scale-to.Scale)
		}
		return fromBig(v, to)
	case to.ID == TypeDecimal && (from.ID == TypeFloat || from.ID == TypeDouble):
		if math.IsNaN(d.F) || math.IsInf(d.F, 0) {
			return Datum{}, castError(d, from, to)
		}
		if to.Scale <= 22 {
			// DuckDB scales in double and rounds the product half away
			// from zero: -7.005 (just above -7.005 in binary) times 100
			// is -700.5, so DECIMAL(9,2) gets -7.01.
			if v := math.Round(d.F * math.Pow10(to.Scale)); math.Abs(v) < 1<<62 {
				return fromBig(big.NewInt(int64(v)), to)
			}
		}
		r := new(big.Rat).SetFloat64(d.F)
		r.Mul(r, new(big.Rat).SetInt(pow10(to.Scale)))
		return fromBig(roundRat(r), to)
	case to.ID == TypeBigInt && from.ID == TypeDate:
		// Only the binder asks for this, to do date arithmetic in days.
		return Datum{I: d.I}, nil
	case to.ID == TypeTimestamp && from.ID == TypeDate:
		return Datum{I: d.I * microsPerDay}, nil
	case to.ID == TypeDate && (from.ID == TypeTimestamp || from.ID == TypeTimestampTZ):
		return Datum{I: floorDiv(d.I, microsPerDay)}, nil
	case to.ID == TypeDate && from.ID == TypeTimestampNS:
		return Datum{I: floorDiv(d.I, microsPerDay*1000)}, nil
	case (to.ID == TypeTimestamp || to.ID == TypeTimestampTZ) && from.ID == TypeTimestampNS:
		// DuckDB truncates toward zero and keeps the infinities.
		if !isFiniteTimestamp(d.I) {
			return d, nil
		}
		return Datum{I: d.I / 1000}, nil
	case to.ID == TypeTimestamp && from.ID == TypeTimestampTZ, to.ID == TypeTimestampTZ && from.ID == TypeTimestamp:
		return d, nil
	case to.ID == TypeTimestampTZ && from.ID == TypeDate:
		return Datum{I: d.I * microsPerDay}, nil
	case to.ID == TypeTimestampNS && (from.ID == TypeTimestamp || from.ID == TypeTimestampTZ || from.ID == TypeDate):
		v := d.I
		if from.ID == TypeDate {
			v = d.I * microsPerDay
		}
		if v > math.MaxInt64/1000 || v < math.MinInt64/1000 {
			return Datum{}, fmt.Errorf("%w: timestamp out of range for TIMESTAMP_NS", ErrConversion)
		}
		return Datum{I: v * 1000}, nil
	}
	return Datum{}, fmt.Errorf("%w: Unimplemented type for cast (%s -> %s)", ErrConversion, from, to)
}

// roundBig divides v by 10^scale, rounding half away from zero.
func roundBig(v *big.Int, scale int) *big.Int {
	if scale <= 0 {
		return v
	}
	return roundRat(new(big.Rat).SetFrac(v, pow10(scale)))
}

// roundRat rounds r to an integer, half away from zero.
func roundRat(r *big.Rat) *big.Int {
	num, den := new(big.Int).Abs(r.Num()), r.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if new(big.Int).Mul(m, big.NewInt(2)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// tzSuffix splits a timestamp's UTC offset off: 1 the local time, 2 "Z",
// 3 the sign, 4 hours, 5 minutes.
var tzSuffix = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(?:(Z|UTC)|([+-])(\d{2})(?::?(\d{2}))?)$`)

// castString parses text into type to.
func castString(s string, from, to Type) (Datum, error) {
	bad := func() (Datum, error) { return Datum{}, stringCastError(s, to) }
	t := strings.TrimSpace(s)
	switch {
	case to.ID == TypeBoolean:
		switch strings.ToLower(t) {
		case "true", "t", "1", "yes", "y":
			return Datum{B: true}, nil
		case "false", "f", "0", "no", "n":
			return Datum{B: false}, nil
		}
		return bad()
	case to.IsInteger():
		v, ok := parseIntegerText(t)
		if !ok {
			return bad()
		}
		d, err := fromBig(v, to)
		if err != nil {
			return bad()
		}
		return d, nil
	case to.ID == TypeFloat || to.ID == TypeDouble:
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			switch strings.ToLower(t) {
			case "nan", "+nan":
				f = math.NaN()
			case "-nan":
				f = math.Copysign(math.NaN(), -1)
			case "inf", "infinity", "+inf", "+infinity":
				f = math.Inf(1)
			case "-inf", "-infinity":
				f = math.Inf(-1)
			default:
				if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
					return bad()
				}
			}
		}
		if to.ID == TypeFloat {
			f = float64(float32(f))
		}
		return Datum{F: f}, nil
	case to.ID == TypeDecimal:
		r, ok := new(big.Rat).SetString(t)
		if !ok {
			return bad()
		}
		r.Mul(r, new(big.Rat).SetInt(pow10(to.Scale)))
		d, err := fromBig(roundRat(r), to)
		if err != nil {
			return bad()
		}
		return d, nil
	case to.ID == TypeDate:
		v, ok := parseDate(t)
		if i := strings.IndexAny(t, " T"); !ok && i > 0 {
			// DuckDB reads the date a timestamp's text starts with and
			// ignores what follows it.
			v, ok = parseDate(t[:i])
		}
		if !ok {
			return Datum{}, dateCastError(s)
		}
		return Datum{I: v}, nil
	case (to.ID == TypeTimestamp || to.ID == TypeTimestampTZ) && infinityText(t) != 0:
		return Datum{I: infinityText(t) * math.MaxInt64}, nil
	case to.ID == TypeTimestampTZ:
		// An offset (+05, -08:00, Z) moves the instant to UTC, pqsql's
		// only time zone.
		local, off := t, int64(0)
		if m := tzSuffix.FindStringSubmatch(t); m != nil {
			local = m[1]
			if m[2] == "" {
				h, _ := strconv.ParseInt(m[4], 10, 64)
				mi := int64(0)
				if m[5] != "" {
					mi, _ = strconv.ParseInt(m[5], 10, 64)
				}
				off = (h*60 + mi) * 60e6
				if m[3] == "-" {
					off = -off
				}
			}
		}
		v, ok := parseTimestamp(local)
		if !ok {
			return bad()
		}
		return Datum{I: v - off}, nil
	case to.ID == TypeTimestamp:
		v, ok := parseTimestamp(t)
		if m := tzSuffix.FindStringSubmatch(t); !ok && m != nil {
			// DuckDB reads the local time and drops the offset:
			// '2024-01-01 10:00:00+05' is 10:00 (text from a TIMESTAMPTZ
			// casts back).
			v, ok = parseTimestamp(m[1])
		}
		if !ok {
			return bad()
		}
		return Datum{I: v}, nil
	case to.ID == TypeTimestampNS:
		v, ok := parseTimestampNS(t)
		if !ok {
			return bad()
		}
		return Datum{I: v}, nil
	case to.ID == TypeBlob:
		b, err := blobOfText(s)
		return Datum{Bytes: b}, err
	case to.ID == TypeInterval:
		iv, err := parseInterval(s)
		if err != nil {
			return Datum{}, err
		}
		return iv.Datum(), nil
	case to.ID == TypeTime:
		ns, ok := parseClock(t)
		if !ok {
			return bad()
		}
		return Datum{I: ns / 1000}, nil
	}
	return bad()
}

// infinityText is 1 for "infinity", -1 for "-infinity" (any case), the
// texts of DuckDB's infinite timestamps; else 0.
func infinityText(s string) int64 {
	switch strings.ToLower(s) {
	case "infinity":
		return 1
	case "-infinity":
		return -1
	}
	return 0
}

// blobOfText is DuckDB's VARCHAR to BLOB cast: ASCII bytes stand for
// themselves and \xHH for any byte; any other backslash, and any byte past
// ASCII, is an error rather than a guess.
func blobOfText(s string) ([]byte, error) {
	bad := func(why string) error {
		return fmt.Errorf("%w: Invalid hex escape code encountered in string -> blob conversion of string \"%s\": %s", ErrConversion, s, why)
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			if i+4 > len(s) {
				return nil, bad("unterminated escape code at end of blob")
			}
			hi, ok1 := hexDigit(s[i+2])
			lo, ok2 := hexDigit(s[i+3])
			if s[i+1] != 'x' || !ok1 || !ok2 {
				return nil, bad(s[i : i+4])
			}
			out = append(out, hi<<4|lo)
			i += 4
		case c >= 0x80:
			return nil, fmt.Errorf("%w: Invalid byte encountered in STRING -> BLOB conversion of string \"%s\". All non-ascii characters must be escaped with hex codes (e.g. \\xAA)", ErrConversion, s)
		default:
			out = append(out, c)
			i++
		}
	}
	return out, nil
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
