package exec

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/pqsql/pqsql/planner"
)

// sortSpilling runs an ORDER BY without a LIMIT heap: rows are held in a
// run as memory_limit allows; a run that cannot grow is sorted and written
// to a temporary file, and the runs are merged at the end, ties in input
// order, so the answer is the one an in-memory sort gives. DISTINCT keeps
// the first row of each key as the rows arrive, its keys held in memory.
func (x *executor) sortSpilling(ctx context.Context, p *planner.Plan, emit emitFunc) error {
	es := &externalSort{x: x, p: p, types: projTypes(p)}
	defer es.close()
	var dd *deduper
	if p.Distinct {
		dd = newDeduper(es.types)
	}
	err := x.input(ctx, p, func(m scanMsg) (bool, error) {
		if b := m.b; b != nil && b.n > 0 {
			if dd != nil {
				b = b.take(dd.firstRows(b))
				n := distinctKeyOverhead * int64(b.n)
				if err := x.mem.reserve(n); err != nil {
					return false, fmt.Errorf("%w (the keys of DISTINCT)", err)
				}
				es.held += n
			}
			if b.n > 0 {
				if err := es.add(ctx, b); err != nil {
					return false, err
				}
			}
		}
		return false, m.err
	})
	if err != nil {
		return err
	}
	return es.finish(ctx, emit)
}

// An externalSort sorts batches in runs no larger than memory_limit
// allows, spilled to temporary files when there is more than one.
type externalSort struct {
	x     *executor
	p     *planner.Plan
	types []Type
	run   []*batch
	// runBytes is reserved for run; held for other state (DISTINCT's keys).
	runBytes, held int64
	spilled        []*spillReader
}

// add holds b in the current run, first spilling the run when the limit
// leaves no room for b.
func (es *externalSort) add(ctx context.Context, b *batch) error {
	n := batchBytes(b)
	if !es.x.mem.tryReserve(n) {
		if len(es.run) > 0 {
			if err := es.spillRun(ctx); err != nil {
				return err
			}
		}
		if !es.x.mem.tryReserve(n) {
			// Not even one batch fits: it becomes a run of its own.
			es.run = append(es.run, b)
			return es.spillRun(ctx)
		}
	}
	es.runBytes += n
	es.run = append(es.run, b)
	return nil
}

// sortRun sorts the current run and returns it as one batch and its
// row order.
func (es *externalSort) sortRun(ctx context.Context) (*batch, []int32, error) {
	all := concatBatches(es.run)
	perm := make([]int32, all.n)
	for i := range perm {
		perm[i] = int32(i)
	}
	if len(perm) > 1 {
		if err := sortRows(ctx, perm, es.p.Order, all.cols, es.types); err != nil {
			return nil, nil, err
		}
	}
	return all, perm, nil
}

// spillRun sorts the current run, writes it to a temporary file and frees
// its memory.
func (es *externalSort) spillRun(ctx context.Context) error {
	all, perm, err := es.sortRun(ctx)
	if err != nil {
		return err
	}
	w, err := es.x.spill.newWriter()
	if err != nil {
		return err
	}
	for start := 0; start < len(perm); start += BatchSize {
		if err := w.write(gather(all, perm[start:min(start+BatchSize, len(perm))])); err != nil {
			w.close()
			if err == ErrSpillNested {
				return fmt.Errorf("%w: %w", es.x.mem.errAllocate(batchBytes(all)), err)
			}
			return err
		}
	}
	r, err := w.reader()
	if err != nil {
		w.close()
		return err
	}
	es.spilled = append(es.spilled, r)
	es.run = nil
	es.x.mem.release(es.runBytes)
	es.runBytes = 0
	return nil
}

// finish emits the sorted rows: the run sorted in memory when nothing was
// spilled, else the merge of the spilled runs and the last one.
func (es *externalSort) finish(ctx context.Context, emit emitFunc) error {
	p := es.p
	cut := newLimitCutter(p.Offset, p.Limit, len(p.Columns))
	pass := func(b *batch) (bool, error) {
		if b = cut.cut(b); b.n > 0 {
			if stop, err := emit(b); stop || err != nil {
				return true, err
			}
		}
		return cut.done(), nil
	}
	if len(es.spilled) == 0 {
		all, perm, err := es.sortRun(ctx)
		if err != nil {
			return err
		}
		for start := 0; start < len(perm); start += BatchSize {
			if stop, err := pass(gather(all, perm[start:min(start+BatchSize, len(perm))])); stop || err != nil {
				return err
			}
		}
		return nil
	}
	if len(es.run) > 0 {
		if err := es.spillRun(ctx); err != nil {
			return err
		}
	}
	return es.merge(ctx, pass)
}

// A mergeRun is one spilled run being merged: its current batch and row.
type mergeRun struct {
	r   *spillReader
	b   *batch
	i   int
	seq int
}

