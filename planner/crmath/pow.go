package crmath

import "math"

// Pow is x^y as glibc 2.36 computes it on x86-64 with FMA (the pow DuckDB
// 1.5.6 calls), to the last bit. glibc's pow is not correctly rounded
// (pow(7, 23) and many more land one unit off), and DuckDB's answer is the
// one users compare with, so this follows its algorithm operation by
// operation: log x in a double plus a tail from a 128-entry table and a
// degree-8 polynomial, times y, then exp from a 128-entry table of 2^(k/128)
// and a degree-5 polynomial. Where the compiled library fuses a multiply
// and an add (it is built with contraction on), so does this, through
// math.FMA; products it rounds on their own are written float64(a*b) so no
// compiler fuses them either. The special cases are C99's.
func Pow(x, y float64) float64 {
	powTables()
	ix, iy := math.Float64bits(x), math.Float64bits(y)
	topx, topy := uint32(ix>>52), uint32(iy>>52)
	var signBias uint64
	if topx-0x001 >= 0x7ff-0x001 || (topy&0x7ff)-0x3be >= 0x43e-0x3be {
		// x is zero, subnormal, negative, infinite or NaN, or |y| is
		// below 2^-65, at least 2^63, or NaN.
		if zeroInfNaN(iy) {
			switch {
			case iy<<1 == 0:
				return 1
			case ix == oneBits:
				return 1
			case ix<<1 > infBits<<1 || iy<<1 > infBits<<1:
				return x + y
			case ix<<1 == oneBits<<1:
				return 1 // (-1)^±inf
			case (ix<<1 < oneBits<<1) == (iy>>63 == 0):
				return 0 // |x| < 1 and y = inf, or |x| > 1 and y = -inf
			}
			return y * y
		}
		if zeroInfNaN(ix) {
			x2 := x * x
			if ix>>63 != 0 && checkInt(iy) == 1 {
				x2 = -x2
			}
			if iy>>63 != 0 {
				return 1 / x2
			}
			return x2
		}
		// x and y are finite and non-zero.
		if ix>>63 != 0 {
			switch checkInt(iy) {
			case 0:
				return invalid
			case 1:
				signBias = powSignBias
			}
			ix &^= 1 << 63
			topx &= 0x7ff
		}
		if (topy&0x7ff)-0x3be >= 0x43e-0x3be {
			// y is even here, or not an integer with x > 0.
			if ix == oneBits {
				return 1
			}
			if topy&0x7ff < 0x3be {
				// |y| < 2^-65: x^y = 1 + y·log x, which rounds to 1 ± y's
				// neighbourhood of 1.
				if ix > oneBits {
					return 1 + y
				}
				return 1 - y
			}
			if (ix > oneBits) == (topy < 0x800) {
				return math.Inf(1)
			}
			return 0
		}
		if topx == 0 {
			// Subnormal x: normalise, letting the exponent go negative.
			ix = math.Float64bits(x*0x1p52) &^ (1 << 63)
			ix -= 52 << 52
		}
	}
	hi, lo := powLog(ix)
	ehi := float64(y * hi)
	elo := math.FMA(y, lo, math.FMA(y, hi, -ehi))
	return powExp(ehi, elo, signBias)
}

const (
	oneBits = 0x3ff0000000000000
	infBits = 0x7ff0000000000000
	// powSignBias added to the exponential's k flips the result's sign bit
	// (k is shifted left by 45 into the bits of the scale).
	powSignBias = 0x800 << powExpBits
)

// The polynomial coefficients of glibc's pow: minimax fits (relative error
// about 2^-70 for the logarithm, 2^-66 for the exponential) that no rule
// regenerates, so they are glibc's doubles written in hexadecimal. The
// logarithm's carry the scaling of its evaluation (powers of -2).
const (
	powLn2hi = 0x1.62e42fefa3800p-1 // ln 2 with its low 11 bits cleared
	powLn2lo = 0x1.ef35793c76730p-45
	powA0    = -0x1p-1
	powA1    = -0x1.555555555556p-1
	powA2    = 0x1.0000000000006p-1
	powA3    = 0x1.999999959554ep-1
	powA4    = -0x1.555555529a47ap-1
	powA5    = -0x1.2495b9b4845e9p0
	powA6    = 0x1.0002b8b263fc3p0

	powInvLn2N   = 0x1.71547652b82fep0 * powExpN
	powNegLn2hiN = -0x1.62e42fefa0000p-8
	powNegLn2loN = -0x1.cf79abc9e3b3ap-47
	powShift     = 0x1.8p52
	powC2        = 0x1.ffffffffffdbdp-2
	powC3        = 0x1.555555555543cp-3
	powC4        = 0x1.55555cf172b91p-5
	powC5        = 0x1.1111167a4d017p-7
)

