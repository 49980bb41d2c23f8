package format

import (
	"encoding/binary"
	"math"
	"math/big"
	"strconv"

	"github.com/pqsql/pqsql/format/meta"
)

// AppendText appends value i of v, interpreted as lg, in the text DuckDB's
// CAST(value AS VARCHAR) gives.
func AppendText(dst []byte, lg Logical, v *Values, i int) []byte {
	switch lg.Kind {
	case KindBoolean:
		return strconv.AppendBool(dst, v.Bool[i])
	case KindInt8, KindInt16, KindInt32, KindNull:
		if v.Type == meta.Int64 {
			return strconv.AppendInt(dst, v.Int64[i], 10)
		}
		return strconv.AppendInt(dst, int64(v.Int32[i]), 10)
	case KindUint8, KindUint16, KindUint32:
		return strconv.AppendUint(dst, uint64(uint32(v.Int32[i])), 10)
	case KindInt64:
		return strconv.AppendInt(dst, v.Int64[i], 10)
	case KindUint64:
		return strconv.AppendUint(dst, uint64(v.Int64[i]), 10)
	case KindFloat:
		return AppendFloat(dst, float64(v.Float[i]), 32)
	case KindFloat16:
		return AppendFloat(dst, float64(Float16(v.Bytes[i])), 32)
	case KindDouble:
		if lg.Precision > 0 {
			return AppendFloat(dst, DecimalFloat(v, i, lg.Scale), 64)
		}
		return AppendFloat(dst, v.Double[i], 64)
	case KindDecimal:
		return AppendDecimal(dst, DecimalUnscaled(v, i), lg.Scale)
	case KindString:
		return append(dst, v.Bytes[i]...)
	case KindBlob:
		if v.Type == meta.Int96 {
			return AppendBlob(dst, v.Int96[i][:])
		}
		return AppendBlob(dst, v.Bytes[i])
	case KindUUID:
		return AppendUUID(dst, v.Bytes[i])
	case KindDate:
		return AppendDate(dst, int64(v.Int32[i]))
	case KindTime, KindTimeTZ:
		var t int64
		if v.Type == meta.Int32 {
			t = int64(v.Int32[i])
		} else {
			t = v.Int64[i]
		}
		dst = AppendTime(dst, t, lg.Unit)
		if lg.Kind == KindTimeTZ {
			dst = append(dst, "+00"...)
		}
		return dst
	case KindTimestamp, KindTimestampTZ:
		t := v.Int64[i]
		dst = AppendTimestamp(dst, t, lg.Unit)
		if lg.Kind == KindTimestampTZ && t != math.MaxInt64 && t != -math.MaxInt64 {
			dst = append(dst, "+00"...)
		}
		return dst
	case KindInt96:
		return AppendTimestamp(dst, Int96Micros(v.Int96[i]), meta.Micros)
	case KindInterval:
		return AppendInterval(dst, v.Bytes[i])
	}
	if (lg.Kind == KindGeometry || lg.Kind == KindGeography) && v.Type == meta.ByteArray {
		// Malformed WKB has no text form; it prints as its bytes, and
		// callers that must refuse it use AppendWKT.
		if out, err := AppendWKT(dst, v.Bytes[i]); err == nil {
			return out
		}
	}
	// A VARIANT leaf outside a VARIANT group, and malformed geometries,
	// print their raw bytes.
	if v.Type == meta.ByteArray || v.Type == meta.FixedLenByteArray {
		return AppendBlob(dst, v.Bytes[i])
	}
	return append(dst, "?"...)
}

