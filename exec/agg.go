package exec

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/pqsql/pqsql/planner"
)

// aggState accumulates one aggregate of one group.
type aggState struct {
	n int64
	// acc is an integer sum not yet added to isum: most sums fit 64 bits,
	// and a big.Int addition per row is slow.
	acc  int64
	isum *big.Int
	fsum float64
	best planner.Datum
	has  bool
	// bestI, bestF and bestS shadow best for the typed comparisons.
	bestI  int64
	bestF  float64
	bestS  string
	distin map[string]bool
}

// addInt adds v to the sum, carrying into isum when 64 bits overflow.
func (s *aggState) addInt(v int64) {
	r := s.acc + v
	if (s.acc >= 0) == (v >= 0) && (r >= 0) != (v >= 0) {
		s.flush()
		s.acc = v
		return
	}
	s.acc = r
}

// flush moves acc into isum.
func (s *aggState) flush() {
	if s.isum == nil {
		s.isum = new(big.Int)
	}
	if s.acc != 0 {
		s.isum.Add(s.isum, big.NewInt(s.acc))
		s.acc = 0
	}
}

// sum is the integer sum so far.
func (s *aggState) sum() *big.Int {
	s.flush()
	return s.isum
}

// group is one GROUP BY group.
type group struct {
	keys []planner.Datum
	aggs []aggState
}

// updateDatum adds one evaluated argument d of type t to s.
func updateDatum(a *planner.AggCall, s *aggState, d planner.Datum, t Type) {
	if d.Null {
		return
	}
	if a.Distinct {
		if s.distin == nil {
			s.distin = map[string]bool{}
		}
		k := string(planner.AppendKey(nil, d, t))
		if s.distin[k] {
			return
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
			s.flush()
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
			return
		}
		c := planner.Compare(d, s.best, t)
		if (a.Func == "min" && c < 0) || (a.Func == "max" && c > 0) {
			s.best = d
		}
	}
}

