package exec

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/optimizer"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/storage"
)

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// catalog resolves views for the planner; names ignore case, as in DuckDB.
type catalog struct {
	s   *Session
	ctx context.Context
}

// Storage gives the planner the session's storage and the statement's
// context.
func (c catalog) Storage() (*storage.Store, context.Context) { return c.s.store, c.ctx }

func (c catalog) View(name string) (string, bool) {
	t, ok := c.s.views[strings.ToLower(name)]
	return t, ok
}

func (s *Session) execute(ctx context.Context, text string) (*Result, error) {
	// The statement's remote requests, for EXPLAIN ANALYZE.
	ctx = storage.WithLedger(ctx, &storage.Ledger{})
	st, err := planner.Parse(text)
	if err != nil {
		return nil, err
	}
	switch st := st.(type) {
	case *planner.Select:
		x := newExecutor(ctx, s.Settings, s.store)
		p, err := s.plan(ctx, st, x)
		if err != nil {
			x.close()
			return nil, err
		}
		res := &Result{}
		for _, c := range p.Columns {
			res.Columns = append(res.Columns, c.Name)
			res.Types = append(res.Types, c.Type)
		}
		res.stream = startStream(ctx, x, p, s.guard(text))
		return res, nil
	case *planner.Explain:
		return s.explain(ctx, st)
	case *planner.Describe:
		return s.describe(st)
	case *planner.Summarize:
		return s.summarize(ctx, st)
	case *planner.CreateView:
		key := strings.ToLower(st.Name)
		if _, ok := s.views[key]; ok && !st.OrReplace {
			if st.IfNotExists {
				return &Result{}, nil
			}
			return nil, fmt.Errorf("%w: View with name \"%s\" already exists!", ErrCatalog, st.Name)
		}
		if _, err := planner.Build(st.Query, catalog{s, ctx}); err != nil {
			return nil, err
		}
		s.views[key] = st.Text
		return &Result{}, nil
	case *planner.DropView:
		key := strings.ToLower(st.Name)
		if _, ok := s.views[key]; !ok {
			if st.IfExists {
				return &Result{}, nil
			}
			return nil, fmt.Errorf("%w: View with name %s does not exist!", ErrCatalog, st.Name)
		}
		delete(s.views, key)
		return &Result{}, nil
	case *planner.Set:
		return s.set(st)
	case *planner.Reset:
		return s.reset(st)
	case *planner.CreateSecret:
		return s.createSecret(st)
	case *planner.DropSecret:
		return &Result{}, s.store.DropSecret(st.Name, st.IfExists)
	}
	return nil, fmt.Errorf("%w: statement %T", ErrNotImplemented, st)
}

// plan builds the plan of a query and, unless SET optimizer = false,
// optimizes it. With an executor it first runs the query's subquery
// expressions with it and puts their results in the plan; without one
// (EXPLAIN, which reads no data) they stay unrun.
func (s *Session) plan(ctx context.Context, q *planner.Select, x *executor) (*planner.Plan, error) {
	p, err := planner.Build(q, catalog{s, ctx})
	if err != nil {
		return nil, err
	}
	return s.prepare(ctx, p, x)
}

// prepare materializes p's subquery expressions (when x is set) and
// optimizes p.
func (s *Session) prepare(ctx context.Context, p *planner.Plan, x *executor) (*planner.Plan, error) {
	if x != nil {
		run := func(sp *planner.Plan) ([][]planner.Datum, error) {
			sp, err := s.prepare(ctx, sp, x)
			if err != nil {
				return nil, err
			}
			batches, err := x.run(ctx, sp)
			if err != nil {
				return nil, err
			}
			var rows [][]planner.Datum
			for _, b := range batches {
				rows = append(rows, rowsOf(b)...)
			}
			return rows, nil
		}
		// A correlated subquery runs while the query runs, from its
		// workers: each run has an executor of its own, sharing the
		// statement's memory budget and spill space.
		each := func(sp *planner.Plan) ([][]planner.Datum, error) {
			// A run may be too short to meet a check of its own.
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			cx := &executor{settings: x.settings, store: x.store, ctx: x.ctx, mem: x.mem, spill: x.spill}
			sp, err := s.prepare(ctx, sp, cx)
			if err != nil {
				return nil, err
			}
			batches, err := cx.run(ctx, sp)
			if err != nil {
				return nil, err
			}
			var rows [][]planner.Datum
			for _, b := range batches {
				rows = append(rows, rowsOf(b)...)
				x.mem.release(batchBytes(b))
			}
			return rows, nil
		}
		var err error
		if p, err = optimizer.Materialize(p, run, each); err != nil {
			return nil, err
		}
	}
	if !s.Settings.Optimizer {
		return p, nil
	}
	return optimizer.Optimize(p), nil
}

