package optimizer

import (
	"context"

	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// filterSelectivity is the share of the rows that a file's statistics
// leave that each conjunct of a WHERE (up to three) is assumed to keep
// when estimating a side's size: a guess, used only to order sides.
const filterSelectivity = 0.2

// chooseBuildSides puts each inner join's hash table on the side estimated
// to have fewer rows, from the files' footers; an outer join builds on the
// side whose unmatched rows it does not keep whole (RIGHT: left), so that
// probing streams the other.
func chooseBuildSides(root *planner.Plan) *planner.Plan {
	e := &estimator{rows: map[string]int64{}}
	eachPlan(root, func(p *planner.Plan) {
		j := p.Scan.Join
		if j == nil {
			return
		}
		j.LeftRows, j.RightRows = e.estimate(j.Left), e.estimate(j.Right)
		switch j.Kind {
		case planner.JoinRight:
			j.BuildLeft = true
		case planner.JoinInner, planner.JoinCross:
			j.BuildLeft = j.LeftRows >= 0 && j.RightRows >= 0 && j.LeftRows < j.RightRows
		default:
			j.BuildLeft = false
		}
	})
	return root
}

// An estimator guesses how many rows plans produce, reading each file's
// footer once.
type estimator struct {
	rows map[string]int64
	// kept caches keptRows by file and predicate.
	kept map[[2]string]int64
}

// estimate returns p's estimated row count, -1 when unknown.
func (e *estimator) estimate(p *planner.Plan) int64 {
	n, _ := e.size(p)
	return n
}

// size returns p's estimated rows and the rows it would have without its
// filters (its base), both -1 when unknown. The base lets a join tell
// how much of a side its filters kept.
func (e *estimator) size(p *planner.Plan) (rows, base int64) {
	s := p.Scan
	var n int64
	switch {
	case s.Join != nil:
		l, lb := e.size(s.Join.Left)
		r, rb := e.size(s.Join.Right)
		if l < 0 || r < 0 {
			return -1, -1
		}
		switch s.Join.Kind {
		case planner.JoinCross:
			n, base = l*r, lb*rb
		case planner.JoinLeft, planner.JoinSemi, planner.JoinAnti:
			// At most the left rows (semi, anti: each once).
			n, base = l, lb
		case planner.JoinRight:
			n, base = r, rb
		case planner.JoinFull:
			n, base = l+r, lb+rb
		default:
			n, base = keyJoinSize(l, lb, r, rb, len(s.Join.Keys) > 0)
		}
	case s.SetOp != nil:
		l, lb := e.size(s.SetOp.Left)
		r, rb := e.size(s.SetOp.Right)
		if l < 0 || r < 0 {
			return -1, -1
		}
		n, base = l+r, lb+rb
	case s.Subquery != nil:
		if s.Subquery.Single {
			n, base = 1, 1
		} else if n, base = e.size(s.Subquery); n < 0 {
			return -1, -1
		}
	case s.Function != nil:
		return -1, -1
	default:
		var pred pushdown.Expr
		if p.Where != nil && len(s.Partitions) == 0 {
			pred = planner.Pushdown(p.Where, s.Fields)
		}
		for _, path := range s.Files {
			r, ok := e.fileRows(s, path)
			if !ok {
				return -1, -1
			}
			base += r
			n += e.keptRows(s, path, pred, r)
		}
	}
	for range min(len(conjuncts(p.Where)), 3) {
		n = int64(float64(n) * filterSelectivity)
	}
	if p.Aggregate && len(p.GroupBy) == 0 {
		n = 1
	}
	if p.Aggregate {
		// Groups are not a share of the rows grouped.
		base = n
	}
	if p.Limit >= 0 {
		n = min(n, p.Limit)
	}
	return n, max(base, n)
}

// keyJoinSize estimates an inner join of sides of l and r rows (lb and rb
// without their filters). On keys, it takes the side with the larger base
// for the one whose rows each find a match on the other, whose keys are
// unique (a fact table and a dimension): the join keeps as many of them
// as the other side's filters keep of its own, so a filtered dimension
// makes a small join. Without keys, the larger side.
func keyJoinSize(l, lb, r, rb int64, keys bool) (rows, base int64) {
	if !keys {
		return max(l, r), max(lb, rb)
	}
	if lb < rb || lb == rb && l < r {
		l, lb, r, rb = r, rb, l, lb
	}
	if rb == 0 {
		return 0, lb
	}
	return int64(float64(l) * float64(r) / float64(rb)), lb
}

// keptRows returns the rows of the row groups of a file of rows rows
// that its statistics do not rule out for pred: the footer holds them, so
// this reads nothing more.
func (e *estimator) keptRows(s *planner.Scan, path string, pred pushdown.Expr, rows int64) int64 {
	if pred == nil {
		return rows
	}
	key := [2]string{path, pred.String()}
	if n, ok := e.kept[key]; ok {
		return n
	}
	n := rows
	if f, done, err := s.OpenFile(context.Background(), path); err == nil {
		if fp, err := pushdown.Plan(f, pred, nil, pushdown.Options{Statistics: true}); err == nil {
			n = 0
			for _, rg := range fp.RowGroups {
				if rg.Verdict != pushdown.Skip {
					n += rg.NumRows
				}
			}
		}
		done()
	}
	if e.kept == nil {
		e.kept = map[[2]string]int64{}
	}
	e.kept[key] = n
	return n
}

// fileRows reads the row count from a file's footer.
func (e *estimator) fileRows(s *planner.Scan, path string) (int64, bool) {
	if n, ok := e.rows[path]; ok {
		return n, n >= 0
	}
	n := int64(-1)
	if f, done, err := s.OpenFile(context.Background(), path); err == nil {
		n = f.Meta.NumRows
		done()
	}
	e.rows[path] = n
	return n, n >= 0
}
