package planner

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// An Accumulator is the running state of one aggregate over one group.
// The executor feeds it the non-NULL argument values of the group's rows
// in input order.
type Accumulator interface {
	// Add takes one non-NULL value.
	Add(d Datum)
	// Merge takes the state of later rows of the same group.
	Merge(later Accumulator)
	// Result is the aggregate's value (NULL for no input, unless the
	// aggregate says otherwise).
	Result() (Datum, error)
}

// The aggregate functions and their result types. count, sum, avg, min and
// max are accumulated by the executor itself (typed and vectorized); the
// others carry their accumulator here.
func init() {
	registerAggregate(
		&AggregateFunc{Name: "count", Result: func(Type) (Type, error) { return tBigInt, nil }},
		&AggregateFunc{Name: "sum", Result: func(at Type) (Type, error) {
			switch {
			case at.IsInteger() || at.ID == TypeBoolean || at.ID == TypeNull:
				return Type{ID: TypeHugeInt}, nil
			case at.ID == TypeDecimal:
				return Type{ID: TypeDecimal, Precision: 38, Scale: at.Scale}, nil
			case at.ID == TypeFloat || at.ID == TypeDouble:
				return tDouble, nil
			}
			return Type{}, aggNoMatch("sum", at)
		}},
		&AggregateFunc{Name: "avg", Aliases: []string{"mean"}, Result: func(at Type) (Type, error) {
			if at.ID == TypeInterval {
				return tInterval, nil // registry_intervals.go accumulates it
			}
			if t, ok := avgTemporalType(at); ok {
				return t, nil // temporal_avg.go accumulates it
			}
			if !at.IsNumeric() && at.ID != TypeNull {
				return Type{}, aggNoMatch("avg", at)
			}
			return tDouble, nil
		}},
		&AggregateFunc{Name: "min", Result: ordered("min")},
		&AggregateFunc{Name: "max", Result: ordered("max")},
		&AggregateFunc{Name: "median", Result: quantileType(false), New: newQuantile},
		&AggregateFunc{Name: "quantile_cont", Params: 1, Result: quantileType(false), New: newQuantile},
		&AggregateFunc{Name: "quantile_disc", Aliases: []string{"quantile"}, Params: 1, Result: quantileType(true), New: newQuantile},
		&AggregateFunc{Name: "mode", Result: func(at Type) (Type, error) { return at, nil }, New: newMode},
		&AggregateFunc{Name: "stddev_samp", Aliases: []string{"stddev"}, Result: doubleOf("stddev_samp"), New: newMoments},
		&AggregateFunc{Name: "stddev_pop", Result: doubleOf("stddev_pop"), New: newMoments},
		&AggregateFunc{Name: "var_samp", Aliases: []string{"variance"}, Result: doubleOf("var_samp"), New: newMoments},
		&AggregateFunc{Name: "var_pop", Result: doubleOf("var_pop"), New: newMoments},
		&AggregateFunc{Name: "product", Result: doubleOf("product"), New: func(a *AggCall) Accumulator { return &productAcc{a: a} }},
		&AggregateFunc{Name: "bool_and", Result: boolOf("bool_and"), New: func(*AggCall) Accumulator { return &boolAcc{and: true} }},
		&AggregateFunc{Name: "bool_or", Result: boolOf("bool_or"), New: func(*AggCall) Accumulator { return &boolAcc{} }},
		&AggregateFunc{Name: "count_if", Aliases: []string{"countif"}, Result: func(at Type) (Type, error) {
			if at.ID != TypeBoolean && at.ID != TypeNull {
				return Type{}, aggNoMatch("count_if", at)
			}
			return Type{ID: TypeHugeInt}, nil
		}, New: func(*AggCall) Accumulator { return &countIfAcc{} }},
		&AggregateFunc{Name: "any_value", Result: func(at Type) (Type, error) { return at, nil }, New: func(*AggCall) Accumulator { return &anyAcc{} }},
		&AggregateFunc{Name: "list", Aliases: []string{"array_agg"}, SeesNulls: true, Result: func(at Type) (Type, error) {
			if at.ID == TypeHugeInt || at.ID == TypeBlob || at.ID == TypeUUID || at.ID == TypeInterval || at.ID == TypeTime || at.ID == TypeTimeNS || at.ID == TypeTimeTZ {
				return Type{}, fmt.Errorf("%w: list of %s", ErrNotImplemented, at)
			}
			if at.ID == TypeNull {
				at = Type{ID: TypeInteger}
			}
			return Type{ID: TypeNested, Name: at.String() + "[]"}, nil
		}, New: func(a *AggCall) Accumulator { return &listAcc{a: a} }},
		&AggregateFunc{Name: "first", Aliases: []string{"arbitrary"}, SeesNulls: true, Result: func(at Type) (Type, error) { return at, nil },
			New: func(a *AggCall) Accumulator { return &edgeAcc{} }},
		&AggregateFunc{Name: "last", SeesNulls: true, Result: func(at Type) (Type, error) { return at, nil },
			New: func(a *AggCall) Accumulator { return &edgeAcc{last: true} }},
		&AggregateFunc{Name: "string_agg", Aliases: []string{"listagg", "group_concat"}, Params: 1, Result: func(at Type) (Type, error) {
			if at.ID == TypeNested {
				return Type{}, aggNoMatch("string_agg", at)
			}
			return tVarchar, nil
		}, New: newStringAgg},
	)
}

