package exec

import (
	"sync"

	"github.com/pqsql/pqsql/planner"
)

// groupCols holds the groups of a GROUP BY in columns (colPart). It starts
// as one part; once the groups are many and more than one thread may run,
// it splits them by their key's hash into a part per thread, and each
// batch's rows go to their parts, aggregated side by side. A group's rows
// still meet its state in input order, so float sums are those of one
// thread; only the order of the groups changes, which no ORDER BY fixes.
type groupCols struct {
	p       *planner.Plan
	parts   []*colPart
	workers int
	// partMask takes a key's hash to its part: the low bits, where each
	// part's table probes by the high ones.
	partMask uint64
	sels     [][]int32
	// direct is set when the groups' rows go straight to the statement's
	// result (aggSink.direct), and no partition spilled.
	direct bool
	// pipe aggregates the parts side by side once they are split
	// (grouppipe.go); every other use of the parts settles it first.
	pipe *groupPipe
}

// splitGroups is how many groups one part holds before the groups split
// into parts: fewer are aggregated faster than the rows can be handed out.
// Tests lower it.
var splitGroups = 1 << 14

// newGroupCols returns the columnar groups of p, or nil when p's keys or
// aggregates are not ones they hold.
func newGroupCols(p *planner.Plan) *groupCols {
	c := newColPart(p)
	if c == nil {
		return nil
	}
	return &groupCols{p: p, parts: []*colPart{c}, workers: 1}
}

// partOf is the part of a key.
func (gc *groupCols) partOf(k int64, null bool) int {
	if len(gc.parts) == 1 || null {
		return 0
	}
	return int(hashInt(k) & gc.partMask)
}

// groupBytes estimates the memory of one group.
func (gc *groupCols) groupBytes() int64 { return gc.parts[0].groupBytes() }

// numGroups is the number of groups.
func (gc *groupCols) numGroups() int {
	gc.settle()
	return gc.countGroups()
}

// countGroups is the number of groups in the parts' state.
func (gc *groupCols) countGroups() int {
	n := 0
	for _, c := range gc.parts {
		n += c.n
	}
	return n
}

// find reports whether a key has a group.
func (gc *groupCols) find(k int64, null bool) int32 {
	gc.settle()
	return gc.parts[gc.partOf(k, null)].find(k, null)
}

// at returns the part and the id in it of group g, numbered part by part.
func (gc *groupCols) at(g int) (*colPart, int) {
	gc.settle()
	for _, c := range gc.parts {
		if g < c.n {
			return c, g
		}
		g -= c.n
	}
	panic("exec: group out of range")
}

// split spreads the groups of the one part over a part per worker.
func (gc *groupCols) split() {
	bits := uint(0)
	for 1<<bits < gc.workers {
		bits++
	}
	one := gc.parts[0]
	gc.partMask = 1<<bits - 1
	gc.parts = make([]*colPart, 1<<bits)
	for i := range gc.parts {
		gc.parts[i] = newColPart(gc.p)
	}
	gc.route(one)
	one.release()
	gc.pipe = newGroupPipe(len(gc.parts))
	gc.publish()
}

// consumeOwned adds the rows of b, whose keys and arguments are srcs, to
// the parts' queues, and reports whether it did: b is then released once
// they are aggregated. It does not when the parts are not split, or when
// the sources do not all live in b.
func (gc *groupCols) consumeOwned(b *batch, srcs []source) bool {
	gp := gc.pipe
	if gp == nil || !pipeable(b, srcs) {
		return false
	}
	sels := make([][]int32, len(gc.parts))
	for p := range sels {
		sels[p] = gp.selFor()
	}
	if v := srcs[0].vec; v != nil && v.Int != nil && v.Nulls == nil {
		for i, x := range v.Int[:b.n] {
			p := hashInt(x) & gc.partMask
			sels[p] = append(sels[p], int32(i))
		}
	} else {
		for i := range b.n {
			p := gc.partOf(colKeyAt(srcs[0], i))
			sels[p] = append(sels[p], int32(i))
		}
	}
	gc.send(b, srcs, sels)
	return true
}

// consume adds a batch of n rows whose keys and arguments are srcs.
func (gc *groupCols) consume(srcs []source, n int) {
	gc.settle()
	defer gc.publish()
	if len(gc.parts) == 1 {
		gc.parts[0].consume(srcs, n)
		if gc.workers > 1 && gc.parts[0].n > splitGroups {
			gc.split()
		}
		return
	}
	if len(gc.sels) != len(gc.parts) {
		gc.sels = make([][]int32, len(gc.parts))
	}
	for p := range gc.sels {
		gc.sels[p] = gc.sels[p][:0]
	}
	if v := srcs[0].vec; v != nil && v.Int != nil && v.Nulls == nil {
		for i, x := range v.Int[:n] {
			p := hashInt(x) & gc.partMask
			gc.sels[p] = append(gc.sels[p], int32(i))
		}
	} else {
		for i := range n {
			p := gc.partOf(colKeyAt(srcs[0], i))
			gc.sels[p] = append(gc.sels[p], int32(i))
		}
	}
	var wg sync.WaitGroup
	for p := 1; p < len(gc.parts); p++ {
		if len(gc.sels[p]) == 0 {
			continue
		}
		wg.Go(func() { gc.parts[p].consumeRows(srcs, gc.sels[p]) })
	}
	if len(gc.sels[0]) > 0 {
		gc.parts[0].consumeRows(srcs, gc.sels[0])
	}
	wg.Wait()
}

