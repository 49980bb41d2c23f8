package planner

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// An Interval is DuckDB's INTERVAL: months, days and microseconds, three
// independent fields. A month is not a fixed number of days nor a day a
// fixed number of microseconds, so nothing carries between the fields
// except where DuckDB carries (comparison, hashing).
type Interval struct {
	Months int32
	Days   int32
	Micros int64
}

// The lengths of DuckDB's units in the next smaller field; a month counts
// as 30 days only where intervals are compared.
const (
	microsPerHour   = 3600 * 1000000
	microsPerMinute = 60 * 1000000
	microsPerSec    = 1000000
	daysPerMonth    = 30
	microsPerMonth  = microsPerDay * daysPerMonth
)

// An INTERVAL datum holds its value in Bytes: 16 bytes (months and days as
// little-endian int32, microseconds as int64) for values pqsql computes;
// 12 bytes (months, days, milliseconds as unsigned int32) for Parquet's
// INTERVAL columns, read as they are stored.
const intervalWidth = 16

// IntervalOf decodes an INTERVAL datum's bytes.
func IntervalOf(b []byte) Interval {
	if len(b) == 12 {
		return Interval{
			Months: int32(binary.LittleEndian.Uint32(b[0:])),
			Days:   int32(binary.LittleEndian.Uint32(b[4:])),
			Micros: int64(binary.LittleEndian.Uint32(b[8:])) * 1000,
		}
	}
	if len(b) < intervalWidth {
		return Interval{}
	}
	return Interval{
		Months: int32(binary.LittleEndian.Uint32(b[0:])),
		Days:   int32(binary.LittleEndian.Uint32(b[4:])),
		Micros: int64(binary.LittleEndian.Uint64(b[8:])),
	}
}

// Datum is the interval as an INTERVAL datum.
func (iv Interval) Datum() Datum {
	b := make([]byte, intervalWidth)
	binary.LittleEndian.PutUint32(b[0:], uint32(iv.Months))
	binary.LittleEndian.PutUint32(b[4:], uint32(iv.Days))
	binary.LittleEndian.PutUint64(b[8:], uint64(iv.Micros))
	return Datum{Bytes: b}
}

// normalized carries microseconds into days and days into months (30 to
// a month), truncating toward zero as DuckDB 1.5 does: the form in which
// intervals compare, group and hash.
func (iv Interval) normalized() (months, days, micros int64) {
	micros = iv.Micros
	carryDays := micros / microsPerDay
	micros -= carryDays * microsPerDay
	days = int64(iv.Days) + carryDays
	carryMonths := days / daysPerMonth
	days -= carryMonths * daysPerMonth
	months = int64(iv.Months) + carryMonths
	return months, days, micros
}

// compareIntervals orders intervals by their normalized fields, so 30 days
// equals a month and 24 hours a day.
func compareIntervals(a, b Interval) int {
	am, ad, au := a.normalized()
	bm, bd, bu := b.normalized()
	switch {
	case am != bm:
		return cmpInt(am, bm)
	case ad != bd:
		return cmpInt(ad, bd)
	}
	return cmpInt(au, bu)
}

// appendIntervalKey appends the normalized fields, so intervals equal as
// DuckDB compares them share a key.
func appendIntervalKey(dst []byte, iv Interval) []byte {
	m, d, u := iv.normalized()
	dst = binary.LittleEndian.AppendUint64(dst, uint64(m))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(d))
	return binary.LittleEndian.AppendUint64(dst, uint64(u))
}

// AppendInterval appends an interval as DuckDB prints it:
// "1 year 2 months 3 days 04:05:06.7", "-1 day -01:00:00", "00:00:00".
func AppendInterval(dst []byte, iv Interval) []byte {
	return format.AppendIntervalParts(dst, int64(iv.Months), int64(iv.Days), iv.Micros)
}

