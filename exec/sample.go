package exec

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/pqsql/pqsql/planner"
)

// runSample runs a plan with USING SAMPLE: all its rows, then a random
// sample of them, in their order. Reservoir sampling keeps exactly its
// size (all rows when there are fewer); bernoulli keeps each row, and
// system each batch of rows, with the percentage's probability. A seed
// (REPEATABLE) makes the sample the same on every run.
func (x *executor) runSample(ctx context.Context, p *planner.Plan) ([]*batch, error) {
	all := *p
	all.Sample = nil
	bs, err := x.run(ctx, &all)
	if err != nil {
		return nil, err
	}
	s := p.Sample
	seed := rand.Uint64()
	if s.HasSeed {
		seed = uint64(s.Seed)
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	prob := s.Size / 100
	var out []*batch
	switch s.Method {
	case "system":
		for _, b := range bs {
			if rng.Float64() < prob {
				out = append(out, b)
			}
		}
	case "bernoulli":
		for _, b := range bs {
			var sel []int32
			for i := range b.n {
				if rng.Float64() < prob {
					sel = append(sel, int32(i))
				}
			}
			if len(sel) > 0 {
				out = append(out, b.take(sel))
			}
		}
	default:
		var n int64
		for _, b := range bs {
			n += int64(b.n)
		}
		k := s.Rows
		if s.Percent {
			k = int64(float64(n) * prob)
		}
		if k >= n {
			return bs, nil
		}
		out = takeRows(bs, reservoir(rng, n, k))
	}
	return out, nil
}

// reservoir chooses k of the row numbers 0..n-1 uniformly (Algorithm R)
// and returns them sorted.
func reservoir(rng *rand.Rand, n, k int64) []int64 {
	if k <= 0 {
		return nil
	}
	held := make([]int64, k)
	for i := range held {
		held[i] = int64(i)
	}
	for i := k; i < n; i++ {
		if j := rng.Int64N(i + 1); j < k {
			held[j] = i
		}
	}
	slices.Sort(held)
	return held
}

// takeRows keeps the rows of bs at the sorted row numbers rows, counting
// across the batches.
func takeRows(bs []*batch, rows []int64) []*batch {
	var out []*batch
	var base int64
	for _, b := range bs {
		var sel []int32
		for len(rows) > 0 && rows[0] < base+int64(b.n) {
			sel = append(sel, int32(rows[0]-base))
			rows = rows[1:]
		}
		if len(sel) > 0 {
			out = append(out, b.take(sel))
		}
		base += int64(b.n)
	}
	return out
}
