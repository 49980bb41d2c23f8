package planner

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// A datePart is one part date_part and extract know, with the names
// DuckDB accepts for it.
type datePart int

const (
	partYear datePart = iota
	partMonth
	partDay
	partDecade
	partCentury
	partMillennium
	partMicrosecond
	partMillisecond
	partSecond
	partMinute
	partHour
	partEpoch
	partDOW
	partISODOW
	partWeek
	partISOYear
	partQuarter
	partDOY
	partYearWeek
	partEra
	partTimezone
	partTimezoneHour
	partTimezoneMinute
	partJulian
	partNanosecond
	numDateParts
)

// dateParts maps every specifier DuckDB accepts to its part.
var dateParts = map[string]datePart{
	"year": partYear, "yr": partYear, "y": partYear, "years": partYear, "yrs": partYear,
	"month": partMonth, "mon": partMonth, "months": partMonth, "mons": partMonth,
	"day": partDay, "days": partDay, "d": partDay, "dayofmonth": partDay,
	"decade": partDecade, "dec": partDecade, "decades": partDecade, "decs": partDecade,
	"century": partCentury, "cent": partCentury, "centuries": partCentury, "c": partCentury,
	"millennium": partMillennium, "mil": partMillennium, "millenniums": partMillennium, "millennia": partMillennium, "mils": partMillennium, "millenium": partMillennium,
	"microseconds": partMicrosecond, "microsecond": partMicrosecond, "us": partMicrosecond, "usec": partMicrosecond, "usecs": partMicrosecond, "usecond": partMicrosecond, "useconds": partMicrosecond,
	"milliseconds": partMillisecond, "millisecond": partMillisecond, "ms": partMillisecond, "msec": partMillisecond, "msecs": partMillisecond, "msecond": partMillisecond, "mseconds": partMillisecond,
	"second": partSecond, "sec": partSecond, "seconds": partSecond, "secs": partSecond, "s": partSecond,
	"minute": partMinute, "min": partMinute, "minutes": partMinute, "mins": partMinute, "m": partMinute,
	"hour": partHour, "hr": partHour, "hours": partHour, "hrs": partHour, "h": partHour,
	"epoch": partEpoch,
	"dow":   partDOW, "dayofweek": partDOW, "weekday": partDOW,
	"isodow": partISODOW,
	"week":   partWeek, "weeks": partWeek, "w": partWeek, "weekofyear": partWeek,
	"doy": partDOY, "dayofyear": partDOY,
	"quarter": partQuarter, "quarters": partQuarter,
	"isoyear":  partISOYear,
	"yearweek": partYearWeek,
	"era":      partEra,
	"timezone": partTimezone, "timezone_hour": partTimezoneHour, "timezone_minute": partTimezoneMinute,
	"julian": partJulian,
}

// partFuncs are the one-part functions: year(x) is date_part('year', x).
var partFuncs = map[string]datePart{
	"year": partYear, "month": partMonth, "day": partDay, "dayofmonth": partDay, "decade": partDecade,
	"century": partCentury, "millennium": partMillennium, "quarter": partQuarter,
	"dayofweek": partDOW, "weekday": partDOW, "isodow": partISODOW, "dayofyear": partDOY,
	"week": partWeek, "weekofyear": partWeek, "isoyear": partISOYear, "yearweek": partYearWeek,
	"hour": partHour, "minute": partMinute, "second": partSecond, "millisecond": partMillisecond,
	"microsecond": partMicrosecond, "nanosecond": partNanosecond, "era": partEra, "epoch": partEpoch,
	"julian": partJulian, "timezone": partTimezone, "timezone_hour": partTimezoneHour, "timezone_minute": partTimezoneMinute,
}

