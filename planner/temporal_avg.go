package planner

import "math/big"

// avgTemporalType is avg's result type for a temporal argument, as
// DuckDB's overloads give it: a DATE averages as a TIMESTAMP; TIMESTAMP,
// TIMESTAMP WITH TIME ZONE and TIME keep their type. ok is false for
// other types.
func avgTemporalType(at Type) (t Type, ok bool) {
	switch at.ID {
	case TypeDate:
		return Type{ID: TypeTimestamp}, true
	case TypeTimestamp, TypeTimestampTZ, TypeTime:
		return at, true
	}
	return Type{}, false
}

// isTemporalAvg reports whether a is avg of dates, timestamps or times,
// which the planner accumulates while the executor averages numbers.
func isTemporalAvg(a *AggCall) bool {
	if a.Func != "avg" || a.Arg == nil {
		return false
	}
	_, ok := avgTemporalType(a.Arg.Type())
	return ok
}

// temporalAvgAcc is avg of temporal values: the exact sum of their
// microseconds divided by the count, truncated and then rounded up when
// the remainder is more than half the count, as DuckDB's does (so a
// negative sum's remainder never rounds).
type temporalAvgAcc struct {
	date bool // values are DATE days
	n    int64
	sum  big.Int
}

func (s *temporalAvgAcc) Add(d Datum) {
	v := d.I
	if s.date {
		v *= microsPerDay
	}
	s.n++
	s.sum.Add(&s.sum, big.NewInt(v))
}

func (s *temporalAvgAcc) Merge(later Accumulator) {
	o := later.(*temporalAvgAcc)
	s.n += o.n
	s.sum.Add(&s.sum, &o.sum)
}

func (s *temporalAvgAcc) Result() (Datum, error) {
	if s.n == 0 {
		return NullDatum, nil
	}
	n := big.NewInt(s.n)
	q, r := new(big.Int).QuoRem(&s.sum, n, new(big.Int))
	if r.Cmp(big.NewInt(s.n/2)) > 0 {
		q.Add(q, big.NewInt(1))
	}
	return Datum{I: q.Int64()}, nil
}
