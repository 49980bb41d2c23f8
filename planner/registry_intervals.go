package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The interval functions: the to_* constructors INTERVAL <n> <unit> calls,
// age, and the interval side of date_part, epoch and date_trunc.
func init() {
	for _, c := range intervalConstructors {
		registerScalar(&ScalarFunc{Name: c.name, Bind: bindToInterval, Eval: evalToInterval})
	}
	registerScalar(
		&ScalarFunc{Name: "age", Bind: bindAge, Eval: evalAge},
		// date_add(a, b) is DuckDB's a + b, every overload.
		&ScalarFunc{Name: "date_add", Bind: bindDateAdd, Eval: evalDateAdd},
	)
}

// An intervalConstructor builds an interval of n units: months, days or
// microseconds times mult. arg is its argument type: BIGINT (INTEGER
// arguments too), DOUBLE for seconds and milliseconds.
type intervalConstructor struct {
	name  string
	field byte // 'm' months, 'd' days, 'u' microseconds
	mult  int64
	arg   Type
	// unit names the unit in the out-of-range error; "" where DuckDB
	// reports the failed INT32 cast instead.
	unit string
}

var intervalConstructors = []intervalConstructor{
	{"to_millennia", 'm', 12000, tBigInt, "millennia"},
	{"to_centuries", 'm', 1200, tBigInt, "centuries"},
	{"to_decades", 'm', 120, tBigInt, "decades"},
	{"to_years", 'm', 12, tBigInt, "years"},
	{"to_quarters", 'm', 3, tBigInt, "quarters"},
	{"to_months", 'm', 1, tBigInt, ""},
	{"to_weeks", 'd', 7, tBigInt, "weeks"},
	{"to_days", 'd', 1, tBigInt, ""},
	{"to_hours", 'u', microsPerHour, tBigInt, "hours"},
	{"to_minutes", 'u', microsPerMinute, tBigInt, "minutes"},
	{"to_seconds", 'u', microsPerSec, tDouble, "seconds"},
	{"to_milliseconds", 'u', 1000, tDouble, "milliseconds"},
	{"to_microseconds", 'u', 1, tBigInt, ""},
}

func constructorOf(name string) intervalConstructor {
	for _, c := range intervalConstructors {
		if c.name == name {
			return c
		}
	}
	return intervalConstructor{}
}

func bindToInterval(f *ScalarFunc, args []Expr) (Expr, error) {
	return fixed(1, 1, tInterval, constructorOf(f.Name).arg)(f, args)
}

func evalToInterval(c *Call, a []Datum) (Datum, error) {
	k := constructorOf(c.Name)
	if k.arg == tDouble {
		v := a[0].F * float64(k.mult)
		r := math.RoundToEven(v)
		if math.IsNaN(r) || r < -9.223372036854775e18 || r >= 9.223372036854775e18 {
			// DuckDB prints the value with six decimals (C's %f).
			return Datum{}, fmt.Errorf("%w: Interval value %s %s out of range", ErrOutOfRange, strconv.FormatFloat(a[0].F, 'f', 6, 64), k.unit)
		}
		return Interval{Micros: int64(r)}.Datum(), nil
	}
	n := a[0].I
	if k.field != 'u' && (n < math.MinInt32 || n > math.MaxInt32) {
		return Datum{}, fmt.Errorf("%w: Type INT64 with value %d can't be cast because the value is out of range for the destination type INT32", ErrInvalidInput, n)
	}
	v, ok := mulInt64(n, k.mult)
	if !ok || k.field != 'u' && (v < math.MinInt32 || v > math.MaxInt32) {
		return Datum{}, fmt.Errorf("%w: Interval value %d %s out of range", ErrOutOfRange, n, k.unit)
	}
	switch k.field {
	case 'm':
		return Interval{Months: int32(v)}.Datum(), nil
	case 'd':
		return Interval{Days: int32(v)}.Datum(), nil
	}
	return Interval{Micros: v}.Datum(), nil
}

