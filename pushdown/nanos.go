package pushdown

import (
	"math"
	"math/big"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// truncatesNanos says the column is a TIMESTAMP WITH TIME ZONE stored in
// nanoseconds, which a scan reads as microseconds truncated toward zero
// (DuckDB's reading): the query compares those microseconds, not the
// stored nanoseconds.
func (ci colInfo) truncatesNanos() bool {
	return ci.temporal == temporalTimestamp && ci.logical.Kind == format.KindTimestampTZ && ci.logical.Unit == meta.Nanos
}

// nearInfinity bounds the microsecond values translated to nanoseconds:
// past it DuckDB reads the extreme nanosecond values as ±infinity, where the
// reading stops being monotonic, so nothing is decided there.
const nearInfinity = math.MaxInt64/1000 - 1

var thousand = big.NewInt(1000)

// nanosAsMicros coerces T(x) op r, where x is the stored nanoseconds, T the
// truncation to microseconds and r the literal in nanoseconds. T is
// monotonic, so each comparison with a whole number of microseconds L is a
// range of x: T(x) >= L from minNanos(L) on, T(x) <= L up to maxNanos(L).
func (ci colInfo) nanosAsMicros(op Op, r *big.Rat) (Expr, error) {
	us := new(big.Rat).Quo(r, new(big.Rat).SetInt(thousand))
	var lo, hi *big.Int // T(x) >= lo and T(x) <= hi, nil for no bound
	if !us.IsInt() {
		switch op {
		case Eq:
			return ci.never(), nil
		case Ne:
			return ci.always(), nil
		case Lt, Le:
			hi = floorRat(us)
		default:
			lo = ceilRat(us)
		}
	} else {
		l := us.Num()
		switch op {
		case Eq, Ne:
			lo, hi = l, l
		case Lt:
			hi = new(big.Int).Sub(l, big.NewInt(1))
		case Le:
			hi = l
		case Gt:
			lo = new(big.Int).Add(l, big.NewInt(1))
		case Ge:
			lo = l
		}
	}
	for _, b := range []*big.Int{lo, hi} {
		if b != nil && b.CmpAbs(big.NewInt(nearInfinity)) > 0 {
			return nil, ErrUnsupported
		}
	}
	var parts []Expr
	if lo != nil {
		e, err := ci.intCmp(Ge, minNanos(lo))
		if err != nil {
			return nil, err
		}
		parts = append(parts, e)
	}
	if hi != nil {
		e, err := ci.intCmp(Le, maxNanos(hi))
		if err != nil {
			return nil, err
		}
		parts = append(parts, e)
	}
	if op == Ne {
		// NOT (lo <= x <= hi), exact in three-valued logic.
		below, err := ci.intCmp(Lt, minNanos(lo))
		if err != nil {
			return nil, err
		}
		above, err := ci.intCmp(Gt, maxNanos(hi))
		if err != nil {
			return nil, err
		}
		return &Or{Xs: []Expr{below, above}}, nil
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return &And{Xs: parts}, nil
}

// minNanos is the least x with T(x) >= l: l·1000, less 999 when l <= 0
// (T(-999) is 0).
func minNanos(l *big.Int) *big.Int {
	n := new(big.Int).Mul(l, thousand)
	if l.Sign() <= 0 {
		n.Sub(n, big.NewInt(999))
	}
	return n
}

// maxNanos is the greatest x with T(x) <= l: l·1000, plus 999 when l >= 0.
func maxNanos(l *big.Int) *big.Int {
	n := new(big.Int).Mul(l, thousand)
	if l.Sign() >= 0 {
		n.Add(n, big.NewInt(999))
	}
	return n
}