func aggNoMatch(name string, at Type) error {
	return binderError("No function matches the given name and argument types '%s(%s)'. You might need to add explicit type casts.", name, at)
}

// ordered is the result type of min and max: their argument's. VARIANT is
// refused: DuckDB orders VARIANT values by its internal encoding (the key
// dictionary first), not by value, and answering by value would differ.
func ordered(name string) func(Type) (Type, error) {
	return func(at Type) (Type, error) {
		if isVariant(at) {
			return Type{}, fmt.Errorf("%w: %s of VARIANT values (DuckDB orders them by its internal encoding); cast to a type first", ErrNotImplemented, name)
		}
		return at, nil
	}
}

func doubleOf(name string) func(Type) (Type, error) {
	return func(at Type) (Type, error) {
		if !at.IsNumeric() && at.ID != TypeNull {
			return Type{}, aggNoMatch(name, at)
		}
		return tDouble, nil
	}
}

func boolOf(name string) func(Type) (Type, error) {
	return func(at Type) (Type, error) {
		if at.ID != TypeBoolean && at.ID != TypeNull {
			return Type{}, aggNoMatch(name, at)
		}
		return tBool, nil
	}
}

// SeesNulls reports whether a's accumulator takes NULL values too.
func (a *AggCall) SeesNulls() bool {
	f := a.entry()
	return f != nil && f.SeesNulls
}

// Accumulates reports whether the registry accumulates a (rather than the
// executor's own code for count, sum, avg, min and max).
func (a *AggCall) Accumulates() bool {
	if isIntervalAvg(a) || isTemporalAvg(a) {
		return true
	}
	f := a.entry()
	return f != nil && f.New != nil
}

// NewAccumulator is a fresh state for one group of a.
func (a *AggCall) NewAccumulator() Accumulator {
	if isIntervalAvg(a) {
		return &intervalAvgAcc{}
	}
	if isTemporalAvg(a) {
		return &temporalAvgAcc{date: a.Arg.Type().ID == TypeDate}
	}
	return a.entry().New(a)
}

// entry is a's registry entry; the binder sets it, so rows need not look
// it up by name.
func (a *AggCall) entry() *AggregateFunc {
	if a.fn != nil {
		return a.fn
	}
	return aggregateFuncs[a.Func]
}

// param is the i-th constant argument after the value, or def when absent.
func (a *AggCall) param(i int, def Datum) Datum {
	if i < len(a.Params) {
		if c, ok := a.Params[i].(*Const); ok {
			return c.Value
		}
	}
	return def
}

// quantileType is the result type of median and the quantiles: the
// argument's own type for discrete ones, DOUBLE for continuous ones over
// integers and floats, the DECIMAL itself for decimals.
func quantileType(discrete bool) func(Type) (Type, error) {
	return func(at Type) (Type, error) {
		switch {
		case at.ID == TypeNull:
			return tDouble, nil
		case discrete || at.ID == TypeVarchar || at.ID == TypeDecimal:
			if at.ID == TypeNested || at.ID == TypeDate || isTimestamp(at) {
				return Type{}, fmt.Errorf("%w: quantiles of %s", ErrNotImplemented, at)
			}
			return at, nil
		case at.IsNumeric():
			return tDouble, nil
		}
		return Type{}, fmt.Errorf("%w: quantiles of %s", ErrNotImplemented, at)
	}
}

// quantileAcc collects the values; the quantile sorts them at the end.
// Integers, and decimals whose unscaled value fits 64 bits, are kept as
// int64: a Datum is over a hundred bytes, and a million of them took
// seconds to append and minutes to sort stably.
type quantileAcc struct {
	a     *AggCall
	ints  []int64
	vals  []Datum
	boxed bool // a value did not fit an int64: vals holds every value
}

