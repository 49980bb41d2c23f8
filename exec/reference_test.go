package exec

// The executor as it was before batches: rows one at a time, sequential.
// Tests hold the columnar executor against it.

import (
	"context"
	"fmt"
	"math/big"
	"sort"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

type refExecutor struct {
	settings Settings
	stats    refStats
}

type refStats struct {
	Files, RowGroups, RowGroupsSkipped int
	RowsDecoded, RowsReturned          int64
	IO                                 format.IOStats
	Plans                              []*pushdown.FilePlan
}

type refEmit func(row []planner.Datum) (stop bool, err error)

type refAggState struct {
	n      int64
	isum   *big.Int
	fsum   float64
	best   planner.Datum
	has    bool
	distin map[string]bool
}

type refGroup struct {
	keys []planner.Datum
	aggs []refAggState
}

func refPow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// scanFiles reads the plan's files row group by row group, following each
// file's pushdown plan and nothing else, and emits the kept rows.
func (x *refExecutor) refScanFiles(ctx context.Context, p *planner.Plan, emit refEmit) error {
	scan := p.Scan
	width := len(p.Input)
	for _, path := range scan.Files {
		stop, err := x.refScanFile(ctx, p, path, width, emit)
		if err != nil || stop {
			return err
		}
	}
	return nil
}

func (x *refExecutor) refScanFile(ctx context.Context, p *planner.Plan, path string, width int, emit refEmit) (bool, error) {
	scan := p.Scan
	f, cs, closer, err := (&executor{}).openCounted(path)
	if err != nil {
		return false, err
	}
	defer func() {
		st := cs.Stats()
		x.stats.IO.Bytes += st.Bytes
		x.stats.IO.Requests += st.Requests
		closer.Close()
	}()
	x.stats.Files++
	if scan.CountOnly {
		for _, rg := range f.Meta.RowGroups {
			x.stats.RowGroups++
			for r := int64(0); r < rg.NumRows; r++ {
				if stop, err := emit(make([]planner.Datum, width)); stop || err != nil {
					return stop, err
				}
			}
		}
		return false, nil
	}
	fields, err := fieldMap(scan, f)
	if err != nil {
		return false, err
	}
	var leaves []int
	for _, fl := range fields {
		if fl != nil {
			for _, l := range fl.Leaves {
				leaves = append(leaves, l.Index)
			}
		}
	}
	sort.Ints(leaves)
	fp, err := pushdown.Plan(f, scan.Pushdown, leaves, x.settings.options())
	if err != nil {
		return false, err
	}
	x.stats.Plans = append(x.stats.Plans, fp)
	for _, rg := range fp.RowGroups {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if rg.Verdict == pushdown.Skip {
			x.stats.RowGroupsSkipped++
			continue
		}
		x.stats.RowGroups++
		stop, err := x.refScanRowGroup(f, rg, fields, width, emit)
		if err != nil || stop {
			return stop, err
		}
	}
	return false, nil
}

// scanRowGroup reads the columns of one kept row group as its plan says and
// emits the rows inside the plan's row ranges.
func (x *refExecutor) refScanRowGroup(f *format.File, rg pushdown.RowGroupPlan, fields []*format.Field, width int, emit refEmit) (bool, error) {
	var ranges []format.Range
	for _, c := range rg.Columns {
		if c.Whole {
			continue
		}
		if c.Dict.Length > 0 {
			ranges = append(ranges, c.Dict)
		}
		for _, pg := range c.Pages {
			ranges = append(ranges, pg.Range)
		}
	}
	var fetched *format.Fetched
	if len(ranges) > 0 {
		var err error
		if fetched, err = format.Fetch(f.Source, ranges, 0); err != nil {
			return false, err
		}
	}
	data := map[int]*format.ColumnData{}
	for _, c := range rg.Columns {
		var cd *format.ColumnData
		var err error
		switch {
		case c.Whole:
			cd, err = f.ReadColumn(rg.Index, c.Leaf)
		case c.Dictionary != nil:
			// The dictionary check decoded the dictionary already.
			cd, err = f.ReadPagesGiven(rg.Index, c.Leaf, c.Dictionary, 0, c.Pages, fetched)
		default:
			cd, err = f.ReadPages(rg.Index, c.Leaf, c.Dict, c.Pages, fetched)
		}
		if err != nil {
			return false, err
		}
		data[c.Leaf] = cd
	}
	kept := rg.Rows
	if kept == nil {
		kept = pushdown.AllRows(rg.NumRows)
	}
	type col struct {
		pos  int
		vec  *Vector
		rows []int64
		at   int
	}
	var cols []*col
	for i, fl := range fields {
		if fl == nil {
			continue
		}
		for _, l := range fl.Leaves {
			if data[l.Index] == nil {
				return false, fmt.Errorf("exec: %s: row group %d: the scan plan does not read column %s", f.Name, rg.Index, l.Path)
			}
		}
		v, rows, err := fieldVector(fl, data)
		if err != nil {
			return false, fmt.Errorf("%s: row group %d: %w", f.Name, rg.Index, err)
		}
		x.stats.RowsDecoded += int64(len(rows))
		cols = append(cols, &col{pos: i, vec: v, rows: rows})
	}
	for _, r := range kept {
		for row := r.First; row < r.End; row++ {
			out := make([]planner.Datum, width)
			for _, c := range cols {
				for c.at < len(c.rows) && c.rows[c.at] < row {
					c.at++
				}
				if c.at >= len(c.rows) || c.rows[c.at] != row {
					return false, fmt.Errorf("exec: %s: row group %d: row %d of column %s was not decoded", f.Name, rg.Index, row, fields[c.pos].Name)
				}
				out[c.pos] = datumAt(c.vec, c.at)
			}
			if stop, err := emit(out); stop || err != nil {
				return stop, err
			}
		}
	}
	return false, nil
}

func (x *refExecutor) refUpdate(a *planner.AggCall, s *refAggState, row []planner.Datum) error {
	if a.Arg == nil {
		s.n++
		return nil
	}
	d, err := planner.Eval(a.Arg, row)
	if err != nil || d.Null {
		return err
	}
	t := a.Arg.Type()
	if a.Distinct {
		if s.distin == nil {
			s.distin = map[string]bool{}
		}
		k := string(planner.AppendKey(nil, d, t))
		if s.distin[k] {
			return nil
		}
		s.distin[k] = true
	}
	s.n++
	switch a.Func {
	case "sum", "avg":
		switch {
		case t.ID == TypeFloat || t.ID == TypeDouble:
			s.fsum += d.F
		default:
			if s.isum == nil {
				s.isum = new(big.Int)
			}
			v := d.Big
			switch {
			case v != nil:
			case t.ID == TypeUBigInt:
				v = new(big.Int).SetUint64(uint64(d.I))
			case t.ID == TypeBoolean:
				if d.B {
					v = big.NewInt(1)
				} else {
					v = new(big.Int)
				}
			default:
				v = big.NewInt(d.I)
			}
			s.isum.Add(s.isum, v)
		}
	case "min", "max":
		if !s.has {
			s.best, s.has = d, true
			return nil
		}
		c := planner.Compare(d, s.best, t)
		if (a.Func == "min" && c < 0) || (a.Func == "max" && c > 0) {
			s.best = d
		}
	}
	return nil
}

func refFinish(a *planner.AggCall, s *refAggState) planner.Datum {
	switch a.Func {
	case "count", "count_star":
		return planner.Datum{I: s.n}
	case "min", "max":
		if !s.has {
			return planner.NullDatum
		}
		return s.best
	}
	if s.n == 0 {
		return planner.NullDatum
	}
	t := a.Arg.Type()
	isFloat := t.ID == TypeFloat || t.ID == TypeDouble
	if a.Func == "sum" {
		if isFloat {
			return planner.Datum{F: s.fsum}
		}
		return planner.Datum{Big: new(big.Int).Set(s.isum)}
	}
	if isFloat {
		return planner.Datum{F: s.fsum / float64(s.n)}
	}
	scale := 0
	if t.ID == TypeDecimal {
		scale = t.Scale
	}
	r := new(big.Rat).SetFrac(s.isum, new(big.Int).Mul(big.NewInt(s.n), refPow10(scale)))
	f, _ := r.Float64()
	return planner.Datum{F: f}
}

// input emits the plan's input rows: a subquery's result or a file scan.
func (x *refExecutor) refInput(ctx context.Context, p *planner.Plan, emit refEmit) error {
	if sub := p.Scan.Subquery; sub != nil && sub.Single {
		_, err := emit(nil)
		return err
	}
	if p.Scan.Subquery != nil {
		rows, err := x.refRun(ctx, p.Scan.Subquery)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if stop, err := emit(r); stop || err != nil {
				return err
			}
		}
		return nil
	}
	return x.refScanFiles(ctx, p, emit)
}

