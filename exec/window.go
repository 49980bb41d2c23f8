package exec

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"unsafe"

	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/sql"
)

// runWindows runs a plan with window functions: the rows after HAVING (the
// plan's own pipeline up to there), each window's values appended to them,
// then QUALIFY, the projection, and DISTINCT, ORDER BY and LIMIT.
func (x *executor) runWindows(ctx context.Context, p *planner.Plan) ([]*batch, error) {
	width := p.WindowWidth()
	types := windowInputTypes(p)
	pre := *p
	pre.Windows, pre.Qualify, pre.Distinct, pre.Order, pre.Limit, pre.Offset = nil, nil, false, nil, -1, 0
	pre.Project = make([]planner.Expr, width)
	pre.Columns = make([]planner.Column, width)
	for i, t := range types {
		pre.Project[i] = &planner.ColRef{Index: i, Name: fmt.Sprint("#", i), T: t}
		if !p.Aggregate && i < len(p.Scan.Needed) && !p.Scan.Needed[i] {
			// The scan does not read this column and nothing above uses it.
			pre.Project[i] = &planner.Const{Value: planner.NullDatum, T: t}
		}
		pre.Columns[i] = planner.Column{Name: fmt.Sprint("#", i), Type: t}
	}
	batches, err := x.run(ctx, &pre)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, b := range batches {
		n += b.n
	}
	all := len(p.Windows) + width
	// The rows as datums, with their windows' values, are the window
	// partitions' memory.
	if err := x.mem.reserve(int64(n) * int64(all) * int64(unsafe.Sizeof(planner.Datum{}))); err != nil {
		return nil, fmt.Errorf("%w (the partitions of a window)", err)
	}
	rows := make([][]planner.Datum, 0, n)
	slab := make([]planner.Datum, n*all)
	for _, b := range batches {
		for i := 0; i < b.n; i++ {
			r := slab[:all:all]
			slab = slab[all:]
			for c, v := range b.cols[:width] {
				if v != nil {
					r[c] = datumAt(v, i)
				}
			}
			rows = append(rows, r)
		}
	}
	wc := &windowRun{rows: rows, sorts: map[string]*windowSort{}}
	for k, w := range p.Windows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := wc.compute(w, width+k); err != nil {
			return nil, err
		}
	}
	out := make([][]planner.Datum, 0, len(rows))
	// unnest in the SELECT list expands the rows after the windows are
	// computed, as DuckDB's does.
	un := newUnnester(p.Project, all)
	var ux *expander
	if un != nil {
		ux = un.expander()
	}
	for _, r := range rows {
		if p.Qualify != nil {
			d, err := planner.Eval(p.Qualify, r)
			if err != nil {
				return nil, err
			}
			if !planner.IsTrue(d) {
				continue
			}
		}
		if un != nil {
			if err := un.rows(r, ux, func(o []planner.Datum) { out = append(out, o) }); err != nil {
				return nil, err
			}
			continue
		}
		o := make([]planner.Datum, len(p.Project))
		for i, e := range p.Project {
			if o[i], err = planner.Eval(e, r); err != nil {
				return nil, err
			}
		}
		out = append(out, o)
	}
	return x.finishRows(ctx, p, out)
}

// windowInputTypes are the types of the rows the window stage reads.
func windowInputTypes(p *planner.Plan) []Type {
	var ts []Type
	if !p.Aggregate {
		for _, c := range p.Input {
			ts = append(ts, c.Type)
		}
		return ts
	}
	for _, k := range p.GroupBy {
		ts = append(ts, k.Type())
	}
	for _, a := range p.Aggs {
		ts = append(ts, a.T)
	}
	return ts
}

// A windowRun computes the window values of one query's rows.
type windowRun struct {
	rows [][]planner.Datum
	// sorts are the orders computed so far, by partition and order keys:
	// windows over the same keys sort once.
	sorts map[string]*windowSort
}

// A windowSort is the rows in window order: by partition keys, then by the
// window's ORDER BY. Positions are in that order; idx maps a position to
// its row.
type windowSort struct {
	idx []int32
	// partStart/partEnd bound each position's partition, peerStart/peerEnd
	// its peers (equal ORDER BY keys) in it; ends are exclusive.
	partStart, partEnd, peerStart, peerEnd []int32
}

