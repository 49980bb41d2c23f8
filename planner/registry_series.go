package planner

import (
	"fmt"
	"math"
	"strings"

	"github.com/pqsql/pqsql/errclass"
	"github.com/pqsql/pqsql/sql"
)

// maxSeriesList bounds the elements range and generate_series put in one
// list value, which is held in memory whole.
const maxSeriesList = 1 << 27

// The list forms of range and generate_series: BIGINT[] from up to three
// integers, or TIMESTAMP[] (TIMESTAMPTZ[]) from two timestamps and an
// INTERVAL step. range leaves its stop out, generate_series keeps it.
func init() {
	registerScalar(
		&ScalarFunc{Name: "range", Bind: bindSeriesList, Eval: evalSeriesList},
		&ScalarFunc{Name: "generate_series", Bind: bindSeriesList, Eval: evalSeriesList},
	)
}

// tableSeriesFuncs are the list functions behind FROM range(...) and
// generate_series(...) with arguments other than integer literals (see
// sql.TableSeriesPrefix): DuckDB's table functions refuse a zero or
// mixed-sign step, which the list forms take.
var tableSeriesFuncs = map[string]*ScalarFunc{
	sql.TableSeriesPrefix + "range":           {Name: "range", Bind: bindSeriesList, Eval: evalSeriesTable},
	sql.TableSeriesPrefix + "generate_series": {Name: "generate_series", Bind: bindSeriesList, Eval: evalSeriesTable},
}

func evalSeriesTable(c *Call, a []Datum) (Datum, error) {
	if c.Args[len(c.Args)-1].Type().ID == TypeInterval {
		if !isFiniteTimestamp(a[0].I) || !isFiniteTimestamp(a[1].I) {
			return Datum{}, binderError("RANGE with infinite bounds is not supported")
		}
		step := IntervalOf(a[2].Bytes)
		pos := step.Months > 0 || step.Days > 0 || step.Micros > 0
		neg := step.Months < 0 || step.Days < 0 || step.Micros < 0
		switch {
		case pos && neg:
			return Datum{}, binderError("RANGE with composite interval that has mixed signs is not supported")
		case !pos && !neg:
			return Datum{}, binderError("interval cannot be 0!")
		}
	} else if len(a) == 3 && a[2].I == 0 {
		return Datum{}, binderError("interval cannot be 0!")
	}
	return evalSeriesList(c, a)
}

func bindSeriesList(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) == 3 && isSeriesTemporal(args[0].Type()) && isSeriesTemporal(args[1].Type()) && args[2].Type().ID == TypeInterval {
		t := tTimestamp
		if args[0].Type().ID == TypeTimestampTZ || args[1].Type().ID == TypeTimestampTZ {
			t = tTimestampTZ
		}
		if err := castArgs(args[:2], t); err != nil {
			return nil, err
		}
		return newCall(f, args, listOf(t)), nil
	}
	ok := len(args) >= 1 && len(args) <= 3
	for _, a := range args {
		ok = ok && (a.Type().IsInteger() && a.Type().ID != TypeHugeInt && a.Type().ID != TypeUBigInt || a.Type().ID == TypeNull)
	}
	if !ok {
		kinds := make([]string, len(args))
		for i, a := range args {
			kinds[i] = argKind(a)
		}
		return nil, binderError("No function matches the given name and argument types '%s(%s)'. You might need to add explicit type casts.", f.Name, strings.Join(kinds, ", "))
	}
	if err := castArgs(args, tBigInt); err != nil {
		return nil, err
	}
	return newCall(f, args, listOf(tBigInt)), nil
}

// isSeriesTemporal reports whether a value of type t may bound a
// timestamp series (a DATE is cast to TIMESTAMP).
func isSeriesTemporal(t Type) bool {
	return t.ID == TypeTimestamp || t.ID == TypeTimestampTZ || t.ID == TypeDate || t.ID == TypeNull
}

func evalSeriesList(c *Call, a []Datum) (Datum, error) {
	inclusive := c.Name == "generate_series"
	if c.Args[len(c.Args)-1].Type().ID == TypeInterval {
		vals, err := timestampSeries(a[0].I, a[1].I, IntervalOf(a[2].Bytes), inclusive)
		if err != nil {
			return Datum{}, err
		}
		et, _ := listElem(c.T)
		return listDatum(vals, et)
	}
	s := &Series{Step: 1, Inclusive: inclusive}
	switch len(a) {
	case 1:
		s.Stop = a[0].I
	case 2:
		s.Start, s.Stop = a[0].I, a[1].I
	default:
		s.Start, s.Stop, s.Step = a[0].I, a[1].I, a[2].I
	}
	if s.Step == 0 {
		// The list form is empty where the table function fails.
		return listDatum(nil, tBigInt)
	}
	n := s.Len()
	if n > maxSeriesList {
		return Datum{}, fmt.Errorf("%w: %s of %d values does not fit in one list", errclass.OutOfMemory, c.Name, n)
	}
	vals := make([]Datum, n)
	for i := range vals {
		vals[i] = Datum{I: s.Start + int64(i)*s.Step}
	}
	return listDatum(vals, tBigInt)
}

// timestampSeries is start, start+step, start+step+step, ... while before
// stop (or at it, when inclusive): the step is added again each time, so
// a month step from January 31 gives February 29, then March 29, as in
// DuckDB.
func timestampSeries(start, stop int64, step Interval, inclusive bool) ([]Datum, error) {
	if !isFiniteTimestamp(start) || !isFiniteTimestamp(stop) {
		return nil, fmt.Errorf("%w: Interval infinite bounds not supported", ErrInvalidInput)
	}
	pos := step.Months > 0 || step.Days > 0 || step.Micros > 0
	neg := step.Months < 0 || step.Days < 0 || step.Micros < 0
	switch {
	case pos && neg:
		return nil, fmt.Errorf("%w: Interval with mix of negative/positive entries not supported", ErrInvalidInput)
	case !pos && !neg:
		return nil, nil
	}
	var out []Datum
	for cur := start; ; {
		if pos && (cur > stop || cur == stop && !inclusive) || neg && (cur < stop || cur == stop && !inclusive) {
			return out, nil
		}
		if len(out) == maxSeriesList {
			return nil, fmt.Errorf("%w: a series of more than %d values does not fit in one list", errclass.OutOfMemory, maxSeriesList)
		}
		out = append(out, Datum{I: cur})
		next, err := addToTimestamp(cur, step)
		if err != nil {
			return nil, err
		}
		if next == cur || next == math.MaxInt64 || next == -math.MaxInt64 {
			return out, nil
		}
		cur = next
	}
}
