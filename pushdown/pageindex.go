package pushdown

import (
	"fmt"
	"math"
	"slices"
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
	// raw is the column index's bytes, which ci's values are slices of:
	// what the row group's plan keeps of the column index, to spell out
	// its page decisions (pageJudgement).
	raw []byte
	// oi is the offset index once located; nil before. It lies in the
	// row group's scratch; oiRaw is a copy of its bytes, kept as raw is.
	oi      *meta.OffsetIndex
	oiRaw   []byte
	located bool
	// why says why the page index cannot be used; "" when it can.
	why string
	// pages gives each page's bounds.
	pages stats.PageIndex
	// order is the trusted boundary order (Unordered when not trusted).
	order meta.BoundaryOrder
	// ordered lists the pages that carry numeric bounds, in page order:
	// those a binary search runs over (null and NaN-only pages carry none).
	ordered []int
	// sc holds ci's lists and the arrays judging the pages takes; the row
	// group gives it back once judged (releaseIndexes).
	sc *indexScratch
}

// indexScratch is what judging one chunk's page index takes, handed from
// one row group to the next: each would otherwise allocate its column
// index's lists and its pages' verdicts again.
type indexScratch struct {
	ci                     format.ColumnIndexBuf
	ordered                []int
	keep, searched, inSpan []bool
}

// bools is *b cleared to n entries, grown when short.
func bools(b *[]bool, n int) []bool {
	if cap(*b) < n {
		*b = make([]bool, n)
	}
	*b = (*b)[:n]
	clear(*b)
	return *b
}

func (s *rgState) chunkIndex(c int) *chunkIndex {
	if x := s.index[c]; x != nil {
		return x
	}
	x := &chunkIndex{order: meta.Unordered}
	s.makeMemos()
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
	x.sc = s.p.takeScratch()
	ci, raw, err := f.ReadColumnIndexInto(s.rg, c, &x.sc.ci)
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
	x.ci, x.raw = ci, raw
	x.judgeOrder(&s.p.cols[c])
	return x
}

