package exec

import (
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/pqsql/pqsql/planner"
)

// A colPart is the state of a GROUP BY on one integer key whose aggregates
// are counts and sums (or averages) of numbers. Each group is an id and a
// row of words in rows: its key, the number of its rows, then a word per
// sum or average. A group holds no pointer, so a GROUP BY of a group per
// row costs the garbage collector nothing to scan; and the row is one
// cache line, so that a batch's update of a group it has just found costs
// no further miss.
type colPart struct {
	p *planner.Plan
	// slots index the groups by key (groupslots.go); used counts the
	// occupied slots.
	slots []uint64
	shift uint
	mask  uint64
	used  int
	// rows holds width words a group, in blocks of rowBlockMask+1 groups:
	// a block is never copied to grow, and holds no slack past the last.
	rows      [][]int64
	width     int
	nullGroup int32
	n         int
	aggs      []colState
	gids      []int32
	// hashes backs groupsOf's hashes of a batch's keys; sink takes what
	// its reads ahead load, so that they are not left out.
	hashes []uint64
	near   []int32
	sink   uint64
	// merging and mergeIDs back merge's lists of a partial aggregate's
	// groups and their ids here, reused from merge to merge.
	merging  []int32
	mergeIDs []int32
	// mem holds the slot tables and row blocks of a part grown large
	// (tablemem.go), made at the first such.
	mem *tableMem
}

// rowBlockBits sets the groups of a block of rows.
const (
	rowBlockBits = 13
	rowBlockMask = 1<<rowBlockBits - 1
)

// The words of a group's row before those of the sums.
const (
	keyWord   = 0
	countWord = 1
)

// A colState is one aggregate's state of every group.
type colState struct {
	a *planner.AggCall
	// float sums are float64 bits in their word.
	float bool
	// sum is the word of the group's sum in its row (sum and avg).
	sum int
	// nulls counts each group's NULL arguments, made at the first NULL:
	// a group's values are its rows less those. Most columns have none, and
	// then no aggregate keeps a count of its own.
	nulls []int64
	// spare is the memory of nulls a reset emptied, for the next.
	spare []int64
	// wide holds every group's integer sum (unscaled decimal) once some
	// group's sum has left int64's range; the words are then unused.
	wide []int128
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
	c := &colPart{p: p, nullGroup: -1, width: countWord + 1, aggs: make([]colState, len(p.Aggs))}
	for i, a := range p.Aggs {
		if !colAggOK(a) {
			return nil
		}
		c.aggs[i].a = a
		if a.Arg != nil && (a.Func == "sum" || a.Func == "avg") {
			t := a.Arg.Type()
			c.aggs[i].float = t.ID == TypeFloat || t.ID == TypeDouble
			c.aggs[i].sum = c.width
			c.width++
		}
	}
	return c
}

// groupBytes estimates the memory of one group: its row, and its share of
// a table at most three quarters full that doubles.
func (c *colPart) groupBytes() int64 {
	return int64(8*c.width + 16)
}

// tableMem returns the part's table memory, made when first needed.
func (c *colPart) tableMem() *tableMem {
	if c.mem == nil {
		c.mem = newTableMem(c)
	}
	return c.mem
}

// release hands back the part's table memory once its groups are done
// with: nothing may read them afterwards.
func (c *colPart) release() {
	c.slots, c.rows = nil, nil
	if c.mem != nil {
		c.mem.release()
	}
}

// reset empties the part for the next row group of a partial aggregate,
// and reports whether it could: its slot table and first block of rows,
// from the heap, are kept, emptied. A part grown into memory of its own
// (tableMem) is not reused.
func (c *colPart) reset() bool {
	if c.mem != nil || len(c.rows) > 1 {
		return false
	}
	clear(c.slots)
	c.used = 0
	if len(c.rows) == 1 {
		// Past its length a block must be zero (addRow).
		b := c.rows[0]
		clear(b)
		c.rows[0] = b[:0]
	}
	c.n, c.nullGroup = 0, -1
	for i := range c.aggs {
		s := &c.aggs[i]
		if s.nulls != nil {
			s.spare = s.nulls[:0]
		}
		s.nulls, s.wide = nil, nil
	}
	return true
}

