package planner

import (
	"fmt"
	"strconv"
	"strings"
)

// strftime and strptime with DuckDB's format specifiers.
func init() {
	registerScalar(
		&ScalarFunc{Name: "strftime", Bind: bindStrftime, Eval: evalStrftime},
		&ScalarFunc{Name: "strptime", Bind: fixed(2, 2, tTimestamp, tVarchar), Eval: evalStrptime},
	)
}

func bindStrftime(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	if err := dateArg(f.Name, args, 0); err != nil {
		return nil, err
	}
	if err := castArgs(args[1:], tVarchar); err != nil {
		return nil, err
	}
	if c, ok := args[1].(*Const); ok && !c.Value.Null {
		if _, err := appendStrftime(nil, c.Value.S, 0, 0, args[0].Type()); err != nil {
			return nil, err
		}
	}
	return newCall(f, args, tVarchar), nil
}

func evalStrftime(c *Call, a []Datum) (Datum, error) {
	days, ns := timeOf(a[0], c.Args[0].Type())
	b, err := appendStrftime(nil, a[1].S, days, ns, c.Args[0].Type())
	return Datum{S: string(b)}, err
}

var shortNames = func(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n[:3]
	}
	return out
}

var (
	shortMonths = shortNames(monthNames)
	shortDays   = shortNames(dayNames)
)

// badSpecifier is DuckDB's error for a format it cannot read.
func badSpecifier(format, why string) error {
	return fmt.Errorf("%w: Failed to parse format specifier %s: %s", ErrInvalidInput, format, why)
}

// appendStrftime formats the instant days + ns (nanoseconds of the day).
func appendStrftime(dst []byte, format string, days, ns int64, t Type) ([]byte, error) {
	if format == "" {
		return nil, badSpecifier(format, "Empty format string")
	}
	y, m, d := civil(days)
	dow := (days%7 + 11) % 7
	doy := days - daysFromCivil(y, 1, 1) + 1
	us := ns / 1000
	h, mi, s := us/3600e6, us/60e6%60, us/1e6%60
	pad := func(v int64, width int, noPad bool) {
		str := strconv.FormatInt(v, 10)
		if !noPad {
			for len(str) < width {
				str = "0" + str
			}
		}
		dst = append(dst, str...)
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			dst = append(dst, format[i])
			continue
		}
		i++
		if i == len(format) {
			return nil, badSpecifier(format, "Trailing format character %")
		}
		noPad := false
		if format[i] == '-' {
			noPad = true
			i++
			if i == len(format) {
				return nil, badSpecifier(format, "Trailing format character %-")
			}
		}
		switch format[i] {
		case 'a':
			dst = append(dst, shortDays[dow]...)
		case 'A':
			dst = append(dst, dayNames[dow]...)
		case 'w':
			pad(dow, 1, noPad)
		case 'u':
			pad((dow+6)%7+1, 1, noPad)
		case 'd':
			pad(d, 2, noPad)
		case 'b', 'h':
			dst = append(dst, shortMonths[m-1]...)
		case 'B':
			dst = append(dst, monthNames[m-1]...)
		case 'm':
			pad(m, 2, noPad)
		case 'y':
			pad(((y%100)+100)%100, 2, noPad)
		case 'Y':
			if y < 0 {
				dst = append(dst, '-')
				pad(-y, 4, noPad)
			} else {
				pad(y, 4, noPad)
			}
		case 'H':
			pad(h, 2, noPad)
		case 'I':
			pad((h+11)%12+1, 2, noPad)
		case 'p':
			if h < 12 {
				dst = append(dst, "AM"...)
			} else {
				dst = append(dst, "PM"...)
			}
		case 'M':
			pad(mi, 2, noPad)
		case 'S':
			pad(s, 2, noPad)
		case 'f':
			pad(us%1e6, 6, false)
		case 'g':
			pad(us%1e6/1000, 3, false)
		case 'n':
			pad(ns%1e9, 9, false)
		case 'j':
			pad(doy, 3, noPad)
		case 'U':
			pad((doy+6-dow)/7, 2, noPad)
		case 'W':
			pad((doy+6-(dow+6)%7)/7, 2, noPad)
		case 'V':
			_, w := isoWeek(days)
			pad(w, 2, noPad)
		case 'G':
			iy, _ := isoWeek(days)
			pad(iy, 4, noPad)
		case 'z':
			if t.ID == TypeTimestampTZ {
				dst = append(dst, "+00"...)
			}
		case 'Z':
			if t.ID == TypeTimestampTZ {
				dst = append(dst, "UTC"...)
			}
		case 'c':
			var err error
			if dst, err = appendStrftime(dst, "%Y-%m-%d %H:%M:%S", days, ns, t); err != nil {
				return nil, err
			}
		case 'x':
			var err error
			if dst, err = appendStrftime(dst, "%Y-%m-%d", days, ns, t); err != nil {
				return nil, err
			}
		case 'X':
			var err error
			if dst, err = appendStrftime(dst, "%H:%M:%S", days, ns, t); err != nil {
				return nil, err
			}
		case '%':
			dst = append(dst, '%')
		default:
			return nil, badSpecifier(format, fmt.Sprintf("Unrecognized format for strftime/strptime: %%%c", format[i]))
		}
	}
	return dst, nil
}

