package exec

import (
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/pqsql/pqsql/planner"
)

// A colPart is the state of a GROUP BY on one integer key whose aggregates
// are counts and sums (or averages) of numbers, held in columns: each
// group is an id, its key one entry of keys, each aggregate's state one
// entry of that aggregate's typed slices. A group holds no pointer, so a
// GROUP BY of a group per row costs the garbage collector nothing to scan
// and some 60 bytes a group where a *group with its states costs 200.
type colPart struct {
	p         *planner.Plan
	table     intGroups
	keys      []int64
	nullGroup int32
	n         int
	aggs      []colState
	gids      []int32
}

// A colState is one aggregate's state of every group, indexed by group id.
type colState struct {
	a *planner.AggCall
	// n counts the rows (count_star) or the non-NULL values.
	n []int64
	// float sums in fsums; integer sums (unscaled decimals) in sums, or
	// in wide once some group's sum has left int64's range.
	float bool
	sums  []int64
	wide  []int128
	fsums []float64
}

// colKeyType reports whether t is a key groupCols holds: an integer type
// whose values are datums of I alone, so that the key gives its datum back.
func colKeyType(t Type) bool {
	switch t.ID {
	case TypeTinyInt, TypeSmallInt, TypeInteger, TypeBigInt,
		TypeUTinyInt, TypeUSmallInt, TypeUInteger, TypeUBigInt, TypeDate:
		return true
	}
	return false
}

// colAggOK reports whether groupCols computes a: count, and the sum or
// average of signed integers, decimals of up to 18 digits or floats.
func colAggOK(a *planner.AggCall) bool {
	if a.Distinct || a.Accumulates() {
		return false
	}
	switch a.Func {
	case "count_star":
		return a.Arg == nil
	case "count":
		return a.Arg != nil
	case "sum", "avg":
		if a.Arg == nil {
			return false
		}
		t := a.Arg.Type()
		return colSumType(t) || t.ID == TypeFloat || t.ID == TypeDouble
	}
	return false
}

// colSumType reports whether values of t sum exactly as int64 values.
func colSumType(t Type) bool {
	switch t.ID {
	case TypeTinyInt, TypeSmallInt, TypeInteger, TypeBigInt,
		TypeUTinyInt, TypeUSmallInt, TypeUInteger:
		return true
	case TypeDecimal:
		return !wideDecimal(t)
	}
	return false
}

// newColPart returns the columnar state for p, or nil when p's keys or
// aggregates are not ones it holds.
func newColPart(p *planner.Plan) *colPart {
	if len(p.GroupBy) != 1 || !colKeyType(p.GroupBy[0].Type()) || len(p.Aggs) == 0 {
		return nil
	}
	c := &colPart{p: p, nullGroup: -1, aggs: make([]colState, len(p.Aggs))}
	for i, a := range p.Aggs {
		if !colAggOK(a) {
			return nil
		}
		c.aggs[i].a = a
		if a.Arg != nil && (a.Func == "sum" || a.Func == "avg") {
			t := a.Arg.Type()
			c.aggs[i].float = t.ID == TypeFloat || t.ID == TypeDouble
		}
	}
	return c
}

// groupBytes estimates the memory of one group: its key, its share of a
// table at most half full that doubles, and the states.
func (c *colPart) groupBytes() int64 {
	n := int64(8 + 4*12)
	for i := range c.aggs {
		n += 8
		if s := &c.aggs[i]; s.a.Func == "sum" || s.a.Func == "avg" {
			n += 16
		}
	}
	return n
}

// colKeyAt reads row i's key: null, or the integer.
func colKeyAt(src source, i int) (int64, bool) {
	if v := src.vec; v != nil {
		if v.IsNull(i) {
			return 0, true
		}
		if v.Int != nil {
			return v.Int[i], false
		}
	}
	d := src.datum(i)
	return d.I, d.Null
}

// find returns the group of a key, or -1.
func (c *colPart) find(k int64, null bool) int32 {
	if null {
		return c.nullGroup
	}
	return c.table.find(k)
}

// findOrAdd returns the group of a key, made when new. The states of a new
// group are made by extend.
func (c *colPart) findOrAdd(k int64, null bool) int32 {
	if null {
		if c.nullGroup < 0 {
			c.nullGroup = int32(c.n)
			c.keys = append(c.keys, 0)
			c.n++
		}
		return c.nullGroup
	}
	g, added := c.table.findOrPut(k, int32(c.n))
	if added {
		c.keys = append(c.keys, k)
		c.n++
	}
	return g
}

