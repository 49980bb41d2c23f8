package exec

import (
	"bytes"
	"slices"
	"sort"

	"github.com/pqsql/pqsql/format"
)

// dictRanks order the dictionary of a string sort key's chunk, so that a
// sorted limit cuts its rows on integers instead of materializing a
// string per row: entry i has rank[i] = 2r+1, r its place among the
// distinct entries in byte order. A string not in the dictionary (the
// heap's bound, a value of a page written without it) ranks 2p, p the
// distinct entries below it. Ranks never decrease as strings grow, and a
// strictly greater rank means a strictly greater string, which is all a
// cut concludes from: two strings of one rank only tie, and ties are kept.
type dictRanks struct {
	src *format.Values
	// rank is each entry's rank; sorted the distinct entries, ascending.
	rank   []uint64
	sorted [][]byte
}

// newDictRanks ranks the entries of d, a dictionary of byte arrays.
func newDictRanks(d *format.Values) *dictRanks {
	order := make([]int32, len(d.Bytes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return bytes.Compare(d.Bytes[a], d.Bytes[b]) })
	dr := &dictRanks{src: d, rank: make([]uint64, len(d.Bytes))}
	for _, i := range order {
		v := d.Bytes[i]
		if n := len(dr.sorted); n == 0 || !bytes.Equal(dr.sorted[n-1], v) {
			dr.sorted = append(dr.sorted, v)
		}
		dr.rank[i] = 2*uint64(len(dr.sorted)-1) + 1
	}
	return dr
}

// of is the rank of any string s.
func (dr *dictRanks) of(s string) uint64 {
	p := sort.Search(len(dr.sorted), func(i int) bool { return string(dr.sorted[i]) >= s })
	if p < len(dr.sorted) && string(dr.sorted[p]) == s {
		return 2*uint64(p) + 1
	}
	return 2 * uint64(p)
}

// gatherRanks writes the ranks of the rows in runs to dst and marks their
// NULLs in nulls (both as long as the rows). The chunk must have a
// dictionary; a page written without it is ranked by its values.
func (r *flatReader) gatherRanks(dst []uint64, nulls []bool, runs []rowRange, dr *dictRanks) error {
	k := 0
	for _, run := range runs {
		for row := run.First; row < run.End; {
			if err := r.seekPage(row); err != nil {
				return err
			}
			p := r.p
			end := min(run.End, p.FirstRow+p.NumRows)
			n := int(end - row)
			e0 := p.FirstEntry + int(row-p.FirstRow)
			if err := r.appendRanks(dst[k:k+n], nulls[k:k+n], p, e0, dr); err != nil {
				return err
			}
			k += n
			row = end
		}
	}
	return nil
}

// appendRanks is appendEntries for ranks: entries [e0, e0+len(dst)) of
// page p, the current page.
func (r *flatReader) appendRanks(dst []uint64, nulls []bool, p format.PageSpan, e0 int, dr *dictRanks) error {
	cd := r.cd
	if cd.Dict != dr.src {
		// Values, not indices (or another dictionary): rank them one by
		// one.
		tmp := newVector(Type{ID: TypeVarchar}, len(dst))
		if err := r.appendEntries(tmp, p, e0, len(dst)); err != nil {
			return err
		}
		for i, s := range tmp.Str {
			nulls[i] = tmp.IsNull(i)
			if !nulls[i] {
				dst[i] = dr.of(s)
			}
		}
		return nil
	}
	n := len(dst)
	if cd.Def == nil {
		v0 := p.FirstValue + (e0 - p.FirstEntry)
		if v0 < 0 || v0+n > len(cd.Indices) {
			return errCorrupt(r.name, "fewer values than entries")
		}
		for i, x := range cd.Indices[v0 : v0+n] {
			if int(x) >= len(dr.rank) || x < 0 {
				return errCorrupt(r.name, "dictionary index out of range")
			}
			dst[i], nulls[i] = dr.rank[x], false
		}
		return nil
	}
	r.seek(e0)
	def := cd.Def
	for i := range n {
		if def[e0+i] != r.max {
			nulls[i] = true
			continue
		}
		if r.v >= len(cd.Indices) {
			return errCorrupt(r.name, "fewer values than non-null entries")
		}
		x := cd.Indices[r.v]
		if int(x) >= len(dr.rank) || x < 0 {
			return errCorrupt(r.name, "dictionary index out of range")
		}
		dst[i], nulls[i] = dr.rank[x], false
		r.v++
	}
	r.e = e0 + n
	return nil
}

// rankKey switches the cut of a string key to dictionary ranks, deciding
// once, before its first row: when r reads a string column whose chunk
// starts with a dictionary no larger than a quarter of the row group's
// rows (sorting more entries than that costs what it saves). first is the
// first row the cut will see.
func (c *rowGroupCut) rankKey(r colReader, first, rows int64) bool {
	if c.ranks != nil {
		return true
	}
	if c.rankDecided || c.str == nil {
		return false
	}
	c.rankDecided = true
	fr, ok := r.(*flatReader)
	if !ok || fr.lg.Kind != format.KindString || c.s.typ.ID != TypeVarchar {
		return false
	}
	if err := fr.seekPage(first); err != nil || fr.dict == nil {
		return false
	}
	d := fr.dict
	if len(d.Bytes) == 0 || len(d.Bytes) != d.Len() || int64(len(d.Bytes)) > rows/4 {
		return false
	}
	c.ranks, c.rankReader = newDictRanks(d), fr
	c.num = c.numCandidates(c.str.k, c.str.key, c.str.trimTies)
	if g := c.str.global; g != nil {
		c.num.global = &keyCut[uint64]{null: g.null}
		if !g.null {
			c.num.global.v = c.ranks.of(g.v)
		}
	}
	c.str = nil
	return true
}

// addRanked offers the rows of runs, n in all, by their ranks.
func (c *rowGroupCut) addRanked(runs []rowRange, n int) error {
	c.keys = resize(c.keys, n)
	c.rankNulls = resize(c.rankNulls, n)
	if err := c.rankReader.gatherRanks(c.keys, c.rankNulls, runs, c.ranks); err != nil {
		return err
	}
	c.num.add(c.keys, c.rankNulls, runs, c.selectAll(n))
	return nil
}
