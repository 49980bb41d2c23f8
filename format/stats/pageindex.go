package stats

import (
	"fmt"

	"github.com/pqsql/pqsql/format/meta"
)

// PageBounds applies the rules to one page's entry of a column index: the
// same order and writer rules as ChunkBounds, plus null_pages and NaN pages.
// A page index says nothing of exactness, so byte-array bounds count as
// bounds only (writers shorten them).
func PageBounds(c Column, ci *meta.ColumnIndex, page int) Bounds {
	o, ok, why := OrderOf(c.Leaf)
	return pageBounds(c, o, ok, why, ci, page)
}

// A PageIndex gives the bounds of a column index's pages one at a time, as
// PageBounds does, with the column's order found once. It keeps no page's
// bounds: finding them again when asked costs less than holding every
// page's, which a plan asks for once or twice.
type PageIndex struct {
	c   *Column
	ci  *meta.ColumnIndex
	o   Order
	ok  bool
	why string
}

// NewPageIndex is the PageIndex of column index ci of column c, which it
// refers to.
func NewPageIndex(c *Column, ci *meta.ColumnIndex) PageIndex {
	o, ok, why := OrderOf(c.Leaf)
	return PageIndex{c: c, ci: ci, o: o, ok: ok, why: why}
}

// Len is the number of pages the column index lists.
func (x *PageIndex) Len() int {
	if x.ci == nil {
		return 0
	}
	return len(x.ci.NullPages)
}

// Bounds is PageBounds of the page.
func (x *PageIndex) Bounds(page int) Bounds {
	return pageBounds(*x.c, x.o, x.ok, x.why, x.ci, page)
}

// Order is IndexOrder of the column index.
func (x *PageIndex) Order() (meta.BoundaryOrder, string) {
	return indexOrder(*x.c, x.ci, x.Bounds, nil)
}

// SearchOrder is Order's order, with the pages a binary search over it
// runs over, in page order, appended to dst: every page but those of only
// nulls or only NaN, which carry no bounds. The pages are found in the
// same pass as the order; when it is UNORDERED they mean nothing.
func (x *PageIndex) SearchOrder(dst []int) (meta.BoundaryOrder, []int) {
	order, _ := indexOrder(*x.c, x.ci, x.Bounds, &dst)
	return order, dst
}

// pageBounds is PageBounds with the column's order already found and the
// page's path already written.
func pageBounds(c Column, o Order, ok bool, why string, ci *meta.ColumnIndex, page int) Bounds {
	b := Bounds{Path: c.Path, Page: page + 1, Order: o, NoNaN: !o.kind.IsFloat()}
	if ci == nil {
		b.Refused = "the column chunk has no column index"
		return b
	}
	if r := indexShape(ci); r != "" {
		b.Refused = r
		return b
	}
	if page < 0 || page >= len(ci.NullPages) {
		b.Refused = fmt.Sprintf("the column index has %d pages, so page %d is not in it", len(ci.NullPages), page)
		return b
	}
	if ci.NullCounts != nil {
		if n := ci.NullCounts[page]; n >= 0 {
			b.NullCount, b.NullCountKnown = n, true
		} else {
			b.Notes = append(b.Notes, fmt.Sprintf("null_counts gives %d, which is impossible, so it is ignored", n))
		}
	} else {
		b.Notes = append(b.Notes, "the column index has no null_counts, which does not mean zero: nulls may be present")
	}
	if ci.NullPages[page] {
		b.AllNull, b.NoNaN = true, true
		b.Refused = "the page holds only nulls, so there is no minimum or maximum"
		return b
	}
	if o.kind.IsFloat() && ci.NanCounts != nil {
		if n := ci.NanCounts[page]; n >= 0 {
			b.NaNCount, b.NaNCountKnown = n, true
			b.NoNaN = n == 0
		}
	}
	if !ok {
		b.Refused = why
		return b
	}
	p := pair{
		min: ci.MinValues[page], max: ci.MaxValues[page], hasMin: true, hasMax: true,
		source: SourceColumnIndex,
	}
	if r := c.accept(o, p, &b, -1); r != "" {
		b.Refused = r
	}
	return b
}