// AppendFloat appends f the way DuckDB prints a FLOAT (bits 32) or DOUBLE:
// the shortest text that reads back to the same value, always with a
// fraction or exponent, and nan, inf, -inf.
func AppendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return append(dst, "-nan"...)
		}
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	abs := math.Abs(f)
	if abs >= 1e16 || abs < 1e-4 {
		s := strconv.FormatFloat(f, 'e', -1, bits)
		// Go writes e+20 and e-05; DuckDB writes e+20 and e-05 too.
		return append(dst, s...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, bits)
	for _, c := range dst[start:] {
		if c == '.' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

// DecimalUnscaled returns value i of a DECIMAL column as its unscaled integer.
func DecimalUnscaled(v *Values, i int) *big.Int {
	switch v.Type {
	case meta.Int32:
		return big.NewInt(int64(v.Int32[i]))
	case meta.Int64:
		return big.NewInt(v.Int64[i])
	}
	return BigEndianSigned(v.Bytes[i])
}

// BigEndianSigned reads b as a big-endian two's complement integer.
func BigEndianSigned(b []byte) *big.Int {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}

// DecimalFloat returns value i of a DECIMAL column as a float64.
func DecimalFloat(v *Values, i, scale int) float64 {
	f, _ := new(big.Float).SetInt(DecimalUnscaled(v, i)).Float64()
	return f / math.Pow10(scale)
}

// AppendDecimal appends unscaled/10^scale with exactly scale digits after the point.
func AppendDecimal(dst []byte, unscaled *big.Int, scale int) []byte {
	s := unscaled.String()
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	if neg {
		dst = append(dst, '-')
	}
	if scale == 0 {
		return append(dst, s...)
	}
	for len(s) <= scale {
		s = "0" + s
	}
	dst = append(dst, s[:len(s)-scale]...)
	dst = append(dst, '.')
	return append(dst, s[len(s)-scale:]...)
}

// AppendBlob appends b with printable ASCII as is and other bytes, quotes
// and backslashes as \xNN.
func AppendBlob(dst []byte, b []byte) []byte {
	const hex = "0123456789ABCDEF"
	for _, c := range b {
		if c >= 0x20 && c < 0x7f && c != '\\' && c != '\'' && c != '"' {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
	}
	return dst
}

// AppendUUID appends a 16-byte UUID in its 8-4-4-4-12 form.
func AppendUUID(dst []byte, b []byte) []byte {
	const hex = "0123456789abcdef"
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hex[c>>4], hex[c&15])
	}
	return dst
}

// Civil converts days since 1970-01-01 to a proleptic Gregorian date.
func Civil(days int64) (year, month, day int64) {
	// Howard Hinnant's days-to-civil algorithm.
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// DaysFromCivil is the inverse of civil: days since 1970-01-01.
func DaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mm := m + 9
	if m > 2 {
		mm = m - 3
	}
	doy := (153*mm+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func appendPadded(dst []byte, v int64, width int) []byte {
	s := strconv.FormatInt(v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// AppendDate appends a DATE given in days since the epoch; years before 1
// print as DuckDB does, with " (BC)".
func AppendDate(dst []byte, days int64) []byte {
	y, m, d := Civil(days)
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	dst = appendPadded(dst, y, 4)
	dst = append(dst, '-')
	dst = appendPadded(dst, m, 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, d, 2)
	if bc {
		dst = append(dst, " (BC)"...)
	}
	return dst
}

// unitsPerSecond is the number of a unit's ticks in one second.
func unitsPerSecond(u meta.TimeUnit) int64 {
	switch u {
	case meta.Millis:
		return 1e3
	case meta.Nanos:
		return 1e9
	}
	return 1e6
}

// appendClock appends HH:MM:SS and the non-zero fraction of ticks in unit u
// within one day (or more, for intervals).
func appendClock(dst []byte, ticks int64, u meta.TimeUnit) []byte {
	per := unitsPerSecond(u)
	secs, frac := ticks/per, ticks%per
	dst = appendPadded(dst, secs/3600, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, secs/60%60, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, secs%60, 2)
	if frac != 0 {
		digits := 6
		if u == meta.Nanos {
			digits = 9
		}
		// Millisecond values are printed in microseconds, as DuckDB stores them.
		if u == meta.Millis {
			frac *= 1000
		}
		s := []byte(strconv.FormatInt(frac, 10))
		for len(s) < digits {
			s = append([]byte{'0'}, s...)
		}
		for len(s) > 0 && s[len(s)-1] == '0' {
			s = s[:len(s)-1]
		}
		dst = append(dst, '.')
		dst = append(dst, s...)
	}
	return dst
}

// AppendTime appends a TIME of t ticks in unit u since midnight.
func AppendTime(dst []byte, t int64, u meta.TimeUnit) []byte {
	return appendClock(dst, t, u)
}

// AppendTimestamp appends a TIMESTAMP of t ticks in unit u since the epoch.
func AppendTimestamp(dst []byte, t int64, u meta.TimeUnit) []byte {
	// DuckDB reads the largest tick count, and its negation, as its
	// infinite timestamps, whatever the unit.
	switch t {
	case math.MaxInt64:
		return append(dst, "infinity"...)
	case -math.MaxInt64:
		return append(dst, "-infinity"...)
	}
	perDay := 86400 * unitsPerSecond(u)
	days, rem := t/perDay, t%perDay
	if rem < 0 {
		days--
		rem += perDay
	}
	dst = AppendDate(dst, days)
	dst = append(dst, ' ')
	return appendClock(dst, rem, u)
}

// Int96Micros converts an INT96 timestamp (nanoseconds of the day, then the
// Julian day) to microseconds since the epoch.
func Int96Micros(b [12]byte) int64 {
	nanos := int64(binary.LittleEndian.Uint64(b[:8]))
	julian := int64(binary.LittleEndian.Uint32(b[8:]))
	const julianEpoch = 2440588
	return (julian-julianEpoch)*86400e6 + nanos/1000
}

// AppendInterval appends a Parquet INTERVAL (months, days, milliseconds, each
// an unsigned little-endian 32-bit number) in DuckDB's text.
func AppendInterval(dst []byte, b []byte) []byte {
	months := int64(binary.LittleEndian.Uint32(b[0:]))
	days := int64(binary.LittleEndian.Uint32(b[4:]))
	millis := int64(binary.LittleEndian.Uint32(b[8:]))
	return AppendIntervalParts(dst, months, days, millis*1000)
}

// AppendIntervalParts appends an interval of months, days and
// microseconds, each signed, as DuckDB prints it:
// "1 year 2 months 3 days 04:05:06.7", "-1 day -01:00:00", "00:00:00".
func AppendIntervalParts(dst []byte, months, days, micros int64) []byte {
	start := len(dst)
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, n, 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if n != 1 && n != -1 {
			dst = append(dst, 's')
		}
	}
	part(months/12, "year")
	part(months%12, "month")
	part(days, "day")
	if micros == 0 {
		if len(dst) == start {
			dst = append(dst, "00:00:00"...)
		}
		return dst
	}
	if len(dst) > start {
		dst = append(dst, ' ')
	}
	// Work on the negative magnitude: the most negative microsecond count
	// has no positive counterpart.
	us := micros
	if us < 0 {
		dst = append(dst, '-')
	} else {
		us = -us
	}
	hour := -(us / int64(3600e6))
	us += hour * int64(3600e6)
	minute := -(us / int64(60e6))
	us += minute * int64(60e6)
	sec := -(us / int64(1e6))
	us += sec * int64(1e6)
	us = -us
	if hour < 10 {
		dst = append(dst, '0')
	}
	dst = strconv.AppendInt(dst, hour, 10)
	dst = append(dst, ':', byte('0'+minute/10), byte('0'+minute%10), ':', byte('0'+sec/10), byte('0'+sec%10))
	if us != 0 {
		var digits [6]byte
		n := len(digits)
		for i := len(digits) - 1; i >= 0; i-- {
			digits[i] = byte('0' + us%10)
			us /= 10
			if digits[i] == '0' && n == i+1 {
				n = i // trailing zeros are not printed
			}
		}
		dst = append(dst, '.')
		dst = append(dst, digits[:n]...)
	}
	return dst
}

// Float16 decodes a little-endian IEEE 754 half-precision value.
func Float16(b []byte) float32 {
	h := uint16(b[0]) | uint16(b[1])<<8
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(frac) / 1024 / 16384
		if sign != 0 {
			return -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
