package pushdown

import (
	"fmt"
	"math"
	"sort"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
)

// chunkIndex is one chunk's page index, read and judged once per plan. The
// column index is read first, alone: the offset index only places pages in
// rows and bytes, which matters only once the column index rules a page
// out, so it is read then (locate) and not when every page is kept.
type chunkIndex struct {
	ci *meta.ColumnIndex
	// oi is the offset index once located; nil before.
	oi      *meta.OffsetIndex
	located bool
	// why says why the page index cannot be used; "" when it can.
	why    string
	bounds []stats.Bounds
	// order is the trusted boundary order (Unordered when not trusted).
	order meta.BoundaryOrder
	// ordered lists the pages that carry numeric bounds, in page order:
	// those a binary search runs over (null and NaN-only pages carry none).
	ordered []int
}

func (s *rgState) chunkIndex(c int) *chunkIndex {
	if x := s.index[c]; x != nil {
		return x
	}
	x := &chunkIndex{order: meta.Unordered}
	s.index[c] = x
	f := s.p.f
	path := f.Schema.Leaves[c].Path
	r, ok := f.ColumnIndexRange(s.rg, c)
	if !ok {
		x.why = "the chunk has no column index"
		return x
	}
	if !f.HasPageIndex(s.rg, c) {
		// Without an offset index no page can be placed: reading the
		// column index would decide nothing.
		x.why = "the chunk has no offset index"
		return x
	}
	s.tally.indexBytes += max(r.Length, 0)
	ci, err := f.ReadColumnIndex(s.rg, c)
	if err != nil {
		x.why = fmt.Sprintf("the column index cannot be read (%v)", err)
		s.note(fmt.Sprintf("row group %d, column %s: page index unused, pages kept: %s", s.rg, path, x.why))
		return x
	}
	if why := stats.NullPagesContradiction(ci, f.Schema.Leaves[c].MaxDef); why != "" {
		x.why = why
		s.note(fmt.Sprintf("row group %d, column %s: page index unused, pages kept: %s", s.rg, path, x.why))
		return x
	}
	x.ci = ci
	col := s.p.cols[c]
	x.bounds = stats.ColumnIndexBounds(col, ci, s.p.takeBounds())
	order, _ := stats.IndexOrderOf(col, ci, x.bounds)
	if order == meta.Ascending || order == meta.Descending {
		x.order = order
		for i, b := range x.bounds {
			if b.AllNull || b.AllNaN {
				continue
			}
			if b.Min == nil || b.Max == nil {
				x.order = meta.Unordered // IndexOrder refuses these; never search past them
				break
			}
			x.ordered = append(x.ordered, i)
		}
	}
	return x
}

// locate reads chunk c's offset index for x and checks it against the
// column index, reporting whether the pages can be placed; when they
// cannot, x.why says why and the page index keeps every row.
func (s *rgState) locate(c int, x *chunkIndex) bool {
	if x.located {
		return x.oi != nil
	}
	x.located = true
	oi := s.offsetIndex(c)
	if oi.oi == nil {
		x.why = oi.why
		return false
	}
	f := s.p.f
	if why := pageIndexProblem(f, s.rg, c, x.ci, oi.oi, s.rows); why != "" {
		x.why = why
		s.note(fmt.Sprintf("row group %d, column %s: page index unused, pages kept: %s", s.rg, f.Schema.Leaves[c].Path, x.why))
		return false
	}
	x.oi = oi.oi
	return true
}

// pageIndexProblem says why column index ci of leaf c in row group rg
// cannot be believed beside its offset index oi and the chunk's statistics,
// or "". rows is the row group's row count.
func pageIndexProblem(f *format.File, rg, c int, ci *meta.ColumnIndex, oi *meta.OffsetIndex, rows int64) string {
	if len(ci.NullPages) != len(oi.PageLocations) {
		return fmt.Sprintf("the column index has %d pages but the offset index %d", len(ci.NullPages), len(oi.PageLocations))
	}
	if why := stats.NullPagesContradiction(ci, f.Schema.Leaves[c].MaxDef); why != "" {
		return why
	}
	chunkNulls := int64(-1)
	if st := f.Chunk(rg, c).MetaData.Statistics; st != nil && st.NullCount != nil {
		chunkNulls = *st.NullCount
	}
	pageRows := func(i int) int64 {
		first, end := format.PageRows(oi, i, rows)
		return end - first
	}
	return stats.PageIndexContradiction(ci, pageRows, f.Schema.Leaves[c].MaxRep > 0, chunkNulls)
}