// sortFor sorts the rows for w once per distinct partition and order.
func (wr *windowRun) sortFor(w *planner.WindowCall) (*windowSort, error) {
	var key strings.Builder
	for _, e := range w.Partition {
		key.WriteString(e.String() + "\x00")
	}
	key.WriteString("\x01")
	for _, o := range w.Order {
		fmt.Fprintf(&key, "%s\x00%v%v", o.X.String(), o.Desc, o.NullsFirst)
	}
	if s, ok := wr.sorts[key.String()]; ok {
		return s, nil
	}
	np := len(w.Partition)
	exprs := append([]planner.Expr{}, w.Partition...)
	keys := make([]planner.SortKey, 0, np+len(w.Order))
	for i := range w.Partition {
		keys = append(keys, planner.SortKey{Index: i, NullsFirst: true})
	}
	for i, o := range w.Order {
		exprs = append(exprs, o.X)
		keys = append(keys, planner.SortKey{Index: np + i, Desc: o.Desc, NullsFirst: o.NullsFirst})
	}
	types := make([]Type, len(exprs))
	for i, e := range exprs {
		types[i] = e.Type()
	}
	n := len(wr.rows)
	kv := make([][]planner.Datum, n)
	slab := make([]planner.Datum, n*len(exprs))
	for r, row := range wr.rows {
		kv[r] = slab[r*len(exprs) : (r+1)*len(exprs) : (r+1)*len(exprs)]
		for i, e := range exprs {
			d, err := planner.Eval(e, row)
			if err != nil {
				return nil, err
			}
			kv[r][i] = d
		}
	}
	s := &windowSort{idx: make([]int32, n), partStart: make([]int32, n), partEnd: make([]int32, n),
		peerStart: make([]int32, n), peerEnd: make([]int32, n)}
	for i := range s.idx {
		s.idx[i] = int32(i)
	}
	if len(keys) > 0 {
		less := rowLess(keys, types)
		sort.SliceStable(s.idx, func(a, b int) bool { return less(kv[s.idx[a]], kv[s.idx[b]]) })
	}
	equal := func(a, b []planner.Datum, lo, hi int) bool {
		for i := lo; i < hi; i++ {
			x, y := a[i], b[i]
			if x.Null != y.Null || !x.Null && planner.Compare(x, y, types[i]) != 0 {
				return false
			}
		}
		return true
	}
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && equal(kv[s.idx[lo]], kv[s.idx[hi]], 0, np) {
			hi++
		}
		for q := lo; q < hi; {
			qe := q + 1
			for qe < hi && equal(kv[s.idx[q]], kv[s.idx[qe]], np, len(exprs)) {
				qe++
			}
			for pos := q; pos < qe; pos++ {
				s.partStart[pos], s.partEnd[pos] = int32(lo), int32(hi)
				s.peerStart[pos], s.peerEnd[pos] = int32(q), int32(qe)
			}
			q = qe
		}
		lo = hi
	}
	wr.sorts[key.String()] = s
	return s, nil
}

// eval evaluates e on the row at each position.
func (wr *windowRun) eval(e planner.Expr, s *windowSort) ([]planner.Datum, error) {
	out := make([]planner.Datum, len(s.idx))
	for pos, r := range s.idx {
		d, err := planner.Eval(e, wr.rows[r])
		if err != nil {
			return nil, err
		}
		out[pos] = d
	}
	return out, nil
}

