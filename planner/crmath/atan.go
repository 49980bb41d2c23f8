package crmath

import "math"

// Atan is the arctangent correctly rounded.
func Atan(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return math.Copysign(ddPio2.hi, x)
	case math.Abs(x) < 0x1p-27:
		// atan x = x - x³/3 with x³/3 below half a unit of x.
		return x
	}
	return round(atanDD(ddOf(x)))
}

// Atan2 is the angle of the point (x, y) correctly rounded, with C99's
// special cases for zeros and infinities.
func Atan2(y, x float64) float64 {
	switch {
	case math.IsNaN(y):
		return y
	case math.IsNaN(x):
		return x
	case y == 0 || math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0:
		// Exact quadrant angles and their rounded π fractions.
		return math.Atan2(y, x)
	}
	ay, ax := math.Abs(y), math.Abs(x)
	if min(ay, ax)/max(ay, ax) < 0x1p-500 {
		// The angle is within 2^-500 of an axis.
		switch {
		case ay > ax:
			return math.Copysign(ddPio2.hi, y)
		case x > 0:
			// atan t = t to far below a unit; the quotient rounds once.
			return y / x
		}
		return math.Copysign(ddPi.hi, y)
	}
	// Both scaled near 1, so the quotient's low part cannot underflow.
	_, e := math.Frexp(max(ay, ax))
	y, x = math.Ldexp(y, -e), math.Ldexp(x, -e)
	if math.Abs(y) <= math.Abs(x) {
		a := atanDD(quo(y, x))
		if x < 0 {
			if y > 0 {
				a = add(a, ddPi)
			} else {
				a = sub(a, ddPi)
			}
		}
		return round(a)
	}
	// |y| > |x|: atan2 = ±π/2 - atan(x/y).
	a := atanDD(quo(x, y))
	if y > 0 {
		return round(sub(ddPio2, a))
	}
	return round(sub(neg(ddPio2), a))
}

// atanDD is atan t by one Newton step on f(a) = sin a - t cos a from Go's
// atan: the step doubles Go's 52 bits, and the second derivative vanishes at the root, so the
// error left is far below 2^-106.
func atanDD(t dd) dd {
	a0 := math.Atan(t.hi)
	if math.Abs(t.hi) < 0x1p-27 {
		// atan t = t - t³/3 + t⁵/5 - ...; t⁵/5 is below 2^-135 of t.
		return sub(t, mul(mul(t, mul(t, t)), invOdd[1]))
	}
	r, q := reduce(a0)
	s, c := sincos(r)
	// a0 is within π/2, so q is 0 or ±1 (1 or 3 mod 4).
	switch q {
	case 1:
		s, c = c, neg(s)
	case 3:
		s, c = neg(c), s
	}
	f := sub(s, mul(t, c))
	fp := add(c, mul(t, s))
	return sub(ddOf(a0), div(f, fp))
}