// pageLeaf is the rows c allows by the page index: the rows of the pages
// whose bounds cannot rule it out.
func (s *rgState) pageLeaf(c *Cond) (RowRanges, string) {
	col := c.Col.Leaf.Index
	if c.Col.Leaf.MaxRep > 0 {
		return s.all, ""
	}
	ix := s.chunkIndex(col)
	if ix.why != "" {
		return s.all, ""
	}
	keep, reasons := ix.pages(c, true)
	nKept := countTrue(keep)
	// A page ruled out must be placed to be skipped; when none is, the
	// offset index is read only if already at hand.
	if (nKept < len(keep) || s.oi[col] != nil) && !s.locate(col, ix) {
		return s.all, ""
	}
	located := ix.oi != nil
	s.judged = append(s.judged, pageJudgement{cond: c, col: &s.p.cols[col], ci: ix.ci, oi: ix.oi, keep: keep, reasons: reasons})
	if !located {
		return s.all, ""
	}
	var kept []RowRange
	for i, k := range keep {
		if k {
			first, end := format.PageRows(ix.oi, i, s.rows)
			kept = append(kept, RowRange{first, end})
		}
	}
	rows := NewRowRanges(kept...)
	n := len(keep)
	if nKept == 0 {
		return nil, fmt.Sprintf("page index: none of the %d pages of %s can satisfy %s", n, c.Col.Path, c)
	}
	return rows, fmt.Sprintf("page index: %s keeps %s of %d pages of %s", c, pageList(keep), n, c.Col.Path)
}

// pages decides each page for c: kept unless its bounds prove no row
// satisfies c. With a trusted ASCENDING or DESCENDING boundary order (and
// search set) a binary search finds the span of pages whose bounds meet
// c's values, and the pages outside it are skipped without comparing their
// bounds; a page that may hold NaN is still judged alone, since NaN lies
// beyond every maximum.
func (ix *chunkIndex) pages(c *Cond, search bool) (keep []bool, reasons []string) {
	n := len(ix.bounds)
	keep = make([]bool, n)
	reasons = make([]string, n)
	judge := func(i int) {
		if out, why := c.excludedBy(ix.bounds[i]); out {
			reasons[i] = why
			return
		}
		keep[i] = true
		reasons[i] = "its bounds cannot rule it out"
	}
	var inSpan []bool
	if search {
		inSpan = ix.span(c)
	}
	if inSpan == nil {
		for i := range n {
			judge(i)
		}
		return keep, reasons
	}
	nanMatches := c.nanMatches()
	searched := make([]bool, n)
	for _, i := range ix.ordered {
		searched[i] = true
	}
	for i := range n {
		switch {
		case !searched[i] || inSpan[i]:
			judge(i)
		case nanMatches && ix.bounds[i].MayHoldNaN():
			judge(i)
		default:
			reasons[i] = fmt.Sprintf("outside the pages a binary search over the %s bounds finds", ix.order)
		}
	}
	return keep, reasons
}

// nanMatches reports whether a NaN value satisfies c.
func (c *Cond) nanMatches() bool {
	if !c.Order.Kind().IsFloat() {
		return false
	}
	nan, err := c.Order.Float(math.NaN())
	return err == nil && c.test(nan, true) == True
}

// valueRange is an interval of values: nil ends are open; inclusive flags
// say whether the end itself belongs.
type valueRange struct {
	lo, hi       []byte
	loInc, hiInc bool
}

// searchRanges are the intervals c's values lie in, or nil when c is not a
// range test a binary search can serve.
func (c *Cond) searchRanges() []valueRange {
	o := c.Order
	for _, v := range append([][]byte{c.Value}, c.Values...) {
		if v != nil && o.IsNaN(v) {
			return nil // NaN lies beyond every bound, not within any span
		}
	}
	prefix := func(p []byte) []valueRange {
		return []valueRange{{lo: p, loInc: true, hi: prefixEnd(p)}}
	}
	switch c.Op {
	case Eq:
		return []valueRange{{lo: c.Value, hi: c.Value, loInc: true, hiInc: true}}
	case Lt:
		return []valueRange{{hi: c.Value}}
	case Le:
		return []valueRange{{hi: c.Value, hiInc: true}}
	case Gt:
		return []valueRange{{lo: c.Value}}
	case Ge:
		return []valueRange{{lo: c.Value, loInc: true}}
	case In:
		out := make([]valueRange, len(c.Values))
		for i, v := range c.Values {
			out[i] = valueRange{lo: v, hi: v, loInc: true, hiInc: true}
		}
		return out
	case Prefix:
		return prefix(c.Value)
	case LikeOp:
		if s := c.likeShape(); len(s.prefix) > 0 {
			return prefix(s.prefix)
		}
	}
	return nil
}