// result runs a plan and hands its batches over as the result's; the
// result is the caller's, not counted against memory_limit.
func (x *executor) result(ctx context.Context, p *planner.Plan) (*Result, error) {
	x.countCTERefs(p)
	var batches []*batch
	err := x.stream(ctx, p, func(b *batch) (bool, error) {
		batches = append(batches, b)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for _, c := range p.Columns {
		res.Columns = append(res.Columns, c.Name)
		res.Types = append(res.Types, c.Type)
	}
	for _, b := range packBatches(batches) {
		res.Batches = append(res.Batches, &Batch{Vectors: b.cols[:len(p.Columns)], Len: b.n})
		x.stats.RowsReturned += int64(b.n)
	}
	return res, nil
}

func (s *Session) set(st *planner.Set) (*Result, error) {
	boolValue := func() (bool, error) {
		switch strings.ToLower(st.Value) {
		case "true", "1", "on":
			return true, nil
		case "false", "0", "off":
			return false, nil
		}
		return false, fmt.Errorf("%w: SET %s expects true or false, found %s", ErrBadSetting, st.Name, st.Value)
	}
	var target *bool
	switch st.Name {
	case "statistics":
		target = &s.Settings.Statistics
	case "page_index":
		target = &s.Settings.PageIndex
	case "bloom_filter", "bloom_filters", "bloom":
		target = &s.Settings.Bloom
	case "dictionary":
		target = &s.Settings.Dictionary
	case "optimizer":
		target = &s.Settings.Optimizer
	case "join_filters", "join_filter":
		target = &s.Settings.JoinFilters
	case "memory_limit", "max_memory":
		n, err := parseMemory(st.Value)
		if err != nil {
			return nil, err
		}
		s.Settings.MemoryLimit = n
		return &Result{}, nil
	case "temp_directory":
		s.Settings.TempDirectory = st.Value
		return &Result{}, nil
	case "threads", "worker_threads":
		n, err := strconv.Atoi(st.Value)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%w: SET threads expects a non-negative integer, found %s", ErrBadSetting, st.Value)
		}
		s.Settings.Threads = n
		return &Result{}, nil
	default:
		if ok, err := s.store.Set(st.Name, st.Value); ok {
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrBadSetting, err)
			}
			return &Result{}, nil
		}
		return nil, fmt.Errorf("%w \"%s\"", ErrUnknownSetting, st.Name)
	}
	v, err := boolValue()
	if err != nil {
		return nil, err
	}
	*target = v
	return &Result{}, nil
}

// memoryUnits are the units SET memory_limit takes, as DuckDB's: KB, MB, GB
// and TB are powers of 1000, KiB, MiB, GiB and TiB of 1024.
var memoryUnits = map[string]int64{
	"": 1, "b": 1, "byte": 1, "bytes": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

// parseMemory reads a memory size such as '512MB' or '4 GiB'.
func parseMemory(v string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(v))
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	f, err := strconv.ParseFloat(t[:i], 64)
	unit, ok := memoryUnits[strings.TrimSpace(t[i:])]
	if err != nil || !ok || f < 0 {
		return 0, fmt.Errorf("%w: SET memory_limit expects a size such as '4GB' or '512MiB', found %s", ErrBadSetting, v)
	}
	return int64(f * float64(unit)), nil
}

// describe lists a source's or a query's columns as DuckDB's DESCRIBE does.
func (s *Session) describe(st *planner.Describe) (*Result, error) {
	q := st.Query
	if q == nil {
		parsed, err := planner.Parse("SELECT * FROM " + st.Source.Text)
		if err != nil {
			return nil, err
		}
		var ok bool
		if q, ok = parsed.(*planner.Select); !ok {
			return nil, fmt.Errorf("%w: DESCRIBE of %s", ErrNotImplemented, st.Source.Text)
		}
	}
	p, err := planner.Build(q, catalog{s: s})
	if err != nil {
		return nil, err
	}
	varchar := Type{ID: TypeVarchar}
	res := &Result{Columns: []string{"column_name", "column_type", "null", "key", "default", "extra"},
		Types: []Type{varchar, varchar, varchar, varchar, varchar, varchar}}
	b := &Batch{Len: len(p.Columns)}
	for i := range res.Columns {
		v := newResultVector(varchar, len(p.Columns))
		for _, c := range p.Columns {
			switch i {
			case 0:
				v.appendDatum(planner.Datum{S: c.Name})
			case 1:
				v.appendDatum(planner.Datum{S: c.Type.String()})
			case 2:
				v.appendDatum(planner.Datum{S: "YES"})
			default:
				v.appendDatum(planner.NullDatum)
			}
		}
		b.Vectors = append(b.Vectors, v)
	}
	res.Batches = []*Batch{b}
	return res, nil
}
