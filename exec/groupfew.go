package exec

import "github.com/pqsql/pqsql/planner"

// A batch of rows into few groups adds each group's counts and small
// integer sums in plain int64 words of its own first, then once into the
// groups' states: the rows of one group would otherwise each wait on the
// last row's update of the same state, an int128 and a count in memory.

// maxFewRows bounds a batch's rows, so that a sum of up to 10^15 in
// magnitude per row cannot leave int64 (2^12·10^15 < 2^63).
const maxFewRows = 1 << 12

// fewBatch holds the per-batch words.
type fewBatch struct {
	// rows counts each group's rows of the batch, made once per batch
	// (seq tells which) for the aggregates that need it.
	rows []int64
	seq  int64
	sums []int64
	// cells backs minMaxCodes' table of groups by dictionary entries.
	cells []int32
}

// smallSumType reports whether values of t are integers below 10^15 in
// magnitude, held in Vector.Int.
func smallSumType(t Type) bool {
	switch t.ID {
	case TypeTinyInt, TypeSmallInt, TypeInteger, TypeUTinyInt, TypeUSmallInt, TypeUInteger:
		return true
	case TypeDecimal:
		return t.Precision <= 15
	}
	return false
}

// updateFew is update for a count, or a sum or average of small integers
// without NULLs, of a batch of n rows whose groups, gids, are no more than
// its rows; it reports whether it was one.
func (ag *aggregator) updateFew(ai int, a *planner.AggCall, src source, n int, gids []int32) bool {
	ng := len(ag.groups)
	if ng > n || n > maxFewRows || a.Distinct || a.Accumulates() {
		return false
	}
	v := src.vec
	sum := false
	switch {
	case a.Func == "count_star" && a.Arg == nil:
	case a.Func == "count" && v != nil && v.Nulls == nil && v.Len() == n:
	case (a.Func == "sum" || a.Func == "avg") && v != nil && v.Int != nil && v.Nulls == nil && smallSumType(a.Arg.Type()):
		sum = true
	default:
		return false
	}
	fb := &ag.few
	if fb.seq != ag.consumed {
		fb.rows = zeroed(fb.rows, ng)
		for _, g := range gids[:n] {
			fb.rows[g]++
		}
		fb.seq = ag.consumed
	}
	if sum {
		// Four words a group, taken in turn by the rows: consecutive rows
		// of one group add to different words, not each to the sum the
		// row before it has just stored.
		fb.sums = zeroed(fb.sums, 4*ng)
		sums := fb.sums
		for i, x := range v.Int[:n] {
			sums[int(gids[i])<<2|i&3] += x
		}
		for g := range ng {
			w := sums[g<<2 : g<<2+4 : g<<2+4]
			sums[g] = w[0] + w[1] + w[2] + w[3]
		}
	}
	for g, c := range fb.rows[:ng] {
		if c == 0 {
			continue
		}
		s := &ag.groups[g].aggs[ai]
		s.n += c
		if sum {
			s.addInt(fb.sums[g])
		}
	}
	return true
}

// zeroed returns s with n zero words, reusing its memory.
func zeroed(s []int64, n int) []int64 {
	if cap(s) < n {
		return make([]int64, n)
	}
	s = s[:n]
	clear(s)
	return s
}
