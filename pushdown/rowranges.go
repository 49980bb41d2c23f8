package pushdown

import (
	"fmt"
	"sort"
	"strings"
)

// A RowRange is the rows [First, End) of one row group.
type RowRange struct {
	First, End int64
}

// Len is the number of rows in the range.
func (r RowRange) Len() int64 { return r.End - r.First }

// RowRanges is a sorted set of disjoint, non-adjacent row intervals
// [First, End) of one row group. The zero value is the empty set. Build one
// with AllRows or NewRowRanges so that the invariant holds.
type RowRanges []RowRange

// AllRows is every row of a row group of n rows.
func AllRows(n int64) RowRanges {
	if n <= 0 {
		return nil
	}
	return RowRanges{{0, n}}
}

// NewRowRanges normalises any intervals into a RowRanges: empty ones are
// dropped, overlapping and adjacent ones merged.
func NewRowRanges(rs ...RowRange) RowRanges {
	var out RowRanges
	for _, r := range rs {
		if r.End > r.First {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil
	}
	sort.Slice(out, func(i, j int) bool { return out[i].First < out[j].First })
	merged := out[:1]
	for _, r := range out[1:] {
		last := &merged[len(merged)-1]
		if r.First <= last.End {
			last.End = max(last.End, r.End)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// Empty reports whether the set holds no row.
func (rs RowRanges) Empty() bool { return len(rs) == 0 }

// Count is the number of rows in the set.
func (rs RowRanges) Count() int64 {
	var n int64
	for _, r := range rs {
		n += r.Len()
	}
	return n
}

// Covers reports whether the set holds every row of a row group of n rows.
func (rs RowRanges) Covers(n int64) bool {
	return n <= 0 || (len(rs) == 1 && rs[0].First <= 0 && rs[0].End >= n)
}

// Contains reports whether row is in the set.
func (rs RowRanges) Contains(row int64) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].End > row })
	return i < len(rs) && rs[i].First <= row
}

// Overlaps reports whether any row of [first, end) is in the set.
func (rs RowRanges) Overlaps(first, end int64) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].End > first })
	return i < len(rs) && rs[i].First < end
}

// Intersect is the rows in both sets (AND).
func (rs RowRanges) Intersect(other RowRanges) RowRanges {
	var out RowRanges
	i, j := 0, 0
	for i < len(rs) && j < len(other) {
		a, b := rs[i], other[j]
		if lo, hi := max(a.First, b.First), min(a.End, b.End); lo < hi {
			out = append(out, RowRange{lo, hi})
		}
		if a.End < b.End {
			i++
		} else {
			j++
		}
	}
	return out
}

// Union is the rows in either set (OR).
func (rs RowRanges) Union(other RowRanges) RowRanges {
	if len(rs) == 0 {
		return other
	}
	if len(other) == 0 {
		return rs
	}
	all := make([]RowRange, 0, len(rs)+len(other))
	all = append(append(all, rs...), other...)
	return NewRowRanges(all...)
}

// Equal reports whether both sets hold the same rows.
func (rs RowRanges) Equal(other RowRanges) bool {
	if len(rs) != len(other) {
		return false
	}
	for i := range rs {
		if rs[i] != other[i] {
			return false
		}
	}
	return true
}

// String renders the set as "[0, 250) [500, 750)", or "none".
func (rs RowRanges) String() string {
	if len(rs) == 0 {
		return "none"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("[%d, %d)", r.First, r.End)
	}
	return strings.Join(parts, " ")
}
