package crmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigAsin is asin x to prec bits (|x| < 1), by Newton's method on sin a = x from
// the double result, with sin and cos from their Taylor series.
func bigAsin(x float64, prec uint) *big.Float {
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	a := new(big.Float).SetPrec(prec).SetFloat64(math.Asin(x))
	for range 4 {
		s, c := bigSinCos(a, prec)
		s.Sub(s, bx)
		s.Quo(s, c)
		a.Sub(a, s)
	}
	return a
}

func bigSinCos(a *big.Float, prec uint) (*big.Float, *big.Float) {
	s := new(big.Float).SetPrec(prec)
	c := new(big.Float).SetPrec(prec)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(0); n < 80; n++ {
		// term = a^n / n!
		if n%2 == 0 {
			if n%4 == 0 {
				c.Add(c, term)
			} else {
				c.Sub(c, term)
			}
		} else {
			if n%4 == 1 {
				s.Add(s, term)
			} else {
				s.Sub(s, term)
			}
		}
		term.Mul(term, a)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n+1))
	}
	return s, c
}

func TestAsinAcosCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// ±1 are left to the exact checks below: Newton's method on sin
	// converges slowly where its derivative vanishes.
	xs := []float64{0.5, -0.5, 0.7071067811865476, 0.7071067811865475, 0.9999999999999999, 1e-9, 0x1p-27, 0.1, 0.3, 0.99, -0.99}
	for range 700 {
		xs = append(xs, r.Float64()*2-1, math.Ldexp(r.Float64(), -r.IntN(40)), 1-math.Ldexp(r.Float64(), -r.IntN(50)))
	}
	pio2 := new(big.Float).SetPrec(300).Mul(bigPi(300), big.NewFloat(0.5))
	for _, x := range xs {
		if math.Abs(x) == 1 {
			continue
		}
		want, _ := bigAsin(x, 300).Float64()
		if got := Asin(x); got != want {
			t.Errorf("Asin(%v) = %v, want %v", x, got, want)
		}
		wantC, _ := new(big.Float).SetPrec(300).Sub(pio2, bigAsin(x, 300)).Float64()
		if got := Acos(x); got != wantC {
			t.Errorf("Acos(%v) = %v, want %v", x, got, wantC)
		}
	}
	if Asin(1) != math.Pi/2 || Asin(-1) != -math.Pi/2 || Acos(1) != 0 || Acos(-1) != math.Pi {
		t.Errorf("asin(±1) = %v, %v; acos(±1) = %v, %v", Asin(1), Asin(-1), Acos(1), Acos(-1))
	}
	if !math.IsNaN(Asin(1.5)) || !math.IsNaN(Acos(-2)) || !math.IsNaN(Asin(math.NaN())) {
		t.Error("outside [-1, 1] must be NaN")
	}
	if Asin(math.Copysign(0, -1)) != 0 || !math.Signbit(Asin(math.Copysign(0, -1))) {
		t.Error("asin(-0) must be -0")
	}
}
