package planner

import (
	"fmt"
	"math"
	"math/big"
)

// approx_count_distinct and approx_quantile answer as DuckDB 1.5's do:
// the same sketches (HyperLogLog over DuckDB's value hashes, a merging
// t-digest) computed the same way, so the estimates match, not just come
// close.
func init() {
	registerAggregate(
		&AggregateFunc{Name: "approx_count_distinct", Result: func(at Type) (Type, error) {
			if at.ID == TypeNested || at.ID == TypeBlob && !isPlainBlob(at) {
				return Type{}, fmt.Errorf("%w: approx_count_distinct of %s values", ErrNotImplemented, at)
			}
			return tBigInt, nil
		}, New: func(a *AggCall) Accumulator { return &hllAcc{t: a.Arg.Type()} }},
		&AggregateFunc{Name: "approx_quantile", Params: 1, Result: approxQuantileType, New: newApproxQuantile},
	)
}

// hllAcc is approx_count_distinct's state. It is never NULL: no input
// estimates 0.
type hllAcc struct {
	t   Type
	h   hyperLogLog
	err error
}

func (s *hllAcc) Add(d Datum) {
	h, err := duckHash(d, s.t)
	if err != nil {
		s.err = err
		return
	}
	s.h.insert(h)
}

func (s *hllAcc) Merge(later Accumulator) {
	o := later.(*hllAcc)
	s.h.merge(&o.h)
	if s.err == nil {
		s.err = o.err
	}
}

func (s *hllAcc) Result() (Datum, error) {
	if s.err != nil {
		return NullDatum, s.err
	}
	return Datum{I: s.h.count()}, nil
}

// approxQuantileType is the type DuckDB's overload resolution gives
// approx_quantile(x, q) for a single fraction q: narrow and unsigned
// integers widen to BIGINT (UBIGINT to HUGEINT), FLOAT to DOUBLE, and a
// DECIMAL becomes the integer of its storage width — DuckDB casts the
// decimal to that integer, rounding away its fraction.
func approxQuantileType(at Type) (Type, error) { return approxQuantileOf(at, Type{ID: TypeFloat}) }

// approxQuantileOf is approx_quantile's type for a value of type at and a
// fraction of type qt, which DuckDB's error names.
func approxQuantileOf(at, qt Type) (Type, error) {
	switch at.ID {
	case TypeTinyInt, TypeUTinyInt, TypeUSmallInt, TypeUInteger, TypeBigInt:
		return tBigInt, nil
	case TypeSmallInt, TypeInteger, TypeDate, TypeTime, TypeTimestamp, TypeTimestampTZ, TypeDouble:
		return at, nil
	case TypeUBigInt, TypeHugeInt:
		return Type{ID: TypeHugeInt}, nil
	case TypeFloat:
		return tDouble, nil
	case TypeTimestampNS:
		return Type{ID: TypeTimestamp}, nil
	case TypeDecimal:
		switch {
		case at.Precision <= 4:
			return Type{ID: TypeSmallInt}, nil
		case at.Precision <= 9:
			return Type{ID: TypeInteger}, nil
		case at.Precision <= 18:
			return tBigInt, nil
		}
		return Type{ID: TypeHugeInt}, nil
	case TypeTimeTZ:
		return Type{}, fmt.Errorf("%w: approx_quantile of %s", ErrNotImplemented, at)
	}
	return Type{}, binderError("No function matches the given name and argument types 'approx_quantile(%s, %s)'. You might need to add explicit type casts.", at, qt)
}