// indexShape says what is wrong with a column index's list lengths, or "".
func indexShape(ci *meta.ColumnIndex) string {
	n := len(ci.NullPages)
	switch {
	case len(ci.MinValues) != n || len(ci.MaxValues) != n:
		return fmt.Sprintf("the column index is malformed: %d null_pages, %d min_values, %d max_values", n, len(ci.MinValues), len(ci.MaxValues))
	case ci.NullCounts != nil && len(ci.NullCounts) != n:
		return fmt.Sprintf("the column index is malformed: %d pages but %d null_counts", n, len(ci.NullCounts))
	case ci.NanCounts != nil && len(ci.NanCounts) != n:
		return fmt.Sprintf("the column index is malformed: %d pages but %d nan_counts", n, len(ci.NanCounts))
	}
	return ""
}

// IndexOrder says whether a column index's boundary_order may be trusted for
// a binary search over its pages, and why not when it may not. It checks the
// claim against the pages' accepted bounds (null and NaN-only pages carry
// none and are passed over); a claim the bounds contradict is not trusted.
func IndexOrder(c Column, ci *meta.ColumnIndex) (meta.BoundaryOrder, string) {
	return indexOrder(c, ci, func(i int) Bounds { return PageBounds(c, ci, i) }, nil)
}

// indexOrder is IndexOrder by page's bounds, appending the pages with
// bounds to *ordered when it is not nil.
func indexOrder(c Column, ci *meta.ColumnIndex, page func(i int) Bounds, ordered *[]int) (meta.BoundaryOrder, string) {
	if ci == nil {
		return meta.Unordered, "the column chunk has no column index"
	}
	if r := indexShape(ci); r != "" {
		return meta.Unordered, r
	}
	claimed := ci.BoundaryOrder
	switch claimed {
	case meta.Unordered:
		return meta.Unordered, "the writer says the pages are not ordered (boundary_order UNORDERED)"
	case meta.Ascending, meta.Descending:
	default:
		return meta.Unordered, fmt.Sprintf("boundary_order %d is unknown to this reader", int32(claimed))
	}
	o, ok, why := OrderOf(c.Leaf)
	if !ok {
		return meta.Unordered, why
	}
	prev := -1
	var prevMin, prevMax []byte
	for i := range ci.NullPages {
		pb := page(i)
		if pb.AllNull || pb.AllNaN {
			continue
		}
		if pb.Min == nil || pb.Max == nil {
			return meta.Unordered, fmt.Sprintf("page %d's bounds were refused (%s), so boundary_order %v cannot be used", i, pb.Refused, claimed)
		}
		if prev >= 0 {
			sign := 1
			if claimed == meta.Descending {
				sign = -1
			}
			if sign*o.Compare(prevMin, pb.Min) > 0 {
				return meta.Unordered, fmt.Sprintf("boundary_order says %v, but page %d's min %s is out of order after page %d's min %s", claimed, i, o.Format(pb.Min), prev, o.Format(prevMin))
			}
			if sign*o.Compare(prevMax, pb.Max) > 0 {
				return meta.Unordered, fmt.Sprintf("boundary_order says %v, but page %d's max %s is out of order after page %d's max %s", claimed, i, o.Format(pb.Max), prev, o.Format(prevMax))
			}
		}
		prev, prevMin, prevMax = i, pb.Min, pb.Max
		if ordered != nil {
			*ordered = append(*ordered, i)
		}
	}
	return claimed, ""
}

// NullPagesContradiction says why a column index's null_pages cannot be
// believed, or "". parquet-mr with statistics disabled writes null_pages
// true for every page and null_counts -1 (parquet-java now rejects
// null_pages true beside a null count of 0, GH-3457): a page of only nulls
// has at least one null, and a column whose maximum definition level is 0
// has none. maxDef is the leaf's maximum definition level.
func NullPagesContradiction(ci *meta.ColumnIndex, maxDef int) string {
	for i, null := range ci.NullPages {
		if !null {
			continue
		}
		if maxDef == 0 {
			return fmt.Sprintf("the column index says page %d holds only nulls, but the column is required", i)
		}
		if ci.NullCounts != nil && i < len(ci.NullCounts) && ci.NullCounts[i] <= 0 {
			return fmt.Sprintf("the column index says page %d holds only nulls, but gives it %d nulls", i, ci.NullCounts[i])
		}
	}
	return ""
}