// judgeOrder finds x's pages' bounds and the boundary order they can be
// searched by.
func (x *chunkIndex) judgeOrder(col *stats.Column) {
	x.pages = stats.NewPageIndex(col, x.ci)
	order, ordered := x.pages.SearchOrder(x.sc.ordered[:0])
	x.sc.ordered = ordered
	if order == meta.Ascending || order == meta.Descending {
		// The order is refused when a page other than one of only nulls or
		// only NaN lacks a bound: the search never passes such a page.
		x.order, x.ordered = order, ordered
	}
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
	x.oi, x.oiRaw = oi.oi, slices.Clone(oi.raw)
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
	keep := bools(&ix.sc.keep, ix.pages.Len())
	ix.judge(c, true, keep, nil)
	nKept := countTrue(keep)
	// A page ruled out must be placed to be skipped; when none is, the
	// offset index is read only if already at hand.
	if (nKept < len(keep) || s.oi[col] != nil) && !s.locate(col, ix) {
		return s.all, ""
	}
	located := ix.oi != nil
	s.judged = append(s.judged, pageJudgement{cond: c, col: &s.p.cols[col], f: s.p.f, rg: s.rg, raw: ix.raw, oiRaw: ix.oiRaw})
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

// decide decides each page for c: kept unless its bounds prove no row
// satisfies c, with the reason for each.
func (ix *chunkIndex) decide(c *Cond, search bool) (keep []bool, reasons []string) {
	n := ix.pages.Len()
	keep, reasons = make([]bool, n), make([]string, n)
	ix.judge(c, search, keep, reasons)
	return keep, reasons
}

// judge decides each page for c into keep, a page's entry true when kept,
// and reasons, when not nil, why: a page is kept unless its bounds prove
// no row satisfies c. With a trusted ASCENDING or DESCENDING boundary order
// (and search set) a binary search finds the span of pages whose bounds
// meet c's values, and the pages outside it are skipped without comparing
// their bounds; a page that may hold NaN is still judged alone, since NaN
// lies beyond every maximum.
func (ix *chunkIndex) judge(c *Cond, search bool, keep []bool, reasons []string) {
	n := len(keep)
	judge := func(i int) {
		if out, why := c.excludedBy(ix.pages.Bounds(i)); out {
			if reasons != nil {
				reasons[i] = why
			}
			return
		}
		keep[i] = true
		if reasons != nil {
			reasons[i] = "its bounds cannot rule it out"
		}
	}
	var inSpan []bool
	if search {
		inSpan = ix.span(c)
	}
	if inSpan == nil {
		for i := range n {
			judge(i)
		}
		return
	}
	nanMatches := c.nanMatches()
	searched := bools(&ix.sc.searched, n)
	for _, i := range ix.ordered {
		searched[i] = true
	}
	for i := range n {
		switch {
		case !searched[i] || inSpan[i]:
			judge(i)
		case nanMatches && ix.pages.Bounds(i).MayHoldNaN():
			judge(i)
		default:
			if reasons != nil {
				reasons[i] = fmt.Sprintf("outside the pages a binary search over the %s bounds finds", ix.order)
			}
		}
	}
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
	b := func(k int) stats.Bounds { return ix.pages.Bounds(ix.ordered[k]) }
	in := bools(&ix.sc.inSpan, ix.pages.Len())
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

// takeScratch is scratch a finished row group gave back, or a new one.
func (p *planner) takeScratch() *indexScratch {
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	n := len(p.freeScratch)
	if n == 0 {
		return new(indexScratch)
	}
	sc := p.freeScratch[n-1]
	p.freeScratch[n-1] = nil
	p.freeScratch = p.freeScratch[:n-1]
	return sc
}

// takeOffsetIndexBuf is an offset index buffer a finished row group gave
// back, or a new one.
func (p *planner) takeOffsetIndexBuf() *format.OffsetIndexBuf {
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	n := len(p.freeOI)
	if n == 0 {
		return new(format.OffsetIndexBuf)
	}
	b := p.freeOI[n-1]
	p.freeOI[n-1] = nil
	p.freeOI = p.freeOI[:n-1]
	return b
}

// releaseIndexes gives the row group's scratch and offset index buffers
// back for the next row group; nothing of the plan refers to them once the
// row group is judged (page judgements keep copies of the indexes' bytes).
func (s *rgState) releaseIndexes() {
	p := s.p
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	for _, x := range s.index {
		if x.sc != nil {
			p.freeScratch = append(p.freeScratch, x.sc)
			x.sc, x.ci, x.ordered, x.oi = nil, nil, nil, nil
		}
	}
	for _, x := range s.oi {
		if x.buf != nil {
			p.freeOI = append(p.freeOI, x.buf)
			x.buf, x.oi, x.raw = nil, nil, nil
		}
	}
	if x := s.passing; x != nil && x.buf != nil {
		p.freeOI = append(p.freeOI, x.buf)
		s.passing = nil
	}
}

// A pageJudgement is the page index's verdict on each page of a chunk for
// one condition. It keeps what decided it, not the verdicts: the
// PageDecisions EXPLAIN shows are decided again from the same column index
// only when asked for (RowGroupPlan.PageDecisions), and a plan that no one
// explains costs no more than the column index's bytes.
type pageJudgement struct {
	cond *Cond
	col  *stats.Column
	f    *format.File
	rg   int
	// raw is the column index's bytes.
	raw []byte
	// oiRaw is the offset index's bytes, which place the pages; nil when
	// the column index kept every page and the offset index was not read.
	oiRaw []byte
}

// decisions spells out j for a row group of rows rows.
func (j *pageJudgement) decisions(rows int64) []PageDecision {
	c := j.cond
	leaf, cond := c.Col.Leaf.Index, c.String()
	ix := &chunkIndex{order: meta.Unordered, sc: new(indexScratch)}
	ci, err := j.f.DecodeColumnIndexInto(j.rg, leaf, j.raw, &ix.sc.ci)
	if err != nil {
		// The same bytes decoded when the page index judged the pages.
		return nil
	}
	ix.ci = ci
	ix.judgeOrder(j.col)
	var oi *meta.OffsetIndex
	if j.oiRaw != nil {
		if oi, err = j.f.DecodeOffsetIndex(j.rg, leaf, j.oiRaw); err != nil {
			return nil // as the column index's bytes
		}
	}
	keep, reasons := ix.decide(c, true)
	out := make([]PageDecision, len(keep))
	for i, k := range keep {
		d := PageDecision{Leaf: leaf, Path: c.Col.Path, Cond: cond, Page: i, Keep: k, Reason: reasons[i]}
		if oi != nil {
			first, end := format.PageRows(oi, i, rows)
			d.Rows, d.Located, d.Bytes = RowRange{first, end}, true, int64(oi.PageLocations[i].CompressedPageSize)
		}
		if b := ix.pages.Bounds(i); b.Min != nil && b.Max != nil {
			d.cond, d.min, d.max = c, b.Min, b.Max
		}
		out[i] = d
	}
	return out
}