// A runHeap orders the runs by their current rows, ties by run: the runs
// were cut from the input in order, so the merge is stable.
type runHeap struct {
	runs []*mergeRun
	less func(a, b *mergeRun) bool
}

func (h *runHeap) Len() int           { return len(h.runs) }
func (h *runHeap) Less(i, j int) bool { return h.less(h.runs[i], h.runs[j]) }
func (h *runHeap) Swap(i, j int)      { h.runs[i], h.runs[j] = h.runs[j], h.runs[i] }
func (h *runHeap) Push(x any)         { h.runs = append(h.runs, x.(*mergeRun)) }
func (h *runHeap) Pop() any {
	r := h.runs[len(h.runs)-1]
	h.runs = h.runs[:len(h.runs)-1]
	return r
}

// merge reads the spilled runs back a batch at a time each and passes
// their rows on in order.
func (es *externalSort) merge(ctx context.Context, pass emitFunc) error {
	rc := newCrossCmp(es.p.Order, es.types)
	h := &runHeap{less: func(a, b *mergeRun) bool {
		if c := rc.compare(a.b, a.i, b.b, b.i); c != 0 {
			return c < 0
		}
		return a.seq < b.seq
	}}
	for seq, r := range es.spilled {
		b, err := r.read()
		if err == io.EOF {
			continue
		}
		if err != nil {
			return err
		}
		h.runs = append(h.runs, &mergeRun{r: r, b: b, seq: seq})
	}
	heap.Init(h)
	var out *batch
	flush := func() (bool, error) {
		if out == nil || out.n == 0 {
			return false, nil
		}
		b := out
		out = nil
		return pass(b)
	}
	rows := 0
	for h.Len() > 0 {
		if rows++; rows%cancelCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		top := h.runs[0]
		if out == nil {
			out = &batch{cols: make([]*Vector, len(top.b.cols))}
			for c, v := range top.b.cols {
				if v != nil {
					out.cols[c] = newVector(v.Type, BatchSize)
				}
			}
		}
		for c, v := range top.b.cols {
			if v != nil && out.cols[c] != nil {
				out.cols[c].appendRow(v, top.i)
			}
		}
		out.n++
		if out.n == BatchSize {
			if stop, err := flush(); stop || err != nil {
				return err
			}
		}
		if top.i++; top.i < top.b.n {
			heap.Fix(h, 0)
			continue
		}
		b, err := top.r.read()
		switch {
		case err == io.EOF:
			heap.Pop(h)
		case err != nil:
			return err
		default:
			top.b, top.i = b, 0
			heap.Fix(h, 0)
		}
	}
	_, err := flush()
	return err
}

// close frees the run's memory and deletes the spilled runs' files.
func (es *externalSort) close() {
	es.x.mem.release(es.runBytes + es.held)
	for _, r := range es.spilled {
		r.close()
	}
}

// A crossCmp orders rows of two batches of one layout by the sort keys,
// as rowLess orders datum rows.
type crossCmp struct {
	keys  []planner.SortKey
	types []Type
}

func newCrossCmp(keys []planner.SortKey, types []Type) crossCmp {
	return crossCmp{keys: keys, types: types}
}

// compare is negative when row i of a sorts before row j of b.
func (rc crossCmp) compare(a *batch, i int, b *batch, j int) int {
	for _, k := range rc.keys {
		x, y := a.cols[k.Index], b.cols[k.Index]
		xn, yn := x.IsNull(i), y.IsNull(j)
		var c int
		switch {
		case xn && yn:
			c = 0
		case xn:
			c = 1
			if k.NullsFirst {
				c = -1
			}
		case yn:
			c = -1
			if k.NullsFirst {
				c = 1
			}
		default:
			c = crossValueCmp(x, i, y, j, rc.types[k.Index])
			if k.Desc {
				c = -c
			}
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// crossValueCmp orders two non-NULL values as planner.Compare does.
func crossValueCmp(x *Vector, i int, y *Vector, j int, t Type) int {
	switch kind := cmpKindOf(t); {
	case kind == cmpInt && x.Int != nil && y.Int != nil:
		return cmp.Compare(x.Int[i], y.Int[j])
	case kind == cmpUint && x.Int != nil && y.Int != nil:
		return cmp.Compare(uint64(x.Int[i]), uint64(y.Int[j]))
	case kind == cmpFloat && x.Float != nil && y.Float != nil:
		return planner.CompareFloat(x.Float[i], y.Float[j])
	case kind == cmpString && x.Str != nil && y.Str != nil:
		return strings.Compare(x.Str[i], y.Str[j])
	}
	return planner.Compare(datumAt(x, i), datumAt(y, j), t)
}

// gather returns the rows sel of b in sel's order (take keeps b itself
// when sel selects every row, in whatever order).
func gather(b *batch, sel []int32) *batch {
	out := &batch{cols: make([]*Vector, len(b.cols)), n: len(sel)}
	for c, v := range b.cols {
		if v != nil {
			out.cols[c] = v.take(sel)
		}
	}
	return out
}