// intervalPart is date_part of an interval, as DuckDB defines it: the
// calendar parts from the months, day from the days, clock parts from
// the microseconds, each truncated toward zero; the parts a duration has
// no meaning for are errors.
func intervalPart(p datePart, iv Interval) (Datum, error) {
	m, d, us := int64(iv.Months), int64(iv.Days), iv.Micros
	switch p {
	case partYear:
		return Datum{I: m / 12}, nil
	case partMonth:
		return Datum{I: m % 12}, nil
	case partDay:
		return Datum{I: d}, nil
	case partDecade:
		return Datum{I: m / 120}, nil
	case partCentury:
		return Datum{I: m / 1200}, nil
	case partMillennium:
		return Datum{I: m / 12000}, nil
	case partQuarter:
		return Datum{I: m%12/3 + 1}, nil
	case partHour:
		return Datum{I: us / microsPerHour}, nil
	case partMinute:
		return Datum{I: us % microsPerHour / microsPerMinute}, nil
	case partSecond:
		return Datum{I: us % microsPerMinute / microsPerSec}, nil
	case partMillisecond:
		return Datum{I: us % microsPerMinute / 1000}, nil
	case partMicrosecond:
		return Datum{I: us % microsPerMinute}, nil
	case partEpoch:
		return Datum{F: intervalEpoch(iv)}, nil
	case partTimezone:
		return Datum{}, fmt.Errorf("%w: \"interval\" units \"timezone\" not recognized", ErrNotImplemented)
	}
	return Datum{}, fmt.Errorf("%w: interval units \"%s\" not recognized", ErrNotImplemented, intervalPartName(p))
}

// intervalPartName is the name DuckDB's errors give a part an interval
// lacks.
func intervalPartName(p datePart) string {
	switch p {
	case partDOW:
		return "dow"
	case partISODOW:
		return "isodow"
	case partDOY:
		return "doy"
	case partWeek:
		return "week"
	case partISOYear:
		return "isoyear"
	case partYearWeek:
		return "yearweek"
	case partEra:
		return "era"
	case partTimezoneHour:
		return "timezone_hour"
	case partTimezoneMinute:
		return "timezone_minute"
	}
	return strings.ToLower(partName(p))
}

// intervalEpoch is an interval's length in seconds as DuckDB's epoch
// counts it: a year is 365.25 days, any other month 30 days.
func intervalEpoch(iv Interval) float64 {
	years := int64(iv.Months / 12)
	days := 365*years + 30*int64(iv.Months%12) + int64(iv.Days)
	secs := days*86400 + years*(86400/4)
	return float64(secs) + float64(iv.Micros)/float64(microsPerSec)
}

// truncInterval is date_trunc of an interval: the fields below the part
// zeroed, the part's own field rounded toward zero to whole parts.
func truncInterval(p datePart, iv Interval) (Datum, error) {
	months := func(per int32) Interval { return Interval{Months: iv.Months / per * per} }
	switch p {
	case partMillennium:
		iv = months(12000)
	case partCentury:
		iv = months(1200)
	case partDecade:
		iv = months(120)
	case partYear, partISOYear:
		iv = months(12)
	case partQuarter:
		iv = months(3)
	case partMonth:
		iv = months(1)
	case partWeek, partYearWeek:
		iv = Interval{Months: iv.Months, Days: iv.Days / 7 * 7}
	case partDay, partDOW, partISODOW, partDOY, partJulian:
		iv.Micros = 0
	case partHour:
		iv.Micros = iv.Micros / microsPerHour * microsPerHour
	case partMinute:
		iv.Micros = iv.Micros / microsPerMinute * microsPerMinute
	case partSecond:
		iv.Micros = iv.Micros / microsPerSec * microsPerSec
	case partMillisecond:
		iv.Micros = iv.Micros / 1000 * 1000
	case partMicrosecond, partNanosecond:
	default:
		return Datum{}, fmt.Errorf("%w: Specifier type not implemented for DATETRUNC", ErrNotImplemented)
	}
	return iv.Datum(), nil
}

