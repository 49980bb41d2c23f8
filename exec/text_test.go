package exec

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/pqsql/pqsql/format"
)

// The int64 path prints every decimal as the big.Int path does: signs,
// zeros, values shorter than the scale and the int64 extremes.
func TestAppendDecimal64(t *testing.T) {
	vals := []int64{0, 1, -1, 5, -5, 10, 99, -100, 12345, -12345, 1e18 - 1, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		vals = append(vals, int64(r.Uint64())>>r.IntN(63))
	}
	for _, v := range vals {
		for _, scale := range []int{0, 1, 2, 3, 4, 9, 18, 19, 20, 38} {
			want := string(format.AppendDecimal([]byte("x"), big.NewInt(v), scale))
			if got := string(appendDecimal64([]byte("x"), v, scale)); got != want {
				t.Fatalf("appendDecimal64(%d, scale %d) = %q, want %q", v, scale, got, want)
			}
		}
	}
}
