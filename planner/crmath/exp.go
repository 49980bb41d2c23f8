package crmath

import "math"

// Exp is e^x correctly rounded (see the package comment).
func Exp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 709.8:
		return math.Inf(1)
	case x < -745.2:
		return 0
	case math.Abs(x) < 0x1p-60:
		// e^x = 1 + x + ...: 1 for the nearest double, whichever side.
		return 1 + x
	}
	r, k := expDD(ddOf(x))
	return scale(r, k)
}

// expDD is e^x as r·2^k with r a dd near 1, for |x| below about 746.
func expDD(x dd) (dd, int) {
	k := math.Round(x.hi / ddLn2.hi)
	// r = x - k ln2, with ln 2 in three parts: k·ln2Part[0] and
	// k·ln2Part[1] are exact as dds, the rest is far below 2^-106.
	p0, e0 := twoProd(k, ln2Part[0])
	p1, e1 := twoProd(k, ln2Part[1])
	r := sub(x, dd{p0, 0})
	r = sub(r, dd{e0, 0})
	r = sub(r, dd{p1, 0})
	r = sub(r, dd{e1 + k*ln2Part[2], 0})
	return add(ddOf(1), expm1Small(r)), int(k)
}

// expm1Small is e^r - 1 for |r| <= 0.36: a short Taylor series at r/2^10,
// then ten doublings e(2r)-1 = m(2+m), which keep the relative precision
// of m.
func expm1Small(r dd) dd {
	const halvings = 10
	s := dd{math.Ldexp(r.hi, -halvings), math.Ldexp(r.lo, -halvings)}
	// |s| < 2^-11.4: s^10/10! is below 2^-130 of s.
	m := invFact[10]
	for i := 9; i >= 1; i-- {
		m = add(mul(m, s), invFact[i])
	}
	m = mul(m, s)
	for range halvings {
		m = mul(m, add(ddOf(2), m))
	}
	return m
}
