package planner

import (
	"math"
	"math/big"
	"strconv"
)

// DuckDB 1.5.6 turns a DECIMAL of at most 18 digits into a floating-point
// number as float(unscaled) / float(10^scale): the unscaled integer is
// rounded to the float type first, then divided, so a decimal of more than
// 15 or 16 significant digits can land one step away from its nearest
// double (0.9999999999999999 becomes 1.0). A HUGEINT is converted from its
// two 64-bit halves as DuckDB's CastBigintToFloating does, and to FLOAT
// through that double. pqsql follows, to the last digit.

// pow10Double holds 10^0 … 10^38, each the double nearest to it.
var pow10Double = func() (p [39]float64) {
	for i := range p {
		p[i], _ = strconv.ParseFloat("1e"+strconv.Itoa(i), 64)
	}
	return
}()

var two64 = new(big.Int).Lsh(big.NewInt(1), 64)

// hugeHalves splits v (within HUGEINT's range) into its signed upper and
// unsigned lower 64-bit words, as two's complement.
func hugeHalves(v *big.Int) (upper int64, lower uint64) {
	if v.IsInt64() {
		x := v.Int64()
		if x < 0 {
			return -1, uint64(x)
		}
		return 0, uint64(x)
	}
	q, r := new(big.Int).DivMod(v, two64, new(big.Int)) // Euclidean: r ≥ 0
	return q.Int64(), r.Uint64()
}

// hugeDouble is DuckDB's HUGEINT → DOUBLE.
func hugeDouble(v *big.Int) float64 {
	upper, lower := hugeHalves(v)
	if upper == -1 {
		return -float64(math.MaxUint64-lower) - 1
	}
	return float64(lower) + float64(upper)*18446744073709551616.0
}

// hugeFloat32 is DuckDB 1.5.6's HUGEINT → FLOAT: through the double.
func hugeFloat32(v *big.Int) float32 { return float32(hugeDouble(v)) }

// decimalDouble is DuckDB's DECIMAL → DOUBLE of the unscaled value u.
// Up to 18 digits the integer is rounded first; a wider decimal is
// rounded once, as DuckDB 1.5.6 gives it.
func decimalDouble(u *big.Int, t Type) float64 {
	if t.Precision <= 18 {
		return float64(u.Int64()) / pow10Double[t.Scale]
	}
	f, _ := new(big.Rat).SetFrac(u, pow10(t.Scale)).Float64()
	return f
}

// float32Of converts an integer, HUGEINT or DECIMAL straight to FLOAT, one
// rounding as in DuckDB rather than through a double; ok is false for
// other types.
func float32Of(d Datum, t Type) (r float32, ok bool) {
	switch {
	case t.ID == TypeDecimal && t.Precision <= 18:
		// Divided in float, as DuckDB does.
		return float32(bigOf(d, t).Int64()) / float32(pow10Double[t.Scale]), true
	case t.ID == TypeHugeInt:
		return hugeFloat32(bigOf(d, t)), true
	case t.ID == TypeUBigInt:
		return float32(uint64(d.I)), true
	case t.IsInteger():
		return float32(d.I), true
	}
	return 0, false
}