// parseInterval reads text as DuckDB's VARCHAR to INTERVAL cast does:
// a sequence of "<number> <unit>" (units as date_part names them, singular,
// plural or abbreviated; numbers signed, with a fraction carried into the
// smaller fields), an optional trailing "ago" that negates everything, a
// bare number of seconds, or a clock "[-]HH:MM[:SS[.ffffff]]" that ends the
// text (anything after it is ignored, as in DuckDB). A leading '@' is
// skipped; ISO 8601 "P..." durations are refused, as DuckDB 1.5 does.
func parseInterval(s string) (Interval, error) {
	var iv Interval
	bad := func() (Interval, error) {
		return Interval{}, fmt.Errorf("%w: Could not convert string '%s' to INTERVAL", ErrConversion, s)
	}
	outOfRange := func() (Interval, error) {
		return Interval{}, fmt.Errorf("%w: interval value is out of range", ErrConversion)
	}
	if s == "" {
		return bad()
	}
	pos := 0
	switch s[0] {
	case '@':
		pos++
	case 'P', 'p':
		return bad()
	}
	foundAny := false
	for {
		// A number, "ago", or the end.
		for pos < len(s) && isIntervalSpace(s[pos]) {
			pos++
		}
		if pos == len(s) {
			break
		}
		c := s[pos]
		negative := false
		switch {
		case c == '-':
			negative = true
			pos++
		case c >= '0' && c <= '9':
		case c == 'a' || c == 'A':
			rest := strings.TrimRight(s[pos:], " \t\n")
			if !strings.EqualFold(rest, "ago") {
				return bad()
			}
			if iv.Months == math.MinInt32 || iv.Days == math.MinInt32 {
				return Interval{}, fmt.Errorf("%w: AGO interval value is out of range", ErrOutOfRange)
			}
			iv = Interval{Months: -iv.Months, Days: -iv.Days, Micros: -iv.Micros}
			pos = len(s)
			continue
		default:
			return bad()
		}
		start := pos
		for pos < len(s) && s[pos] >= '0' && s[pos] <= '9' {
			pos++
		}
		if pos < len(s) && s[pos] == ':' {
			clock, ok := parseIntervalClock(s[start:])
			if !ok {
				return bad()
			}
			iv.Micros += clock
			if negative {
				// DuckDB negates every microsecond read so far, not only
				// the clock's.
				iv.Micros = -iv.Micros
			}
			foundAny = true
			break
		}
		if pos == start {
			return bad()
		}
		number, err := strconv.ParseInt(s[start:pos], 10, 64)
		if err != nil {
			return Interval{}, fmt.Errorf("%w: Could not convert string '%s' to INT64", ErrConversion, s[start:pos])
		}
		// The fraction in microseconds (millionths), further digits dropped.
		var fraction int64
		if pos < len(s) && s[pos] == '.' {
			mult := int64(100000)
			for pos++; pos < len(s) && s[pos] >= '0' && s[pos] <= '9'; pos++ {
				fraction += int64(s[pos]-'0') * mult
				mult /= 10
			}
		}
		if negative {
			number, fraction = -number, -fraction
		}
		for pos < len(s) && isIntervalSpace(s[pos]) {
			pos++
		}
		unitStart := pos
		for pos < len(s) && (s[pos] >= 'a' && s[pos] <= 'z' || s[pos] >= 'A' && s[pos] <= 'Z') {
			pos++
		}
		unit := s[unitStart:pos]
		if unit == "" && !foundAny {
			// A bare number counts seconds; nothing may follow it.
			if !addScaled64(&iv.Micros, number, microsPerSec, fraction) {
				return outOfRange()
			}
			if strings.TrimRight(s[pos:], " \t\n") != "" {
				return bad()
			}
			foundAny = true
			break
		}
		p, ok := dateParts[strings.ToLower(unit)]
		if !ok {
			return Interval{}, fmt.Errorf("%w: extract specifier \"%s\" not recognized", ErrConversion, unit)
		}
		ok = true
		switch p {
		case partMillennium:
			ok = addScaled32(&iv.Months, number, 12000, fraction)
		case partCentury:
			ok = addScaled32(&iv.Months, number, 1200, fraction)
		case partDecade:
			ok = addScaled32(&iv.Months, number, 120, fraction)
		case partYear:
			ok = addScaled32(&iv.Months, number, 12, fraction)
		case partQuarter:
			ok = addScaled32(&iv.Months, number, 3, fraction) &&
				addScaled32(&iv.Days, 0, daysPerMonth, fraction*3%microsPerSec)
		case partMonth:
			ok = addScaled32(&iv.Months, number, 1, 0) && addScaled32(&iv.Days, 0, daysPerMonth, fraction)
		case partDay:
			ok = addScaled32(&iv.Days, number, 1, 0) && addScaled64(&iv.Micros, 0, microsPerDay, fraction)
		case partWeek:
			ok = addScaled32(&iv.Days, number, 7, fraction) &&
				addScaled64(&iv.Micros, 0, microsPerDay, fraction*7%microsPerSec)
		case partMicrosecond:
			// The fraction of a microsecond rounds half away from zero.
			ok = addScaled64(&iv.Micros, number+fraction*2/microsPerSec, 1, 0)
		case partMillisecond:
			ok = addScaled64(&iv.Micros, number, 1000, fraction)
		case partSecond:
			ok = addScaled64(&iv.Micros, number, microsPerSec, fraction)
		case partMinute:
			ok = addScaled64(&iv.Micros, number, microsPerMinute, fraction)
		case partHour:
			ok = addScaled64(&iv.Micros, number, microsPerHour, fraction)
		default:
			return Interval{}, fmt.Errorf("%w: extract specifier \"%s\" not supported for interval", ErrConversion, unit)
		}
		if !ok {
			return outOfRange()
		}
		foundAny = true
	}
	if !foundAny {
		return bad()
	}
	return iv, nil
}

func isIntervalSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// addScaled64 adds n*mult plus fraction (in millionths) of mult to *dst,
// reporting false on overflow.
func addScaled64(dst *int64, n, mult, fraction int64) bool {
	v, ok := mulInt64(n, mult)
	if !ok {
		return false
	}
	if v, ok = addInt64(*dst, v); !ok {
		return false
	}
	if fraction != 0 {
		if v, ok = addInt64(v, fraction*mult/microsPerSec); !ok {
			return false
		}
	}
	*dst = v
	return true
}

// addScaled32 is addScaled64 for the 32-bit fields.
func addScaled32(dst *int32, n, mult, fraction int64) bool {
	v := int64(*dst)
	if !addScaled64(&v, n, mult, fraction) || v < math.MinInt32 || v > math.MaxInt32 {
		return false
	}
	*dst = int32(v)
	return true
}

// parseIntervalClock reads "H...H:MM[:SS[.ffffff]]" (up to nine hour
// digits, one or two minute and second digits, later fraction digits
// dropped) as microseconds, ignoring what follows, as DuckDB's interval
// clock does.
func parseIntervalClock(s string) (int64, bool) {
	pos := 0
	var hour int64
	for digits := 0; pos < len(s) && s[pos] >= '0' && s[pos] <= '9'; pos++ {
		if digits++; digits > 9 {
			return 0, false
		}
		hour = hour*10 + int64(s[pos]-'0')
	}
	if pos == 0 || pos >= len(s) || s[pos] != ':' {
		return 0, false
	}
	pos++
	twoDigits := func() (int64, bool) {
		if pos >= len(s) || s[pos] < '0' || s[pos] > '9' {
			return 0, false
		}
		v := int64(s[pos] - '0')
		pos++
		if pos < len(s) && s[pos] >= '0' && s[pos] <= '9' {
			v = v*10 + int64(s[pos]-'0')
			pos++
		}
		return v, true
	}
	var minute, sec, micros int64
	if pos < len(s) {
		v, ok := twoDigits()
		if !ok || v >= 60 {
			return 0, false
		}
		minute = v
		if pos < len(s) {
			// Seconds follow only after a second colon.
			if s[pos] != ':' {
				return 0, false
			}
			pos++
			if pos < len(s) {
				v, ok := twoDigits()
				if !ok || v >= 60 {
					return 0, false
				}
				sec = v
			}
		}
		if pos < len(s) && s[pos] == '.' {
			mult := int64(100000)
			for pos++; pos < len(s) && s[pos] >= '0' && s[pos] <= '9'; pos++ {
				micros += int64(s[pos]-'0') * mult
				mult /= 10
			}
		}
	}
	return ((hour*60+minute)*60+sec)*microsPerSec + micros, true
}

// mulInt64 is a*b and whether it did not overflow.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return c, true
}

// addInt64 is a+b and whether it did not overflow.
func addInt64(a, b int64) (int64, bool) {
	c := a + b
	if (a > 0 && b > 0 && c < 0) || (a < 0 && b < 0 && c >= 0) {
		return 0, false
	}
	return c, true
}
