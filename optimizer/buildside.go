package optimizer

import (
	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
)

// filterSelectivity is the share of rows each conjunct of a WHERE (up to
// three) is assumed to keep when estimating a side's size: a guess, used
// only to order sides.
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
}

// estimate returns p's estimated row count, -1 when unknown.
func (e *estimator) estimate(p *planner.Plan) int64 {
	s := p.Scan
	var n int64
	switch {
	case s.Join != nil:
		l, r := e.estimate(s.Join.Left), e.estimate(s.Join.Right)
		if l < 0 || r < 0 {
			return -1
		}
		switch s.Join.Kind {
		case planner.JoinCross:
			n = l * r
		case planner.JoinLeft:
			n = l
		case planner.JoinRight:
			n = r
		case planner.JoinFull:
			n = l + r
		default:
			n = max(l, r)
		}
	case s.SetOp != nil:
		l, r := e.estimate(s.SetOp.Left), e.estimate(s.SetOp.Right)
		if l < 0 || r < 0 {
			return -1
		}
		n = l + r
	case s.Subquery != nil:
		if s.Subquery.Single {
			n = 1
		} else if n = e.estimate(s.Subquery); n < 0 {
			return -1
		}
	case s.Function != nil:
		return -1
	default:
		for _, path := range s.Files {
			r, ok := e.fileRows(path)
			if !ok {
				return -1
			}
			n += r
		}
	}
	for range min(len(conjuncts(p.Where)), 3) {
		n = int64(float64(n) * filterSelectivity)
	}
	if p.Aggregate && len(p.GroupBy) == 0 {
		n = 1
	}
	if p.Limit >= 0 {
		n = min(n, p.Limit)
	}
	return n
}

// fileRows reads the row count from a file's footer.
func (e *estimator) fileRows(path string) (int64, bool) {
	if n, ok := e.rows[path]; ok {
		return n, n >= 0
	}
	n := int64(-1)
	if f, err := format.Open(path); err == nil {
		n = f.Meta.NumRows
		f.Close()
	}
	e.rows[path] = n
	return n, n >= 0
}
