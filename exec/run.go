package exec

import (
	"context"
	"math"
	"sync"

	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/sql"
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
	// plan, so that another reference with the same plan reuses it.
	sharedMu sync.Mutex
	shared   map[sharedKey][]*batch
	// work holds the rows each recursive CTE's step reads (recursive.go);
	// recursing is set while a step runs, whose plans read other rows
	// each time.
	work      map[*planner.WorkTable][]*batch
	recursing int
	// joinFiltered maps each files scan a join filter reached to the
	// pruning predicate it had before (joinfilter.go).
	joinFiltered sync.Map
}

// A sharedKey is a CTE and the printed plan of one reference to it.
type sharedKey struct {
	cte  *sql.CTE
	plan string
}

// runShared runs the plan of a reference to a CTE, once for all the
// references whose optimized plans print alike: the CTE is materialized
// once unless filters pushed into a reference make its plan its own.
// Volatile expressions read alike in every reference, as in DuckDB's
// materialized CTEs.
func (x *executor) runShared(ctx context.Context, cte *sql.CTE, p *planner.Plan) ([]*batch, error) {
	key := sharedKey{cte, p.Explain()}
	x.sharedMu.Lock()
	bs, ok := x.shared[key]
	x.sharedMu.Unlock()
	if ok {
		return bs, nil
	}
	bs, err := x.run(ctx, p)
	if err != nil {
		return nil, err
	}
	x.sharedMu.Lock()
	if x.shared == nil {
		x.shared = map[sharedKey][]*batch{}
	}
	x.shared[key] = bs
	x.sharedMu.Unlock()
	return bs, nil
}

// input passes the plan's input to consume in order, filtered by the
// WHERE and, for a plan without aggregates, projected: from a subquery's
// result, a set operation, a table function, or a parallel scan of the
// files.
func (x *executor) input(ctx context.Context, p *planner.Plan, consume consumeFunc) error {
	return x.inputQuery(ctx, newScanQuery(p, x.settings), consume)
}

// inputQuery is input for a prepared scan query.
func (x *executor) inputQuery(ctx context.Context, q *scanQuery, consume consumeFunc) error {
	p := q.p
	sub := p.Scan.Subquery
	if sub == nil && !virtualSource(p.Scan) {
		return x.scanFiles(ctx, q, consume)
	}
	var batches []*batch
	if sub == nil {
		// A set operation or a table function (setop.go).
		var err error
		if batches, err = x.virtualBatches(ctx, p.Scan); err != nil {
			return err
		}
	} else if sub.Single {
		batches = []*batch{{n: 1}}
	} else if p.Scan.CTE != nil && !x.planOnly && x.recursing == 0 {
		var err error
		if batches, err = x.runShared(ctx, p.Scan.CTE, sub); err != nil {
			return err
		}
	} else {
		var err error
		if batches, err = x.run(ctx, sub); err != nil {
			return err
		}
	}
	for _, b := range batches {
		if err := ctx.Err(); err != nil {
			return err
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
					return cerr
				}
			}
			if perr != nil {
				return perr
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// run executes a plan and returns its result in batches of the visible
// columns.
func (x *executor) run(ctx context.Context, p *planner.Plan) ([]*batch, error) {
	if p.HasPercent {
		return x.runLimitPercent(ctx, p) // limit_percent.go
	}
	if len(p.Windows) > 0 {
		return x.runWindows(ctx, p) // window.go
	}
	if p.Aggregate {
		ag, ok, err := x.metaAggregate(p)
		if err != nil {
			return nil, err
		}
		if !ok {
			ag = newAggregator(p)
			if err := x.input(ctx, p, ag.consume); err != nil {
				return nil, err
			}
		}
		if !p.Distinct && len(p.Order) == 0 && p.Offset == 0 && p.Limit < 0 {
			return ag.batches(projTypes(p), len(p.Columns))
		}
		rows, err := ag.rows()
		if err != nil {
			return nil, err
		}
		return x.finishRows(ctx, p, rows)
	}
	want := rowsWanted(p)
	switch {
	case len(p.Order) > 0 && p.Limit >= 0 && !p.Distinct:
		// A sorted limit keeps only the best rows, in a heap.
		top := newTopK(p.Order, projTypes(p), int(want))
		q := newScanQuery(p, x.settings)
		if q.topk != nil {
			top.bound = &q.topk.bound
		}
		err := x.inputQuery(ctx, q, func(m scanMsg) (bool, error) {
			if m.b != nil {
				top.addBatch(m.b, m.file, m.rowGroup)
			}
			return false, m.err
		})
		if err != nil {
			return nil, err
		}
		return x.finishRows(ctx, p, top.sorted())
	case len(p.Order) > 0 || p.Distinct:
		var bs []*batch
		var dd *deduper
		if p.Distinct {
			dd = newDeduper(projTypes(p))
		}
		err := x.input(ctx, p, func(m scanMsg) (bool, error) {
			if b := m.b; b != nil && b.n > 0 {
				if dd != nil {
					// Only the first row of each distinct key is kept, as
					// the batches arrive.
					b = b.take(dd.firstRows(b))
				}
				if b.n > 0 {
					bs = append(bs, b)
				}
			}
			return false, m.err
		})
		if err != nil {
			return nil, err
		}
		return finishBatches(ctx, p, bs)
	}
	// Streaming: batches pass through, and a LIMIT stops the scan as soon
	// as LIMIT + OFFSET rows are in.
	var out []*batch
	total := int64(0)
	err := x.input(ctx, p, func(m scanMsg) (bool, error) {
		if b := m.b; b != nil {
			if p.Limit >= 0 && total+int64(b.n) >= want {
				b = b.head(int(want - total))
				out = append(out, b)
				total += int64(b.n)
				return true, nil
			}
			out = append(out, b)
			total += int64(b.n)
		}
		return false, m.err
	})
	if err != nil {
		return nil, err
	}
	return limitBatches(out, p.Offset, p.Limit, len(p.Columns)), nil
}

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

// limitBatches drops offset rows, keeps at most limit (all when negative)
// and the first n columns.
func limitBatches(bs []*batch, offset, limit int64, n int) []*batch {
	var out []*batch
	for _, b := range bs {
		if offset >= int64(b.n) {
			offset -= int64(b.n)
			continue
		}
		if offset > 0 {
			sel := make([]int32, 0, b.n-int(offset))
			for i := int(offset); i < b.n; i++ {
				sel = append(sel, int32(i))
			}
			b = b.take(sel)
			offset = 0
		}
		if limit >= 0 {
			if limit == 0 {
				break
			}
			b = b.head(int(min(limit, int64(b.n))))
			limit -= int64(b.n)
		}
		out = append(out, &batch{cols: b.cols[:min(n, len(b.cols))], n: b.n})
	}
	return out
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
