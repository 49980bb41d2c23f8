package crmath

import (
	"math"
	"math/big"
)

// Sin is the sine correctly rounded; ±Inf gives NaN.
func Sin(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return invalid
	case math.Abs(x) < 0x1p-27:
		// sin x = x - x³/6 with x³/6 below half a unit of x.
		return x
	}
	r, q := reduce(x)
	s, c := sincos(r)
	return sinQuadrant(s, c, q)
}

// sinQuadrant is sin(r + q·π/2) from sin r and cos r; cos x is the sine a
// quadrant further.
func sinQuadrant(s, c dd, q int) float64 {
	switch q & 3 {
	case 0:
		return round(s)
	case 1:
		return round(c)
	case 2:
		return -round(s)
	}
	return -round(c)
}

// Cos is the cosine correctly rounded; ±Inf gives NaN.
func Cos(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return invalid
	case math.Abs(x) < 0x1p-27:
		return 1
	}
	r, q := reduce(x)
	s, c := sincos(r)
	return sinQuadrant(s, c, q+1)
}

// Tan is the tangent correctly rounded; ±Inf gives NaN.
func Tan(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return invalid
	case math.Abs(x) < 0x1p-27:
		// tan x = x + x³/3: x³/3 is below half a unit of x.
		return x
	}
	r, q := reduce(x)
	s, c := sincos(r)
	if q%2 == 0 {
		return round(div(s, c))
	}
	return -round(div(c, s))
}

// reduce writes x as r + q·π/2 (mod 2π) with |r| <= π/4 (a hair more) and
// r a dd accurate to about 2^-106 relative.
func reduce(x float64) (dd, int) {
	if math.Abs(x) <= math.Pi/4 {
		return ddOf(x), 0
	}
	if math.Abs(x) < 0x1p30 {
		k := math.Round(x / ddPio2.hi)
		// k·pio2Part[i] are exact as dds; x - k·pio2Part[0] is exact
		// (the two are within a factor of two), and the parts hold π/2
		// to 2^-160, so r is off by at most k·2^-160.
		a, ae := twoProd(k, pio2Part[0])
		b, be := twoProd(k, pio2Part[1])
		r := ddOf(x - a)
		r = sub(r, ddOf(ae))
		r = sub(r, dd{b, be})
		r = sub(r, ddOf(k*pio2Part[2]))
		if math.Abs(r.hi) > 0x1p-20 {
			return r, int(int64(k) & 3)
		}
	}
	return reduceWide(x)
}

// reduceWide reduces any finite x with 1400-bit 2/π (Payne and Hanek's
// idea without their table): x·2/π keeps more than 300 bits after the
// point, and no double lies closer than 2^-62 to a multiple of π/2.
func reduceWide(x float64) (dd, int) {
	twoOverPi, pio2 := wideConstants()
	q := new(big.Float).SetPrec(widePrec).SetFloat64(x)
	q.Mul(q, twoOverPi)
	// k = q rounded to the nearest integer.
	half := big.NewFloat(0.5)
	if q.Sign() < 0 {
		half.Neg(half)
	}
	kf := new(big.Float).SetPrec(widePrec).Add(q, half)
	k, _ := kf.Int(nil)
	f := q.Sub(q, new(big.Float).SetPrec(widePrec).SetInt(k))
	f.Mul(f, pio2)
	quad := new(big.Int).And(k, big.NewInt(3)).Int64()
	return ddOfBig(f), int(quad)
}

// sincos is sin r and cos r for |r| <= π/4 + ε by their Taylor series:
// r² < 0.62 and 28! > 2^100, so 14 terms each reach 2^-106.
func sincos(r dd) (dd, dd) {
	r2 := mul(r, r)
	s := invFact[29]
	for i := 27; i >= 1; i -= 2 {
		s = add(mul(s, neg(r2)), invFact[i])
	}
	s = mul(s, r)
	c := invFact[28]
	for i := 26; i >= 0; i -= 2 {
		c = add(mul(c, neg(r2)), invFact[i])
	}
	return s, c
}
