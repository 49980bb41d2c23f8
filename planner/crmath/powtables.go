package crmath

import (
	"math"
	"math/big"
	"sync"
)

// The two tables of glibc's pow, rebuilt from the rules that define them
// (glibc's e_pow_log_data.c and e_exp_data.c state them) rather than typed
// in: the values must be the same doubles to the last bit, or pow rounds
// differently from DuckDB's libm.
const (
	powLogBits = 7 // 128 subintervals for the logarithm
	powExpBits = 7 // 2^(k/128) for the exponential
	powLogN    = 1 << powLogBits
	powExpN    = 1 << powExpBits
	// powLogOff is the bit pattern of 0x1.69555p-1, where the logarithm's
	// reduced argument z starts; z runs up to twice that.
	powLogOff = 0x3fe6955500000000
)

// A powLogEntry covers one subinterval of z: c is near its centre and has
// a reciprocal of few bits, so z·(1/c) - 1 is exact in one fused step.
type powLogEntry struct {
	invc float64 // 1/c
	logc float64 // log(c) rounded to a multiple of 2^-43, so k·ln2hi + logc is exact
	// logctail is log(c) - logc.
	logctail float64
}

var (
	powTablesOnce sync.Once
	powLogTable   [powLogN]powLogEntry
	// powExpTable holds, for each k, the bits of t and those of h less
	// k·2^52/128, where 2^(k/128) ≈ h·(1+t): adding (k'<<45) to the second
	// word then scales by 2^(k'/128) for any k' ≡ k.
	powExpTable [2 * powExpN]uint64
)

const powTablePrec = 256

// powTables builds both tables on first use (about a millisecond).
func powTables() {
	powTablesOnce.Do(func() {
		for i := range powLogTable {
			powLogTable[i] = powLogEntryAt(i)
		}
		buildPowExpTable()
	})
}

// powLogEntryAt is entry i: the subinterval is the i-th 2^45-wide slice of
// bit patterns from powLogOff, and 1/c is the centre's reciprocal rounded
// to a multiple of 1/N (below 1) or 1/2N (from 1 on, where doubles are
// twice as far apart).
func powLogEntryAt(i int) powLogEntry {
	lo := math.Float64frombits(powLogOff + uint64(i)<<(52-powLogBits))
	hi := math.Float64frombits(powLogOff + uint64(i+1)<<(52-powLogBits))
	center := (lo + hi) / 2
	var invc float64
	if center < 1 {
		invc = math.RoundToEven(powLogN/center) / powLogN
	} else {
		invc = math.RoundToEven(2*powLogN/center) / powLogN / 2
	}
	if invc == 1 {
		return powLogEntry{invc: 1}
	}
	prec := uint(powTablePrec)
	c := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), big.NewFloat(invc))
	l := bigLog(c, prec)
	// logc = round(2^43·log c)/2^43.
	scaled := new(big.Float).SetPrec(prec).SetMantExp(l, 43)
	half := big.NewFloat(0.5)
	if scaled.Sign() < 0 {
		half.Neg(half)
	}
	n, _ := scaled.Add(scaled, half).Int(nil)
	logc := math.Ldexp(float64(n.Int64()), -43)
	tail, _ := new(big.Float).SetPrec(prec).Sub(l, big.NewFloat(logc)).Float64()
	return powLogEntry{invc: invc, logc: logc, logctail: tail}
}

// bigLog is ln c = 2·atanh((c-1)/(c+1)) for c near 1.
func bigLog(c *big.Float, prec uint) *big.Float {
	wp := prec + 32
	one := big.NewFloat(1)
	u := new(big.Float).SetPrec(wp).Sub(c, one)
	u.Quo(u, new(big.Float).SetPrec(wp).Add(c, one))
	u2 := new(big.Float).SetPrec(wp).Mul(u, u)
	sum := new(big.Float).SetPrec(wp).Set(u)
	pw := new(big.Float).SetPrec(wp).Set(u)
	term := new(big.Float).SetPrec(wp)
	for k := int64(3); ; k += 2 {
		pw.Mul(pw, u2)
		term.Quo(pw, new(big.Float).SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(wp) {
			break
		}
		sum.Add(sum, term)
	}
	return sum.Mul(sum, big.NewFloat(2)).SetPrec(prec)
}

// buildPowExpTable splits each 2^(k/128) into the nearest double h and the
// relative remainder t = 2^(k/128)/h - 1 rounded to a double.
func buildPowExpTable() {
	prec := uint(powTablePrec)
	// r = 2^(1/128) by seven square roots of 2.
	r := new(big.Float).SetPrec(prec + 32).SetInt64(2)
	for range powExpBits {
		r.Sqrt(r)
	}
	v := new(big.Float).SetPrec(prec + 32).SetInt64(1)
	for k := range powExpN {
		h, _ := v.Float64()
		t := new(big.Float).SetPrec(prec).Quo(v, big.NewFloat(h))
		t.Sub(t, big.NewFloat(1))
		tf, _ := t.Float64()
		powExpTable[2*k] = math.Float64bits(tf)
		powExpTable[2*k+1] = math.Float64bits(h) - uint64(k)<<(52-powExpBits)
		v.Mul(v, r)
	}
}
