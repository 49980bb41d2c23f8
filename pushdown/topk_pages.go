package pushdown

import (
	"fmt"
	"slices"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/stats"
)

// TopKPages are the pages of the sort key's column chunk in one row group,
// as its page index describes them, for judging them against a bound.
type TopKPages struct {
	// Rows are each page's rows; Bytes its compressed size.
	Rows  []RowRange
	Bytes []int64
	pages stats.PageIndex
}

// Pages reads the page index of the key column in row group rg. It
// returns the column and offset index bytes it read, and a reason instead
// of pages when the index is absent, unreadable, or contradicts the chunk:
// every page is then read.
func (t *TopK) Pages(rg int) (p *TopKPages, columnIndexBytes, offsetIndexBytes int64, why string) {
	f := t.f
	numRows := f.Meta.RowGroups[rg].NumRows
	cr, ok := f.ColumnIndexRange(rg, t.leaf)
	if !ok {
		return nil, 0, 0, "the chunk has no column index"
	}
	or, ok := f.OffsetIndexRange(rg, t.leaf)
	if !ok {
		return nil, 0, 0, "the chunk has no offset index"
	}
	columnIndexBytes = max(cr.Length, 0)
	ci, err := f.ReadColumnIndex(rg, t.leaf)
	if err != nil {
		return nil, columnIndexBytes, 0, fmt.Sprintf("the column index cannot be read (%v)", err)
	}
	offsetIndexBytes = max(or.Length, 0)
	oi, err := f.ReadOffsetIndex(rg, t.leaf)
	if err != nil {
		return nil, columnIndexBytes, offsetIndexBytes, fmt.Sprintf("the offset index cannot be read (%v)", err)
	}
	if oi == nil || len(oi.PageLocations) == 0 {
		return nil, columnIndexBytes, offsetIndexBytes, "the offset index lists no pages"
	}
	if why := pageIndexProblem(f, rg, t.leaf, ci, oi, numRows); why != "" {
		return nil, columnIndexBytes, offsetIndexBytes, why
	}
	p = &TopKPages{
		Rows:  make([]RowRange, len(oi.PageLocations)),
		Bytes: make([]int64, len(oi.PageLocations)),
		// pageIndexProblem has checked that both indexes count the same pages.
		pages: stats.NewPageIndex(&t.col, ci),
	}
	for i, loc := range oi.PageLocations {
		first, end := format.PageRows(oi, i, numRows)
		p.Rows[i] = RowRange{First: first, End: end}
		p.Bytes[i] = int64(loc.CompressedPageSize)
	}
	return p, columnIndexBytes, offsetIndexBytes, ""
}

// ExcludesPage reports whether no row of page i can sort before or tie
// with the bound, as the page index proves; the rules are the row group's
// (ExcludesRowGroup), on the page's bounds and null count.
func (t *TopK) ExcludesPage(p *TopKPages, i int, b TopKBound) bool {
	return t.excludedBy(p.pages.Bounds(i), b)
}

// PagesBound derives from the pages alone a bound that at least k rows of
// them sort before or tie with: a page whose rows all sort strictly after
// it cannot hold a row of the result, whatever the other row groups hold.
// It holds only when every row of the row group is an input row of the
// sorted limit (no WHERE, no row narrowed away). ok is false when the
// pages prove no such bound.
//
// Each page contributes the rows its bounds place at or before one value:
// descending, every non-null row sorts at or before Min (NaN, above every
// number, sorts first); ascending, every non-null row but NaN sorts at or
// before Max, so its NaN count must be known. NULLs count where they sort
// first, and must be counted, by a known null count, where they sort last.
// Pages taken best value first, the bound is the value at which the rows
// counted reach k.
func (t *TopK) PagesBound(p *TopKPages, k int) (b TopKBound, ok bool) {
	if k <= 0 || !t.order.Defined() {
		return TopKBound{}, false
	}
	type part struct {
		v    []byte
		rows int64
	}
	var parts []part
	var nulls int64
	for i := range p.pages.Len() {
		s := p.pages.Bounds(i)
		rows := p.Rows[i].End - p.Rows[i].First
		if s.AllNull {
			nulls += rows
			continue
		}
		if !s.NullCountKnown {
			continue
		}
		nulls += s.NullCount
		n := rows - s.NullCount
		v := s.Min
		if !t.desc {
			v = s.Max
			if s.MayHoldNaN() {
				if !s.NaNCountKnown {
					continue
				}
				n -= s.NaNCount
			}
		}
		if v == nil || n <= 0 || t.order.Valid(v) != nil || t.order.IsNaN(v) {
			continue
		}
		parts = append(parts, part{v: v, rows: n})
	}
	var held int64
	if t.nullsFirst {
		if held = nulls; held >= int64(k) {
			return TopKBound{Null: true}, true
		}
	}
	slices.SortFunc(parts, func(a, b part) int {
		c := t.order.Compare(a.v, b.v)
		if t.desc {
			return -c
		}
		return c
	})
	for _, pt := range parts {
		if held += pt.rows; held >= int64(k) {
			return TopKBound{Value: pt.v}, true
		}
	}
	return TopKBound{}, false
}
