package planner

import (
	"fmt"
	"math"
)

// Date and time arithmetic with intervals, as DuckDB's + - * / overloads
// define it. The binder keeps these operations as Binary nodes whose
// operand types say which overload was chosen (temporalArithmetic);
// evalTemporal computes them.

var (
	tInterval    = Type{ID: TypeInterval}
	tTime        = Type{ID: TypeTime}
	tTimestampTZ = Type{ID: TypeTimestampTZ}
)

// isTemporalOperand reports whether t takes part in interval arithmetic.
func isTemporalOperand(t Type) bool {
	switch t.ID {
	case TypeInterval, TypeTime, TypeTimestamp, TypeTimestampTZ, TypeTimestampNS:
		return true
	}
	return false
}

// temporalArithmetic binds op on operands at least one of which is an
// INTERVAL, TIME or TIMESTAMP, with DuckDB's overloads; ok is false when
// neither is.
func temporalArithmetic(op string, l, r Expr) (x Expr, ok bool, err error) {
	lt, rt := l.Type(), r.Type()
	if !isTemporalOperand(lt) && !isTemporalOperand(rt) {
		return nil, false, nil
	}
	// A string literal takes the type of the one overload the other
	// operand leaves; where two are left, DuckDB refuses to choose.
	if ambiguousTemporal(op, l, r) {
		return nil, true, binderError("Could not choose a best candidate function for the function call \"%s(%s, %s)\". In order to select one, please add explicit type casts.", op, argKind(l), argKind(r))
	}
	if isStringLiteral(r) && (op == "+" || op == "-") {
		if r, err = castTo(r, tInterval); err != nil {
			return nil, true, err
		}
		rt = tInterval
	}
	if isStringLiteral(r) && op == "/" {
		if r, err = castTo(r, tDouble); err != nil {
			return nil, true, err
		}
		rt = tDouble
	}
	if isStringLiteral(l) && op == "+" {
		if l, err = castTo(l, tInterval); err != nil {
			return nil, true, err
		}
		lt = tInterval
	}
	// TIMESTAMP_NS meets intervals as TIMESTAMP.
	if lt.ID == TypeTimestampNS {
		if l, err = castTo(l, tTimestamp); err != nil {
			return nil, true, err
		}
		lt = tTimestamp
	}
	if rt.ID == TypeTimestampNS {
		if r, err = castTo(r, tTimestamp); err != nil {
			return nil, true, err
		}
		rt = tTimestamp
	}
	bin := func(l, r Expr, t Type) (Expr, bool, error) {
		return &Binary{Op: op, L: l, R: r, T: t}, true, nil
	}
	// pointType is the result of adding an interval to a point in time:
	// DATE becomes TIMESTAMP.
	pointType := func(t Type) (Type, bool) {
		switch t.ID {
		case TypeDate, TypeTimestamp:
			return tTimestamp, true
		case TypeTimestampTZ:
			return tTimestampTZ, true
		case TypeTime:
			return tTime, true
		}
		return Type{}, false
	}
	switch op {
	case "+":
		switch {
		case lt.ID == TypeInterval && rt.ID == TypeInterval:
			return bin(l, r, tInterval)
		case lt.ID == TypeDate && rt.ID == TypeTime, lt.ID == TypeTime && rt.ID == TypeDate:
			return bin(l, r, tTimestamp)
		case rt.ID == TypeInterval:
			if t, ok := pointType(lt); ok {
				return bin(l, r, t)
			}
		case lt.ID == TypeInterval:
			if t, ok := pointType(rt); ok {
				return bin(l, r, t)
			}
		}
	case "-":
		switch {
		case lt.ID == TypeInterval && rt.ID == TypeInterval:
			return bin(l, r, tInterval)
		case rt.ID == TypeInterval:
			if t, ok := pointType(lt); ok {
				return bin(l, r, t)
			}
		case (isTimestamp(lt) || lt.ID == TypeDate) && (isTimestamp(rt) || rt.ID == TypeDate):
			// The difference of two instants, exact in days and
			// microseconds; a DATE counts as its midnight.
			t := tTimestamp
			if lt.ID == TypeTimestampTZ || rt.ID == TypeTimestampTZ {
				t = tTimestampTZ
			}
			if l, err = castTo(l, t); err != nil {
				return nil, true, err
			}
			if r, err = castTo(r, t); err != nil {
				return nil, true, err
			}
			return bin(l, r, tInterval)
		}
	case "*":
		switch {
		case lt.ID == TypeInterval && rt.IsNumeric():
			if r, err = castTo(r, scaleType(rt)); err != nil {
				return nil, true, err
			}
			return bin(l, r, tInterval)
		case rt.ID == TypeInterval && lt.IsNumeric():
			if l, err = castTo(l, scaleType(lt)); err != nil {
				return nil, true, err
			}
			return bin(l, r, tInterval)
		}
	case "/":
		if lt.ID == TypeInterval && rt.IsNumeric() {
			if r, err = castTo(r, tDouble); err != nil {
				return nil, true, err
			}
			return bin(l, r, tInterval)
		}
	}
	return nil, true, binderError("No function matches the given name and argument types '%s(%s, %s)'. You might need to add explicit type casts.", op, argKind(l), argKind(r))
}

