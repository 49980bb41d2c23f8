package exec

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/storage"
)

// An executor runs one statement's plans and gathers their statistics.
type executor struct {
	settings Settings
	stats    runStats
	// store opens the files and ctx bounds their requests; nil: the
	// default store and no deadline.
	store *storage.Store
	ctx   context.Context
	// warmed holds remote files opened ahead of the scan, with their
	// plan's data prefetched (see warmRemote); the dispatcher alone
	// reads and writes it.
	warmed map[string]*storage.Object
	// planOnly says files are planned, never scanned (EXPLAIN): no data
	// is prefetched.
	planOnly bool
	// shared holds the result of each CTE reference run, by CTE and
	// plan, so that another reference with the same plan reuses it;
	// rerun marks those too large to hold, run again by each reference,
	// and cteRefs counts the references of the statement's plan (cte.go).
	sharedMu sync.Mutex
	shared   map[sharedKey][]*batch
	rerun    map[sharedKey]bool
	cteRefs  map[sharedKey]int
	// work holds the rows each recursive CTE's step reads (recursive.go);
	// recursing is set while a step runs, whose plans read other rows
	// each time.
	work      map[*planner.WorkTable][]*batch
	recursing int
	// mem counts the statement's memory against memory_limit; spill is
	// where its sorts and aggregations write what does not fit.
	mem   *memTracker
	spill *spillSpace
	// joinFiltered maps each files scan a join filter reached to the
	// pruning predicate it had before (joinfilter.go).
	joinFiltered sync.Map
	// keepMeters keeps every opened file's meter in stats.Meters, for
	// EXPLAIN's report; a query keeps none, so a glob's footers are freed
	// file by file.
	keepMeters bool
	// root is the plan whose rows are the statement's result (startStream).
	root *planner.Plan
}

// newExecutor returns an executor for one statement of a session with
// these settings; close removes its temporary files.
func newExecutor(ctx context.Context, settings Settings, store *storage.Store) *executor {
	return &executor{settings: settings, store: store, ctx: ctx,
		mem: newMemTracker(settings.MemoryLimit), spill: newSpillSpace(settings.TempDirectory)}
}

// close deletes the statement's temporary files.
func (x *executor) close() error { return x.spill.remove() }

// input passes the plan's input to consume in order, filtered by the
// WHERE and, for a plan without aggregates, projected: from a subquery's
// result, a set operation, a table function, or a parallel scan of the
// files.
func (x *executor) input(ctx context.Context, p *planner.Plan, consume consumeFunc) error {
	return x.inputQuery(ctx, newScanQuery(p, x.settings), consume)
}

// inputQuery is input for a prepared scan query. A subquery's rows, a set
// operation's and a join's stream through as they are made; a CTE read
// more than once and table functions produce theirs first.
func (x *executor) inputQuery(ctx context.Context, q *scanQuery, consume consumeFunc) error {
	p := q.p
	sub := p.Scan.Subquery
	if sub == nil && !virtualSource(p.Scan) {
		return x.scanFiles(ctx, q, consume)
	}
	pass := func(b *batch) (bool, error) {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		var err error
		if q.where != nil {
			var sel []int32
			sel, err = q.where.apply(b)
			b = b.take(sel)
		}
		if b.n > 0 {
			out, perr := q.project(b)
			if out.n > 0 {
				if stop, cerr := consume(scanMsg{b: out}); stop || cerr != nil {
					return true, cerr
				}
			}
			if perr != nil {
				return true, perr
			}
		}
		if err != nil {
			return true, err
		}
		return false, nil
	}
	if op := p.Scan.SetOp; sub == nil && op != nil {
		return x.streamSetOp(ctx, op, pass)
	}
	if sub != nil && !sub.Single {
		if p.Scan.CTE == nil || x.planOnly || x.recursing > 0 {
			return x.stream(ctx, sub, pass)
		}
		return x.readCTE(ctx, p.Scan.CTE, sub, pass)
	}
	if sub == nil && p.Scan.Join != nil {
		return x.streamJoin(ctx, p.Scan.Join, joinReads(p), pass)
	}
	var batches []*batch
	if sub == nil {
		// A table function or a recursive CTE (setop.go).
		var err error
		if batches, err = x.virtualBatches(ctx, p.Scan); err != nil {
			return err
		}
	} else {
		batches = []*batch{{n: 1}}
	}
	for _, b := range batches {
		if stop, err := pass(b); stop || err != nil {
			return err
		}
	}
	return nil
}