// newNulls returns n zero NULL counts, in spare's memory when it has room.
func (s *colState) newNulls(n int) []int64 {
	b := growZero(s.spare[:0], n)
	s.spare = nil
	return b
}

// releaseRows lets go of the blocks of rows of groups below g, finished
// into rows of the result, so that a result of many groups is not held
// beside their states.
func (c *colPart) releaseRows(g int) {
	for b := range min(g>>rowBlockBits, len(c.rows)) {
		c.rows[b] = nil
	}
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

// key is group g's key (0 for the NULL group).
func (c *colPart) key(g int) int64 { return *c.word(int32(g), keyWord) }

// word is word w of group g's row.
func (c *colPart) word(g int32, w int) *int64 {
	return &c.rows[g>>rowBlockBits][int(g&rowBlockMask)*c.width+w]
}

// find returns the group of a key, or -1.
func (c *colPart) find(k int64, null bool) int32 {
	if null {
		return c.nullGroup
	}
	return c.findKey(k)
}

// findOrAdd returns the group of a key, made when new. The NULL and zero
// states of a new group are made by extend.
func (c *colPart) findOrAdd(k int64, null bool) int32 {
	if null {
		if c.nullGroup < 0 {
			c.nullGroup = int32(c.n)
			c.addRow(0)
		}
		return c.nullGroup
	}
	return c.groupOf(k)
}

// addRow appends a group's row: its key and zero states.
func (c *colPart) addRow(k int64) {
	// A reset part holds its first block, empty.
	if c.n&rowBlockMask == 0 && len(c.rows) == c.n>>rowBlockBits {
		// The first block grows as the groups come, so that a GROUP BY of
		// a few groups stays small; the others are made whole.
		size := rowBlockMask + 1
		if c.n == 0 {
			size = 64
		}
		if c.n == 0 {
			c.rows = append(c.rows, make([]int64, 0, size*c.width))
		} else {
			c.rows = append(c.rows, c.tableMem().words(size * c.width)[:0])
		}
	}
	b := &c.rows[len(c.rows)-1]
	if len(*b)+c.width > cap(*b) {
		*b = slices.Grow(*b, len(*b))
	}
	// Past its length a block is zero: made so, and never written there.
	*b = (*b)[:len(*b)+c.width]
	(*b)[len(*b)-c.width+keyWord] = k
	c.n++
}

// extend gives each group made since the last call its NULL counts and
// wide sums, for the aggregates that keep them.
func (c *colPart) extend() {
	for i := range c.aggs {
		s := &c.aggs[i]
		if s.nulls != nil && len(s.nulls) < c.n {
			s.nulls = growZero(s.nulls, c.n-len(s.nulls))
		}
		if s.wide != nil && len(s.wide) < c.n {
			s.wide = growZero(s.wide, c.n-len(s.wide))
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
	if v := srcs[0].vec; v != nil && v.Int != nil && v.Nulls == nil {
		c.groupsOf(v.Int, nil, gids)
	} else {
		for i := range n {
			g := c.findOrAdd(colKeyAt(srcs[0], i))
			gids[i] = g
			*c.word(g, countWord)++
		}
	}
	c.extend()
	for i := range c.aggs {
		c.update(&c.aggs[i], srcs[1+i], n, gids)
	}
}

// consumeRows adds the rows sel of a batch whose keys and arguments are
// srcs: a part's share of a batch, read in place where the keys and
// arguments are plain integers and floats without NULLs, copied out
// otherwise.
func (c *colPart) consumeRows(srcs []source, sel []int32) {
	if !c.plainSources(srcs) {
		c.consume(takeSources(srcs, sel), len(sel))
		return
	}
	if cap(c.gids) < len(sel) {
		c.gids = make([]int32, len(sel))
	}
	gids := c.gids[:len(sel)]
	c.groupsOf(srcs[0].vec.Int, sel, gids)
	c.extend()
	for ai := range c.aggs {
		s := &c.aggs[ai]
		v := srcs[1+ai].vec
		switch {
		case s.a.Func != "sum" && s.a.Func != "avg":
		case s.float:
			for j, g := range gids {
				p := c.word(g, s.sum)
				addFloatWord(p, v.Float[sel[j]])
			}
		default:
			for j, g := range gids {
				c.addInt(s, g, v.Int[sel[j]])
			}
		}
	}
}

// plainSources reports whether consumeRows reads srcs in place: an integer
// key and arguments without NULLs, in the slices their sums take.
func (c *colPart) plainSources(srcs []source) bool {
	if v := srcs[0].vec; v == nil || v.Int == nil || v.Nulls != nil {
		return false
	}
	for ai := range c.aggs {
		s := &c.aggs[ai]
		if s.a.Arg == nil {
			continue
		}
		v := srcs[1+ai].vec
		switch {
		case v == nil || v.Nulls != nil:
			return false
		case s.a.Func == "count":
		case s.float && v.Float == nil, !s.float && v.Int == nil:
			return false
		}
	}
	return true
}

// update adds a batch's values to each row's group, gids.
func (c *colPart) update(s *colState, src source, n int, gids []int32) {
	if s.a.Arg == nil {
		return // count(*): the row count
	}
	v := src.vec
	if v == nil {
		for i, g := range gids {
			c.updateDatum(s, src.ds[i], g)
		}
		return
	}
	if v.Nulls != nil {
		for i, g := range gids {
			if v.Nulls[i] {
				c.addNull(s, g)
			}
		}
	}
	w := c.width
	switch {
	case s.a.Func == "count":
	case s.float && v.Float != nil:
		for i, g := range gids {
			if !v.IsNull(i) {
				p := c.word(g, s.sum)
				addFloatWord(p, v.Float[i])
			}
		}
	case !s.float && v.Int != nil && s.wide == nil && v.Nulls == nil:
		for i, g := range gids {
			x := v.Int[i]
			p := &c.rows[g>>rowBlockBits][int(g&rowBlockMask)*w+s.sum]
			a := *p
			r := a + x
			if (a^r)&(x^r) < 0 {
				// The sums widen; the rest of the batch adds to them.
				for j := i; j < len(gids); j++ {
					c.addInt(s, gids[j], v.Int[j])
				}
				break
			}
			*p = r
		}
	case !s.float && v.Int != nil:
		for i, g := range gids {
			if !v.IsNull(i) {
				c.addInt(s, g, v.Int[i])
			}
		}
	default:
		for i, g := range gids {
			if !v.IsNull(i) {
				c.addValue(s, datumAt(v, i), g)
			}
		}
	}
}

// updateDatum adds a value computed row by row.
func (c *colPart) updateDatum(s *colState, d planner.Datum, g int32) {
	if d.Null {
		c.addNull(s, g)
		return
	}
	c.addValue(s, d, g)
}

// addValue adds a non-NULL value to group g's sum.
func (c *colPart) addValue(s *colState, d planner.Datum, g int32) {
	switch {
	case s.a.Func == "count":
	case s.float:
		p := c.word(g, s.sum)
		addFloatWord(p, d.F)
	case d.Big != nil:
		// A decimal of up to 18 digits fits an int64.
		c.addInt(s, g, d.Big.Int64())
	default:
		c.addInt(s, g, d.I)
	}
}

// addNull counts a NULL argument of group g.
func (c *colPart) addNull(s *colState, g int32) {
	if s.nulls == nil {
		s.nulls = s.newNulls(c.n)
	}
	s.nulls[g]++
}

// addInt adds x to group g's sum, in int64 while every sum fits.
func (c *colPart) addInt(s *colState, g int32, x int64) {
	if s.wide != nil {
		s.wide[g] = s.wide[g].addInt(x)
		return
	}
	p := c.word(g, s.sum)
	a := *p
	r := a + x
	if (a^r)&(x^r) < 0 {
		// Overflow: the sums widen for good.
		c.widen(s)
		s.wide[g] = s.wide[g].addInt(x)
		return
	}
	*p = r
}

// widen moves s's sums to int128.
func (c *colPart) widen(s *colState) {
	s.wide = make([]int128, c.n)
	for g := range s.wide {
		s.wide[g] = int128{}.addInt(*c.word(int32(g), s.sum))
	}
}

// values is the number of group g's non-NULL arguments of s (its rows for
// count(*)).
func (c *colPart) values(s *colState, g int) int64 {
	n := *c.word(int32(g), countWord)
	if s.nulls != nil {
		n -= s.nulls[g]
	}
	return n
}

// sum128 is group g's integer sum.
func (c *colPart) sum128(s *colState, g int) int128 {
	if s.wide != nil {
		return s.wide[g]
	}
	return int128{}.addInt(*c.word(int32(g), s.sum))
}

// fsum is group g's float sum.
func (c *colPart) fsum(s *colState, g int) float64 {
	return math.Float64frombits(uint64(*c.word(int32(g), s.sum)))
}

// merge adds o, the state of later rows: its groups (those listed, or
// all when groups is nil) in the order they first appeared, after the
// groups here.
func (c *colPart) merge(o *colPart, groups []int32) {
	if groups == nil {
		c.merging = growZero(c.merging[:0], o.n)
		groups = c.merging
		for g := range groups {
			groups[g] = int32(g)
		}
	}
	c.mergeIDs = growZero(c.mergeIDs[:0], len(groups))
	ids := c.mergeIDs
	for i, g := range groups {
		ids[i] = c.findOrAdd(o.key(int(g)), g == o.nullGroup)
		*c.word(ids[i], countWord) += *o.word(g, countWord)
	}
	c.extend()
	for i := range c.aggs {
		dst, src := &c.aggs[i], &o.aggs[i]
		if src.nulls != nil {
			if dst.nulls == nil {
				dst.nulls = dst.newNulls(c.n)
			}
			for j, id := range ids {
				dst.nulls[id] += src.nulls[groups[j]]
			}
		}
		switch {
		case dst.a.Func != "sum" && dst.a.Func != "avg":
		case dst.float:
			for j, id := range ids {
				p := c.word(id, dst.sum)
				addFloatWord(p, o.fsum(src, int(groups[j])))
			}
		default:
			for j, id := range ids {
				t := o.sum128(src, int(groups[j]))
				if dst.wide == nil && t.hi == int64(t.lo)>>63 {
					c.addInt(dst, id, int64(t.lo))
					continue
				}
				if dst.wide == nil {
					c.widen(dst)
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
	return planner.Datum{I: c.key(g)}
}

// finish is aggregate ai's value of group g, as finishBuiltin makes it.
func (c *colPart) finish(ai, g int) planner.Datum {
	s := &c.aggs[ai]
	n := c.values(s, g)
	switch s.a.Func {
	case "count", "count_star":
		return planner.Datum{I: n}
	}
	if n == 0 {
		return planner.NullDatum
	}
	if s.float {
		if s.a.Func == "sum" {
			return planner.Datum{F: c.fsum(s, g)}
		}
		return planner.Datum{F: c.fsum(s, g) / float64(n)}
	}
	sum := c.sum128(s, g)
	if s.a.Func == "sum" {
		return planner.Datum{Big: sum.big()}
	}
	return planner.Datum{F: avgOf128(sum, n, s.a.Arg.Type())}
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
			v.Int = append(v.Int, c.key(g))
			v.markNotNull()
		}
		return
	}
	ai := src - 1
	s := &c.aggs[ai]
	switch {
	case (s.a.Func == "count" || s.a.Func == "count_star") && v.Type.ID == TypeBigInt:
		for g := lo; g < hi; g++ {
			v.Int = append(v.Int, c.values(s, g))
		}
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
			if c.values(s, g) == 0 {
				v.appendNull()
				continue
			}
			b := &ints[g-lo]
			t := c.sum128(s, g)
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

// addFloatWord adds x to the float sum held, as its bits, in the group
// word p.
func addFloatWord(p *int64, x float64) {
	*p = int64(math.Float64bits(math.Float64frombits(uint64(*p)) + x))
}

// narrowSumColumn is the column of aggregate stage column src, an integer
// sum whose groups' sums all fit int64 (groupCols.narrowSums), of groups
// [lo, hi): the sums in Int, NULL where a group has no value.
func (c *colPart) narrowSumColumn(t Type, src, lo, hi int) *Vector {
	s := &c.aggs[src-1]
	v := &Vector{Type: t, Int: make([]int64, hi-lo)}
	for g := lo; g < hi; g++ {
		if c.values(s, g) == 0 {
			if v.Nulls == nil {
				v.Nulls = make([]bool, hi-lo)
			}
			v.Nulls[g-lo] = true
			continue
		}
		v.Int[g-lo] = *c.word(int32(g), s.sum)
	}
	return v
}