func newQuantile(a *AggCall) Accumulator { return &quantileAcc{a: a} }

func (q *quantileAcc) Add(d Datum) {
	if !q.boxed {
		if k, ok := q.intKey(d); ok {
			q.ints = append(q.ints, k)
			return
		}
		q.box()
	}
	q.vals = append(q.vals, d)
}

func (q *quantileAcc) Merge(later Accumulator) {
	l := later.(*quantileAcc)
	if !q.boxed && !l.boxed {
		q.ints = append(q.ints, l.ints...)
		return
	}
	q.box()
	l.box()
	q.vals = append(q.vals, l.vals...)
}

func (q *quantileAcc) intKey(d Datum) (int64, bool) {
	at := q.a.Arg.Type()
	if _, _, ok := intRange(at.ID); ok {
		return d.I, true
	}
	if at.ID == TypeDecimal && (d.Big == nil || d.Big.IsInt64()) {
		if d.Big == nil {
			return 0, true
		}
		return d.Big.Int64(), true
	}
	return 0, false
}

func (q *quantileAcc) datumOf(k int64) Datum {
	if q.a.Arg.Type().ID == TypeDecimal {
		return Datum{Big: big.NewInt(k)}
	}
	return Datum{I: k}
}

// box turns the int64 values into Datums, once.
func (q *quantileAcc) box() {
	if q.boxed {
		return
	}
	for _, k := range q.ints {
		q.vals = append(q.vals, q.datumOf(k))
	}
	q.ints, q.boxed = nil, true
}

// at returns the i-th value in sorted order.
func (q *quantileAcc) at(i int) Datum {
	if !q.boxed {
		return q.datumOf(q.ints[i])
	}
	return q.vals[i]
}

func (q *quantileAcc) len() int {
	if !q.boxed {
		return len(q.ints)
	}
	return len(q.vals)
}

// sortValues orders the values; Datums stably, through a permutation.
func (q *quantileAcc) sortValues(at Type, desc bool) {
	if !q.boxed {
		slices.Sort(q.ints)
		if desc {
			slices.Reverse(q.ints)
		}
		return
	}
	n := len(q.vals)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(i, j int32) int {
		c := Compare(q.vals[i], q.vals[j], at)
		if desc {
			return -c
		}
		return c
	})
	sorted := make([]Datum, n)
	for i, k := range order {
		sorted[i] = q.vals[k]
	}
	q.vals = sorted
}

func (q *quantileAcc) Result() (Datum, error) {
	if q.len() == 0 {
		return NullDatum, nil
	}
	at := q.a.Arg.Type()
	p := q.a.param(0, Datum{F: 0.5})
	frac := p.F
	if pt := q.a.Params; len(pt) > 0 {
		frac = floatOf(p, pt[0].Type())
	}
	// A negative fraction counts from the top, as DuckDB's does.
	desc := frac < 0
	frac = math.Abs(frac)
	q.sortValues(at, desc)
	n := q.len()
	discrete := q.a.Func == "quantile_disc" || at.ID == TypeVarchar
	if discrete {
		return q.at(discreteIndex(n, frac, p, q.a.Params)), nil
	}
	// DuckDB interpolates between the neighbours of the fractional rank
	// (n-1)*q: lo + (rank-floor(rank)) * (hi - lo).
	rank := float64(n-1) * frac
	lo, hi := int(math.Floor(rank)), int(math.Ceil(rank))
	d := rank - float64(lo)
	if at.ID == TypeDecimal {
		l, h := bigOf(q.at(lo), at), bigOf(q.at(hi), at)
		if lo == hi {
			return Datum{Big: l}, nil
		}
		delta, _ := new(big.Float).SetInt(new(big.Int).Sub(h, l)).Float64()
		if at.Precision > 18 {
			// A 128-bit decimal interpolates in double, DuckDB's
			// hugeint arithmetic: lo + (hi-lo)*d truncated toward zero
			// (-7 and 0 give -3).
			lf, _ := new(big.Float).SetInt(l).Float64()
			si, _ := new(big.Float).SetFloat64(lf + delta*d).Int(nil)
			return Datum{Big: si}, nil
		}
		// Narrower ones add the truncated step: -399 and -50 at 0.75
		// give -399 + 261.
		si, _ := new(big.Float).SetFloat64(delta * d).Int(nil)
		return Datum{Big: new(big.Int).Add(l, si)}, nil
	}
	l, h := floatOf(q.at(lo), at), floatOf(q.at(hi), at)
	if lo == hi {
		return Datum{F: l}, nil
	}
	return Datum{F: l*(1-d) + h*d}, nil
}

