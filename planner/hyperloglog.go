package planner

import (
	"math"
	"math/bits"
)

// A hyperLogLog is DuckDB 1.5's distinct-count sketch: 64 registers, each
// the longest run of trailing zeros (plus one) seen among the hashes whose
// low 6 bits pick it, estimated with Ertl's improved estimator
// ("New cardinality estimation algorithms for HyperLogLog sketches",
// arXiv:1702.01284). A register only grows, so the estimate does not
// depend on the order values arrive in or how sketches are merged.
type hyperLogLog struct {
	reg [hllM]uint8
}

const (
	hllP = 6
	hllQ = 64 - hllP
	hllM = 1 << hllP
)

// insert adds one hashed value.
func (h *hyperLogLog) insert(hash uint64) {
	i := hash & (hllM - 1)
	w := hash>>hllP | 1<<hllQ
	z := uint8(bits.TrailingZeros64(w) + 1)
	h.reg[i] = max(h.reg[i], z)
}

// merge takes the registers of another sketch.
func (h *hyperLogLog) merge(o *hyperLogLog) {
	for i, z := range o.reg {
		h.reg[i] = max(h.reg[i], z)
	}
}

// count is the estimate DuckDB prints. Like DuckDB's, it reads the
// register histogram up to bucket Q and leaves bucket Q+1 (a register
// that saw 58 zeros) out; the sum is halved from the top bucket down.
func (h *hyperLogLog) count() int64 {
	var c [hllQ + 2]uint32
	for _, z := range h.reg {
		c[z]++
	}
	const m = float64(hllM)
	z := m * hllTau((m-float64(c[hllQ]))/m)
	for k := hllQ; k >= 1; k-- {
		z += float64(c[k])
		z *= 0.5
	}
	z += m * hllSigma(float64(c[0])/m)
	const alpha = 0.721347520444481703680 // 1 / (2 ln 2)
	return int64(math.Round(alpha * m * m / z))
}

// hllSigma is the series σ(x) = x + Σ x^(2^k) 2^(k-1), summed until it
// stops changing; infinite at 1 (every register empty).
func hllSigma(x float64) float64 {
	if x == 1 {
		return math.Inf(1)
	}
	y, z := 1.0, x
	for {
		x *= x
		prev := z
		z += float64(x * y) // rounded before the sum, as DuckDB's is
		y += y
		if z == prev {
			return z
		}
	}
}

// hllTau is the series τ(x) = (1 - x - Σ (1 - x^(2^-k))² 2^-k) / 3,
// summed until it stops changing.
func hllTau(x float64) float64 {
	if x == 0 || x == 1 {
		return 0
	}
	y, z := 1.0, 1-x
	for {
		x = math.Sqrt(x)
		prev := z
		y *= 0.5
		d := 1 - x
		z -= float64(d*d) * y
		if z == prev {
			return z / 3
		}
	}
}