// The date and time functions.
func init() {
	for name := range partFuncs {
		registerScalar(&ScalarFunc{Name: name, Bind: bindPartFunc, Eval: evalPartFunc})
	}
	registerScalar(
		&ScalarFunc{Name: "date_part", Aliases: []string{"datepart"}, Bind: bindDatePart, Eval: evalDatePart},
		&ScalarFunc{Name: "date_trunc", Aliases: []string{"datetrunc"}, Bind: bindDateTrunc, Eval: evalDateTrunc},
		&ScalarFunc{Name: "date_diff", Aliases: []string{"datediff"}, Bind: bindDateDiff, Eval: evalDateDiff},
		&ScalarFunc{Name: "date_sub", Aliases: []string{"datesub"}, Bind: bindDateDiff, Eval: evalDateSub},
		&ScalarFunc{Name: "make_date", Bind: fixed(3, 3, tDate, tBigInt), Eval: evalMakeDate},
		&ScalarFunc{Name: "make_timestamp", Bind: bindMakeTimestamp, Eval: evalMakeTimestamp},
		&ScalarFunc{Name: "last_day", Bind: bindOneDate(tDate), Eval: evalLastDay},
		&ScalarFunc{Name: "monthname", Bind: bindOneDate(tVarchar), Eval: evalMonthName},
		&ScalarFunc{Name: "dayname", Bind: bindOneDate(tVarchar), Eval: evalDayName},
		&ScalarFunc{Name: "epoch_ms", Bind: bindEpochUnit, Eval: evalEpochUnit},
		&ScalarFunc{Name: "epoch_us", Bind: bindEpochUnit, Eval: evalEpochUnit},
		&ScalarFunc{Name: "epoch_ns", Bind: bindEpochUnit, Eval: evalEpochUnit},
		&ScalarFunc{Name: "to_timestamp", Bind: fixed(1, 1, Type{ID: TypeTimestampTZ}, tDouble), Eval: evalToTimestamp},
	)
}

// dateArg checks (and casts a string to) a date or timestamp argument.
func dateArg(name string, args []Expr, i int) error {
	t := args[i].Type()
	if t.ID == TypeVarchar {
		x, err := castTo(args[i], tTimestamp)
		if err != nil {
			return err
		}
		args[i] = x
		return nil
	}
	if t.ID != TypeDate && !isTimestamp(t) && t.ID != TypeNull {
		return noMatch(name, args)
	}
	return nil
}

// partType is the result type of a part: DOUBLE for epoch and julian.
func partType(p datePart) Type {
	if p == partEpoch || p == partJulian {
		return tDouble
	}
	return tBigInt
}

func bindPartFunc(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	if args[0].Type().ID == TypeInterval {
		return newCall(f, args, partType(partFuncs[f.Name])), nil
	}
	if err := dateArg(f.Name, args, 0); err != nil {
		return nil, err
	}
	return newCall(f, args, partType(partFuncs[f.Name])), nil
}

func evalPartFunc(c *Call, a []Datum) (Datum, error) {
	return partOf(partFuncs[c.Name], a[0], c.Args[0].Type())
}

// unknownPart is DuckDB's error for a specifier it does not know.
func unknownPart(s string) error {
	return fmt.Errorf("%w: extract specifier \"%s\" not recognized", ErrConversion, s)
}

func bindDatePart(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	if err := castArgs(args[:1], tVarchar); err != nil {
		return nil, err
	}
	if args[1].Type().ID != TypeInterval {
		if err := dateArg(f.Name, args, 1); err != nil {
			return nil, err
		}
	}
	t := tBigInt
	if c, ok := args[0].(*Const); ok && !c.Value.Null {
		p, ok := dateParts[strings.ToLower(c.Value.S)]
		if d, isConst := args[1].(*Const); !ok && isConst && d.Value.Null {
			// DuckDB folds a NULL date to NULL before reading the part.
			return &Const{Value: NullDatum, T: tBigInt}, nil
		}
		if !ok {
			return nil, unknownPart(c.Value.S)
		}
		t = partType(p)
	} else {
		return nil, fmt.Errorf("%w: date_part with a part that is not constant", ErrNotImplemented)
	}
	return newCall(f, args, t), nil
}