// extend gives each group made since the last call its empty states.
func (c *colPart) extend() {
	for i := range c.aggs {
		s := &c.aggs[i]
		add := c.n - len(s.n)
		if add <= 0 {
			continue
		}
		s.n = growZero(s.n, add)
		switch {
		case s.a.Func != "sum" && s.a.Func != "avg":
		case s.float:
			s.fsums = growZero(s.fsums, add)
		case s.wide != nil:
			s.wide = growZero(s.wide, add)
		default:
			s.sums = growZero(s.sums, add)
		}
	}
}

// growZero lengthens s by n zero values, doubling its capacity when it
// must grow: the columns of a GROUP BY of a group per row grow a batch at a
// time, and append's gentler growth of large slices copies them more often.
func growZero[T any](s []T, n int) []T {
	if len(s)+n > cap(s) {
		s = slices.Grow(s, max(len(s), n))
	}
	s = s[:len(s)+n]
	clear(s[len(s)-n:])
	return s
}

// consume adds a batch of n rows whose keys and arguments are srcs.
func (c *colPart) consume(srcs []source, n int) {
	if cap(c.gids) < n {
		c.gids = make([]int32, n)
	}
	gids := c.gids[:n]
	if len(c.keys)+n > cap(c.keys) {
		c.keys = slices.Grow(c.keys, max(len(c.keys), n))
	}
	if v := srcs[0].vec; v != nil && v.Int != nil && v.Nulls == nil {
		for i, x := range v.Int[:n] {
			g, added := c.table.findOrPut(x, int32(c.n))
			if added {
				c.keys = append(c.keys, x)
				c.n++
			}
			gids[i] = g
		}
	} else {
		for i := range n {
			gids[i] = c.findOrAdd(colKeyAt(srcs[0], i))
		}
	}
	c.extend()
	for i := range c.aggs {
		c.aggs[i].update(srcs[1+i], n, gids)
	}
}

// update adds a batch's values to each row's group, gids.
func (s *colState) update(src source, n int, gids []int32) {
	if s.a.Arg == nil {
		for _, g := range gids {
			s.n[g]++
		}
		return
	}
	v := src.vec
	if v == nil {
		s.updateDatums(src.ds[:n], gids)
		return
	}
	switch {
	case s.a.Func == "count":
		for i, g := range gids {
			if !v.IsNull(i) {
				s.n[g]++
			}
		}
	case s.float && v.Float != nil:
		for i, g := range gids {
			if !v.IsNull(i) {
				s.n[g]++
				s.fsums[g] += v.Float[i]
			}
		}
	case !s.float && v.Int != nil:
		for i, g := range gids {
			if !v.IsNull(i) {
				s.n[g]++
				s.addInt(g, v.Int[i])
			}
		}
	default:
		for i, g := range gids {
			s.updateDatum(datumAt(v, i), g)
		}
	}
}

// updateDatums adds values computed row by row.
func (s *colState) updateDatums(ds []planner.Datum, gids []int32) {
	for i, g := range gids {
		s.updateDatum(ds[i], g)
	}
}

func (s *colState) updateDatum(d planner.Datum, g int32) {
	if d.Null {
		return
	}
	s.n[g]++
	switch {
	case s.a.Func == "count":
	case s.float:
		s.fsums[g] += d.F
	case d.Big != nil:
		// A decimal of up to 18 digits fits an int64.
		s.addInt(g, d.Big.Int64())
	default:
		s.addInt(g, d.I)
	}
}

// addInt adds x to group g's sum, in int64 while every sum fits.
func (s *colState) addInt(g int32, x int64) {
	if s.wide != nil {
		s.wide[g] = s.wide[g].addInt(x)
		return
	}
	a := s.sums[g]
	r := a + x
	if (a^r)&(x^r) < 0 {
		// Overflow: the column widens for good.
		s.widen()
		s.wide[g] = s.wide[g].addInt(x)
		return
	}
	s.sums[g] = r
}

// widen moves the sums to int128.
func (s *colState) widen() {
	s.wide = make([]int128, len(s.sums), cap(s.sums))
	for i, x := range s.sums {
		s.wide[i] = int128{}.addInt(x)
	}
	s.sums = nil
}

// sum128 is group g's integer sum.
func (s *colState) sum128(g int) int128 {
	if s.wide != nil {
		return s.wide[g]
	}
	return int128{}.addInt(s.sums[g])
}

