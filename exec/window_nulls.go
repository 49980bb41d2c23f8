package exec

import "github.com/pqsql/pqsql/planner"

// A nonNullIndex finds the rows, in window order, whose value is not NULL,
// for value functions written with IGNORE NULLS: pos lists those rows and
// before[p] counts them ahead of row p, so the k-th non-NULL row of any
// range is found in constant time.
type nonNullIndex struct {
	pos    []int
	before []int
}

func newNonNullIndex(vals []planner.Datum) *nonNullIndex {
	ix := &nonNullIndex{before: make([]int, len(vals)+1)}
	for p, v := range vals {
		ix.before[p] = len(ix.pos)
		if !v.Null {
			ix.pos = append(ix.pos, p)
		}
	}
	ix.before[len(vals)] = len(ix.pos)
	return ix
}

// nth returns the row of the k-th (from 1) non-NULL value in rows
// [lo, hi), or -1.
func (ix *nonNullIndex) nth(lo, hi int, k int64) int {
	if k < 1 || k > int64(ix.before[hi]-ix.before[lo]) {
		return -1
	}
	return ix.pos[ix.before[lo]+int(k)-1]
}

// last returns the row of the last non-NULL value in rows [lo, hi), or -1.
func (ix *nonNullIndex) last(lo, hi int) int {
	if ix.before[hi] == ix.before[lo] {
		return -1
	}
	return ix.pos[ix.before[hi]-1]
}

// shifted returns the row off non-NULL rows after row pos (before it when
// off is negative), staying in [lo, hi), or -1; the row pos itself is not
// counted. Offset 0 is the row itself, NULL or not, as in DuckDB.
func (ix *nonNullIndex) shifted(pos, lo, hi int, off int64) int {
	switch {
	case off == 0:
		return pos
	case off > 0:
		return ix.nth(pos+1, hi, off)
	}
	n := ix.before[pos] - ix.before[lo]
	if off < -int64(n) {
		return -1
	}
	return ix.pos[ix.before[pos]+int(off)]
}
