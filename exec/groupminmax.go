package exec

// A min or max of strings read from a chunk dictionary, over a batch of
// many rows into few groups, compares each group's distinct entries once
// rather than every row's string: the rows mark the cells of a table of
// groups by entries, then each marked cell's string meets its group's best.

// minMaxCodes is update's min (isMin) or max of the batch's n rows of v
// into the groups gids, by dictionary codes; it reports whether it was one:
// every row has a code, and the table is no larger than the batch.
func (ag *aggregator) minMaxCodes(ai int, isMin bool, v *Vector, n int, gids []int32) bool {
	codes := v.dictCodes()
	if codes == nil || len(codes) < n {
		return false
	}
	d, ng := len(v.Dict.strs), len(ag.groups)
	if d == 0 || ng*d > n {
		return false
	}
	fb := &ag.few
	if cap(fb.cells) < ng*d {
		fb.cells = make([]int32, ng*d)
	}
	cells := fb.cells[:ng*d]
	clear(cells)
	// A cell holds its first row, plus one; NULL rows have code -1.
	for i, c := range codes[:n] {
		if c >= 0 {
			if k := int(gids[i])*d + int(c); cells[k] == 0 {
				cells[k] = int32(i + 1)
			}
		}
	}
	for k, r := range cells {
		if r == 0 {
			continue
		}
		i := int(r - 1)
		x := v.Str[i]
		// Equal strings are equal values, so which row of a tie stays does
		// not show.
		if s := &ag.groups[k/d].aggs[ai]; !s.has || (isMin && x < s.bestS) || (!isMin && x > s.bestS) {
			s.best, s.has, s.bestS = datumAt(v, i), true, x
		}
	}
	return true
}
