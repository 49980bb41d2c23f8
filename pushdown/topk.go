package pushdown

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/stats"
)

// A TopK judges, for ORDER BY key LIMIT n over one file, which row groups
// can still hold a row of the result once n rows are held. The bound is
// the key of the worst row held: a row group is skipped only when every
// row of it sorts strictly after the bound, by the chunk's trusted
// statistics (package format/stats decides the trust). A row that ties with
// the bound may still belong to the result, when it comes earlier in the
// file than the row it ties with, so ties are kept.
//
// NULLs sort first or last as the key says, in either direction; NaN sorts
// above every number and equals NaN; -0 equals +0 (stats.Bounds compares so).
type TopK struct {
	f          *format.File
	col        stats.Column
	leaf       int
	desc       bool
	nullsFirst bool
	order      stats.Order
}

// A TopKBound is the worst key held: NULL, or Value in the column's
// physical (PLAIN) form as stats.Order encodes it.
type TopKBound struct {
	Null  bool
	Value []byte
}

// NewTopK prepares the judgement for the sort key in leaf column leaf of f.
func NewTopK(f *format.File, leaf int, desc, nullsFirst bool) (*TopK, error) {
	cols, err := stats.Columns(f.Meta)
	if err != nil {
		return nil, err
	}
	if leaf < 0 || leaf >= len(cols) {
		return nil, fmt.Errorf("%w: leaf %d of %d", ErrBadColumn, leaf, len(cols))
	}
	o, _, _ := stats.OrderOf(cols[leaf].Leaf)
	return &TopK{f: f, col: cols[leaf], leaf: leaf, desc: desc, nullsFirst: nullsFirst, order: o}, nil
}

// Order is the sort key column's order, which encodes a bound's value.
func (t *TopK) Order() stats.Order { return t.order }

// bounds are row group rg's trusted bounds of the key column.
func (t *TopK) bounds(rg int) stats.Bounds {
	md := t.f.Chunk(rg, t.leaf).MetaData
	return stats.ChunkBounds(t.col, md.Statistics, md.NumValues)
}

// ExcludesRowGroup reports whether no row of row group rg can sort before
// or tie with the bound, as the statistics prove.
func (t *TopK) ExcludesRowGroup(rg int, b TopKBound) bool {
	return t.excludedBy(t.bounds(rg), b)
}

// excludedBy reports whether the bounds prove that every row sorts
// strictly after b.
func (t *TopK) excludedBy(s stats.Bounds, b TopKBound) bool {
	if b.Null {
		// NULLs first: the held rows are all NULL and every value sorts
		// after them; only a NULL ties. NULLs last: any value beats a
		// NULL, and a NULL ties.
		return t.nullsFirst && !s.MayHoldNull()
	}
	if t.nullsFirst && s.MayHoldNull() {
		return false
	}
	if !s.MayHoldNonNull() {
		// Only NULLs, which sort last here.
		return true
	}
	if err := t.order.Valid(b.Value); err != nil || !t.order.Defined() {
		return false
	}
	if t.desc {
		return !s.MayHoldAbove(b.Value, true)
	}
	return !s.MayHoldBelow(b.Value, true)
}

// Promising orders row groups rgs most promising first: those whose
// statistics hold the keys that sort first, so that the bound tightens
// early and more of the rest is skipped. Row groups without usable
// bounds come first (they may hold anything); ties keep file order. The
// order changes what is read, never the answer.
func (t *TopK) Promising(rgs []int) []int {
	type scored struct {
		rg      int
		unknown bool
		nulls   bool
		v       []byte
	}
	ss := make([]scored, len(rgs))
	for i, rg := range rgs {
		s := t.bounds(rg)
		sc := scored{rg: rg}
		switch {
		case !t.order.Defined():
			sc.unknown = true
		case t.nullsFirst && s.MayHoldNull():
			sc.nulls = true
		case s.MayHoldNaN() && t.desc:
			sc.unknown = true
		case t.desc:
			sc.v, sc.unknown = s.Max, s.Max == nil
		default:
			sc.v, sc.unknown = s.Min, s.Min == nil
		}
		ss[i] = sc
	}
	rank := func(s scored) int {
		switch {
		case s.unknown:
			return 0
		case s.nulls:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(ss, func(a, b scored) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 || rank(a) != 2 {
			return c
		}
		c := t.order.Compare(a.v, b.v)
		if t.desc {
			return -c
		}
		return c
	})
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = s.rg
	}
	return out
}