func evalDatePart(c *Call, a []Datum) (Datum, error) {
	p, ok := dateParts[strings.ToLower(a[0].S)]
	if !ok {
		return Datum{}, unknownPart(a[0].S)
	}
	return partOf(p, a[1], c.Args[1].Type())
}

// timeOf splits a DATE or TIMESTAMP datum into days and nanoseconds of day.
func timeOf(d Datum, t Type) (days, nanos int64) {
	switch t.ID {
	case TypeDate:
		return d.I, 0
	case TypeTimestampNS:
		const perDay = microsPerDay * 1000
		return floorDiv(d.I, perDay), d.I - floorDiv(d.I, perDay)*perDay
	}
	return floorDiv(d.I, microsPerDay), (d.I - floorDiv(d.I, microsPerDay)*microsPerDay) * 1000
}

// isoWeek is the ISO 8601 year and week of a day.
func isoWeek(days int64) (year, week int64) {
	dow := (days%7 + 10) % 7 // days since Monday
	thursday := days - dow + 3
	y, _, _ := civil(thursday)
	return y, (thursday-daysFromCivil(y, 1, 1))/7 + 1
}

// partOf computes one part of a date or timestamp, as DuckDB does.
func partOf(p datePart, d Datum, t Type) (Datum, error) {
	if t.ID == TypeInterval {
		return intervalPart(p, IntervalOf(d.Bytes)) // registry_intervals.go
	}
	return partValue(p, d, t)
}

// partValue is partOf's value; a part it does not handle is an error,
// never a default.
func partValue(p datePart, d Datum, t Type) (Datum, error) {
	days, ns := timeOf(d, t)
	y, m, dd := civil(days)
	us := ns / 1000
	switch p {
	case partYear:
		return Datum{I: y}, nil
	case partMonth:
		return Datum{I: m}, nil
	case partDay:
		return Datum{I: dd}, nil
	case partDecade:
		return Datum{I: y / 10}, nil
	case partCentury:
		if y > 0 {
			return Datum{I: (y-1)/100 + 1}, nil
		}
		return Datum{I: -((-y)/100 + 1)}, nil
	case partMillennium:
		if y > 0 {
			return Datum{I: (y-1)/1000 + 1}, nil
		}
		return Datum{I: -((-y)/1000 + 1)}, nil
	case partQuarter:
		return Datum{I: (m-1)/3 + 1}, nil
	case partDOW:
		return Datum{I: (days%7 + 11) % 7}, nil // 1970-01-01 was a Thursday (4)
	case partISODOW:
		return Datum{I: (days%7+10)%7 + 1}, nil
	case partDOY:
		return Datum{I: days - daysFromCivil(y, 1, 1) + 1}, nil
	case partWeek:
		_, w := isoWeek(days)
		return Datum{I: w}, nil
	case partISOYear:
		iy, _ := isoWeek(days)
		return Datum{I: iy}, nil
	case partYearWeek:
		// DuckDB negates the week for years up to 0 (1 BC): 0001-01-01 - 3
		// is -52.
		iy, w := isoWeek(days)
		if iy <= 0 {
			return Datum{I: iy*100 - w}, nil
		}
		return Datum{I: iy*100 + w}, nil
	case partHour:
		return Datum{I: us / 3600e6}, nil
	case partMinute:
		return Datum{I: us / 60e6 % 60}, nil
	case partSecond:
		return Datum{I: us / 1e6 % 60}, nil
	case partMillisecond:
		return Datum{I: us % 60e6 / 1000}, nil
	case partMicrosecond:
		return Datum{I: us % 60e6}, nil
	case partNanosecond:
		return Datum{I: ns % 60e9}, nil
	case partEra:
		return Datum{I: int64(b2i(y > 0))}, nil
	case partTimezone, partTimezoneHour, partTimezoneMinute:
		if t.ID == TypeDate {
			return Datum{}, fmt.Errorf("%w: \"date\" units \"%s\" not recognized", ErrNotImplemented, partName(p))
		}
		// pqsql's only time zone is UTC.
		return Datum{I: 0}, nil
	case partEpoch:
		switch t.ID {
		case TypeDate:
			return Datum{F: float64(days * 86400)}, nil
		case TypeTimestampNS:
			// DuckDB counts the epoch of TIMESTAMP_NS in microseconds too.
			return Datum{F: float64(floorDiv(d.I, 1000)) / 1e6}, nil
		}
		return Datum{F: float64(d.I) / 1e6}, nil
	case partJulian:
		return Datum{F: float64(days+2440588) + float64(ns)/(86400e9)}, nil
	}
	return Datum{}, fmt.Errorf("%w: date part %s", ErrNotImplemented, partName(p))
}

