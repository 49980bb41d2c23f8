package planner

import (
	"math"
	"slices"
	"sort"
)

// A tDigest is the merging t-digest DuckDB 1.5's approx_quantile keeps
// (Dunning's algorithm as Derrick Burns wrote it in C++, compression 100),
// reproduced step for step so that its answers match DuckDB's to the last
// digit. Its answer depends on the order values arrive in: values are
// buffered and compressed into centroids each time more than 800 are
// waiting. pqsql feeds a group's values in input order, which is the order
// DuckDB sees them with one thread.
type tDigest struct {
	processed []centroid
	// unprocessed are the values waiting, each of weight 1.
	unprocessed []float64
	cumulative  []float64
	merged      []centroid // process's buffer, kept between calls
	// processedW and unprocessedW are the weights (value counts) of the
	// two lists.
	processedW, unprocessedW float64
	// lo and hi are the extreme centroid means seen. hi starts at the
	// smallest positive double (C++'s numeric_limits<double>::min()), not
	// at -Inf: DuckDB's quantiles of all-negative values lean toward it.
	lo, hi float64
}

type centroid struct{ mean, weight float64 }

const (
	tdCompression    = 100
	tdMaxProcessed   = 2 * tdCompression
	tdMaxUnprocessed = 8 * tdCompression
)

func newTDigest() *tDigest {
	return &tDigest{lo: math.MaxFloat64, hi: 0x1p-1022}
}

// add takes one finite value.
func (t *tDigest) add(x float64) {
	t.unprocessed = append(t.unprocessed, x)
	t.unprocessedW++
	if len(t.processed) > tdMaxProcessed || len(t.unprocessed) > tdMaxUnprocessed {
		t.process()
	}
}

// handOver is the digest DuckDB finalizes: the state it accumulated,
// combined into an empty one. The combine keeps the centroids and the
// waiting values but takes the extremes from the centroids alone.
func (t *tDigest) handOver() *tDigest {
	out := newTDigest()
	if len(t.processed) > 0 {
		out.processed = append([]centroid(nil), t.processed...)
		out.processedW = t.processedW
		out.lo = min(out.lo, out.processed[0].mean)
		out.hi = max(out.hi, out.processed[len(out.processed)-1].mean)
	}
	out.unprocessed = append(out.unprocessed, t.unprocessed...)
	out.unprocessedW += t.unprocessedW
	return out
}

// process sorts the waiting values into the centroids and merges
// neighbours while the k-scale (an arcsine of the quantile) allows.
func (t *tDigest) process() {
	// Equal waiting values are alike, so an unstable sort is as good.
	slices.Sort(t.unprocessed)
	// A stable merge: on equal means the waiting values come first.
	all := t.merged[:0]
	i, j := 0, 0
	for i < len(t.unprocessed) && j < len(t.processed) {
		if t.processed[j].mean < t.unprocessed[i] {
			all = append(all, t.processed[j])
			j++
		} else {
			all = append(all, centroid{t.unprocessed[i], 1})
			i++
		}
	}
	for _, x := range t.unprocessed[i:] {
		all = append(all, centroid{x, 1})
	}
	all = append(all, t.processed[j:]...)

	t.processedW += t.unprocessedW
	t.unprocessedW = 0
	t.processed = t.processed[:0]
	t.processed = append(t.processed, all[0])
	soFar := all[0].weight
	limit := t.processedW * t.integratedQ(1)
	for _, c := range all[1:] {
		projected := soFar + c.weight
		if projected <= limit {
			soFar = projected
			t.processed[len(t.processed)-1].absorb(c)
			continue
		}
		k1 := t.integratedLocation(soFar / t.processedW)
		limit = t.processedW * t.integratedQ(k1+1)
		soFar += c.weight
		t.processed = append(t.processed, c)
	}
	t.unprocessed = t.unprocessed[:0]
	t.merged = all
	t.lo = min(t.lo, t.processed[0].mean)
	t.hi = max(t.hi, t.processed[len(t.processed)-1].mean)
	t.cumulative = t.cumulative[:0]
	prev := 0.0
	for _, c := range t.processed {
		t.cumulative = append(t.cumulative, prev+c.weight/2)
		prev += c.weight
	}
	t.cumulative = append(t.cumulative, prev)
}

func (c *centroid) absorb(o centroid) {
	if c.weight == 0 {
		*c = o
		return
	}
	c.weight += o.weight
	c.mean += float64(o.weight*(o.mean-c.mean)) / c.weight
}

func (t *tDigest) integratedLocation(q float64) float64 {
	return tdCompression * (math.Asin(2*q-1) + math.Pi/2) / math.Pi
}

func (t *tDigest) integratedQ(k float64) float64 {
	return (math.Sin(min(k, tdCompression)*math.Pi/tdCompression-math.Pi/2) + 1) / 2
}

// quantile is the digest's estimate of quantile q in [0, 1], interpolated
// between centroid means; NaN for an empty digest.
func (t *tDigest) quantile(q float64) float64 {
	if len(t.unprocessed) > 0 || len(t.processed) > tdMaxProcessed {
		t.process()
	}
	n := len(t.processed)
	switch {
	case q < 0 || q > 1 || n == 0:
		return math.NaN()
	case n == 1:
		return t.processed[0].mean
	}
	index := q * t.processedW
	first := t.processed[0]
	if index <= first.weight/2 {
		return t.lo + float64(2*index/first.weight*(first.mean-t.lo))
	}
	i := sort.SearchFloat64s(t.cumulative, index)
	if i+1 != len(t.cumulative) {
		z1 := index - t.cumulative[i-1]
		z2 := t.cumulative[i] - index
		return weightedAverage(t.processed[i-1].mean, z2, t.processed[i].mean, z1)
	}
	last := t.processed[n-1]
	z1 := index - t.processedW - last.weight/2
	z2 := last.weight/2 - z1
	return weightedAverage(last.mean, z1, t.hi, z2)
}

// weightedAverage is (x1*w1 + x2*w2) / (w1+w2), kept between x1 and x2.
func weightedAverage(x1, w1, x2, w2 float64) float64 {
	if x1 > x2 {
		x1, w1, x2, w2 = x2, w2, x1, w1
	}
	x := (float64(x1*w1) + float64(x2*w2)) / (w1 + w2)
	return max(x1, min(x, x2))
}