// bindApproxQuantile checks approx_quantile's arguments as DuckDB's binder
// does, before its result type is taken, and casts the value to the type
// the quantile is computed in.
func (a *AggCall) bindApproxQuantile() error {
	at := a.Arg.Type()
	if len(a.Params) == 0 {
		return binderError("No function matches the given name and argument types 'approx_quantile(%s)'. You might need to add explicit type casts.", at)
	}
	c := a.Params[0].(*Const)
	if c.T.ID == TypeNested {
		return fmt.Errorf("%w: approx_quantile with a list of fractions", ErrNotImplemented)
	}
	if !c.Value.Null && (!c.T.IsNumeric() || c.T.ID == TypeDouble) {
		// DOUBLE does not cast to FLOAT implicitly.
		return binderError("No function matches the given name and argument types 'approx_quantile(%s, %s)'. You might need to add explicit type casts.", at, c.T)
	}
	t, err := approxQuantileOf(at, c.T)
	if err != nil {
		return err
	}
	if c.Value.Null {
		return binderError("APPROXIMATE QUANTILE parameter list cannot be NULL")
	}
	if q := float32(floatOf(c.Value, c.T)); q < 0 || q > 1 {
		return binderError("APPROXIMATE QUANTILE can only take parameters in range [0, 1]")
	}
	a.Arg, err = castTo(a.Arg, t)
	return err
}

func newApproxQuantile(a *AggCall) Accumulator {
	c := a.Params[0].(*Const)
	// DuckDB keeps the fraction as a FLOAT.
	q := float64(float32(floatOf(c.Value, c.T)))
	return &approxQuantileAcc{t: a.T, q: q}
}

// approxQuantileAcc keeps a group's values, as doubles, in input order;
// the digest is built at the end so that merging the states of parallel
// readers leaves the order, and so the answer, DuckDB's single-threaded one.
type approxQuantileAcc struct {
	t    Type
	q    float64
	vals []float64
}

func (s *approxQuantileAcc) Add(d Datum) {
	x := approxEncode(d, s.t)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return // DuckDB leaves non-finite values out
	}
	s.vals = append(s.vals, x)
}

func (s *approxQuantileAcc) Merge(later Accumulator) {
	s.vals = append(s.vals, later.(*approxQuantileAcc).vals...)
}

func (s *approxQuantileAcc) Result() (Datum, error) {
	if len(s.vals) == 0 {
		return NullDatum, nil
	}
	td := newTDigest()
	for _, x := range s.vals {
		td.add(x)
	}
	// DuckDB compresses the digest once more when it finalizes, even with
	// no value waiting.
	td = td.handOver()
	td.process()
	return approxDecode(td.quantile(s.q), s.t), nil
}

// approxEncode is a value as the double the digest holds.
func approxEncode(d Datum, t Type) float64 {
	switch t.ID {
	case TypeDouble:
		return d.F
	case TypeHugeInt:
		return hugeToDouble(bigOf(d, t))
	}
	return float64(d.I)
}

// hugeToDouble converts as DuckDB does: the high half scaled by 2^64 plus
// the low half, each rounded, except for small negatives.
func hugeToDouble(v *big.Int) float64 {
	lo, hi := splitHuge(v)
	if int64(hi) == -1 {
		return -float64(math.MaxUint64-lo) - 1
	}
	return float64(lo) + float64(int64(hi))*(float64(math.MaxUint64)+1)
}

// approxDecode is the digest's double as a value of type t: rounded half
// to even, and clamped to the type's range rather than overflowing.
func approxDecode(x float64, t Type) Datum {
	switch t.ID {
	case TypeDouble:
		return Datum{F: x}
	case TypeHugeInt:
		lim := new(big.Int).Lsh(big.NewInt(1), 127)
		r := math.RoundToEven(x)
		switch {
		case r < -0x1p127:
			return Datum{Big: lim.Neg(lim)}
		case r >= 0x1p127 || math.IsNaN(r):
			return Datum{Big: lim.Sub(lim, big.NewInt(1))}
		}
		v, _ := big.NewFloat(r).Int(nil)
		return Datum{Big: v}
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch t.ID {
	case TypeSmallInt:
		lo, hi = math.MinInt16, math.MaxInt16
	case TypeInteger, TypeDate:
		lo, hi = math.MinInt32, math.MaxInt32
	}
	r := math.RoundToEven(x)
	switch {
	case r >= -0x1p63 && r < 0x1p63 && int64(r) >= lo && int64(r) <= hi:
		return Datum{I: int64(r)}
	case x < 0:
		return Datum{I: lo}
	}
	return Datum{I: hi}
}