// partName is a part's canonical name, as its one-part function is named.
func partName(p datePart) string {
	best := ""
	for n, q := range partFuncs {
		if q == p && (best == "" || n < best) {
			best = n
		}
	}
	return best
}

func daysFromCivil(y, m, d int64) int64 {
	return floorDiv(timeUnix(y, m, d), 86400)
}

func bindDateTrunc(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	if err := castArgs(args[:1], tVarchar); err != nil {
		return nil, err
	}
	if args[1].Type().ID != TypeInterval {
		if err := dateArg(f.Name, args, 1); err != nil {
			return nil, err
		}
	}
	if c, ok := args[0].(*Const); ok && !c.Value.Null {
		if _, ok := dateParts[strings.ToLower(c.Value.S)]; !ok {
			return nil, unknownPart(c.Value.S)
		}
	}
	// DuckDB truncates DATE and TIMESTAMP_NS to TIMESTAMP.
	t := args[1].Type()
	if t.ID == TypeDate || t.ID == TypeTimestampNS || t.ID == TypeNull {
		t = tTimestamp
	}
	return newCall(f, args, t), nil
}

func evalDateTrunc(c *Call, a []Datum) (Datum, error) {
	p, ok := dateParts[strings.ToLower(a[0].S)]
	if !ok {
		return Datum{}, unknownPart(a[0].S)
	}
	if c.Args[1].Type().ID == TypeInterval {
		return truncInterval(p, IntervalOf(a[1].Bytes)) // registry_intervals.go
	}
	days, ns := timeOf(a[1], c.Args[1].Type())
	us := ns / 1000
	y, m, _ := civil(days)
	switch p {
	case partMillennium:
		days, us = daysFromCivil(floorDiv(y, 1000)*1000, 1, 1), 0
	case partCentury:
		days, us = daysFromCivil(floorDiv(y, 100)*100, 1, 1), 0
	case partDecade:
		days, us = daysFromCivil(floorDiv(y, 10)*10, 1, 1), 0
	case partYear:
		days, us = daysFromCivil(y, 1, 1), 0
	case partQuarter:
		days, us = daysFromCivil(y, (m-1)/3*3+1, 1), 0
	case partMonth:
		days, us = daysFromCivil(y, m, 1), 0
	case partWeek, partYearWeek:
		days, us = days-(days%7+10)%7, 0 // weeks start on Monday
	case partISOYear:
		iy, _ := isoWeek(days)
		jan4 := daysFromCivil(iy, 1, 4)
		days, us = jan4-(jan4%7+10)%7, 0
	case partDay, partDOW, partISODOW, partDOY, partJulian:
		us = 0
	case partHour:
		us = us / 3600e6 * 3600e6
	case partMinute:
		us = us / 60e6 * 60e6
	case partSecond:
		us = us / 1e6 * 1e6
	case partMillisecond:
		us = us / 1000 * 1000
	case partMicrosecond, partNanosecond:
	default:
		return Datum{}, fmt.Errorf("%w: Specifier type not implemented for DATETRUNC", ErrNotImplemented)
	}
	if c.T.ID == TypeTimestampNS {
		return Datum{I: (days*microsPerDay + us) * 1000}, nil
	}
	return Datum{I: days*microsPerDay + us}, nil
}

