package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/pqsql/pqsql/planner"
)

// aggregate runs a plan with aggregates and hands its rows to emit: from
// metadata when statistics answer it, else by a hash aggregation that
// spills past memory_limit.
func (x *executor) aggregate(ctx context.Context, p *planner.Plan, emit emitFunc) error {
	if p.GroupingSets != nil {
		return x.aggregateSets(ctx, p, emit) // groupingsets.go
	}
	out := x.newAggSink(ctx, p, emit)
	defer out.close()
	ag, ok, err := x.metaAggregate(p)
	if err != nil {
		return err
	}
	if ok {
		if err := out.addAggregator(ag); err != nil {
			return err
		}
		return out.finish()
	}
	sa := newSpillAgg(x, p, 0)
	defer sa.close()
	q := newScanQuery(p, x.settings)
	q.noPartial = &sa.noPartial
	if err := x.inputQuery(ctx, q, sa.consume); err != nil {
		return err
	}
	if err := sa.finish(ctx, out); err != nil {
		return err
	}
	return out.finish()
}

// An aggSink takes the groups of one or more aggregators (the one in
// memory, then those of spilled partitions) and applies DISTINCT, ORDER BY
// (a sort that spills itself), OFFSET and LIMIT.
type aggSink struct {
	ctx   context.Context
	p     *planner.Plan
	types []Type
	emit  emitFunc
	cut   *limitCutter
	dd    *deduper
	sort  *externalSort
	held  int64
	mem   *memTracker
	done  bool
	// direct is set when the batches go, unsorted and whole, to the
	// statement's result: a column of sums may then hold them as int64
	// (groupCols.narrowSums).
	direct bool
}

func (x *executor) newAggSink(ctx context.Context, p *planner.Plan, emit emitFunc) *aggSink {
	s := &aggSink{ctx: ctx, p: p, types: projTypes(p), emit: emit, mem: x.mem}
	if p.Distinct {
		s.dd = newDeduper(s.types)
	}
	if len(p.Order) > 0 {
		s.sort = &externalSort{x: x, p: p, types: s.types}
	} else {
		s.cut = newLimitCutter(p.Offset, p.Limit, len(p.Columns))
	}
	s.direct = p == x.root && s.dd == nil && s.sort == nil
	return s
}

// addAggregator finishes ag's groups into rows and passes them on.
func (s *aggSink) addAggregator(ag *aggregator) error {
	if s.done {
		return nil
	}
	return ag.eachBatch(s.types, len(s.types), func(b *batch) (bool, error) {
		if s.dd != nil {
			b = b.take(s.dd.firstRows(b))
			n := distinctKeyOverhead * int64(b.n)
			if err := s.mem.reserve(n); err != nil {
				return true, fmt.Errorf("%w (the keys of DISTINCT)", err)
			}
			s.held += n
		}
		if b.n == 0 {
			return false, nil
		}
		if s.sort != nil {
			return false, s.sort.add(s.ctx, b)
		}
		if b = s.cut.cut(b); b.n > 0 {
			if stop, err := s.emit(b); stop || err != nil {
				s.done = true
				return true, err
			}
		}
		if s.cut.done() {
			s.done = true
			return true, nil
		}
		return false, nil
	})
}

// finish passes on the rows held for ORDER BY.
func (s *aggSink) finish() error {
	if s.sort != nil && !s.done {
		return s.sort.finish(s.ctx, s.emit)
	}
	return nil
}

func (s *aggSink) close() {
	s.mem.release(s.held)
	if s.sort != nil {
		s.sort.close()
	}
}

// spillPartitions is how many files a spilling aggregation splits the
// rows of the groups it cannot hold into, by their keys' hash; each is
// aggregated on its own afterwards, and split again if it still does not
// fit.
const spillPartitions = 16

// maxSpillLevel bounds the splitting: past it (a partition of one huge
// group cannot be split) the aggregation fails with Out of Memory.
const maxSpillLevel = 8

// A spillAgg is a hash aggregation under memory_limit. While its groups
// fit, it is the aggregator. Once they do not, the groups it holds stay
// and take the rows of their keys; the rows of any other key are written,
// raw, to partition files by the key's hash, and aggregated partition by
// partition at the end. A group is thus wholly in memory or wholly in one
// partition, and sees its rows in input order, so every aggregate,
// order-sensitive ones included, gets the answer it gets in memory.
type spillAgg struct {
	x     *executor
	p     *planner.Plan
	level int
	ag    *aggregator
	// held is reserved for ag's groups; groupCost estimates one group.
	held      int64
	groupCost int64
	// accounted is the number of ag's groups held reserves.
	accounted int
	frozen    bool
	parts     [spillPartitions]*spillWriter
	// spilled holds the hash of each key whose rows were spilled: a row
	// group's partial aggregate that arrives after the aggregation froze
	// may add a new group only for a key with no spilled rows.
	spilled map[uint64]struct{}
	// noPartial tells the scan to stop aggregating row groups in its
	// workers once the aggregation freezes.
	noPartial atomic.Bool
	keyBuf    []byte
}