// takeSources returns the rows sel of each source.
func takeSources(srcs []source, sel []int32) []source {
	out := make([]source, len(srcs))
	for i, s := range srcs {
		switch {
		case s.vec != nil:
			out[i].vec = s.vec.take(sel)
		case s.ds != nil:
			out[i].ds = takeSlice(s.ds, sel)
		}
	}
	return out
}

// merge adds o, the groups of later rows.
func (gc *groupCols) merge(o *groupCols) {
	gc.settle()
	defer gc.publish()
	for _, oc := range o.parts {
		if len(gc.parts) == 1 {
			gc.parts[0].merge(oc, nil)
			if gc.workers > 1 && gc.parts[0].n > splitGroups {
				gc.split()
			}
			continue
		}
		gc.route(oc)
	}
	for _, oc := range o.parts {
		if oc.mem != nil {
			// A partial aggregate's part of the heap alone is kept for
			// reuse (reset).
			oc.release()
		}
	}
}

// reset empties the groups of a partial aggregate, one part never split,
// for reuse, and reports whether it could.
func (gc *groupCols) reset() bool {
	return len(gc.parts) == 1 && gc.pipe == nil && gc.parts[0].reset()
}

// eachColsBatch is eachBatch for groups held in columns.
func (ag *aggregator) eachColsBatch(types []Type, n int, fn func(b *batch) (stop bool, err error)) error {
	gc := ag.cols
	gc.settle()
	ag.cols = nil
	defer func() {
		for _, c := range gc.parts {
			c.release()
		}
	}()
	for _, c := range gc.parts {
		c.dropSlots()
	}
	if cols, ok := ag.plainColumns(n); ok {
		narrow := gc.narrowSums(types, cols)
		for _, c := range gc.parts {
			for lo := 0; lo < c.n; lo += BatchSize {
				hi := min(lo+BatchSize, c.n)
				b := &batch{cols: make([]*Vector, n), n: hi - lo}
				for k, src := range cols {
					if narrow[k] {
						b.cols[k] = c.narrowSumColumn(types[k], src, lo, hi)
						continue
					}
					v := newResultVector(types[k], hi-lo)
					c.finishColumn(v, src, lo, hi)
					b.cols[k] = v
				}
				c.releaseRows(hi)
				if stop, err := fn(b); stop || err != nil {
					return err
				}
			}
		}
		return nil
	}
	w := len(ag.p.Project)
	rb := newRowBatcher(w, types[:n], fn)
	r := make([]planner.Datum, 1+len(ag.p.Aggs))
	for _, c := range gc.parts {
		for g := range c.n {
			r[0] = c.keyDatum(g)
			for ai := range c.aggs {
				r[1+ai] = c.finish(ai, g)
			}
			row := rb.next()
			kept, err := ag.projectRow(r, row)
			if err != nil {
				return err
			}
			if !kept {
				continue
			}
			if stop, err := rb.keep(row); stop || err != nil {
				return err
			}
		}
	}
	return rb.flush()
}

// numGroups is the number of groups.
func (ag *aggregator) numGroups() int {
	if ag.cols != nil {
		return ag.cols.numGroups()
	}
	return len(ag.groups)
}

// groupsSoFar is numGroups without waiting for groups being aggregated on
// other goroutines: those it leaves out come in a later call.
func (ag *aggregator) groupsSoFar() int {
	if ag.cols != nil {
		return ag.cols.groupsSoFar()
	}
	return len(ag.groups)
}

// groupKeys appends group g's keys to dst.
func (ag *aggregator) groupKeys(g int, dst []planner.Datum) []planner.Datum {
	if ag.cols != nil {
		c, id := ag.cols.at(g)
		return append(dst, c.keyDatum(id))
	}
	return ag.groups[g].keyDatums(dst)
}

// route merges each group of src into the part its key hashes to.
func (gc *groupCols) route(src *colPart) {
	lists := make([][]int32, len(gc.parts))
	for g := range src.n {
		p := gc.partOf(src.key(g), int32(g) == src.nullGroup)
		lists[p] = append(lists[p], int32(g))
	}
	for p, l := range lists {
		if len(l) > 0 {
			gc.parts[p].merge(src, l)
		}
	}
}

// narrowSums reports, for each result column (cols: its source in the
// aggregate stage), whether it is an integer sum of type HUGEINT or
// DECIMAL(38) whose every group's sum fits int64, held so in Vector.Int
// rather than as a big integer per group (a pointer, a big.Int and its
// word): a sixth of the memory, for a result of a group per customer. Only
// the statement's result takes that form, which its readers (AppendText,
// CSV) print as they print int64 values; operators that combine vectors
// expect a wide type in Big.
func (gc *groupCols) narrowSums(types []Type, cols []int) []bool {
	narrow := make([]bool, len(cols))
	if !gc.direct {
		return narrow
	}
	for k, src := range cols {
		if src == 0 || (types[k].ID != TypeHugeInt && !wideDecimal(types[k])) {
			continue
		}
		ai := src - 1
		ok := gc.parts[0].aggs[ai].a.Func == "sum" && !gc.parts[0].aggs[ai].float
		for _, c := range gc.parts {
			ok = ok && c.aggs[ai].wide == nil
		}
		narrow[k] = ok
	}
	return narrow
}