func bindDateDiff(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 3, 3); err != nil {
		return nil, err
	}
	if err := castArgs(args[:1], tVarchar); err != nil {
		return nil, err
	}
	for i := 1; i < 3; i++ {
		if err := dateArg(f.Name, args, i); err != nil {
			return nil, err
		}
	}
	xs, err := unify(args[1], args[2])
	if err != nil {
		return nil, err
	}
	args[1], args[2] = xs[0], xs[1]
	if c, ok := args[0].(*Const); ok && !c.Value.Null {
		if _, ok := dateParts[strings.ToLower(c.Value.S)]; !ok {
			return nil, unknownPart(c.Value.S)
		}
	}
	return newCall(f, args, tBigInt), nil
}

// evalDateDiff counts the part boundaries between two instants, as
// DuckDB's date_diff does: calendar parts from the fields, clock parts
// from the instants truncated to the part.
func evalDateDiff(c *Call, a []Datum) (Datum, error) {
	p, ok := dateParts[strings.ToLower(a[0].S)]
	if !ok {
		return Datum{}, unknownPart(a[0].S)
	}
	t := c.Args[1].Type()
	d1, n1 := timeOf(a[1], t)
	d2, n2 := timeOf(a[2], t)
	y1, m1, _ := civil(d1)
	y2, m2, _ := civil(d2)
	switch p {
	case partYear:
		return Datum{I: y2 - y1}, nil
	case partMonth:
		return Datum{I: (y2*12 + m2) - (y1*12 + m1)}, nil
	case partQuarter:
		return Datum{I: (y2*4 + (m2-1)/3) - (y1*4 + (m1-1)/3)}, nil
	case partDecade:
		return Datum{I: y2/10 - y1/10}, nil
	case partCentury:
		return Datum{I: y2/100 - y1/100}, nil
	case partMillennium:
		return Datum{I: y2/1000 - y1/1000}, nil
	case partDay, partDOW, partISODOW, partDOY, partJulian:
		return Datum{I: d2 - d1}, nil
	case partWeek, partYearWeek:
		return Datum{I: (d2 - d1) / 7}, nil
	case partISOYear:
		i1, _ := isoWeek(d1)
		i2, _ := isoWeek(d2)
		return Datum{I: i2 - i1}, nil
	}
	us1, us2 := d1*microsPerDay+n1/1000, d2*microsPerDay+n2/1000
	var unit int64
	switch p {
	case partHour:
		unit = 3600e6
	case partMinute:
		unit = 60e6
	case partSecond:
		unit = 1e6
	case partMillisecond:
		unit = 1000
	case partMicrosecond:
		unit = 1
	case partNanosecond:
		return Datum{I: (d2-d1)*microsPerDay*1000 + n2 - n1}, nil
	default:
		return Datum{}, fmt.Errorf("%w: Specifier type not implemented for DATEDIFF", ErrNotImplemented)
	}
	return Datum{I: floorDiv(us2, unit) - floorDiv(us1, unit)}, nil
}

// daysIn is the number of days of month m of year y.
func monthDays(y, m int64) int64 { return daysIn(y, m) }

func evalMakeDate(_ *Call, a []Datum) (Datum, error) {
	y, m, d := a[0].I, a[1].I, a[2].I
	if m < 1 || m > 12 || d < 1 || d > monthDays(y, m) || y < -290000 || y > 294000 {
		return Datum{}, fmt.Errorf("%w: Date out of range: %d-%d-%d", ErrConversion, y, m, d)
	}
	return Datum{I: daysFromCivil(y, m, d)}, nil
}

func bindMakeTimestamp(f *ScalarFunc, args []Expr) (Expr, error) {
	switch len(args) {
	case 1:
		return fixed(1, 1, tTimestamp, tBigInt)(f, args)
	case 6:
		if err := castArgs(args[:5], tBigInt); err != nil {
			return nil, err
		}
		if err := castArgs(args[5:], tDouble); err != nil {
			return nil, err
		}
		return newCall(f, args, tTimestamp), nil
	}
	return nil, noMatch(f.Name, args)
}