// ambiguousTemporal reports whether a string literal meets a temporal
// operand where DuckDB has two overloads to cast it for: TIME + s
// (INTERVAL or DATE), INTERVAL + s, s - INTERVAL, TIMESTAMPTZ - s (INTERVAL
// or TIMESTAMPTZ), INTERVAL * s and s * INTERVAL.
func ambiguousTemporal(op string, l, r Expr) bool {
	strLeft := isStringLiteral(l)
	if strLeft == isStringLiteral(r) {
		return false
	}
	other := l.Type()
	if strLeft {
		other = r.Type()
	}
	switch op {
	case "+":
		return other.ID == TypeTime || other.ID == TypeInterval
	case "-":
		return strLeft && other.ID == TypeInterval || !strLeft && other.ID == TypeTimestampTZ
	case "*":
		return other.ID == TypeInterval
	}
	return false
}

// scaleType is the factor type of INTERVAL * n: BIGINT for integers up to
// 64 bits, DOUBLE for the rest.
func scaleType(t Type) Type {
	if t.IsInteger() && t.ID != TypeHugeInt && t.ID != TypeUBigInt {
		return tBigInt
	}
	return tDouble
}

// isTemporalBinary reports whether a bound Binary is interval arithmetic
// or DATE + TIME.
func isTemporalBinary(e *Binary) bool {
	if isComparison(e.Op) || e.Op == "||" {
		return false
	}
	return e.T.ID == TypeInterval || e.L.Type().ID == TypeInterval || e.R.Type().ID == TypeInterval ||
		e.L.Type().ID == TypeTime && e.R.Type().ID == TypeDate || e.L.Type().ID == TypeDate && e.R.Type().ID == TypeTime
}

