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

// TestInt128Wide checks int128Of against math/big at the edges of int128,
// and that addChecked refuses a sum of 2^126 or more in magnitude, so that
// an aggregate's sum moves to math/big before it could wrap.
func TestInt128Wide(t *testing.T) {
	one := big.NewInt(1)
	pow := func(n uint) *big.Int { return new(big.Int).Lsh(one, n) }
	for _, x := range []*big.Int{
		big.NewInt(0), big.NewInt(-1), big.NewInt(math.MinInt64), new(big.Int).SetUint64(math.MaxUint64),
		new(big.Int).Sub(pow(127), one), new(big.Int).Neg(new(big.Int).Sub(pow(127), one)), new(big.Int).Neg(pow(64)),
		new(big.Int).Neg(new(big.Int).Add(pow(64), one)), pow(100),
	} {
		w, ok := int128Of(x)
		if !ok || w.big().Cmp(x) != 0 {
			t.Errorf("int128Of(%s) = %s, %v", x, w.big(), ok)
		}
	}
	if _, ok := int128Of(pow(127)); ok {
		t.Errorf("int128Of(2^127) fits")
	}
	near, _ := int128Of(new(big.Int).Sub(pow(126), one))
	if _, ok := near.addChecked(int128{}.addInt(1)); ok {
		t.Errorf("2^126-1 + 1 stayed in range")
	}
	if r, ok := near.addChecked(int128{}.addInt(-5)); !ok || r.big().Cmp(new(big.Int).Sub(pow(126), big.NewInt(6))) != 0 {
		t.Errorf("2^126-1 - 5 = %s, %v", r.big(), ok)
	}
	low, _ := int128Of(new(big.Int).Neg(pow(126)))
	if r, ok := low.addChecked(int128{}); !ok || r != low {
		t.Errorf("-2^126 + 0 = %s, %v", r.big(), ok)
	}
	if _, ok := low.addChecked(int128{}.addInt(-1)); ok {
		t.Errorf("-2^126 - 1 stayed in range")
	}
	max, _ := int128Of(new(big.Int).Sub(pow(127), one))
	if _, ok := max.addChecked(max); ok {
		t.Errorf("(2^127-1)·2 stayed in range")
	}
}
