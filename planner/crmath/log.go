package crmath

import "math"

// Log is the natural logarithm correctly rounded; negative x gives NaN,
// ±0 gives -Inf.
func Log(x float64) float64 {
	if r, ok := logSpecial(x); ok {
		return r
	}
	return round(logDD(x))
}

// Log2 is the base-2 logarithm correctly rounded.
func Log2(x float64) float64 {
	if r, ok := logSpecial(x); ok {
		return r
	}
	if m, e := math.Frexp(x); m == 0.5 {
		return float64(e - 1)
	}
	return round(mul(logDD(x), invLn2))
}

// Log10 is the base-10 logarithm as the C library computes it. glibc's
// log10 is not correctly rounded (about one result in nine differs from the
// exact one in the last digit), and DuckDB prints glibc's: so this follows
// fdlibm's published method, x = 2^n·m with m in [1, 2) (in [½, 1) for
// negative n), log10 x = n·hi + (n·lo + ln(m)/ln 10) with log10(2) = hi+lo
// split after 40 bits, in plain double arithmetic over a correctly rounded
// ln m.
func Log10(x float64) float64 {
	if r, ok := logSpecial(x); ok {
		return r
	}
	m, e := math.Frexp(x)
	n := e - 1
	if n < 0 {
		n++
	} else {
		m *= 2
	}
	y := float64(n)
	z := float64(y*log10TwoLo) + float64(invLn10Double*Log(m))
	return z + float64(y*log10TwoHi)
}

// The constants of fdlibm's log10, as bit patterns so they are exactly its.
var (
	invLn10Double = math.Float64frombits(0x3FDBCB7B1526E50E)
	log10TwoHi    = math.Float64frombits(0x3FD34413509F6000)
	log10TwoLo    = math.Float64frombits(0x3D59FEF311F12B36)
)

func logSpecial(x float64) (float64, bool) {
	switch {
	case math.IsNaN(x):
		return x, true
	case x == 0:
		return math.Inf(-1), true
	case x < 0:
		return invalid, true
	case math.IsInf(x, 1):
		return x, true
	case x == 1:
		return 0, true
	}
	return 0, false
}

func round(a dd) float64 { return a.hi + a.lo }

// logDD is ln x for a positive finite x: x = m·2^e with m in [√½, √2),
// ln m = 2 atanh(s) with s = (m-1)/(m+1), |s| <= 0.1716, whose odd series
// in s² <= 0.0295 needs 23 terms for 2^-110; m-1 is exact, so x near 1 keeps its
// relative precision.
func logDD(x float64) dd {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	num := ddOf(m - 1)
	den1, den2 := twoSum(m, 1)
	s := div(num, dd{den1, den2})
	s2 := mul(s, s)
	p := invOdd[22]
	for i := 21; i >= 0; i-- {
		p = add(mul(p, s2), invOdd[i])
	}
	lm := mulF(mul(p, s), 2)
	if e == 0 {
		return lm
	}
	fe := float64(e)
	p0, e0 := twoProd(fe, ln2Part[0])
	p1, e1 := twoProd(fe, ln2Part[1])
	l := add(dd{p0, e0}, dd{p1, e1 + fe*ln2Part[2]})
	return add(l, lm)
}