func evalMakeTimestamp(_ *Call, a []Datum) (Datum, error) {
	if len(a) == 1 {
		return Datum{I: a[0].I}, nil
	}
	y, m, d, h, mi, s := a[0].I, a[1].I, a[2].I, a[3].I, a[4].I, a[5].F
	if m < 1 || m > 12 || d < 1 || d > monthDays(y, m) || y < -290000 || y > 294000 {
		return Datum{}, fmt.Errorf("%w: Date out of range: %d-%d-%d", ErrConversion, y, m, d)
	}
	if h < 0 || h > 24 || mi < 0 || mi >= 60 || s <= -1 || s >= 60 || math.IsNaN(s) {
		return Datum{}, fmt.Errorf("%w: Time out of range: %d:%d:%s", ErrConversion, h, mi, AppendText(nil, Datum{F: s}, tDouble))
	}
	// As DuckDB: whole seconds, then the fraction rounded to microseconds,
	// so -1e-300 is 0 but -0.0000005 (-1 µs) is out of range.
	whole := math.Trunc(s)
	us := int64(math.Round((s - whole) * 1e6))
	if us < 0 {
		return Datum{}, fmt.Errorf("%w: Time out of range: %d:%d:%d.%d", ErrConversion, h, mi, int64(whole), us)
	}
	return Datum{I: daysFromCivil(y, m, d)*microsPerDay + h*3600e6 + mi*60e6 + int64(whole)*1e6 + us}, nil
}

// bindOneDate binds a function of one date or timestamp with result t.
func bindOneDate(t Type) func(f *ScalarFunc, args []Expr) (Expr, error) {
	return func(f *ScalarFunc, args []Expr) (Expr, error) {
		if err := arity(f, args, 1, 1); err != nil {
			return nil, err
		}
		if err := dateArg(f.Name, args, 0); err != nil {
			return nil, err
		}
		return newCall(f, args, t), nil
	}
}

func evalLastDay(c *Call, a []Datum) (Datum, error) {
	days, _ := timeOf(a[0], c.Args[0].Type())
	y, m, _ := civil(days)
	return Datum{I: daysFromCivil(y, m, monthDays(y, m))}, nil
}

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	dayNames   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

func evalMonthName(c *Call, a []Datum) (Datum, error) {
	days, _ := timeOf(a[0], c.Args[0].Type())
	_, m, _ := civil(days)
	return Datum{S: monthNames[m-1]}, nil
}

func evalDayName(c *Call, a []Datum) (Datum, error) {
	days, _ := timeOf(a[0], c.Args[0].Type())
	return Datum{S: dayNames[(days%7+11)%7]}, nil
}

// bindEpochUnit binds epoch_ms/us/ns: of a timestamp, the ticks since the
// epoch; of an integer (epoch_ms only), the TIMESTAMP that many
// milliseconds after it.
func bindEpochUnit(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	if f.Name == "epoch_ms" && args[0].Type().IsInteger() {
		if id := args[0].Type().ID; id == TypeHugeInt || id == TypeUBigInt {
			// Neither casts to BIGINT implicitly: epoch_ms(factorial(1))
			// is a binder error in DuckDB.
			return nil, noMatch(f.Name, args)
		}
		if err := castArgs(args, tBigInt); err != nil {
			return nil, err
		}
		return newCall(f, args, tTimestamp), nil
	}
	if args[0].Type().ID == TypeInterval {
		return newCall(f, args, tBigInt), nil
	}
	if err := dateArg(f.Name, args, 0); err != nil {
		return nil, err
	}
	return newCall(f, args, tBigInt), nil
}