func newSpillAgg(x *executor, p *planner.Plan, level int) *spillAgg {
	sa := &spillAgg{x: x, p: p, level: level, ag: newAggregator(p)}
	if sa.ag.cols != nil {
		sa.ag.cols.workers = x.settings.threads()
		sa.groupCost = sa.ag.cols.groupBytes()
		return sa
	}
	sa.groupCost = int64(unsafe.Sizeof(group{})) + 64 +
		int64(len(p.GroupBy))*int64(unsafe.Sizeof(planner.Datum{})) +
		int64(len(p.Aggs))*int64(unsafe.Sizeof(aggState{})) +
		int64(sa.ag.extras)*int64(unsafe.Sizeof(aggExtra{}))
	return sa
}

// consume takes one message of the scan.
func (sa *spillAgg) consume(m scanMsg) (bool, error) {
	ag := sa.ag
	if m.partial != nil {
		if sa.frozen && !sa.mayMerge(m.partial) {
			return false, fmt.Errorf("%w (a hash aggregate's groups)", sa.x.mem.errAllocate(sa.groupCost*int64(m.partial.numGroups())))
		}
		ag.merge(m.partial)
		if err := sa.account(0); err != nil {
			return false, err
		}
	}
	if m.count > 0 {
		if _, err := ag.consume(scanMsg{count: m.count}); err != nil {
			return false, err
		}
		// The one group of no keys is not reserved.
		sa.accounted = ag.groupsSoFar()
	}
	if b := m.b; b != nil {
		var err error
		taken := false
		if sa.frozen {
			err = sa.route(b)
		} else {
			// Once taken, b may be released before the call returns.
			rows := b.n
			if taken, err = ag.consumeBatchOwned(b, true); err == nil {
				err = sa.account(rows)
			}
		}
		if !taken {
			b.release()
		}
		if err != nil {
			return false, err
		}
	}
	return false, m.err
}

// account reserves the memory of the groups made since the last call, and
// of the values holistic aggregates keep for rows more rows; when the
// limit does not allow it, the aggregation freezes. Groups being made on
// other goroutines (grouppipe.go) are reserved by a later call, or when the
// aggregation freezes.
func (sa *spillAgg) account(rows int) error {
	ag := sa.ag
	before := sa.accounted
	sa.accounted = ag.groupsSoFar()
	n := sa.groupCost * int64(sa.accounted-before)
	for _, g := range ag.groups[min(before, len(ag.groups)):] {
		if !g.compact {
			for _, d := range g.keys {
				n += int64(len(d.S) + len(d.Bytes))
			}
		}
	}
	if ag.extras > 0 {
		// DISTINCT sets, quantiles and string_agg keep values as rows
		// come; a word per row bounds most of them.
		n += 16 * int64(rows)
	}
	if sa.x.mem.tryReserve(n) {
		sa.held += n
		return nil
	}
	if len(sa.p.GroupBy) == 0 && !keepsValues(sa.p) {
		// The one group of no keys, next to the groups of other grouping
		// sets: it cannot spill, and it does not grow.
		sa.x.mem.force(n)
		sa.held += n
		return nil
	}
	if len(sa.p.GroupBy) == 0 || sa.level >= maxSpillLevel {
		return fmt.Errorf("%w (a hash aggregate's groups)", sa.x.mem.errAllocate(n))
	}
	// The groups are here already; they count, and no new one will join.
	if ag.cols != nil {
		now := ag.numGroups()
		n += sa.groupCost * int64(now-sa.accounted)
		sa.accounted = now
	}
	sa.x.mem.force(n)
	sa.held += n
	sa.frozen = true
	sa.noPartial.Store(true)
	sa.spilled = map[uint64]struct{}{}
	return nil
}

// keepsValues reports whether some aggregate of p keeps values as rows
// come (DISTINCT sets, the registry's accumulators), so that a group grows.
func keepsValues(p *planner.Plan) bool {
	for _, a := range p.Aggs {
		if a.Distinct || a.Accumulates() {
			return true
		}
	}
	return false
}