// compute writes w's value for every row into column col.
func (wr *windowRun) compute(w *planner.WindowCall, col int) error {
	s, err := wr.sortFor(w)
	if err != nil {
		return err
	}
	n := len(s.idx)
	if n == 0 {
		return nil
	}
	set := func(pos int, d planner.Datum) { wr.rows[s.idx[pos]][col] = d }
	var args [][]planner.Datum
	for _, a := range w.Args {
		v, err := wr.eval(a, s)
		if err != nil {
			return err
		}
		args = append(args, v)
	}
	if w.Agg != nil {
		return wr.aggregate(w, s, set)
	}
	var nn *nonNullIndex
	if w.IgnoreNulls {
		nn = newNonNullIndex(args[0])
	}
	switch w.Func {
	case "row_number":
		for pos := range n {
			set(pos, planner.Datum{I: int64(pos) - int64(s.partStart[pos]) + 1})
		}
	case "rank":
		for pos := range n {
			set(pos, planner.Datum{I: int64(s.peerStart[pos]-s.partStart[pos]) + 1})
		}
	case "dense_rank":
		var rank int64
		for pos := range n {
			switch {
			case pos == int(s.partStart[pos]):
				rank = 1
			case pos == int(s.peerStart[pos]):
				rank++
			}
			set(pos, planner.Datum{I: rank})
		}
	case "percent_rank":
		for pos := range n {
			cnt := s.partEnd[pos] - s.partStart[pos]
			v := 0.0
			if cnt > 1 {
				v = float64(s.peerStart[pos]-s.partStart[pos]) / float64(cnt-1)
			}
			set(pos, planner.Datum{F: v})
		}
	case "cume_dist":
		for pos := range n {
			cnt := s.partEnd[pos] - s.partStart[pos]
			set(pos, planner.Datum{F: float64(s.peerEnd[pos]-s.partStart[pos]) / float64(cnt)})
		}
	case "ntile":
		for pos := range n {
			b := args[0][pos]
			if b.Null {
				set(pos, planner.NullDatum)
				continue
			}
			if b.I <= 0 {
				return fmt.Errorf("%w: Argument for ntile must be greater than zero", planner.ErrInvalidInput)
			}
			set(pos, planner.Datum{I: ntile(b.I, int64(s.partEnd[pos]-s.partStart[pos]), int64(pos)-int64(s.partStart[pos]))})
		}
	case "lag", "lead":
		for pos := range n {
			off := int64(1)
			if len(args) > 1 {
				if args[1][pos].Null {
					set(pos, planner.NullDatum)
					continue
				}
				off = args[1][pos].I
			}
			if w.Func == "lag" {
				off = -off
			}
			t := int64(pos) + off
			if nn != nil {
				t = int64(nn.shifted(pos, int(s.partStart[pos]), int(s.partEnd[pos]), off))
			}
			switch {
			case t >= int64(s.partStart[pos]) && t < int64(s.partEnd[pos]):
				set(pos, args[0][t])
			case len(args) > 2:
				set(pos, args[2][pos])
			default:
				set(pos, planner.NullDatum)
			}
		}
	case "first_value", "last_value", "nth_value":
		fr, err := newFramer(wr, w, s)
		if err != nil {
			return err
		}
		for pos := range n {
			lo, hi, err := fr.bounds(pos)
			if err != nil {
				return err
			}
			t := -1
			switch w.Func {
			case "first_value":
				t = lo
				if nn != nil && lo < hi {
					t = nn.nth(lo, hi, 1)
				}
			case "last_value":
				t = hi - 1
				if nn != nil && lo < hi {
					t = nn.last(lo, hi)
				}
			default:
				k := args[1][pos]
				// DuckDB gives NULL for a position below 1.
				if k.Null || k.I <= 0 {
					break
				}
				if nn != nil {
					if lo < hi {
						t = nn.nth(lo, hi, k.I)
					}
					break
				}
				t = lo + int(k.I) - 1
			}
			if lo < hi && t >= lo && t < hi {
				set(pos, args[0][t])
			} else {
				set(pos, planner.NullDatum)
			}
		}
	default:
		return fmt.Errorf("%w: window function %s", ErrNotImplemented, w.Func)
	}
	return nil
}

// ntile is the bucket of row i (from 0) of a partition of size total into
// buckets buckets: the first total%buckets buckets hold one row more.
func ntile(buckets, total, i int64) int64 {
	buckets = min(buckets, total)
	size := total / buckets
	large := total - buckets*size
	if small := large * (size + 1); i < small {
		return 1 + i/(size+1)
	} else {
		return 1 + large + (i-small)/size
	}
}

