package crmath

import "math"

// Asin is the arcsine correctly rounded, for x in [-1, 1] (NaN outside).
func Asin(x float64) float64 {
	switch ax := math.Abs(x); {
	case math.IsNaN(x) || ax > 1:
		return math.NaN()
	case ax < 0x1p-27:
		// asin x = x + x³/6 with x³/6 below half a unit of x.
		return x
	case ax <= math.Sqrt2/2:
		// asin x = atan(x / √(1-x²)), the quotient at most 1.
		return round(atanDD(div(ddOf(x), oneMinusSquareRoot(x))))
	}
	// Near ±1: asin x = ±(π/2 - atan(√(1-x²) / |x|)).
	a := sub(ddPio2, atanDD(div(oneMinusSquareRoot(x), ddOf(math.Abs(x)))))
	if x < 0 {
		a = neg(a)
	}
	return round(a)
}

// Acos is the arccosine correctly rounded, for x in [-1, 1] (NaN outside).
func Acos(x float64) float64 {
	switch ax := math.Abs(x); {
	case math.IsNaN(x) || ax > 1:
		return math.NaN()
	case ax < 0x1p-60:
		return ddPio2.hi
	case ax <= math.Sqrt2/2:
		// acos x = π/2 - atan(x / √(1-x²)).
		return round(sub(ddPio2, atanDD(div(ddOf(x), oneMinusSquareRoot(x)))))
	}
	// acos x = atan(√(1-x²) / x), moved by π for negative x.
	a := atanDD(div(oneMinusSquareRoot(x), ddOf(x)))
	if x < 0 {
		a = add(a, ddPi)
	}
	return round(a)
}

// oneMinusSquareRoot is √(1-x²) to about 106 bits: 1-x² as (1-x)(1+x),
// whose factors are exact as double-doubles, then one Newton step on the
// double square root.
func oneMinusSquareRoot(x float64) dd {
	a, ae := twoSum(1, -x)
	b, be := twoSum(1, x)
	v := mul(dd{a, ae}, dd{b, be})
	if v.hi == 0 {
		return dd{}
	}
	s := math.Sqrt(v.hi)
	// s + (v - s²) / 2s
	p, pe := twoProd(s, s)
	r := sub(v, dd{p, pe})
	return add(ddOf(s), ddOf((r.hi+r.lo)/(2*s)))
}