// span marks the searchable pages whose bounds meet one of c's value
// ranges, found by binary search over the trusted order; nil when no search
// applies.
func (ix *chunkIndex) span(c *Cond) []bool {
	if ix.order != meta.Ascending && ix.order != meta.Descending || len(ix.ordered) == 0 {
		return nil
	}
	ranges := c.searchRanges()
	if ranges == nil {
		return nil
	}
	o := c.Order
	m := len(ix.ordered)
	b := func(k int) stats.Bounds { return ix.bounds[ix.ordered[k]] }
	in := make([]bool, len(ix.bounds))
	for _, vr := range ranges {
		// maxOK: the page's max reaches the range's low end; minOK: its min
		// does not pass the high end. A page meets the range when both hold.
		maxOK := func(k int) bool {
			if vr.lo == nil {
				return true
			}
			cmp := o.Compare(b(k).Max, vr.lo)
			return cmp > 0 || (cmp == 0 && vr.loInc)
		}
		minOK := func(k int) bool {
			if vr.hi == nil {
				return true
			}
			cmp := o.Compare(b(k).Min, vr.hi)
			return cmp < 0 || (cmp == 0 && vr.hiInc)
		}
		var start, end int
		if ix.order == meta.Ascending {
			// Maxes rise: maxOK is false then true. Mins rise: minOK true then false.
			start = sort.Search(m, maxOK)
			end = sort.Search(m, func(k int) bool { return !minOK(k) })
		} else {
			// Maxes fall: maxOK true then false. Mins fall: minOK false then true.
			start = sort.Search(m, minOK)
			end = sort.Search(m, func(k int) bool { return !maxOK(k) })
		}
		for k := start; k < end; k++ {
			in[ix.ordered[k]] = true
		}
	}
	return in
}

// pageList renders the kept pages as "pages 1, 3-5".
func pageList(keep []bool) string {
	var out string
	for i := 0; i < len(keep); {
		if !keep[i] {
			i++
			continue
		}
		j := i
		for j+1 < len(keep) && keep[j+1] {
			j++
		}
		if out != "" {
			out += ", "
		}
		if i == j {
			out += fmt.Sprint(i)
		} else {
			out += fmt.Sprintf("%d-%d", i, j)
		}
		i = j + 1
	}
	switch n := countTrue(keep); {
	case n == 0:
		return "no page"
	case n == 1:
		return "page " + out
	}
	return "pages " + out
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// takeBounds is a slice of page bounds a finished row group gave back, or
// nil: each row group would otherwise allocate its own for every column
// index it judges.
func (p *planner) takeBounds() []stats.Bounds {
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	n := len(p.freeBounds)
	if n == 0 {
		return nil
	}
	b := p.freeBounds[n-1]
	p.freeBounds = p.freeBounds[:n-1]
	return b
}

// releaseIndexes gives the row group's page bounds back for the next row
// group; nothing of the plan refers to them once the row group is judged
// (page decisions keep the column index's own bytes).
func (s *rgState) releaseIndexes() {
	p := s.p
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	for _, x := range s.index {
		if x.bounds != nil {
			clear(x.bounds)
			p.freeBounds = append(p.freeBounds, x.bounds[:0])
			x.bounds, x.ordered = nil, nil
		}
	}
}

// A pageJudgement is the page index's verdict on each page of a chunk for
// one condition, kept as it was decided; the PageDecisions EXPLAIN shows
// are spelled out from it only when asked for (RowGroupPlan.PageDecisions).
type pageJudgement struct {
	cond *Cond
	col  *stats.Column
	ci   *meta.ColumnIndex
	// oi places the pages; nil when the column index kept every page and
	// the offset index was not read.
	oi      *meta.OffsetIndex
	keep    []bool
	reasons []string
}

// decisions spells out j for a row group of rows rows.
func (j *pageJudgement) decisions(rows int64) []PageDecision {
	c := j.cond
	leaf, cond := c.Col.Leaf.Index, c.String()
	out := make([]PageDecision, len(j.keep))
	for i, k := range j.keep {
		d := PageDecision{Leaf: leaf, Path: c.Col.Path, Cond: cond, Page: i, Keep: k, Reason: j.reasons[i]}
		if j.oi != nil {
			first, end := format.PageRows(j.oi, i, rows)
			d.Rows, d.Located, d.Bytes = RowRange{first, end}, true, int64(j.oi.PageLocations[i].CompressedPageSize)
		}
		if b := stats.PageBounds(*j.col, j.ci, i); b.Min != nil && b.Max != nil {
			d.cond, d.min, d.max = c, b.Min, b.Max
		}
		out[i] = d
	}
	return out
}