// run executes a plan and returns its result rows (visible columns only).
func (x *refExecutor) refRun(ctx context.Context, p *planner.Plan) ([][]planner.Datum, error) {
	var rows [][]planner.Datum
	project := func(row []planner.Datum) ([]planner.Datum, error) {
		out := make([]planner.Datum, len(p.Project))
		for i, e := range p.Project {
			d, err := planner.Eval(e, row)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	}
	// Without sorting, aggregation or DISTINCT the scan can stop as soon as
	// LIMIT + OFFSET rows passed the filter.
	streaming := !p.Aggregate && len(p.Order) == 0 && !p.Distinct && p.Limit >= 0
	want := p.Limit + p.Offset
	var top *topK
	if len(p.Order) > 0 && p.Limit >= 0 && !p.Aggregate && !p.Distinct {
		top = newTopK(p.Order, projTypes(p), int(want))
	}
	groups := map[string]*refGroup{}
	var order []*refGroup
	var keyBuf []byte
	err := x.refInput(ctx, p, func(row []planner.Datum) (bool, error) {
		if p.Where != nil {
			d, err := planner.Eval(p.Where, row)
			if err != nil {
				return false, err
			}
			if !planner.IsTrue(d) {
				return false, nil
			}
		}
		if p.Aggregate {
			keyBuf = keyBuf[:0]
			keys := make([]planner.Datum, len(p.GroupBy))
			for i, k := range p.GroupBy {
				d, err := planner.Eval(k, row)
				if err != nil {
					return false, err
				}
				keys[i] = d
				keyBuf = planner.AppendKey(keyBuf, d, k.Type())
			}
			g := groups[string(keyBuf)]
			if g == nil {
				g = &refGroup{keys: keys, aggs: make([]refAggState, len(p.Aggs))}
				groups[string(keyBuf)] = g
				order = append(order, g)
			}
			for i, a := range p.Aggs {
				if err := x.refUpdate(a, &g.aggs[i], row); err != nil {
					return false, err
				}
			}
			return false, nil
		}
		out, err := project(row)
		if err != nil {
			return false, err
		}
		if top != nil {
			top.add(out, rowPos{seq: top.seq})
			top.seq++
			return false, nil
		}
		rows = append(rows, out)
		return streaming && int64(len(rows)) >= want, nil
	})
	if err != nil {
		return nil, err
	}
	if p.Aggregate {
		if len(order) == 0 && len(p.GroupBy) == 0 {
			order = append(order, &refGroup{aggs: make([]refAggState, len(p.Aggs))})
		}
		for _, g := range order {
			arow := make([]planner.Datum, 0, len(g.keys)+len(p.Aggs))
			arow = append(arow, g.keys...)
			for i, a := range p.Aggs {
				arow = append(arow, refFinish(a, &g.aggs[i]))
			}
			if p.Having != nil {
				d, err := planner.Eval(p.Having, arow)
				if err != nil {
					return nil, err
				}
				if !planner.IsTrue(d) {
					continue
				}
			}
			out, err := project(arow)
			if err != nil {
				return nil, err
			}
			rows = append(rows, out)
		}
	}
	if top != nil {
		rows = top.sorted()
	}
	if p.Distinct {
		seen := map[string]bool{}
		types := projTypes(p)
		kept := rows[:0]
		for _, r := range rows {
			keyBuf = keyBuf[:0]
			for i, d := range r {
				keyBuf = planner.AppendKey(keyBuf, d, types[i])
			}
			if !seen[string(keyBuf)] {
				seen[string(keyBuf)] = true
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if len(p.Order) > 0 && top == nil {
		less := rowLess(p.Order, projTypes(p))
		sort.SliceStable(rows, func(i, j int) bool { return less(rows[i], rows[j]) })
	}
	if p.Offset > 0 {
		rows = rows[min(int(p.Offset), len(rows)):]
	}
	if p.Limit >= 0 && int64(len(rows)) > p.Limit {
		rows = rows[:p.Limit]
	}
	n := len(p.Columns)
	for i, r := range rows {
		rows[i] = r[:n]
	}
	return rows, nil
}