// bindAge binds age(end, start) on TIMESTAMPs (DATEs and text cast to
// them). The one-argument form counts from the current date, which pqsql
// does not implement; TIMESTAMP WITH TIME ZONE arguments take DuckDB's
// calendar-zone overload, which pqsql does not implement either.
func bindAge(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) == 1 {
		// age(x) is the age at today's midnight (UTC, pqsql's only zone),
		// fixed once for the statement as DuckDB fixes it at the start
		// of the transaction.
		today := floorDiv(time.Now().UnixMicro(), microsPerDay) * microsPerDay
		args = []Expr{&Const{Value: Datum{I: today}, T: tTimestamp}, args[0]}
	}
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	// TIMESTAMP WITH TIME ZONE values take ICU's age, which in UTC is the
	// plain one (DuckDB 1.5.6 agrees on 500,000 pairs around month ends)
	// but for infinities.
	for _, a := range args {
		if a.Type().ID == TypeTimestampTZ {
			f = ageTZFunc
		}
	}
	return fixed(2, 2, tInterval, tTimestamp)(f, args)
}

// ageTZFunc is age of TIMESTAMP WITH TIME ZONE values.
var ageTZFunc = &ScalarFunc{Name: "age", Eval: evalAgeTZ}

// evalAgeTZ is ICU's age in UTC. ICU reads an infinite timestamp as a
// date in year 294247 (off by a millisecond) where the plain age gives
// NULL; that answer is not reproduced.
func evalAgeTZ(c *Call, a []Datum) (Datum, error) {
	if !isFiniteTimestamp(a[0].I) || !isFiniteTimestamp(a[1].I) {
		return Datum{}, fmt.Errorf("%w: age of an infinite TIMESTAMP WITH TIME ZONE", ErrNotImplemented)
	}
	return evalAge(c, a)
}

// evalAge is DuckDB's age: the field-wise difference of the two
// timestamps, each negative field borrowing from the next larger one (a
// day borrows the length of the start's month, or the end's when the end
// is earlier); NULL when either is infinite.
func evalAge(_ *Call, a []Datum) (Datum, error) {
	t1, t2 := a[0].I, a[1].I
	if !isFiniteTimestamp(t1) || !isFiniteTimestamp(t2) {
		return NullDatum, nil
	}
	type parts struct{ y, mo, d, h, mi, s, us int64 }
	split := func(ts int64) parts {
		days := floorDiv(ts, microsPerDay)
		tod := ts - days*microsPerDay
		y, m, d := civil(days)
		return parts{y, m, d, tod / microsPerHour, tod / microsPerMinute % 60, tod / microsPerSec % 60, tod % microsPerSec}
	}
	p1, p2 := split(t1), split(t2)
	negative := t1 < t2
	diff := parts{p1.y - p2.y, p1.mo - p2.mo, p1.d - p2.d, p1.h - p2.h, p1.mi - p2.mi, p1.s - p2.s, p1.us - p2.us}
	flip := func() {
		diff = parts{-diff.y, -diff.mo, -diff.d, -diff.h, -diff.mi, -diff.s, -diff.us}
	}
	if negative {
		flip()
	}
	for diff.us < 0 {
		diff.us += microsPerSec
		diff.s--
	}
	for diff.s < 0 {
		diff.s += 60
		diff.mi--
	}
	for diff.mi < 0 {
		diff.mi += 60
		diff.h--
	}
	for diff.h < 0 {
		diff.h += 24
		diff.d--
	}
	for diff.d < 0 {
		if negative {
			diff.d += daysIn(p1.y, p1.mo)
		} else {
			diff.d += daysIn(p2.y, p2.mo)
		}
		diff.mo--
	}
	for diff.mo < 0 {
		diff.mo += 12
		diff.y--
	}
	if negative {
		flip()
	}
	return Interval{
		Months: int32(diff.y*12 + diff.mo),
		Days:   int32(diff.d),
		Micros: ((diff.h*60+diff.mi)*60+diff.s)*microsPerSec + diff.us,
	}.Datum(), nil
}

