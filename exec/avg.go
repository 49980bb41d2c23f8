package exec

import (
	"math"
	"math/big"
)

// avgOf is the average of n values of t whose unscaled sum is sum, as
// DuckDB computes it: for SMALLINT, TINYINT and DECIMAL of up to 4 digits,
// the sum as a double over n times the scale; for the other integers and
// decimals, a division in x86-64's long double (a 64-bit significand),
// rounded once more to a double. The second rounding differs from a
// correctly rounded quotient when the first lands halfway between two
// doubles.
func avgOf(sum *big.Int, n int64, t Type) float64 {
	scale := 0
	if t.ID == TypeDecimal {
		scale = t.Scale
	}
	p := math.Pow10(scale)
	if !avgExtended(t) {
		s, _ := new(big.Float).SetInt(sum).Float64()
		return s / (float64(n) * p)
	}
	if sum.IsInt64() {
		if q, ok := avgExact(sum.Int64(), n, p); ok {
			return q
		}
	}
	const prec = 64
	s := longDouble(sum)
	d := new(big.Float).SetPrec(prec).SetInt64(n)
	d.Mul(d, new(big.Float).SetFloat64(p))
	q, _ := new(big.Float).SetPrec(prec).Quo(s, d).Float64()
	return q
}

// avgOf128 is avgOf of an int128 sum.
func avgOf128(sum int128, n int64, t Type) float64 {
	if x := int64(sum.lo); sum.hi == x>>63 && avgExtended(t) {
		p := 1.0
		if t.ID == TypeDecimal {
			p = math.Pow10(t.Scale)
		}
		if q, ok := avgExact(x, n, p); ok {
			return q
		}
	}
	return avgOf(sum.big(), n, t)
}

// avgExtended reports whether DuckDB averages t in long double: all but
// the types it sums in 64-bit integers (SMALLINT and what casts to it,
// DECIMAL of up to 4 digits).
func avgExtended(t Type) bool {
	switch t.ID {
	case TypeTinyInt, TypeSmallInt, TypeUTinyInt:
		return false
	case TypeDecimal:
		return t.Precision > 4
	}
	return true
}

// avgExact is the long double quotient of s over n·p when both are exact
// as doubles and the exact quotient is far enough from halfway between two
// doubles that rounding it first to 64 bits cannot move it: then it is the
// correctly rounded double quotient.
func avgExact(s, n int64, p float64) (float64, bool) {
	const exact = 1 << 53
	if s <= -exact || s >= exact || n <= 0 || float64(n)*p >= exact {
		return 0, false
	}
	x, d := float64(s), float64(n)*p
	q := x / d
	if q == 0 {
		return q, true
	}
	// r is the exact remainder x - q·d; |r|/d is q's distance from the
	// true quotient, at most half an ulp.
	r := math.Abs(math.FMA(-q, d, x)) / d
	half := ulp(q) / 2
	if math.Abs(half-r) > half/256 {
		return q, true
	}
	return 0, false
}

// ulp is the gap between |q| and the next double away from zero.
func ulp(q float64) float64 {
	q = math.Abs(q)
	return math.Nextafter(q, math.Inf(1)) - q
}

// longDouble converts an integer to long double as DuckDB's hugeint does:
// exactly when its high word is 0 or -1, else its low word plus its high
// word times 2^64-1, each step rounded to a 64-bit significand.
func longDouble(x *big.Int) *big.Float {
	const prec = 64
	hi := new(big.Int).Rsh(x, 64)
	if hi.Sign() == 0 || (hi.IsInt64() && hi.Int64() == -1) {
		return new(big.Float).SetPrec(prec).SetInt(x)
	}
	lo := new(big.Int).And(x, new(big.Int).SetUint64(math.MaxUint64))
	out := new(big.Float).SetPrec(prec).SetInt(hi)
	out.Mul(out, new(big.Float).SetUint64(math.MaxUint64))
	return out.Add(out, new(big.Float).SetPrec(prec).SetInt(lo))
}
