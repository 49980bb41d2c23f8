package crmath

import (
	"math/big"
	"sync"
)

// The constants are derived from their series at package start rather than
// typed in as digits, so a mistyped digit cannot creep in.
var (
	ddPi     dd // π
	ddPio2   dd // π/2
	ddLn2    dd // ln 2
	invLn2   dd // 1/ln 2
	invLn10  dd // 1/ln 10
	pio2Part [3]float64
	ln2Part  [3]float64
)

const constPrec = 320

func init() {
	pi := bigPi(constPrec)
	ln2 := bigAtanhInv(3, constPrec)
	ln2.Mul(ln2, big.NewFloat(2))
	// ln 10 = 3 ln 2 + ln 1.25, and ln 1.25 = 2 atanh(1/9).
	ln10 := bigAtanhInv(9, constPrec)
	ln10.Mul(ln10, big.NewFloat(2))
	ln10.Add(ln10, new(big.Float).SetPrec(constPrec).Mul(ln2, big.NewFloat(3)))

	ddPi = ddOfBig(pi)
	pio2 := new(big.Float).SetPrec(constPrec).Quo(pi, big.NewFloat(2))
	ddPio2 = ddOfBig(pio2)
	ddLn2 = ddOfBig(ln2)
	one := new(big.Float).SetPrec(constPrec).SetInt64(1)
	invLn2 = ddOfBig(new(big.Float).SetPrec(constPrec).Quo(one, ln2))
	invLn10 = ddOfBig(new(big.Float).SetPrec(constPrec).Quo(one, ln10))
	pio2Part = split3(pio2)
	ln2Part = split3(ln2)
	for i := range invOdd {
		invOdd[i] = div(ddOf(1), ddOf(float64(2*i+1)))
	}
	f := ddOf(1)
	for i := 1; i < len(invFact); i++ {
		f = mulF(f, float64(i))
		invFact[i] = div(ddOf(1), f)
	}
	invFact[0] = ddOf(1)
}

// ddOfBig rounds x to a dd.
func ddOfBig(x *big.Float) dd {
	hi, _ := x.Float64()
	r := new(big.Float).SetPrec(x.Prec()).Sub(x, new(big.Float).SetFloat64(hi))
	lo, _ := r.Float64()
	return dd{hi, lo}
}

// split3 writes x as three doubles whose sum holds about 160 bits of it.
func split3(x *big.Float) [3]float64 {
	var p [3]float64
	r := new(big.Float).SetPrec(x.Prec()).Set(x)
	for i := range p {
		p[i], _ = r.Float64()
		r.Sub(r, new(big.Float).SetFloat64(p[i]))
	}
	return p
}

// bigAtanhInv is atanh(1/n) = Σ 1/((2k+1) n^(2k+1)) for an integer n > 1.
func bigAtanhInv(n int64, prec uint) *big.Float {
	return bigSeries(n, prec, false)
}

// bigAtanInv is atan(1/n) = Σ (-1)^k / ((2k+1) n^(2k+1)).
func bigAtanInv(n int64, prec uint) *big.Float {
	return bigSeries(n, prec, true)
}

func bigSeries(n int64, prec uint, alternate bool) *big.Float {
	wp := prec + 32
	sum := new(big.Float).SetPrec(wp)
	pw := new(big.Float).SetPrec(wp).Quo(big.NewFloat(1), new(big.Float).SetInt64(n))
	n2 := new(big.Float).SetPrec(wp).SetInt64(n * n)
	term := new(big.Float).SetPrec(wp)
	for k := int64(0); ; k++ {
		term.Quo(pw, new(big.Float).SetInt64(2*k+1))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(wp) && sum.Sign() != 0 {
			break
		}
		if alternate && k%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
		pw.Quo(pw, n2)
	}
	return sum.SetPrec(prec)
}

// bigPi is π = 16 atan(1/5) - 4 atan(1/239) (Machin).
func bigPi(prec uint) *big.Float {
	a := bigAtanInv(5, prec+16)
	a.Mul(a, big.NewFloat(16))
	b := bigAtanInv(239, prec+16)
	b.Mul(b, big.NewFloat(4))
	return a.Sub(a, b).SetPrec(prec)
}

// The wide constants for reducing huge trigonometric arguments, built on
// first use: 2/π and π/2 to enough bits that x·2/π keeps 200 bits after
// the point for every finite double x.
var (
	wideOnce sync.Once
	wideTwoOverPi,
	widePio2 *big.Float
)

const widePrec = 1400

func wideConstants() (*big.Float, *big.Float) {
	wideOnce.Do(func() {
		pi := bigPi(widePrec)
		wideTwoOverPi = new(big.Float).SetPrec(widePrec).Quo(big.NewFloat(2), pi)
		widePio2 = new(big.Float).SetPrec(widePrec).Quo(pi, big.NewFloat(2))
	})
	return wideTwoOverPi, widePio2
}

// invOdd[i] is 1/(2i+1) and invFact[i] is 1/i!, as dds.
var (
	invOdd  [24]dd
	invFact [32]dd
)