// evalTemporal computes interval arithmetic on non-NULL operands.
func evalTemporal(e *Binary, l, r Datum) (Datum, error) {
	lt, rt := e.L.Type(), e.R.Type()
	switch {
	case lt.ID == TypeInterval && rt.ID == TypeInterval:
		a, b := IntervalOf(l.Bytes), IntervalOf(r.Bytes)
		if e.Op == "-" {
			return subIntervals(a, b)
		}
		return addIntervals(a, b)
	case e.Op == "*" && lt.ID == TypeInterval:
		return scaleInterval(IntervalOf(l.Bytes), r, rt)
	case e.Op == "*":
		return scaleInterval(IntervalOf(r.Bytes), l, lt)
	case e.Op == "/":
		if r.F == 0 {
			// DuckDB's interval division by zero is NULL, like integers'.
			return NullDatum, nil
		}
		iv, ok := mulIntervalFloat(IntervalOf(l.Bytes), 1/r.F)
		if !ok {
			return Datum{}, fmt.Errorf("%w: Overflow in INTERVAL division", ErrOutOfRange)
		}
		return iv.Datum(), nil
	case e.T.ID == TypeInterval:
		return timestampDifference(l.I, r.I)
	case lt.ID == TypeDate && rt.ID == TypeTime:
		return dateAtTime(l.I, r.I)
	case lt.ID == TypeTime && rt.ID == TypeDate:
		return dateAtTime(r.I, l.I)
	}
	// A point in time plus or minus an interval, either side.
	point, pt, iv := l, lt, IntervalOf(r.Bytes)
	if lt.ID == TypeInterval {
		point, pt, iv = r, rt, IntervalOf(l.Bytes)
	}
	if e.Op == "-" {
		if pt.ID == TypeTime {
			// DuckDB negates only the microseconds for TIME.
			iv.Micros = -iv.Micros
		} else {
			iv = Interval{Months: -iv.Months, Days: -iv.Days, Micros: -iv.Micros}
		}
	}
	switch pt.ID {
	case TypeTime:
		return Datum{I: addToTime(point.I, iv)}, nil
	case TypeDate:
		switch point.I {
		case math.MaxInt32:
			return Datum{I: math.MaxInt64}, nil
		case -math.MaxInt32:
			return Datum{I: -math.MaxInt64}, nil
		}
		ts, err := timestampOfDatetime(point.I, 0)
		if err != nil {
			return Datum{}, err
		}
		v, err := addToTimestamp(ts, iv)
		return Datum{I: v}, err
	}
	v, err := addToTimestamp(point.I, iv)
	return Datum{I: v}, err
}

// addIntervals adds field by field; a field that overflows is an error.
func addIntervals(a, b Interval) (Datum, error) {
	m := int64(a.Months) + int64(b.Months)
	d := int64(a.Days) + int64(b.Days)
	u, ok := addInt64(a.Micros, b.Micros)
	switch {
	case m < math.MinInt32 || m > math.MaxInt32:
		return Datum{}, fmt.Errorf("%w: Overflow in addition of INT32 (%d + %d)!", ErrOutOfRange, a.Months, b.Months)
	case d < math.MinInt32 || d > math.MaxInt32:
		return Datum{}, fmt.Errorf("%w: Overflow in addition of INT32 (%d + %d)!", ErrOutOfRange, a.Days, b.Days)
	case !ok:
		return Datum{}, fmt.Errorf("%w: Overflow in addition of INT64 (%d + %d)!", ErrOutOfRange, a.Micros, b.Micros)
	}
	return Interval{Months: int32(m), Days: int32(d), Micros: u}.Datum(), nil
}

// subIntervals subtracts field by field.
func subIntervals(a, b Interval) (Datum, error) {
	m := int64(a.Months) - int64(b.Months)
	d := int64(a.Days) - int64(b.Days)
	u, ok := addInt64(a.Micros, -b.Micros)
	switch {
	case m < math.MinInt32 || m > math.MaxInt32:
		return Datum{}, fmt.Errorf("%w: Interval months subtraction out of range", ErrOutOfRange)
	case d < math.MinInt32 || d > math.MaxInt32:
		return Datum{}, fmt.Errorf("%w: Interval days subtraction out of range", ErrOutOfRange)
	case !ok || b.Micros == math.MinInt64:
		return Datum{}, fmt.Errorf("%w: Interval micros subtraction out of range", ErrOutOfRange)
	}
	return Interval{Months: int32(m), Days: int32(d), Micros: u}.Datum(), nil
}