// An emitFunc takes the batches of a result as they are made; it returns
// true to stop the plan early.
type emitFunc func(b *batch) (stop bool, err error)

// run executes a plan and returns its result in batches of the visible
// columns. The batches are a result buffer held for the statement, so they
// count against memory_limit.
func (x *executor) run(ctx context.Context, p *planner.Plan) ([]*batch, error) {
	var out []*batch
	err := x.stream(ctx, p, func(b *batch) (bool, error) {
		if err := x.mem.reserve(batchBytes(b)); err != nil {
			return false, err
		}
		out = append(out, b)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// stream executes a plan and hands its result, in batches of the visible
// columns, to emit as they are made. A plan without a blocking operator
// (filter, projection, LIMIT) passes the scan's batches on as they arrive;
// a sort spills sorted runs past memory_limit and merges them (spillsort.go),
// an aggregation spills the rows of the groups it cannot hold (spillagg.go).
func (x *executor) stream(ctx context.Context, p *planner.Plan, emit emitFunc) error {
	switch {
	case p.Sample != nil:
		return emitAll(x.runSample(ctx, p))(emit) // sample.go
	case p.HasPercent:
		return emitAll(x.runLimitPercent(ctx, p))(emit) // limit_percent.go
	case len(p.Windows) > 0:
		return emitAll(x.runWindows(ctx, p))(emit) // window.go
	case p.Aggregate:
		return x.aggregate(ctx, p, emit)
	}
	want := rowsWanted(p)
	switch {
	case len(p.Order) > 0 && p.Limit >= 0 && !p.Distinct:
		// A sorted limit keeps only the best rows, in a heap.
		top := newTopK(p.Order, projTypes(p), int(want))
		q := newScanQuery(p, x.settings)
		if q.topk != nil {
			top.bound = &q.topk.bound
			if l := q.topk.late; l != nil {
				l.final = func() []seqRow { return top.output(p.Offset) }
			}
		}
		err := x.inputQuery(ctx, q, func(m scanMsg) (bool, error) {
			if m.b != nil {
				var runs []rowRange
				if m.runs != nil {
					runs = *m.runs
				}
				top.addBatch(m.b, m.file, m.rowGroup, runs)
			}
			return false, m.err
		})
		if err != nil {
			return err
		}
		return emitAll(x.finishRows(ctx, p, top.sorted()))(emit)
	case len(p.Order) > 0:
		return x.sortSpilling(ctx, p, emit) // spillsort.go
	}
	// Streaming: batches pass through as they arrive, DISTINCT keeping the
	// first row of each key, and a LIMIT stops the scan as soon as LIMIT +
	// OFFSET rows are in.
	var dd *deduper
	var ddHeld int64
	if p.Distinct {
		dd = newDeduper(projTypes(p))
		defer func() { x.mem.release(ddHeld) }()
	}
	cut := newLimitCutter(p.Offset, p.Limit, len(p.Columns))
	return x.input(ctx, p, func(m scanMsg) (bool, error) {
		if b := m.b; b != nil && b.n > 0 {
			if dd != nil {
				b = b.take(dd.firstRows(b))
				// The deduper keeps each new row's key.
				n := batchBytes(b) + distinctKeyOverhead*int64(b.n)
				if err := x.mem.reserve(n); err != nil {
					return false, fmt.Errorf("%w (the keys of DISTINCT)", err)
				}
				ddHeld += n
			}
			if b = cut.cut(b); b.n > 0 {
				if stop, err := emit(b); stop || err != nil {
					return true, err
				}
			}
			if cut.done() {
				return true, nil
			}
		}
		return false, m.err
	})
}

// distinctKeyOverhead is what a DISTINCT key costs besides its bytes: the
// map entry and the string header.
const distinctKeyOverhead = 48

// emitAll hands batches made at once to emit, in order.
func emitAll(bs []*batch, err error) func(emit emitFunc) error {
	return func(emit emitFunc) error {
		if err != nil {
			return err
		}
		for _, b := range bs {
			if stop, err := emit(b); stop || err != nil {
				return err
			}
		}
		return nil
	}
}

// A limitCutter applies OFFSET and LIMIT to batches as they pass, and
// keeps the first n (visible) columns.
type limitCutter struct {
	offset, limit int64
	n             int
}

func newLimitCutter(offset, limit int64, n int) *limitCutter {
	return &limitCutter{offset: offset, limit: limit, n: n}
}

// cut returns the rows of b the OFFSET and LIMIT keep.
func (c *limitCutter) cut(b *batch) *batch {
	if c.offset >= int64(b.n) {
		c.offset -= int64(b.n)
		return &batch{}
	}
	if c.offset > 0 {
		sel := make([]int32, 0, b.n-int(c.offset))
		for i := int(c.offset); i < b.n; i++ {
			sel = append(sel, int32(i))
		}
		b = b.take(sel)
		c.offset = 0
	}
	if c.limit >= 0 {
		b = b.head(int(min(c.limit, int64(b.n))))
		c.limit -= int64(b.n)
	}
	return &batch{cols: b.cols[:min(c.n, len(b.cols))], n: b.n, pooled: b.pooled}
}

// done reports whether the LIMIT has all its rows.
func (c *limitCutter) done() bool { return c.limit == 0 }

// rowsWanted is LIMIT + OFFSET, the rows a limited plan must produce,
// saturated at the largest int64: LIMIT and OFFSET may each be as large.
func rowsWanted(p *planner.Plan) int64 {
	if p.Limit > math.MaxInt64-p.Offset {
		return math.MaxInt64
	}
	return p.Limit + p.Offset
}

// finishRows applies DISTINCT, ORDER BY, OFFSET and LIMIT to projected rows
// and packs the visible columns into batches.
func (x *executor) finishRows(ctx context.Context, p *planner.Plan, rows [][]planner.Datum) ([]*batch, error) {
	types := projTypes(p)
	if p.Distinct {
		seen := map[string]bool{}
		var key []byte
		kept := rows[:0]
		for i, r := range rows {
			if i%cancelCheckRows == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			key = key[:0]
			for i, d := range r {
				key = planner.AppendKey(key, d, types[i])
			}
			if !seen[string(key)] {
				seen[string(key)] = true
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if len(p.Order) > 0 {
		less := rowLess(p.Order, types)
		if err := sortStable(ctx, rows, less); err != nil {
			return nil, err
		}
	}
	if p.Offset > 0 {
		rows = rows[min(int(p.Offset), len(rows)):]
	}
	if p.Limit >= 0 && int64(len(rows)) > p.Limit {
		rows = rows[:p.Limit]
	}
	n := len(p.Columns)
	var out []*batch
	for start := 0; start < len(rows); start += BatchSize {
		b := batchOfRows(rows[start:min(start+BatchSize, len(rows))], types[:n])
		out = append(out, b)
	}
	return out, nil
}

func projTypes(p *planner.Plan) []Type {
	ts := make([]Type, len(p.Project))
	for i, e := range p.Project {
		ts[i] = e.Type()
	}
	return ts
}

// rowLess orders rows by sort keys; NULLs go first or last as each key says.
func rowLess(keys []planner.SortKey, types []Type) func(a, b []planner.Datum) bool {
	return func(a, b []planner.Datum) bool {
		for _, k := range keys {
			x, y := a[k.Index], b[k.Index]
			var c int
			switch {
			case x.Null && y.Null:
				c = 0
			case x.Null:
				c = 1
				if k.NullsFirst {
					c = -1
				}
			case y.Null:
				c = -1
				if k.NullsFirst {
					c = 1
				}
			default:
				c = planner.Compare(x, y, types[k.Index])
				if k.Desc {
					c = -c
				}
			}
			if c != 0 {
				return c < 0
			}
		}
		return false
	}
}

// limitBatches drops offset rows, keeps at most limit (all when negative)
// and the first n columns.
func limitBatches(bs []*batch, offset, limit int64, n int) []*batch {
	c := newLimitCutter(offset, limit, n)
	var out []*batch
	for _, b := range bs {
		if c.done() {
			break
		}
		if b = c.cut(b); b.n > 0 {
			out = append(out, b)
		}
	}
	return out
}
