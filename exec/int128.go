package exec

import (
	"math/big"
	"math/bits"
)

// An int128 is a two's complement 128-bit integer: the width DuckDB sums
// BIGINT into (HUGEINT), built on math/bits so that an integer sum costs an
// add with carry per row, never a big.Int. Summing int64 or uint64 values
// cannot leave its range before 2^63 rows.
type int128 struct {
	hi int64
	lo uint64
}

// addInt adds a signed 64-bit value.
func (a int128) addInt(v int64) int128 {
	lo, carry := bits.Add64(a.lo, uint64(v), 0)
	return int128{hi: a.hi + v>>63 + int64(carry), lo: lo}
}

// addUint adds an unsigned 64-bit value.
func (a int128) addUint(v uint64) int128 {
	lo, carry := bits.Add64(a.lo, v, 0)
	return int128{hi: a.hi + int64(carry), lo: lo}
}

// add adds b.
func (a int128) add(b int128) int128 {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	return int128{hi: a.hi + b.hi + int64(carry), lo: lo}
}

// addChecked adds b and reports whether the sum stays below 2^126 in
// magnitude: room for 2^63 more int64 values, which addInt adds unchecked.
func (a int128) addChecked(b int128) (int128, bool) {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(uint64(a.hi), uint64(b.hi), carry)
	r := int128{hi: int64(hi), lo: lo}
	if (a.hi^r.hi)&(b.hi^r.hi) < 0 {
		return a, false // the sum left int128
	}
	if top := r.hi >> 62; top != 0 && top != -1 {
		return a, false
	}
	return r, true
}

// int128Of converts x when it fits, as every DECIMAL(38) value does.
func int128Of(x *big.Int) (int128, bool) {
	if bits.UintSize != 64 || x.BitLen() > 127 {
		return int128{}, false
	}
	var m int128
	w := x.Bits()
	if len(w) > 0 {
		m.lo = uint64(w[0])
	}
	if len(w) > 1 {
		m.hi = int64(w[1])
	}
	if x.Sign() < 0 {
		// Two's complement: invert and add one.
		lo, carry := bits.Add64(^m.lo, 1, 0)
		m = int128{hi: ^m.hi + int64(carry), lo: lo}
	}
	return m, true
}

// big converts a to a big integer.
func (a int128) big() *big.Int {
	if a.hi == int64(a.lo)>>63 {
		// It fits an int64, as nearly every sum does: one allocation.
		return big.NewInt(int64(a.lo))
	}
	out := new(big.Int).SetInt64(a.hi)
	out.Lsh(out, 64)
	return out.Add(out, new(big.Int).SetUint64(a.lo))
}
