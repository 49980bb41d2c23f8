package crmath

import (
	"math"
	"math/big"
)

// Pow is x^y correctly rounded, with C99's special cases (pow(x, ±0) = 1,
// pow(1, y) = 1, NaN for a negative base with a non-integer exponent).
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case math.IsNaN(x):
		return x
	case math.IsNaN(y):
		return y
	case y == 1:
		return x
	case y == 2:
		return x * x
	case y == 0.5 && x > 0 && !math.IsInf(x, 1):
		return math.Sqrt(x)
	case y == -1 && x != 0 && !math.IsInf(x, 0):
		return 1 / x
	case x == 0 || math.IsInf(x, 0) || math.IsInf(y, 0):
		// The limits need no rounding; Go's rules are C99's.
		return math.Pow(x, y)
	}
	yInt := y == math.Trunc(y)
	neg := false
	if x < 0 {
		if !yInt {
			return invalid
		}
		neg = math.Mod(y, 2) != 0
		x = -x
	}
	r := powPositive(x, y, yInt)
	if neg {
		return -r
	}
	return r
}

func powPositive(x, y float64, yInt bool) float64 {
	l := logDD(x)
	if g := l.hi * y; g > 710 || g < -746 {
		// Far past overflow or underflow (y may be huge, l·y infinite).
		if g > 0 {
			return math.Inf(1)
		}
		return 0
	}
	t := mulF(l, y)
	switch {
	case t.hi > 709.8:
		return math.Inf(1)
	case t.hi < -745.2:
		return 0
	}
	r, k := expDD(t)
	// An integer power can land exactly halfway between two doubles
	// (an odd 54-bit result); the approximation cannot tell which side,
	// so such powers are computed exactly.
	// Below 2^-1022 the halfway points are those of fewer bits.
	if yInt && math.Abs(y) <= 1100 && (nearHalfway(r, 90) || k < -1021) {
		return powExact(x, int(y))
	}
	return scale(r, k)
}

// powExact is x^n for an integer n rounded once: the product is exact in
// big.Float, and a negative power is one correctly rounded division.
func powExact(x float64, n int) float64 {
	m, e := math.Frexp(x)
	mant := new(big.Float).SetFloat64(m)
	an := n
	if an < 0 {
		an = -an
	}
	// m has at most 53 bits, so m^an has at most 53·an.
	p := new(big.Float).SetPrec(uint(53*an + 64)).SetInt64(1)
	b := new(big.Float).SetPrec(p.Prec()).Set(mant)
	for k := an; k > 0; k >>= 1 {
		if k&1 == 1 {
			p.Mul(p, b)
		}
		b.Mul(b, b)
	}
	if n < 0 {
		// 1/m^an is not a dyadic fraction unless m is a power of two (then
		// it is exact), so a wide quotient rounded once more cannot sit on
		// a halfway point.
		p = new(big.Float).SetPrec(p.Prec()).Quo(new(big.Float).SetInt64(1), p)
	}
	p.SetMantExp(p, e*n)
	v, _ := p.Float64()
	return v
}