// negateInterval is -iv, each field negated.
func negateInterval(iv Interval) (Datum, error) {
	if iv.Months == math.MinInt32 || iv.Days == math.MinInt32 || iv.Micros == math.MinInt64 {
		return Datum{}, fmt.Errorf("%w: Overflow in negation of integer!", ErrOutOfRange)
	}
	return Interval{Months: -iv.Months, Days: -iv.Days, Micros: -iv.Micros}.Datum(), nil
}

// scaleInterval multiplies an interval by a BIGINT or DOUBLE factor.
func scaleInterval(iv Interval, f Datum, ft Type) (Datum, error) {
	if ft.ID == TypeDouble {
		res, ok := mulIntervalFloat(iv, f.F)
		if !ok {
			return Datum{}, fmt.Errorf("%w: Overflow in multiplication of INTERVAL.", ErrOutOfRange)
		}
		return res.Datum(), nil
	}
	n := f.I
	if n < math.MinInt32 || n > math.MaxInt32 {
		return Datum{}, fmt.Errorf("%w: Type INT64 with value %d can't be cast because the value is out of range for the destination type INT32", ErrInvalidInput, n)
	}
	m := int64(iv.Months) * n
	if m < math.MinInt32 || m > math.MaxInt32 {
		return Datum{}, fmt.Errorf("%w: Overflow in multiplication of INT32 (%d * %d)!", ErrOutOfRange, iv.Months, n)
	}
	d := int64(iv.Days) * n
	if d < math.MinInt32 || d > math.MaxInt32 {
		return Datum{}, fmt.Errorf("%w: Overflow in multiplication of INT32 (%d * %d)!", ErrOutOfRange, iv.Days, n)
	}
	u, ok := mulInt64(iv.Micros, n)
	if !ok {
		return Datum{}, fmt.Errorf("%w: Overflow in multiplication of INT64 (%d * %d)!", ErrOutOfRange, iv.Micros, n)
	}
	return Interval{Months: int32(m), Days: int32(d), Micros: u}.Datum(), nil
}

// mulIntervalFloat multiplies by a float as DuckDB (after PostgreSQL's
// interval_mul) does: the fractions of months and days cascade down into
// days and microseconds, never up.
func mulIntervalFloat(iv Interval, f float64) (Interval, bool) {
	var res Interval
	fits32 := func(d float64) bool {
		return !math.IsNaN(d) && d >= math.MinInt32 && d <= math.MaxInt32
	}
	d := float64(iv.Months) * f
	if !fits32(d) {
		return Interval{}, false
	}
	res.Months = int32(d)
	d = float64(iv.Days) * f
	if !fits32(d) {
		return Interval{}, false
	}
	res.Days = int32(d)
	round := func(x float64) float64 { return math.RoundToEven(x*microsPerSec) / microsPerSec }
	monthRemainder := round((float64(iv.Months)*f - float64(res.Months)) * daysPerMonth)
	dayRemainder := int32(monthRemainder)
	secRemainder := round((float64(iv.Days)*f - float64(res.Days) + monthRemainder - float64(dayRemainder)) * 86400)
	if math.Abs(secRemainder) >= 86400 {
		res.Days += int32(secRemainder / 86400)
		secRemainder -= float64(int32(secRemainder/86400)) * 86400
	}
	res.Days += dayRemainder
	d = math.RoundToEven(float64(iv.Micros)*f + secRemainder*microsPerSec)
	if math.IsNaN(d) || d < -9.223372036854775e18 || d >= 9.223372036854775e18 {
		return Interval{}, false
	}
	res.Micros = int64(d)
	return res, true
}

// isFiniteTimestamp reports whether ts is neither of DuckDB's infinities,
// which pass through interval arithmetic unchanged.
func isFiniteTimestamp(ts int64) bool { return ts != math.MaxInt64 && ts != -math.MaxInt64 }

// timestampOfDatetime joins days and microseconds of the day into a
// TIMESTAMP, failing outside TIMESTAMP's range.
func timestampOfDatetime(days, micros int64) (int64, error) {
	v, ok := mulInt64(days, microsPerDay)
	if ok {
		v, ok = addInt64(v, micros)
	}
	if !ok || !isFiniteTimestamp(v) {
		return 0, fmt.Errorf("%w: Date and time not in timestamp range", ErrConversion)
	}
	return v, nil
}

