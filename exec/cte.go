package exec

import (
	"context"

	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/sql"
)

// A sharedKey is a CTE and the printed plan of one reference to it.
type sharedKey struct {
	cte  *sql.CTE
	plan string
}

// countCTERefs counts the references of p's tree to each CTE plan, so that
// a CTE read once streams rather than being held for references that never
// come. Plans run outside the tree (subquery expressions, correlated
// subqueries) are not counted: their references share as before.
func (x *executor) countCTERefs(p *planner.Plan) {
	if x.cteRefs == nil {
		x.cteRefs = map[sharedKey]int{}
	}
	var walk func(p *planner.Plan)
	walk = func(p *planner.Plan) {
		if s := p.Scan; s != nil && s.Subquery != nil && s.CTE != nil {
			x.cteRefs[sharedKey{s.CTE, s.Subquery.Explain()}]++
		}
		for _, in := range inputsOf(p.Scan) {
			walk(in)
		}
	}
	walk(p)
}

// readCTE passes the rows of a reference to a CTE to pass. References whose
// optimized plans print alike share one run: the first keeps the rows as
// they stream past (counted against memory_limit), the others read them
// back. Filters pushed into a reference make its plan its own. A CTE read
// once, or declared NOT MATERIALIZED, streams and keeps nothing; one whose
// rows do not fit under memory_limit is run again for each reference, as
// its rows are the same each time (pqsql has no volatile function).
func (x *executor) readCTE(ctx context.Context, cte *sql.CTE, p *planner.Plan, pass emitFunc) error {
	key := sharedKey{cte, p.Explain()}
	x.sharedMu.Lock()
	bs, shared := x.shared[key]
	refs, counted := x.cteRefs[key]
	again := x.rerun[key]
	x.sharedMu.Unlock()
	if shared {
		for _, b := range bs {
			if stop, err := pass(b); stop || err != nil {
				return err
			}
		}
		return nil
	}
	if again || cte.NotMaterialized || (counted && refs <= 1) {
		return x.stream(ctx, p, pass)
	}
	var kept []*batch
	var held int64
	keep, stopped := true, false
	err := x.stream(ctx, p, func(b *batch) (bool, error) {
		if keep {
			if n := batchBytes(b); x.mem.tryReserve(n) {
				// Other references read these columns: no one may
				// recycle them.
				b.pooled = false
				kept = append(kept, b)
				held += n
			} else {
				keep, kept = false, nil
				x.mem.release(held)
				held = 0
			}
		}
		stop, err := pass(b)
		stopped = stop
		return stop, err
	})
	x.sharedMu.Lock()
	defer x.sharedMu.Unlock()
	switch {
	case !keep:
		if x.rerun == nil {
			x.rerun = map[sharedKey]bool{}
		}
		x.rerun[key] = true
	case err == nil && !stopped && x.shared[key] == nil:
		if x.shared == nil {
			x.shared = map[sharedKey][]*batch{}
		}
		// The rows stay counted until the statement ends.
		x.shared[key] = kept
	default:
		x.mem.release(held)
	}
	return err
}
