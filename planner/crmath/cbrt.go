package crmath

import "math"

// Cbrt is the cube root as the C library computes it. glibc's cbrt is not
// correctly rounded (about half its results are a unit off in the last
// place), and DuckDB prints glibc's, so this follows glibc's method step
// for step: x = m·2^e with m in [½, 1), a degree-6 polynomial guess u for
// ∛m, one Halley step u·(u³+2m)/(2u³+m), a factor 2^((e mod 3)/3), and
// the exponent e/3 (both truncated toward zero). Every product is rounded
// on its own (float64 conversions keep the compiler from fusing them).
func Cbrt(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	m, e := math.Frexp(math.Abs(x))
	u := float64(cbrtPoly[6] * m)
	u = float64(cbrtPoly[5]+u) * m
	for i := 4; i >= 1; i-- {
		u = float64(float64(cbrtPoly[i]+u) * m)
	}
	u = cbrtPoly[0] + u
	t2 := float64(float64(u*u) * u)
	num := float64(u * float64(t2+float64(2*m)))
	y := float64(float64(num/float64(float64(2*t2)+m)) * cbrtFactor[2+e%3])
	return math.Copysign(math.Ldexp(y, e/3), x)
}

// cbrtPoly are the polynomial's coefficients, constant term first.
var cbrtPoly = [7]float64{
	0.354895765043919860, 1.50819193781584896, -2.11499494167371287,
	2.44693122563534430, -1.83469277483613086, 0.784932344976639262,
	-0.145263899385486377,
}

// cbrtFactor[2+r] is 2^(r/3), each rounded from double arithmetic on the
// doubles nearest 2^(1/3) and 2^(2/3), as C computes them.
var cbrtFactor = func() [5]float64 {
	c1 := 1.2599210498948731648
	c2 := 1.5874010519681994748
	return [5]float64{1 / c2, 1 / c1, 1, c1, c2}
}()