func bindDateAdd(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	return arithmetic("+", args[0], args[1])
}

// evalDateAdd is never reached: bindDateAdd binds the call as a + b.
func evalDateAdd(c *Call, _ []Datum) (Datum, error) {
	return Datum{}, fmt.Errorf("%w: %s evaluated unbound", ErrNotImplemented, c.Name)
}

// isIntervalAvg reports whether a is avg of intervals, which the planner
// accumulates while the executor averages numbers itself.
func isIntervalAvg(a *AggCall) bool {
	return a.Func == "avg" && a.Arg != nil && a.Arg.Type().ID == TypeInterval
}

// intervalAvgAcc is avg of intervals: the field-wise sum (overflowing
// fields fail, as DuckDB's interval addition does), divided field by field
// with each remainder carried into the next smaller field, as PostgreSQL
// and DuckDB do.
type intervalAvgAcc struct {
	n   int64
	sum Interval
	err error
}

func (s *intervalAvgAcc) Add(d Datum) {
	s.n++
	s.add(IntervalOf(d.Bytes))
}

func (s *intervalAvgAcc) add(iv Interval) {
	if s.err != nil {
		return
	}
	d, err := addIntervals(s.sum, iv)
	if err != nil {
		s.err = err
		return
	}
	s.sum = IntervalOf(d.Bytes)
}

func (s *intervalAvgAcc) Merge(later Accumulator) {
	o := later.(*intervalAvgAcc)
	s.n += o.n
	if o.err != nil && s.err == nil {
		s.err = o.err
	}
	s.add(o.sum)
}

func (s *intervalAvgAcc) Result() (Datum, error) {
	if s.err != nil {
		return Datum{}, s.err
	}
	if s.n == 0 {
		return NullDatum, nil
	}
	v, n := s.sum, s.n
	res := Interval{Months: int32(int64(v.Months) / n), Days: int32(int64(v.Days) / n), Micros: v.Micros / n}
	monthsRem := int64(v.Months) % n * daysPerMonth
	daysRem := int64(v.Days) % n
	res.Days += int32(monthsRem / n)
	daysRem += monthsRem % n
	res.Micros += v.Micros%n + daysRem*microsPerDay/n
	return res.Datum(), nil
}

// intervalEpochUnit is epoch_ms, epoch_us or epoch_ns of an interval: its
// length with 30-day months and 24-hour days, failing past BIGINT.
func intervalEpochUnit(name string, iv Interval) (Datum, error) {
	total := func(perMonth, perDay, micros int64, what string) (Datum, error) {
		m, ok1 := mulInt64(int64(iv.Months), perMonth)
		d, ok2 := mulInt64(int64(iv.Days), perDay)
		v, ok3 := addInt64(micros, m)
		if ok3 {
			v, ok3 = addInt64(v, d)
		}
		if !ok1 || !ok2 || !ok3 {
			return Datum{}, fmt.Errorf("%w: Could not convert %s", ErrConversion, what)
		}
		return Datum{I: v}, nil
	}
	switch name {
	case "epoch_ms":
		return total(microsPerMonth/1000, microsPerDay/1000, iv.Micros/1000, "Interval to Milliseconds")
	case "epoch_us":
		return total(microsPerMonth, microsPerDay, iv.Micros, "Interval to Microseconds")
	}
	us, err := total(microsPerMonth, microsPerDay, iv.Micros, "Interval to Microseconds")
	if err != nil {
		return Datum{}, err
	}
	ns, ok := mulInt64(us.I, 1000)
	if !ok {
		return Datum{}, fmt.Errorf("%w: Could not convert Interval to Nanoseconds", ErrConversion)
	}
	return Datum{I: ns}, nil
}