func evalEpochUnit(c *Call, a []Datum) (Datum, error) {
	t := c.Args[0].Type()
	if t.ID == TypeInterval {
		return intervalEpochUnit(c.Name, IntervalOf(a[0].Bytes)) // registry_intervals.go
	}
	if t.ID == TypeBigInt {
		if a[0].I > math.MaxInt64/1000 || a[0].I < math.MinInt64/1000 {
			return Datum{}, fmt.Errorf("%w: Could not convert Timestamp(MS) to Timestamp(US)", ErrConversion)
		}
		return Datum{I: a[0].I * 1000}, nil
	}
	days, ns := timeOf(a[0], t)
	// DuckDB divides the instant's count, truncating toward zero: a
	// microsecond before 1970 is epoch_ms 0. The time of day is never
	// negative, so only instants before 1970 round up.
	up := func(rem int64) int64 {
		if days < 0 && rem != 0 {
			return 1
		}
		return 0
	}
	switch c.Name {
	case "epoch_ms":
		return Datum{I: days*86400e3 + floorDiv(ns, 1e6) + up(ns%1e6)}, nil
	case "epoch_us":
		return Datum{I: days*microsPerDay + floorDiv(ns, 1000) + up(ns%1000)}, nil
	}
	// Nanoseconds since the epoch fit 64 bits for about 292 years either way.
	v := new(big.Int).Add(new(big.Int).Mul(big.NewInt(days), big.NewInt(microsPerDay*1000)), big.NewInt(ns))
	if !v.IsInt64() {
		return Datum{}, fmt.Errorf("%w: Could not convert Timestamp(US) to Timestamp(NS)", ErrConversion)
	}
	return Datum{I: v.Int64()}, nil
}

func evalToTimestamp(_ *Call, a []Datum) (Datum, error) {
	v := a[0].F * 1e6
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) >= 9.2e18 {
		return Datum{}, fmt.Errorf("%w: Could not convert DOUBLE to TIMESTAMP: %s is out of range", ErrOutOfRange, AppendText(nil, a[0], tDouble))
	}
	return Datum{I: int64(math.Round(v))}, nil
}

// evalDateSub counts the complete parts between two instants, as DuckDB's
// date_sub does: months (and the parts made of months) count only when
// the end's day and time of month reach the start's, the end of a month
// counting as reaching any later day; clock parts divide the elapsed time,
// truncated toward zero.
func evalDateSub(c *Call, a []Datum) (Datum, error) {
	p, ok := dateParts[strings.ToLower(a[0].S)]
	if !ok {
		return Datum{}, unknownPart(a[0].S)
	}
	t := c.Args[1].Type()
	d1, n1 := timeOf(a[1], t)
	d2, n2 := timeOf(a[2], t)
	us1, us2 := d1*microsPerDay+n1/1000, d2*microsPerDay+n2/1000
	monthsPer := map[datePart]int64{partYear: 12, partQuarter: 3, partMonth: 1, partDecade: 120, partCentury: 1200, partMillennium: 12000, partISOYear: 12}
	if per, ok := monthsPer[p]; ok {
		return Datum{I: completeMonths(d1, n1, d2, n2) / per}, nil
	}
	var unit int64
	switch p {
	case partDay, partDOW, partISODOW, partDOY, partJulian:
		unit = microsPerDay
	case partWeek, partYearWeek:
		unit = 7 * microsPerDay
	case partHour:
		unit = 3600e6
	case partMinute:
		unit = 60e6
	case partSecond:
		unit = 1e6
	case partMillisecond:
		unit = 1000
	case partMicrosecond:
		unit = 1
	default:
		return Datum{}, fmt.Errorf("%w: Specifier type not implemented for DATESUB", ErrNotImplemented)
	}
	return Datum{I: (us2 - us1) / unit}, nil
}

// completeMonths is the number of whole months from the first instant to
// the second (negative when the second is earlier).
func completeMonths(d1, n1, d2, n2 int64) int64 {
	if d2*microsPerDay*1000+n2 < d1*microsPerDay*1000+n1 {
		return -completeMonths(d2, n2, d1, n1)
	}
	y1, m1, dd1 := civil(d1)
	y2, m2, dd2 := civil(d2)
	months := (y2*12 + m2) - (y1*12 + m1)
	if dd2 == monthDays(y2, m2) {
		// The last day of a month reaches every later day of the month.
		dd2 = max(dd2, dd1)
	}
	if dd2 < dd1 || dd2 == dd1 && n2 < n1 {
		months--
	}
	return months
}