// discreteIndex is where quantile_disc picks its value among n sorted ones,
// as DuckDB picks it: n - floor(n - n*q), at least 1, counted from 1. A
// DECIMAL fraction (0.75 is one) is applied exactly, in integers.
func discreteIndex(n int, frac float64, p Datum, params []Expr) int {
	floored := int64(math.Floor(float64(n) - float64(n)*frac))
	if len(params) > 0 && params[0].Type().ID == TypeDecimal && p.Big != nil {
		scaling := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(params[0].Type().Scale)), nil)
		integral := new(big.Int).Abs(p.Big)
		bn := big.NewInt(int64(n))
		num := new(big.Int).Sub(new(big.Int).Mul(bn, scaling), new(big.Int).Mul(bn, integral))
		floored = new(big.Int).Quo(num, scaling).Int64()
	}
	return int(max(1, int64(n)-floored) - 1)
}

// modeAcc counts each value; the most frequent wins, the first seen on a
// tie.
type modeAcc struct {
	a      *AggCall
	counts map[string]*modeEntry
	order  []*modeEntry
}

type modeEntry struct {
	v Datum
	n int64
}

func newMode(a *AggCall) Accumulator { return &modeAcc{a: a, counts: map[string]*modeEntry{}} }

func (m *modeAcc) Add(d Datum) {
	k := string(AppendKey(nil, d, m.a.Arg.Type()))
	e := m.counts[k]
	if e == nil {
		e = &modeEntry{v: d}
		m.counts[k] = e
		m.order = append(m.order, e)
	}
	e.n++
}

func (m *modeAcc) Merge(later Accumulator) {
	for _, e := range later.(*modeAcc).order {
		k := string(AppendKey(nil, e.v, m.a.Arg.Type()))
		if mine := m.counts[k]; mine != nil {
			mine.n += e.n
			continue
		}
		c := &modeEntry{v: e.v, n: e.n}
		m.counts[k] = c
		m.order = append(m.order, c)
	}
}

func (m *modeAcc) Result() (Datum, error) {
	var best *modeEntry
	for _, e := range m.order {
		if best == nil || e.n > best.n {
			best = e
		}
	}
	if best == nil {
		return NullDatum, nil
	}
	return best.v, nil
}

// momentsAcc is Welford's running mean and sum of squared differences,
// updated and combined as DuckDB does, so variances agree to the last bit.
type momentsAcc struct {
	a              *AggCall
	n              int64
	mean, dsquared float64
}

func newMoments(a *AggCall) Accumulator { return &momentsAcc{a: a} }

func (s *momentsAcc) Add(d Datum) { s.addFloat(floatOf(d, s.a.Arg.Type())) }

func (s *momentsAcc) addFloat(x float64) {
	s.n++
	diff := (x - s.mean) / float64(s.n)
	mean := s.mean + diff
	s.dsquared += (x - mean) * (x - s.mean)
	s.mean = mean
}

func (s *momentsAcc) Merge(later Accumulator) {
	o := later.(*momentsAcc)
	switch {
	case o.n == 0:
		return
	case s.n == 0:
		s.n, s.mean, s.dsquared = o.n, o.mean, o.dsquared
		return
	}
	n := float64(s.n + o.n)
	delta := o.mean - s.mean
	s.dsquared = o.dsquared + s.dsquared + delta*delta*float64(o.n)*float64(s.n)/n
	s.mean = (float64(o.n)*o.mean + float64(s.n)*s.mean) / n
	s.n += o.n
}

func (s *momentsAcc) Result() (Datum, error) {
	var v float64
	switch s.a.Func {
	case "var_samp", "stddev_samp":
		if s.n <= 1 {
			return NullDatum, nil
		}
		v = s.dsquared / float64(s.n-1)
	default:
		if s.n == 0 {
			return NullDatum, nil
		}
		v = s.dsquared / float64(s.n)
	}
	if strings.HasPrefix(s.a.Func, "stddev") {
		v = math.Sqrt(v)
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return Datum{}, fmt.Errorf("%w: %s is out of range!", ErrOutOfRange, momentNames[s.a.Func])
	}
	return Datum{F: v}, nil
}

// momentNames are the names DuckDB's out-of-range errors give.
var momentNames = map[string]string{"var_pop": "VARPOP", "var_samp": "VARSAMP", "stddev_pop": "STDDEV_POP", "stddev_samp": "STDDEV_SAMP"}

type productAcc struct {
	a   *AggCall
	has bool
	p   float64
}

