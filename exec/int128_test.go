package exec

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// TestInt128 checks sums of int64 and uint64 values, carries and borrows
// included, against math/big.
func TestInt128(t *testing.T) {
	edges := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 32, -(1 << 32)}
	r := rand.New(rand.NewSource(1))
	for trial := range 200 {
		var got int128
		want := new(big.Int)
		for range 1 + r.Intn(50) {
			switch r.Intn(3) {
			case 0:
				v := edges[r.Intn(len(edges))]
				got = got.addInt(v)
				want.Add(want, big.NewInt(v))
			case 1:
				v := r.Uint64()
				got = got.addUint(v)
				want.Add(want, new(big.Int).SetUint64(v))
			default:
				v := int64(r.Uint64())
				other := int128{}.addInt(v).addInt(v)
				got = got.add(other)
				want.Add(want, new(big.Int).Mul(big.NewInt(v), big.NewInt(2)))
			}
		}
		if got.big().Cmp(want) != 0 {
			t.Fatalf("trial %d: int128 sum %s, want %s", trial, got.big(), want)
		}
	}
}