// evalStrptime reads s with a format of numeric fields, names and AM/PM.
func evalStrptime(_ *Call, a []Datum) (Datum, error) {
	s, format := a[0].S, a[1].S
	if format == "" {
		return Datum{}, badSpecifier(format, "Empty format string")
	}
	fail := func() (Datum, error) {
		return Datum{}, fmt.Errorf("%w: Could not parse string \"%s\" according to format specifier \"%s\"", ErrInvalidInput, s, format)
	}
	y, m, d, h, mi, sec, frac := int64(1900), int64(1), int64(1), int64(0), int64(0), int64(0), int64(0)
	pm, twelve := false, false
	// weeks says how the day is given instead of month and day: by an
	// ISO year, week and weekday (%G %V %u) or by a week of the year
	// counted from its first Sunday (%U) or Monday (%W) and a weekday
	// (%w). A later %Y or %y drops an ISO year, as in DuckDB.
	var weeks byte
	var week, weekday, isoWeekday int64 = 1, -1, 1
	pos := 0
	num := func(maxDigits int) (int64, bool) {
		start := pos
		if pos < len(s) && (s[pos] == '-' || s[pos] == '+') && maxDigits > 4 {
			pos++
		}
		for pos < len(s) && pos-start < maxDigits && s[pos] >= '0' && s[pos] <= '9' {
			pos++
		}
		v, err := strconv.ParseInt(s[start:pos], 10, 64)
		return v, err == nil
	}
	name := func(names []string) (int64, bool) {
		for i, n := range names {
			if len(s)-pos >= len(n) && strings.EqualFold(s[pos:pos+len(n)], n) {
				pos += len(n)
				return int64(i), true
			}
		}
		return 0, false
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			if pos >= len(s) || s[pos] != format[i] {
				if format[i] == ' ' {
					continue
				}
				return fail()
			}
			pos++
			continue
		}
		i++
		if i == len(format) {
			return Datum{}, badSpecifier(format, "Trailing format character %")
		}
		if format[i] == '-' {
			i++
			if i == len(format) {
				return Datum{}, badSpecifier(format, "Trailing format character %-")
			}
		}
		var ok bool
		switch format[i] {
		case 'd':
			d, ok = num(2)
		case 'm':
			m, ok = num(2)
		case 'y':
			y, ok = num(2)
			y += 1900
			if y < 1969 {
				y += 100
			}
			if weeks == 'G' {
				weeks = 0
			}
		case 'Y':
			y, ok = num(9)
			if weeks == 'G' {
				weeks = 0
			}
		case 'G':
			if weeks == 'U' || weeks == 'W' {
				return fail()
			}
			y, ok = num(9)
			weeks = 'G'
		case 'V':
			// An ISO week needs an ISO year.
			week, ok = num(2)
			ok = ok && weeks == 'G' && week >= 1 && week <= 53
		case 'u':
			isoWeekday, ok = num(1)
			ok = ok && isoWeekday >= 1 && isoWeekday <= 7
		case 'U', 'W':
			// One week count only: %U with %W is an error.
			week, ok = num(2)
			ok = ok && week <= 53 && weeks != 'U' && weeks != 'W'
			weeks = format[i]
		case 'w':
			weekday, ok = num(1)
			ok = ok && weekday <= 6
		case 'H':
			h, ok = num(2)
		case 'I':
			h, ok = num(2)
			twelve = true
		case 'M':
			mi, ok = num(2)
		case 'S':
			sec, ok = num(2)
		case 'f', 'g', 'n':
			digits := map[byte]int{'f': 6, 'g': 3, 'n': 9}[format[i]]
			start := pos
			frac, ok = num(digits)
			for k := pos - start; k < 9; k++ {
				frac *= 10
			}
		case 'j':
			var doy int64
			doy, ok = num(3)
			m, d = 1, doy
		case 'b', 'h':
			m, ok = name(shortMonths)
			m++
		case 'B':
			m, ok = name(monthNames)
			m++
		case 'a':
			_, ok = name(shortDays)
		case 'A':
			_, ok = name(dayNames)
		case 'p':
			var v int64
			v, ok = name([]string{"AM", "PM"})
			pm = v == 1
		case '%':
			ok = pos < len(s) && s[pos] == '%'
			pos++
		default:
			return Datum{}, badSpecifier(format, fmt.Sprintf("Unrecognized format for strftime/strptime: %%%c", format[i]))
		}
		if !ok {
			return fail()
		}
	}
	if pos != len(s) {
		return fail()
	}
	if twelve {
		if h < 1 || h > 12 {
			return fail()
		}
		h %= 12
		if pm {
			h += 12
		}
	}
	if m < 1 || m > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return fail()
	}
	var days int64
	if weeks != 0 {
		days = weekDay(weeks, y, week, weekday, isoWeekday)
	} else if d > monthDays(y, m) {
		if m != 1 || d > 366 || d > 365 && monthDays(y, 2) == 28 {
			return Datum{}, fmt.Errorf("%w: Date out of range: %d-%d-%d", ErrConversion, y, m, d)
		}
		days = daysFromCivil(y, 1, 1) + d - 1 // a day of the year (%j)
	} else {
		days = daysFromCivil(y, m, d)
	}
	return Datum{I: days*microsPerDay + (h*3600+mi*60+sec)*1e6 + frac/1000}, nil
}

// weekDay is the day number of a date given by weeks: ISO year y's week
// and ISO weekday (1 Monday) for 'G'; for 'U' and 'W', the week of year y
// counted from its first Sunday or Monday (week 0 holds the days before)
// and a weekday (0 Sunday; -1 for the week's first day).
func weekDay(weeks byte, y, week, weekday, isoWeekday int64) int64 {
	dow := func(days int64) int64 { return ((days+4)%7 + 7) % 7 } // 0 Sunday
	if weeks == 'G' {
		jan4 := daysFromCivil(y, 1, 4)
		monday := jan4 - (dow(jan4)+6)%7
		return monday + (week-1)*7 + isoWeekday - 1
	}
	jan1 := daysFromCivil(y, 1, 1)
	start := jan1 + (7-dow(jan1))%7 // the first Sunday
	offset := max(weekday, 0)
	if weeks == 'W' {
		start = jan1 + (8-dow(jan1))%7 // the first Monday
		if weekday >= 0 {
			offset = (weekday + 6) % 7
		}
	}
	return start + (week-1)*7 + offset
}