// finish is the aggregate's value for one group. A sum past HUGEINT's
// range fails as DuckDB's does.
func finish(a *planner.AggCall, s *aggState) (planner.Datum, error) {
	switch a.Func {
	case "count", "count_star":
		return planner.Datum{I: s.n}, nil
	case "min", "max":
		if !s.has {
			return planner.NullDatum, nil
		}
		return s.best, nil
	}
	if s.n == 0 {
		return planner.NullDatum, nil
	}
	t := a.Arg.Type()
	isFloat := t.ID == TypeFloat || t.ID == TypeDouble
	if a.Func == "sum" {
		if isFloat {
			return planner.Datum{F: s.fsum}, nil
		}
		sum := s.sum()
		if a.T.ID == planner.TypeHugeInt && !planner.FitsHugeInt(sum) {
			return planner.Datum{}, fmt.Errorf("%w: Overflow in HUGEINT addition: sum(%s) is %s", planner.ErrOutOfRange, a.Arg, sum)
		}
		return planner.Datum{Big: new(big.Int).Set(sum)}, nil
	}
	if isFloat {
		return planner.Datum{F: s.fsum / float64(s.n)}, nil
	}
	scale := 0
	if t.ID == TypeDecimal {
		scale = t.Scale
	}
	r := new(big.Rat).SetFrac(s.sum(), new(big.Int).Mul(big.NewInt(s.n), pow10(scale)))
	f, _ := r.Float64()
	return planner.Datum{F: f}, nil
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// An aggregator is the hash aggregate: it takes the filtered input batches
// in scan order and keeps its groups in the order they first appear, so its
// answers (float sums included) are those of a row-at-a-time loop.
type aggregator struct {
	p      *planner.Plan
	width  int
	groups []*group
	// Groups are found by the single key's integer or string, or by the
	// encoded keys.
	kind      keyKind
	byInt     map[int64]int32
	byStr     map[string]int32
	byKey     map[string]int32
	nullGroup int32
	keyBuf    []byte
	// The expressions the batches are evaluated for: group keys, then the
	// aggregates' arguments.
	exprs []planner.Expr
	vx    []vexpr
	rb    *rowBuffer
	// consumed counts the rows consumed.
	consumed int64
	slab     struct {
		groups []group
		keys   []planner.Datum
		aggs   []aggState
	}
}

func newAggregator(p *planner.Plan) *aggregator {
	ag := &aggregator{p: p, width: len(p.Input), nullGroup: -1, kind: keyKindOf(p.GroupBy),
		byInt: map[int64]int32{}, byStr: map[string]int32{}, byKey: map[string]int32{}}
	ag.exprs = append(ag.exprs, p.GroupBy...)
	for _, a := range p.Aggs {
		ag.exprs = append(ag.exprs, a.Arg)
	}
	ag.rb = newRowBuffer(ag.width, ag.exprs...)
	ag.vx = make([]vexpr, len(ag.exprs))
	for i, e := range ag.exprs {
		if e != nil {
			ag.vx[i] = compileVec(e, ag.width)
		}
	}
	return ag
}

// A source is the values of one expression over a batch: a column's
// vector, or datums computed row by row.
type source struct {
	vec *Vector
	ds  []planner.Datum
}

func (s source) datum(i int) planner.Datum {
	if s.vec != nil {
		return datumAt(s.vec, i)
	}
	return s.ds[i]
}

// consume adds one message of the scan.
func (ag *aggregator) consume(m scanMsg) (bool, error) {
	if m.partial != nil {
		ag.merge(m.partial)
	}
	if m.count > 0 {
		g := ag.single()
		for i := range ag.p.Aggs {
			g.aggs[i].n += m.count
		}
	}
	if m.b != nil {
		err := ag.consumeBatch(m.b)
		m.b.release()
		if err != nil {
			return false, err
		}
	}
	return false, m.err
}

// single is the one group of an aggregate without GROUP BY.
func (ag *aggregator) single() *group {
	if len(ag.groups) == 0 {
		ag.groups = append(ag.groups, &group{aggs: make([]aggState, len(ag.p.Aggs))})
	}
	return ag.groups[0]
}

// sources evaluates the keys and arguments over b: vectorized where they
// can be, else row by row, keys before arguments, so the first error is the
// one a row-at-a-time loop meets first (vectorized ones never fail).
func (ag *aggregator) sources(b *batch) ([]source, error) {
	srcs := make([]source, len(ag.exprs))
	var computed []int
	for i, e := range ag.exprs {
		if e == nil {
			continue
		}
		if vx := ag.vx[i]; vx != nil {
			if v, ok := vx.eval(b); ok {
				srcs[i].vec = v
				continue
			}
		}
		srcs[i].ds = make([]planner.Datum, b.n)
		computed = append(computed, i)
	}
	if len(computed) == 0 {
		return srcs, nil
	}
	for r := range b.n {
		row := ag.rb.load(b, r)
		for _, i := range computed {
			d, err := planner.Eval(ag.exprs[i], row)
			if err != nil {
				return nil, err
			}
			srcs[i].ds[r] = d
		}
	}
	return srcs, nil
}

func (ag *aggregator) consumeBatch(b *batch) error {
	if b.n == 0 {
		return nil
	}
	srcs, err := ag.sources(b)
	if err != nil {
		return err
	}
	ag.consumed += int64(b.n)
	nk := len(ag.p.GroupBy)
	var gids []int32
	if nk > 0 {
		gids = ag.groupIDs(b.n, srcs[:nk])
	} else {
		ag.single()
	}
	for ai, a := range ag.p.Aggs {
		ag.update(ai, a, srcs[nk+ai], b.n, gids)
	}
	return nil
}

// A keyKind says how groups are found: by the single key's integer or
// string, or by the encoded keys. It depends on the keys' types alone, so
// that a key computed as a vector in one batch and row by row in another
// finds the same groups.
type keyKind int8

const (
	keyEncoded keyKind = iota
	keyInt
	keyStr
)

func keyKindOf(keys []planner.Expr) keyKind {
	if len(keys) != 1 {
		return keyEncoded
	}
	switch t := keys[0].Type(); {
	case t.ID == TypeVarchar:
		return keyStr
	case t.ID == TypeUBigInt, cmpKindOf(t) == cmpInt:
		// The values Vector.Int holds; equal exactly when AppendKey's are.
		return keyInt
	}
	return keyEncoded
}

// A groupKey is one row's key in the form its keyKind looks it up by.
type groupKey struct {
	null bool
	i    int64
	s    string
}

// keyOf reads the key of a row whose key datum is d.
func (ag *aggregator) keyOf(d planner.Datum) groupKey {
	switch {
	case d.Null:
		return groupKey{null: true}
	case ag.kind == keyStr:
		return groupKey{s: d.S}
	case ag.p.GroupBy[0].Type().ID == TypeDecimal:
		if d.Big == nil {
			return groupKey{}
		}
		return groupKey{i: d.Big.Int64()}
	}
	return groupKey{i: d.I}
}

// keyAt reads row i's key of a single-key aggregate.
func (ag *aggregator) keyAt(src source, i int) groupKey {
	if v := src.vec; v != nil {
		switch {
		case v.IsNull(i):
			return groupKey{null: true}
		case ag.kind == keyInt && v.Int != nil:
			return groupKey{i: v.Int[i]}
		case ag.kind == keyStr && v.Str != nil:
			return groupKey{s: v.Str[i]}
		}
	}
	return ag.keyOf(src.datum(i))
}

// lookup finds the group of a single key, or returns -1.
func (ag *aggregator) lookup(k groupKey) int32 {
	var g int32
	var ok bool
	switch {
	case k.null:
		return ag.nullGroup
	case ag.kind == keyInt:
		g, ok = ag.byInt[k.i]
	default:
		g, ok = ag.byStr[k.s]
	}
	if !ok {
		return -1
	}
	return g
}

// add makes g the group of a single key.
func (ag *aggregator) add(k groupKey, g *group) int32 {
	ag.groups = append(ag.groups, g)
	id := int32(len(ag.groups) - 1)
	switch {
	case k.null:
		ag.nullGroup = id
	case ag.kind == keyInt:
		ag.byInt[k.i] = id
	default:
		ag.byStr[strings.Clone(k.s)] = id
	}
	return id
}

// groupIDs finds (or makes) the group of every row.
func (ag *aggregator) groupIDs(n int, keys []source) []int32 {
	gids := make([]int32, n)
	if ag.kind != keyEncoded {
		for i := range gids {
			k := ag.keyAt(keys[0], i)
			g := ag.lookup(k)
			if g < 0 {
				g = ag.add(k, ag.newGroup(keys, i))
			}
			gids[i] = g
		}
		return gids
	}
	for i := range gids {
		ag.keyBuf = ag.keyBuf[:0]
		for k, src := range keys {
			ag.keyBuf = planner.AppendKey(ag.keyBuf, src.datum(i), ag.p.GroupBy[k].Type())
		}
		g, ok := ag.byKey[string(ag.keyBuf)]
		if !ok {
			ag.groups = append(ag.groups, ag.newGroup(keys, i))
			g = int32(len(ag.groups) - 1)
			ag.byKey[string(ag.keyBuf)] = g
		}
		gids[i] = g
	}
	return gids
}

// newGroup makes the group of row i's keys, from slabs: a GROUP BY may make
// a group per row.
func (ag *aggregator) newGroup(keys []source, i int) *group {
	const slab = 256
	nk, na := len(keys), len(ag.p.Aggs)
	if len(ag.slab.groups) == 0 {
		ag.slab.groups = make([]group, slab)
		ag.slab.keys = make([]planner.Datum, slab*nk)
		ag.slab.aggs = make([]aggState, slab*na)
	}
	g := &ag.slab.groups[0]
	ag.slab.groups = ag.slab.groups[1:]
	g.keys, ag.slab.keys = ag.slab.keys[:nk:nk], ag.slab.keys[nk:]
	g.aggs, ag.slab.aggs = ag.slab.aggs[:na:na], ag.slab.aggs[na:]
	for k, src := range keys {
		g.keys[k] = src.datum(i)
	}
	return g
}

// update adds the batch's values of aggregate a (number ai) to each row's
// group: gids, or the single group when nil.
func (ag *aggregator) update(ai int, a *planner.AggCall, src source, n int, gids []int32) {
	state := func(i int) *aggState {
		if gids == nil {
			return &ag.groups[0].aggs[ai]
		}
		return &ag.groups[gids[i]].aggs[ai]
	}
	if a.Arg == nil {
		if gids == nil {
			ag.groups[0].aggs[ai].n += int64(n)
			return
		}
		for i := range n {
			state(i).n++
		}
		return
	}
	t := a.Arg.Type()
	v := src.vec
	if v == nil || a.Distinct {
		for i := range n {
			updateDatum(a, state(i), src.datum(i), t)
		}
		return
	}
	switch a.Func {
	case "count":
		for i := range n {
			if !v.IsNull(i) {
				state(i).n++
			}
		}
		return
	case "sum", "avg":
		switch {
		case v.Float != nil && (t.ID == TypeFloat || t.ID == TypeDouble):
			for i, x := range v.Float {
				if !v.IsNull(i) {
					s := state(i)
					s.n++
					s.fsum += x
				}
			}
			return
		case v.Int != nil && t.ID != TypeUBigInt && cmpKindOf(t) == cmpInt:
			for i, x := range v.Int {
				if !v.IsNull(i) {
					s := state(i)
					s.n++
					s.addInt(x)
				}
			}
			return
		}
	case "min", "max":
		isMin := a.Func == "min"
		switch {
		case v.Int != nil && cmpKindOf(t) == cmpInt:
			for i, x := range v.Int {
				if v.IsNull(i) {
					continue
				}
				if s := state(i); !s.has || (isMin && x < s.bestI) || (!isMin && x > s.bestI) {
					s.best, s.has, s.bestI = datumAt(v, i), true, x
				}
			}
			return
		case v.Int != nil && t.ID == TypeUBigInt:
			for i, x := range v.Int {
				if v.IsNull(i) {
					continue
				}
				u := uint64(x)
				if s := state(i); !s.has || (isMin && u < uint64(s.bestI)) || (!isMin && u > uint64(s.bestI)) {
					s.best, s.has, s.bestI = datumAt(v, i), true, x
				}
			}
			return
		case v.Float != nil && (t.ID == TypeFloat || t.ID == TypeDouble):
			for i, x := range v.Float {
				if v.IsNull(i) {
					continue
				}
				s := state(i)
				if !s.has {
					s.best, s.has, s.bestF = datumAt(v, i), true, x
					continue
				}
				if c := planner.CompareFloat(x, s.bestF); (isMin && c < 0) || (!isMin && c > 0) {
					s.best, s.bestF = datumAt(v, i), x
				}
			}
			return
		case v.Str != nil && t.ID == TypeVarchar:
			for i, x := range v.Str {
				if v.IsNull(i) {
					continue
				}
				if s := state(i); !s.has || (isMin && x < s.bestS) || (!isMin && x > s.bestS) {
					s.best, s.has, s.bestS = datumAt(v, i), true, x
				}
			}
			return
		}
	}
	for i := range n {
		updateDatum(a, state(i), datumAt(v, i), t)
	}
}

// rows finishes the groups into the aggregate stage's rows, HAVING applied,
// and projects them.
func (ag *aggregator) rows() ([][]planner.Datum, error) {
	p := ag.p
	groups := ag.groups
	if len(groups) == 0 && len(p.GroupBy) == 0 {
		groups = append(groups, &group{aggs: make([]aggState, len(p.Aggs))})
	}
	var rows [][]planner.Datum
	for _, g := range groups {
		arow := make([]planner.Datum, 0, len(g.keys)+len(p.Aggs))
		arow = append(arow, g.keys...)
		for i, a := range p.Aggs {
			d, err := finish(a, &g.aggs[i])
			if err != nil {
				return nil, err
			}
			arow = append(arow, d)
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
		out := make([]planner.Datum, len(p.Project))
		for i, e := range p.Project {
			d, err := planner.Eval(e, arow)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		rows = append(rows, out)
	}
	return rows, nil
}

// mergeable reports whether a plan's aggregates can be computed per row
// group and merged exactly: not when a float sum's rounding would depend
// on the order of the additions, nor with DISTINCT.
func mergeable(p *planner.Plan) bool {
	if !p.Aggregate {
		return false
	}
	for _, a := range p.Aggs {
		if a.Distinct {
			return false
		}
		if a.Func == "sum" || a.Func == "avg" {
			if t := a.Arg.Type(); t.ID == TypeFloat || t.ID == TypeDouble {
				return false
			}
		}
	}
	return true
}

// merge adds a partial aggregate of later rows: its groups in the order
// they first appeared, after the groups already here.
func (ag *aggregator) merge(o *aggregator) {
	if len(ag.p.GroupBy) == 0 {
		if len(o.groups) > 0 {
			g := ag.single()
			for i, a := range ag.p.Aggs {
				mergeState(a, &g.aggs[i], &o.groups[0].aggs[i])
			}
		}
		return
	}
	for _, og := range o.groups {
		var gi int32
		if ag.kind != keyEncoded {
			k := ag.keyOf(og.keys[0])
			if gi = ag.lookup(k); gi < 0 {
				ag.add(k, og)
				continue
			}
		} else {
			ag.keyBuf = ag.keyBuf[:0]
			for k, d := range og.keys {
				ag.keyBuf = planner.AppendKey(ag.keyBuf, d, ag.p.GroupBy[k].Type())
			}
			var ok bool
			if gi, ok = ag.byKey[string(ag.keyBuf)]; !ok {
				ag.groups = append(ag.groups, og)
				ag.byKey[string(ag.keyBuf)] = int32(len(ag.groups) - 1)
				continue
			}
		}
		g := ag.groups[gi]
		for i, a := range ag.p.Aggs {
			mergeState(a, &g.aggs[i], &og.aggs[i])
		}
	}
}

// mergeState adds src, the state of later rows, to dst.
func mergeState(a *planner.AggCall, dst, src *aggState) {
	dst.n += src.n
	switch a.Func {
	case "sum", "avg":
		if src.isum != nil {
			dst.flush()
			dst.isum.Add(dst.isum, src.isum)
		}
		dst.addInt(src.acc)
	case "min", "max":
		if !src.has {
			return
		}
		if !dst.has {
			dst.best, dst.has, dst.bestI, dst.bestF, dst.bestS = src.best, true, src.bestI, src.bestF, src.bestS
			return
		}
		// Ties keep the earlier value, as a row-at-a-time loop does.
		c := planner.Compare(src.best, dst.best, a.Arg.Type())
		if (a.Func == "min" && c < 0) || (a.Func == "max" && c > 0) {
			dst.best, dst.bestI, dst.bestF, dst.bestS = src.best, src.bestI, src.bestF, src.bestS
		}
	}
}
