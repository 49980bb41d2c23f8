package exec

import (
	"container/heap"
	"context"
	"math/big"
	"sort"

	"github.com/pqsql/pqsql/planner"
)

// An executor runs one statement's plans and gathers their statistics.
type executor struct {
	settings Settings
	stats    runStats
}

// aggState accumulates one aggregate of one group.
type aggState struct {
	n      int64
	isum   *big.Int
	fsum   float64
	best   planner.Datum
	has    bool
	distin map[string]bool
}

// group is one GROUP BY group.
type group struct {
	keys []planner.Datum
	aggs []aggState
}

func (x *executor) update(a *planner.AggCall, s *aggState, row []planner.Datum) error {
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

func finish(a *planner.AggCall, s *aggState) planner.Datum {
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
	r := new(big.Rat).SetFrac(s.isum, new(big.Int).Mul(big.NewInt(s.n), pow10(scale)))
	f, _ := r.Float64()
	return planner.Datum{F: f}
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// input emits the plan's input rows: a subquery's result or a file scan.
func (x *executor) input(ctx context.Context, p *planner.Plan, emit emitFunc) error {
	if sub := p.Scan.Subquery; sub != nil && sub.Single {
		_, err := emit(nil)
		return err
	}
	if p.Scan.Subquery != nil {
		rows, err := x.run(ctx, p.Scan.Subquery)
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
	return x.scanFiles(ctx, p, emit)
}

// run executes a plan and returns its result rows (visible columns only).
func (x *executor) run(ctx context.Context, p *planner.Plan) ([][]planner.Datum, error) {
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
		top = &topK{keys: p.Order, types: projTypes(p), k: int(want)}
	}
	groups := map[string]*group{}
	var order []*group
	var keyBuf []byte
	err := x.input(ctx, p, func(row []planner.Datum) (bool, error) {
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
				g = &group{keys: keys, aggs: make([]aggState, len(p.Aggs))}
				groups[string(keyBuf)] = g
				order = append(order, g)
			}
			for i, a := range p.Aggs {
				if err := x.update(a, &g.aggs[i], row); err != nil {
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
			top.add(out)
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
			order = append(order, &group{aggs: make([]aggState, len(p.Aggs))})
		}
		for _, g := range order {
			arow := make([]planner.Datum, 0, len(g.keys)+len(p.Aggs))
			arow = append(arow, g.keys...)
			for i, a := range p.Aggs {
				arow = append(arow, finish(a, &g.aggs[i]))
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

// topK keeps the k smallest rows of an ORDER BY ... LIMIT in a max-heap,
// so a sorted limit never holds more than k rows. Ties keep the earlier row.
type topK struct {
	keys  []planner.SortKey
	types []Type
	k     int
	rows  []seqRow
	seq   int
	less  func(a, b []planner.Datum) bool
}

type seqRow struct {
	row []planner.Datum
	seq int
}

func (t *topK) Len() int { return len(t.rows) }
func (t *topK) Less(i, j int) bool {
	// A max-heap: the worst row (latest among equals) on top.
	return t.before(t.rows[j], t.rows[i])
}
func (t *topK) Swap(i, j int) { t.rows[i], t.rows[j] = t.rows[j], t.rows[i] }
func (t *topK) Push(x any)    { t.rows = append(t.rows, x.(seqRow)) }
func (t *topK) Pop() any {
	x := t.rows[len(t.rows)-1]
	t.rows = t.rows[:len(t.rows)-1]
	return x
}

func (t *topK) before(a, b seqRow) bool {
	if t.less(a.row, b.row) {
		return true
	}
	if t.less(b.row, a.row) {
		return false
	}
	return a.seq < b.seq
}

func (t *topK) add(row []planner.Datum) {
	if t.less == nil {
		t.less = rowLess(t.keys, t.types)
	}
	if t.k <= 0 {
		return
	}
	r := seqRow{row: row, seq: t.seq}
	t.seq++
	if len(t.rows) < t.k {
		heap.Push(t, r)
		return
	}
	if t.before(r, t.rows[0]) {
		t.rows[0] = r
		heap.Fix(t, 0)
	}
}

func (t *topK) sorted() [][]planner.Datum {
	sort.Slice(t.rows, func(i, j int) bool { return t.before(t.rows[i], t.rows[j]) })
	out := make([][]planner.Datum, len(t.rows))
	for i, r := range t.rows {
		out[i] = r.row
	}
	return out
}