// powLog is log x as hi + lo (lo holds about 15 more bits), for the bit
// pattern ix of a positive x whose exponent field may have gone negative
// (a normalised subnormal).
func powLog(ix uint64) (hi, lo float64) {
	// x = 2^k·z with z in [powLogOff, 2·powLogOff); z's subinterval picks c.
	tmp := ix - powLogOff
	i := (tmp >> (52 - powLogBits)) % powLogN
	k := int64(tmp) >> 52
	z := math.Float64frombits(ix - tmp&(0xfff<<52))
	kd := float64(k)
	e := &powLogTable[i]

	// log x = k·ln2 + log c + log1p(z/c - 1); r = z/c - 1 is exact.
	r := math.FMA(z, e.invc, -1)
	t1 := math.FMA(kd, powLn2hi, e.logc)
	t2 := t1 + r
	lo1 := math.FMA(kd, powLn2lo, e.logctail)
	lo2 := t1 - t2 + r

	ar := powA0 * r
	ar2 := float64(r * ar)
	ar3 := float64(r * ar2)
	// k·ln2 + log c + r - r²/2 as hi plus the rounding errors lo3, lo4.
	hi = t2 + ar2
	lo3 := math.FMA(ar, r, -ar2)
	lo4 := t2 - hi + ar2
	q := math.FMA(ar2, math.FMA(math.FMA(r, powA6, powA5), ar2, math.FMA(r, powA4, powA3)), math.FMA(r, powA2, powA1))
	l := math.FMA(ar3, q, lo1+lo2+lo3+lo4)
	y := hi + l
	return y, hi - y + l
}

// powExp is ±exp(x + xtail), the sign negative when signBias is set;
// |xtail| is far below x's last place.
func powExp(x, xtail float64, signBias uint64) float64 {
	abstop := uint32(math.Float64bits(x)>>52) & 0x7ff
	const tiny, big, huge = 0x3c9, 0x408, 0x409 // top bits of 2^-54, 512, 1024
	if abstop-tiny >= big-tiny {
		if abstop-tiny >= 0x80000000 {
			// |x| < 2^-54: the result rounds to ±1 (1 + x keeps the
			// rounding direction right).
			one := 1 + x
			if signBias != 0 {
				return -one
			}
			return one
		}
		if abstop >= huge {
			r := math.Inf(1)
			if x < 0 {
				r = 0
			}
			if signBias != 0 {
				return -r
			}
			return r
		}
		// Large |x| may overflow or underflow: handled at the end.
		abstop = 0
	}
	// exp x = 2^(k/N)·exp r with r in [-ln2/2N, ln2/2N].
	kd := math.FMA(x, powInvLn2N, powShift)
	ki := math.Float64bits(kd)
	kd -= powShift
	r := math.FMA(kd, powNegLn2loN, math.FMA(kd, powNegLn2hiN, x))
	r += xtail
	idx := 2 * (ki % powExpN)
	top := (ki + signBias) << (52 - powExpBits)
	tail := math.Float64frombits(powExpTable[idx])
	sbits := powExpTable[idx+1] + top
	// 2^(k/N)·exp r ≈ scale + scale·(tail + exp r - 1).
	r2 := float64(r * r)
	tmp := math.FMA(math.FMA(r, powC5, powC4), float64(r2*r2), math.FMA(math.FMA(r, powC3, powC2), r2, tail+r))
	if abstop == 0 {
		return powExpEdge(tmp, sbits, ki)
	}
	scale := math.Float64frombits(sbits)
	return math.FMA(scale, tmp, scale)
}

// powExpEdge is scale·(1 + tmp) where scale's exponent (in sbits) has
// overflowed or underflowed: it scales into range first, and below 2^-1022
// rounds once at the subnormal precision rather than twice.
func powExpEdge(tmp float64, sbits, ki uint64) float64 {
	if ki&0x80000000 == 0 {
		// k > 0: the exponent may have overflowed by up to 460.
		sbits -= 1009 << 52
		scale := math.Float64frombits(sbits)
		return math.FMA(scale, tmp, scale) * 0x1p1009
	}
	sbits += 1022 << 52
	scale := math.Float64frombits(sbits)
	st := float64(scale * tmp)
	y := scale + st
	if math.Abs(y) < 1 {
		// Round y to the subnormal's precision by adding ±1 in a
		// double-double, so the final scaling is exact.
		one := 1.0
		if y < 0 {
			one = -1
		}
		lo := scale - y + st
		hi := one + y
		lo = one - hi + y + lo
		y = (hi + lo) - one
		if y == 0 {
			y = math.Float64frombits(sbits & (1 << 63))
		}
	}
	return 0x1p-1022 * y
}

// checkInt is 0 when the finite non-zero double with bits iy is not an
// integer, 1 when it is an odd one, 2 when even.
func checkInt(iy uint64) int {
	e := int(iy >> 52 & 0x7ff)
	switch {
	case e < 0x3ff:
		return 0
	case e > 0x3ff+52:
		return 2
	case iy&(1<<(0x3ff+52-e)-1) != 0:
		return 0
	case iy&(1<<(0x3ff+52-e)) != 0:
		return 1
	}
	return 2
}

// zeroInfNaN reports whether i is the bit pattern of ±0, ±inf or a NaN.
func zeroInfNaN(i uint64) bool {
	return 2*i-1 >= 2*infBits-1
}