// keyHash hashes a row's group keys, encoded as planner.AppendKey does.
func (sa *spillAgg) keyHash(keys []planner.Datum) uint64 {
	sa.keyBuf = sa.keyBuf[:0]
	for k, d := range keys {
		sa.keyBuf = planner.AppendKey(sa.keyBuf, d, sa.p.GroupBy[k].Type())
	}
	return xxhash.Sum64(sa.keyBuf)
}

// mayMerge reports whether a partial aggregate adds no group whose key
// has spilled rows.
func (sa *spillAgg) mayMerge(o *aggregator) bool {
	var keys []planner.Datum
	for g := range o.numGroups() {
		keys = o.groupKeys(g, keys[:0])
		if sa.find(keys) >= 0 {
			continue
		}
		if _, ok := sa.spilled[sa.keyHash(keys)]; ok {
			return false
		}
	}
	return true
}

// find returns the group of keys in memory, or -1.
func (sa *spillAgg) find(keys []planner.Datum) int32 {
	ag := sa.ag
	if ag.cols != nil {
		return ag.cols.find(keys[0].I, keys[0].Null)
	}
	if ag.kind != keyEncoded {
		return ag.lookup(ag.keyOf(keys[0]))
	}
	ag.keyBuf = ag.keyBuf[:0]
	for k, d := range keys {
		ag.keyBuf = planner.AppendKey(ag.keyBuf, d, ag.p.GroupBy[k].Type())
	}
	if g, ok := ag.byKey[string(ag.keyBuf)]; ok {
		return g
	}
	return -1
}

// route gives the rows of b whose groups are in memory to them, and
// writes the others to their partitions.
func (sa *spillAgg) route(b *batch) error {
	ag := sa.ag
	srcs, err := ag.sources(b)
	if err != nil {
		return err
	}
	nk := len(sa.p.GroupBy)
	var held []int32
	var parts [spillPartitions][]int32
	keys := make([]planner.Datum, nk)
	for i := range b.n {
		for k := range nk {
			keys[k] = srcs[k].datum(i)
		}
		if sa.find(keys) >= 0 {
			held = append(held, int32(i))
			continue
		}
		h := sa.keyHash(keys)
		sa.spilled[h] = struct{}{}
		// Each level splits on other bits of the hash.
		part := (h >> (4 * sa.level)) % spillPartitions
		parts[part] = append(parts[part], int32(i))
	}
	if len(held) > 0 {
		if err := ag.consumeBatch(b.take(held)); err != nil {
			return err
		}
	}
	for part, sel := range parts {
		if len(sel) == 0 {
			continue
		}
		w := sa.parts[part]
		if w == nil {
			if w, err = sa.x.spill.newWriter(); err != nil {
				return err
			}
			sa.parts[part] = w
		}
		if err := w.write(b.take(sel)); err != nil {
			if errors.Is(err, ErrSpillNested) {
				return fmt.Errorf("%w: %w", sa.x.mem.errAllocate(batchBytes(b)), err)
			}
			return err
		}
	}
	return nil
}

// finish passes the groups in memory to out, frees them, then aggregates
// each partition in turn.
func (sa *spillAgg) finish(ctx context.Context, out *aggSink) error {
	if gc := sa.ag.cols; gc != nil {
		// The groups of spilled partitions come as other batches, whose
		// sums may not all fit int64; the result's batches are packed
		// together, so each column keeps one form.
		gc.direct = out.direct && sa.level == 0 && !sa.frozen
		if gc.pipe != nil {
			sa.x.stats.AggregateParts = max(sa.x.stats.AggregateParts, len(gc.parts))
		}
	}
	if err := out.addAggregator(sa.ag); err != nil {
		return err
	}
	sa.ag, sa.spilled = nil, nil
	sa.x.mem.release(sa.held)
	sa.held = 0
	for part, w := range sa.parts {
		if w == nil {
			continue
		}
		sa.parts[part] = nil
		r, err := w.reader()
		if err != nil {
			w.close()
			return err
		}
		err = sa.finishPartition(ctx, r, out)
		r.close()
		if err != nil {
			return err
		}
	}
	return nil
}

// finishPartition aggregates one partition's rows, read back in the order
// they were written.
func (sa *spillAgg) finishPartition(ctx context.Context, r *spillReader, out *aggSink) error {
	sub := newSpillAgg(sa.x, sa.p, sa.level+1)
	defer sub.close()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := r.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if _, err := sub.consume(scanMsg{b: b}); err != nil {
			return err
		}
	}
	return sub.finish(ctx, out)
}

// close frees what an unfinished aggregation holds and deletes its files.
func (sa *spillAgg) close() {
	sa.x.mem.release(sa.held)
	sa.held = 0
	for i, w := range sa.parts {
		if w != nil {
			w.close()
			sa.parts[i] = nil
		}
	}
}