// addToDate adds an interval's months (clamping the day to the month's
// end), days and whole days of microseconds to a date.
func addToDate(days int64, iv Interval) (int64, error) {
	outOfRange := fmt.Errorf("%w: Date out of range", ErrOutOfRange)
	if iv.Months != 0 {
		y, m, d := civil(days)
		y += int64(iv.Months / 12)
		m += int64(iv.Months % 12)
		switch {
		case m > 12:
			y++
			m -= 12
		case m <= 0:
			y--
			m += 12
		}
		d = min(d, daysIn(y, m))
		// DuckDB's dates run from 5877642 BC June 25 to 5881580 July 10.
		if ymd := y*10000 + m*100 + d; ymd < -5877641*10000+625 || ymd > 5881580*10000+710 {
			return 0, fmt.Errorf("%w: Date out of range: %d-%d-%d", ErrConversion, y, m, d)
		}
		days = daysFromCivil(y, m, d)
	}
	days += int64(iv.Days)
	if days <= math.MinInt32 || days >= math.MaxInt32 {
		return 0, outOfRange
	}
	days += iv.Micros / microsPerDay
	if days <= math.MinInt32+1 || days >= math.MaxInt32 {
		return 0, outOfRange
	}
	return days, nil
}

// addToTimestamp adds an interval to a timestamp in microseconds: the
// date part as addToDate, then the rest of the microseconds to the time
// of day, carrying into the date.
func addToTimestamp(ts int64, iv Interval) (int64, error) {
	if !isFiniteTimestamp(ts) {
		return ts, nil
	}
	date := floorDiv(ts, microsPerDay)
	tod := ts - date*microsPerDay
	date, err := addToDate(date, iv)
	if err != nil {
		return 0, err
	}
	tod += iv.Micros % microsPerDay
	switch {
	case tod >= microsPerDay:
		tod -= microsPerDay
		date++
	case tod < 0:
		tod += microsPerDay
		date--
	}
	return timestampOfDatetime(date, tod)
}

// addToTime adds an interval's microseconds to a time of day, wrapping
// around midnight; months and days do not move a time.
func addToTime(t int64, iv Interval) int64 {
	t += iv.Micros % microsPerDay
	switch {
	case t >= microsPerDay:
		t -= microsPerDay
	case t < 0:
		t += microsPerDay
	}
	return t
}

// timestampDifference is a - b as days and microseconds, no months.
func timestampDifference(a, b int64) (Datum, error) {
	if !isFiniteTimestamp(a) || !isFiniteTimestamp(b) {
		return Datum{}, fmt.Errorf("%w: Cannot subtract infinite timestamps", ErrInvalidInput)
	}
	delta, ok := addInt64(a, -b)
	if !ok || b == math.MinInt64 {
		return Datum{}, fmt.Errorf("%w: Timestamp difference is out of bounds", ErrConversion)
	}
	return intervalOfMicros(delta).Datum(), nil
}

// intervalOfMicros splits microseconds into days and the rest.
func intervalOfMicros(us int64) Interval {
	return Interval{Days: int32(us / microsPerDay), Micros: us % microsPerDay}
}

// dateAtTime is DATE + TIME: the timestamp of that time on that day.
func dateAtTime(days, micros int64) (Datum, error) {
	switch days {
	case math.MaxInt32:
		return Datum{I: math.MaxInt64}, nil
	case -math.MaxInt32:
		return Datum{I: -math.MaxInt64}, nil
	}
	v, err := timestampOfDatetime(days, micros)
	if err != nil {
		return Datum{}, fmt.Errorf("%w: Timestamp out of range", ErrOutOfRange)
	}
	return Datum{I: v}, nil
}
