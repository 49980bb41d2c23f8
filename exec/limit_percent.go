package exec

import (
	"context"
	"math"

	"github.com/pqsql/pqsql/planner"
)

// runLimitPercent runs a plan with LIMIT n%: all its rows, then the first
// n% of them (rounded down).
func (x *executor) runLimitPercent(ctx context.Context, p *planner.Plan) ([]*batch, error) {
	all := *p
	all.HasPercent, all.Limit = false, -1
	bs, err := x.run(ctx, &all)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, b := range bs {
		n += b.n
	}
	keep := int64(math.Floor(float64(n) * p.LimitPercent / 100))
	return limitBatches(bs, 0, keep, len(p.Columns)), nil
}
