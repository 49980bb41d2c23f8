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
