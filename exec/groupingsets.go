package exec

import (
	"context"

	"github.com/pqsql/pqsql/planner"
)

// aggregateSets runs a plan with grouping sets: one scan of the input feeds
// a hash aggregation per set (each under memory_limit, spilling on its
// own), and the groups of every set pass through one sink, which applies
// DISTINCT, ORDER BY and LIMIT to them together.
func (x *executor) aggregateSets(ctx context.Context, p *planner.Plan, emit emitFunc) error {
	out := x.newAggSink(ctx, p, emit)
	defer out.close()
	// The sets' batches meet in the result, each column in one form.
	out.direct = false
	sas := make([]*spillAgg, len(p.GroupingSets))
	for i := range p.GroupingSets {
		sas[i] = newSpillAgg(x, p.GroupingSetPlan(i), 0)
		defer sas[i].close()
	}
	q := newScanQuery(p, x.settings)
	// Row groups' partial aggregates would be of one set only.
	q.partial = false
	last := len(sas) - 1
	err := x.inputQuery(ctx, q, func(m scanMsg) (bool, error) {
		for i, sa := range sas {
			msg := scanMsg{b: m.b, count: m.count}
			if m.b != nil && i < last {
				// Only the last set may recycle the batch's columns.
				shared := *m.b
				shared.pooled = false
				msg.b = &shared
			}
			if _, err := sa.consume(msg); err != nil {
				if m.b != nil && i < last {
					m.b.release()
				}
				return true, err
			}
		}
		return false, m.err
	})
	if err != nil {
		return err
	}
	for _, sa := range sas {
		if err := sa.finish(ctx, out); err != nil {
			return err
		}
	}
	return out.finish()
}
