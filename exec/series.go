package exec

import (
	"context"
	"fmt"

	"github.com/pqsql/pqsql/planner"
)

// maxSeries bounds the rows a series may produce: they are held in
// memory.
const maxSeries = 1 << 31

// seriesBatches produces the values of range or generate_series as BIGINT
// batches, written straight into their vectors.
func seriesBatches(ctx context.Context, s *planner.Series) ([]*batch, error) {
	n := s.Len()
	if n > maxSeries {
		return nil, fmt.Errorf("%w: a series of %d rows", ErrNotImplemented, n)
	}
	t := Type{ID: TypeBigInt}
	var out []*batch
	v := s.Start
	for done := int64(0); done < n; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := min(n-done, BatchSize)
		ints := make([]int64, k)
		for i := range ints {
			ints[i] = v
			v += s.Step
		}
		out = append(out, &batch{cols: []*Vector{{Type: t, Int: ints}}, n: int(k)})
		done += k
	}
	return out, nil
}
