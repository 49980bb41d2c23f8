package crmath

import "math"

// invalid is the NaN an invalid operation yields on x86-64 (the sign bit
// set), which DuckDB prints as -nan; a NaN argument is returned as it is.
var invalid = math.Float64frombits(0xFFF8000000000000)

// A dd is the unevaluated sum hi+lo of two doubles with |lo| at most half
// a unit in the last place of hi: about 106 bits of precision.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return
}

// quickTwoSum is twoSum for |a| >= |b|.
func quickTwoSum(a, b float64) (s, e float64) {
	s = a + b
	e = b - (s - a)
	return
}

func twoProd(a, b float64) (p, e float64) {
	p = a * b
	e = math.FMA(a, b, -p)
	return
}

func ddOf(x float64) dd { return dd{x, 0} }

func add(a, b dd) dd {
	s, e := twoSum(a.hi, b.hi)
	t, f := twoSum(a.lo, b.lo)
	e += t
	s, e = quickTwoSum(s, e)
	e += f
	s, e = quickTwoSum(s, e)
	return dd{s, e}
}

func neg(a dd) dd { return dd{-a.hi, -a.lo} }

func sub(a, b dd) dd { return add(a, neg(b)) }

func mul(a, b dd) dd {
	p, e := twoProd(a.hi, b.hi)
	e += a.hi*b.lo + a.lo*b.hi
	p, e = quickTwoSum(p, e)
	return dd{p, e}
}

func mulF(a dd, b float64) dd {
	p, e := twoProd(a.hi, b)
	e += a.lo * b
	p, e = quickTwoSum(p, e)
	return dd{p, e}
}

func div(a, b dd) dd {
	q1 := a.hi / b.hi
	r := sub(a, mulF(b, q1))
	q2 := r.hi / b.hi
	r = sub(r, mulF(b, q2))
	q3 := r.hi / b.hi
	q1, q2 = quickTwoSum(q1, q2)
	return add(dd{q1, q2}, dd{q3, 0})
}

// quo is a/b for doubles, as a dd.
func quo(a, b float64) dd { return div(ddOf(a), ddOf(b)) }