// merge adds o, the state of later rows: its groups (those listed, or
// all when groups is nil) in the order they first appeared, after the
// groups here.
func (c *colPart) merge(o *colPart, groups []int32) {
	if groups == nil {
		groups = make([]int32, o.n)
		for g := range groups {
			groups[g] = int32(g)
		}
	}
	ids := make([]int32, len(groups))
	for i, g := range groups {
		ids[i] = c.findOrAdd(o.keys[g], g == o.nullGroup)
	}
	c.extend()
	for i := range c.aggs {
		dst, src := &c.aggs[i], &o.aggs[i]
		for j, id := range ids {
			g := groups[j]
			dst.n[id] += src.n[g]
			switch {
			case dst.a.Func != "sum" && dst.a.Func != "avg":
			case dst.float:
				dst.fsums[id] += src.fsums[g]
			default:
				t := src.sum128(int(g))
				if dst.wide == nil && t.hi == int64(t.lo)>>63 {
					dst.addInt(id, int64(t.lo))
					continue
				}
				if dst.wide == nil {
					dst.widen()
				}
				dst.wide[id] = dst.wide[id].add(t)
			}
		}
	}
}

// keyDatum is group g's key.
func (c *colPart) keyDatum(g int) planner.Datum {
	if int32(g) == c.nullGroup {
		return planner.NullDatum
	}
	return planner.Datum{I: c.keys[g]}
}

// finish is aggregate ai's value of group g, as finishBuiltin makes it.
func (c *colPart) finish(ai, g int) planner.Datum {
	s := &c.aggs[ai]
	n := s.n[g]
	switch s.a.Func {
	case "count", "count_star":
		return planner.Datum{I: n}
	}
	if n == 0 {
		return planner.NullDatum
	}
	if s.float {
		if s.a.Func == "sum" {
			return planner.Datum{F: s.fsums[g]}
		}
		return planner.Datum{F: s.fsums[g] / float64(n)}
	}
	sum := s.sum128(g)
	if s.a.Func == "sum" {
		return planner.Datum{Big: sum.big()}
	}
	return planner.Datum{F: avgOf(sum, n, s.a.Arg.Type())}
}

// avgOf is the average of n values of t whose unscaled sum is sum,
// correctly rounded: one float division when sum and the divisor are exact
// as floats, else an exact quotient.
func avgOf(sum int128, n int64, t Type) float64 {
	scale := 0
	if t.ID == TypeDecimal {
		scale = t.Scale
	}
	const exact = 1 << 53
	if sum.hi == int64(sum.lo)>>63 && scale <= 15 {
		s, p := int64(sum.lo), int64(math.Pow10(scale))
		if s > -exact && s < exact && n > 0 && n <= (exact-1)/p {
			return float64(s) / float64(n*p)
		}
	}
	r := new(big.Rat).SetFrac(sum.big(), new(big.Int).Mul(big.NewInt(n), pow10(scale)))
	f, _ := r.Float64()
	return f
}

// finishColumn appends to v the value of the aggregate stage's column src
// (the key, then the aggregates) of groups [lo, hi).
func (c *colPart) finishColumn(v *Vector, src, lo, hi int) {
	if src == 0 {
		for g := lo; g < hi; g++ {
			if int32(g) == c.nullGroup {
				v.appendNull()
				continue
			}
			v.Int = append(v.Int, c.keys[g])
			v.markNotNull()
		}
		return
	}
	ai := src - 1
	s := &c.aggs[ai]
	switch {
	case (s.a.Func == "count" || s.a.Func == "count_star") && v.Type.ID == TypeBigInt:
		v.Int = append(v.Int, s.n[lo:hi]...)
		if v.Nulls != nil {
			v.Nulls = extendZero(v.Nulls, hi-lo)
		}
		return
	case s.a.Func == "sum" && !s.float && v.Big != nil:
		// The sums are cut from two slabs, a big.Int and its one word
		// each, where big.NewInt makes two allocations a group.
		ints := make([]big.Int, hi-lo)
		words := make([]big.Word, hi-lo)
		for g := lo; g < hi; g++ {
			if s.n[g] == 0 {
				v.appendNull()
				continue
			}
			b := &ints[g-lo]
			t := s.sum128(g)
			if x := int64(t.lo); t.hi == x>>63 && x != math.MinInt64 && bits.UintSize == 64 {
				neg := x < 0
				if neg {
					x = -x
				}
				words[g-lo] = big.Word(x)
				b.SetBits(words[g-lo : g-lo+1 : g-lo+1])
				if neg {
					b.Neg(b)
				}
			} else {
				b = t.big()
			}
			v.Big = append(v.Big, b)
			v.markNotNull()
		}
		return
	}
	for g := lo; g < hi; g++ {
		v.appendDatum(c.finish(ai, g))
	}
}