// aggregate computes an aggregate over each row's frame. A frame that grows
// at one end only is accumulated incrementally; a sliding one is
// accumulated afresh for each row.
func (wr *windowRun) aggregate(w *planner.WindowCall, s *windowSort, set func(int, planner.Datum)) error {
	a := w.Agg
	n := len(s.idx)
	var vals []planner.Datum
	var t Type
	if a.Arg != nil {
		var err error
		if vals, err = wr.eval(a.Arg, s); err != nil {
			return err
		}
		t = a.Arg.Type()
	} else {
		vals = make([]planner.Datum, n)
		for i := range vals {
			vals[i] = planner.Datum{I: 1}
		}
	}
	fr, err := newFramer(wr, w, s)
	if err != nil {
		return err
	}
	f := w.Frame
	fromStart := f.Start.Kind == sql.UnboundedPreceding
	toEnd := f.End.Kind == sql.UnboundedFollowing
	orderFree := a.Func == "count" || a.Func == "count_star" || a.Func == "min" || a.Func == "max"
	for lo := 0; lo < n; lo = int(s.partEnd[lo]) {
		hi := int(s.partEnd[lo])
		switch {
		case fromStart:
			// Frames [lo, e) with e never decreasing.
			st := newAggState(a)
			added := lo
			for pos := lo; pos < hi; pos++ {
				_, e, err := fr.bounds(pos)
				if err != nil {
					return err
				}
				if e < added {
					if err := wr.frameAgg(a, vals, t, pos, fr, set); err != nil {
						return err
					}
					continue
				}
				for ; added < e; added++ {
					updateDatum(a, &st, vals[added], t, a.Distinct)
				}
				d, err := finish(a, &st)
				if err != nil {
					return err
				}
				set(pos, d)
			}
		case toEnd && orderFree:
			// Frames [b, hi) with b never increasing, walking backwards.
			st := newAggState(a)
			from := hi
			for pos := hi - 1; pos >= lo; pos-- {
				b, _, err := fr.bounds(pos)
				if err != nil {
					return err
				}
				if b > from {
					if err := wr.frameAgg(a, vals, t, pos, fr, set); err != nil {
						return err
					}
					continue
				}
				for from > b {
					from--
					updateDatum(a, &st, vals[from], t, a.Distinct)
				}
				d, err := finish(a, &st)
				if err != nil {
					return err
				}
				set(pos, d)
			}
		default:
			for pos := lo; pos < hi; pos++ {
				if err := wr.frameAgg(a, vals, t, pos, fr, set); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// frameAgg accumulates the frame of one position afresh.
func (wr *windowRun) frameAgg(a *planner.AggCall, vals []planner.Datum, t Type, pos int, fr *framer, set func(int, planner.Datum)) error {
	b, e, err := fr.bounds(pos)
	if err != nil {
		return err
	}
	st := newAggState(a)
	for i := b; i < e; i++ {
		updateDatum(a, &st, vals[i], t, a.Distinct)
	}
	d, err := finish(a, &st)
	if err != nil {
		return err
	}
	set(pos, d)
	return nil
}

// A framer finds the frame of each position.
type framer struct {
	f        planner.WindowFrame
	s        *windowSort
	desc     bool
	starts   []planner.Datum // offsets of the start and end bounds, by position
	ends     []planner.Datum
	rangeKey []planner.Datum // the ORDER BY key as DOUBLE (RANGE with offsets)
}

func newFramer(wr *windowRun, w *planner.WindowCall, s *windowSort) (*framer, error) {
	fr := &framer{f: w.Frame, s: s}
	var err error
	if o := w.Frame.Start.Offset; o != nil {
		if fr.starts, err = wr.eval(o, s); err != nil {
			return nil, err
		}
	}
	if o := w.Frame.End.Offset; o != nil {
		if fr.ends, err = wr.eval(o, s); err != nil {
			return nil, err
		}
	}
	if w.RangeKey != nil {
		if fr.rangeKey, err = wr.eval(w.RangeKey, s); err != nil {
			return nil, err
		}
		fr.desc = w.Order[0].Desc
		if t := w.Order[0].X.Type(); t.ID != TypeFloat && t.ID != TypeDouble {
			// An integer key of 2^53 or more may have no exact DOUBLE: a frame
			// bound could then take in or leave out the wrong rows.
			for _, offs := range [][]planner.Datum{fr.rangeKey, fr.starts, fr.ends} {
				for _, d := range offs {
					if !d.Null && math.Abs(d.F) >= 1<<53 {
						return nil, fmt.Errorf("%w: RANGE frame over %s values of 2^53 or more", ErrNotImplemented, t)
					}
				}
			}
		}
	}
	return fr, nil
}

// bounds returns the frame [lo, hi) of position pos, clamped to its
// partition (lo >= hi: empty).
func (fr *framer) bounds(pos int) (int, int, error) {
	s := fr.s
	ps, pe := int(s.partStart[pos]), int(s.partEnd[pos])
	lo, err := fr.bound(fr.f.Start, fr.starts, pos, false)
	if err != nil {
		return 0, 0, err
	}
	hi, err := fr.bound(fr.f.End, fr.ends, pos, true)
	if err != nil {
		return 0, 0, err
	}
	lo, hi = max(lo, ps), min(hi, pe)
	if lo > hi {
		lo = hi
	}
	return lo, hi, nil
}

// bound returns the first position of the frame (end: one past its last).
func (fr *framer) bound(b planner.WindowBound, offs []planner.Datum, pos int, end bool) (int, error) {
	s := fr.s
	ps, pe := int(s.partStart[pos]), int(s.partEnd[pos])
	switch b.Kind {
	case sql.UnboundedPreceding:
		return ps, nil
	case sql.UnboundedFollowing:
		return pe, nil
	case sql.CurrentRow:
		if fr.f.Rows {
			if end {
				return pos + 1, nil
			}
			return pos, nil
		}
		if end {
			return int(s.peerEnd[pos]), nil
		}
		return int(s.peerStart[pos]), nil
	}
	off := offs[pos]
	if off.Null && !(b.Target && fr.rangeKey[pos].Null) {
		return 0, fmt.Errorf("%w: window frame offset must not be NULL", planner.ErrInvalidInput)
	}
	if fr.f.Rows {
		if off.I < 0 {
			return 0, fmt.Errorf("%w: window frame offset must not be negative", planner.ErrInvalidInput)
		}
		k := off.I
		if b.Kind == sql.Preceding {
			k = -k
		}
		p := int64(pos) + k
		if end {
			p++
		}
		return int(max(min(p, int64(pe)), int64(ps))), nil
	}
	if !b.Target && (off.F < 0 || math.IsNaN(off.F)) {
		return 0, fmt.Errorf("%w: window frame offset must not be negative", planner.ErrInvalidInput)
	}
	v := fr.rangeKey[pos]
	if v.Null || math.IsNaN(v.F) {
		// A NULL or NaN key has no neighbourhood: its frame is its peers.
		if end {
			return int(s.peerEnd[pos]), nil
		}
		return int(s.peerStart[pos]), nil
	}
	// The target key value, in the direction of the order.
	target := v.F
	switch {
	case b.Target:
		target = off.F // the key already moved by an INTERVAL
	case (b.Kind == sql.Preceding) != fr.desc:
		target -= off.F
	default:
		target += off.F
	}
	// Positions whose key sorts before target (start) or not after it
	// (end) come first; NULL keys sit at one end and never count.
	precedes := func(i int) bool {
		k := fr.rangeKey[i]
		if k.Null {
			return !s.nullsLast(fr, i)
		}
		c := planner.CompareFloat(k.F, target)
		if fr.desc {
			c = -c
		}
		if end {
			return c <= 0
		}
		return c < 0
	}
	return ps + sort.Search(pe-ps, func(i int) bool { return !precedes(ps + i) }), nil
}

// nullsLast reports whether the NULL keys of position i's partition sort
// after its other keys. Only a position with a key asks, so the partition
// has one: the NULLs are last when the first key is not NULL.
func (s *windowSort) nullsLast(fr *framer, i int) bool {
	return !fr.rangeKey[s.partStart[i]].Null
}
