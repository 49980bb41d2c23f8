package exec

import (
	"math"
	"math/rand"
	"testing"
)

// x [NOT] IN (integers) judged by bitmap gives the hash set's verdicts:
// dense and spread lists, NULL in the list and in the rows, and keys at
// both ends of int64, where k - lo wraps.
func TestIntBitsMatchHashSet(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	lists := [][]int64{
		{3},
		{0, 1, 2, 3, 64, 65, 127},
		{-5, 5},
		{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 - 70},
		{math.MinInt64, math.MinInt64 + 1, math.MinInt64 + 200},
	}
	for range 20 {
		var l []int64
		base := rng.Int63n(1<<40) - 1<<39
		for range 1 + rng.Intn(200) {
			l = append(l, base+rng.Int63n(1<<20))
		}
		lists = append(lists, l)
	}
	used := 0
	for li, list := range lists {
		for _, not := range []bool{false, true} {
			for _, hasNull := range []bool{false, true} {
				n := &inNode{kind: cmpInt, not: not, hasNull: hasNull}
				for _, k := range list {
					n.addInt(k)
				}
				n.bits = newIntBits(keysOf(&n.ints))
				if n.bits == nil {
					continue // too spread: the hash set judges it
				}
				used++
				// Rows: the keys, their neighbours, far values and the
				// ends of int64, some NULL.
				var xs []int64
				for _, k := range list {
					xs = append(xs, k, k-1, k+1, k-64, k+64)
				}
				xs = append(xs, math.MinInt64, math.MaxInt64, 0, -1, rng.Int63(), -rng.Int63())
				v := &Vector{Type: Type{ID: TypeBigInt}, Int: xs, Nulls: make([]bool, len(xs))}
				for i := range xs {
					v.Nulls[i] = rng.Intn(7) == 0
				}
				sel := make([]int32, 0, len(xs))
				for i := range xs {
					if rng.Intn(4) > 0 {
						sel = append(sel, int32(i))
					}
				}
				got, want := make([]uint8, len(xs)), make([]uint8, len(xs))
				n.evalInts(v, sel, got)
				for _, i := range sel {
					r := tFalse
					switch {
					case v.Nulls[i]:
						want[i] = tNull
						continue
					case n.ints.find(xs[i]) >= 0:
						r = tTrue
					case hasNull:
						r = tNull
					}
					if not {
						r = not3(r)
					}
					want[i] = r
				}
				for i := range xs {
					if got[i] != want[i] {
						t.Fatalf("list %d (not %v, NULL listed %v): row %d (%d, null %v) got %d, want %d", li, not, hasNull, i, xs[i], v.Nulls[i], got[i], want[i])
					}
				}
			}
		}
	}
	if used < 4*len(lists)/2 {
		t.Fatalf("%d of %d lists judged by bitmap", used/4, len(lists))
	}
}

// A list too spread for its keys, or over all of int64, keeps the hash set.
func TestIntBitsRefusesWideLists(t *testing.T) {
	for _, keys := range [][]int64{
		{math.MinInt64, math.MaxInt64},
		{0, 1 << 30},
		{0, 5, maxBits + 10},
	} {
		if b := newIntBits(keys); b != nil {
			t.Errorf("%v: a bitmap of %d bits", keys, b.span)
		}
	}
	if newIntBits([]int64{0, minBits - 1}) == nil {
		t.Errorf("two keys within %d: no bitmap", minBits)
	}
}