func (s *productAcc) Add(d Datum) {
	if !s.has {
		s.p, s.has = 1, true
	}
	s.p *= floatOf(d, s.a.Arg.Type())
}

func (s *productAcc) Merge(later Accumulator) {
	o := later.(*productAcc)
	if o.has {
		if !s.has {
			s.p, s.has = 1, true
		}
		s.p *= o.p
	}
}

func (s *productAcc) Result() (Datum, error) {
	if !s.has {
		return NullDatum, nil
	}
	return Datum{F: s.p}, nil
}

type boolAcc struct {
	and, has, v bool
}

func (s *boolAcc) Add(d Datum) {
	if !s.has {
		s.v, s.has = d.B, true
		return
	}
	if s.and {
		s.v = s.v && d.B
	} else {
		s.v = s.v || d.B
	}
}

func (s *boolAcc) Merge(later Accumulator) {
	if o := later.(*boolAcc); o.has {
		s.Add(Datum{B: o.v})
	}
}

func (s *boolAcc) Result() (Datum, error) {
	if !s.has {
		return NullDatum, nil
	}
	return Datum{B: s.v}, nil
}

type countIfAcc struct {
	has bool
	n   int64
}

func (s *countIfAcc) Add(d Datum) {
	s.has = true
	if d.B {
		s.n++
	}
}

func (s *countIfAcc) Merge(later Accumulator) {
	o := later.(*countIfAcc)
	s.has = s.has || o.has
	s.n += o.n
}

func (s *countIfAcc) Result() (Datum, error) {
	if !s.has {
		return NullDatum, nil
	}
	return Datum{Big: big.NewInt(s.n)}, nil
}

type anyAcc struct {
	has bool
	v   Datum
}

func (s *anyAcc) Add(d Datum) {
	if !s.has {
		s.v, s.has = d, true
	}
}

func (s *anyAcc) Merge(later Accumulator) {
	if o := later.(*anyAcc); o.has && !s.has {
		s.v, s.has = o.v, true
	}
}

func (s *anyAcc) Result() (Datum, error) {
	if !s.has {
		return NullDatum, nil
	}
	return s.v, nil
}

// stringAggAcc joins the values' text with the separator (',' unless
// given) in input order.
type stringAggAcc struct {
	a   *AggCall
	sep string
	has bool
	b   []byte
}

func newStringAgg(a *AggCall) Accumulator {
	return &stringAggAcc{a: a, sep: a.param(0, Datum{S: ","}).S}
}

func (s *stringAggAcc) Add(d Datum) {
	if s.has {
		s.b = append(s.b, s.sep...)
	}
	s.has = true
	s.b = AppendText(s.b, d, s.a.Arg.Type())
}

func (s *stringAggAcc) Merge(later Accumulator) {
	o := later.(*stringAggAcc)
	if !o.has {
		return
	}
	if s.has {
		s.b = append(s.b, s.sep...)
	}
	s.has = true
	s.b = append(s.b, o.b...)
}

func (s *stringAggAcc) Result() (Datum, error) {
	if !s.has {
		return NullDatum, nil
	}
	return Datum{S: string(s.b)}, nil
}

// listAcc collects every value, NULLs included, in input order.
type listAcc struct {
	a    *AggCall
	vals []format.Value
	err  error
}

func (s *listAcc) Add(d Datum) {
	v, ok := leafOf(d, s.a.Arg.Type())
	if !ok && s.err == nil {
		s.err = fmt.Errorf("%w: list of %s", ErrNotImplemented, s.a.Arg.Type())
	}
	s.vals = append(s.vals, v)
}

func (s *listAcc) Merge(later Accumulator) {
	o := later.(*listAcc)
	s.vals = append(s.vals, o.vals...)
	if s.err == nil {
		s.err = o.err
	}
}

func (s *listAcc) Result() (Datum, error) {
	if s.err != nil {
		return Datum{}, s.err
	}
	if len(s.vals) == 0 {
		return NullDatum, nil
	}
	return Datum{N: format.List(s.vals)}, nil
}

// edgeAcc keeps the first (or last) value, NULL included.
type edgeAcc struct {
	last, has bool
	v         Datum
}

func (s *edgeAcc) Add(d Datum) {
	if !s.has || s.last {
		s.v, s.has = d, true
	}
}

func (s *edgeAcc) Merge(later Accumulator) {
	if o := later.(*edgeAcc); o.has {
		s.Add(o.v)
	}
}

func (s *edgeAcc) Result() (Datum, error) {
	if !s.has {
		return NullDatum, nil
	}
	return s.v, nil
}
