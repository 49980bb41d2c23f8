package exec

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unsafe"

	"github.com/pqsql/pqsql/planner"
)

// aggState accumulates one aggregate of one group. It is small because a
// GROUP BY may make a group per row: what only min, max, DISTINCT and sums
// of big integers need lives in the aggExtra, present for those alone.
type aggState struct {
	n int64
	// acc is an integer sum, exact (int128.go).
	acc  int128
	fsum float64
	*aggExtra
}

// An aggExtra is the part of an aggState that count and plain sums do
// without.
type aggExtra struct {
	// isum adds what comes as big integers (HUGEINT, DECIMAL wider than
	// 18 digits).
	isum *big.Int
	best planner.Datum
	has  bool
	// bestI, bestF and bestS shadow best for the typed comparisons.
	bestI int64
	bestF float64
	bestS string
	// The values a DISTINCT aggregate has seen, in the set its argument's
	// type decides (distinctNew).
	distI  map[int64]struct{}
	distS  map[string]struct{}
	distin map[string]bool
	// seenAt caches strings of distS by address (firstSeenStr).
	seenAt *[256]string
	// ext is the state of an aggregate the planner's registry accumulates.
	ext planner.Accumulator
}

// needsExtra reports whether a's states need their aggExtra from the start:
// min, max, DISTINCT and the registry's accumulators use it on every row.
// A big-integer sum makes its own when it first meets one (addBig).
func needsExtra(a *planner.AggCall) bool {
	return a.Distinct || a.Func == "min" || a.Func == "max" || a.Accumulates()
}

// newAggState makes the state of one aggregate a.
func newAggState(a *planner.AggCall) aggState {
	var s aggState
	if needsExtra(a) {
		s.aggExtra = new(aggExtra)
	}
	return s
}

// newStates makes the states of one group of the aggregates aggs.
func newStates(aggs []*planner.AggCall) []aggState {
	sts := make([]aggState, len(aggs))
	for i, a := range aggs {
		if needsExtra(a) {
			sts[i].aggExtra = new(aggExtra)
		}
	}
	return sts
}

// addInt adds v to the sum.
func (s *aggState) addInt(v int64) { s.acc = s.acc.addInt(v) }

// addBig adds v to the sum.
func (s *aggState) addBig(v *big.Int) {
	if s.aggExtra == nil {
		s.aggExtra = new(aggExtra)
	}
	if s.isum == nil {
		s.isum = new(big.Int)
	}
	s.isum.Add(s.isum, v)
}

// addWide adds a value that came as a big integer (HUGEINT, DECIMAL
// wider than 18 digits): into the int128 sum while it has room, so that a
// sum of such values costs no big.Int arithmetic per row.
func (s *aggState) addWide(v *big.Int) {
	if w, ok := int128Of(v); ok {
		s.addAcc(w)
		return
	}
	s.addBig(v)
}

// addAcc adds w to the int128 sum, or to the big one when the int128 sum
// would leave the room addChecked keeps.
func (s *aggState) addAcc(w int128) {
	if r, ok := s.acc.addChecked(w); ok {
		s.acc = r
		return
	}
	s.addBig(w.big())
}

// sum is the integer sum so far.
func (s *aggState) sum() *big.Int {
	out := s.acc.big()
	if s.aggExtra != nil && s.isum != nil {
		out.Add(out, s.isum)
	}
	return out
}

// group is one GROUP BY group.
type group struct {
	keys []planner.Datum
	aggs []aggState
	// A compact group's one key is a plain integer (or NULL) held in ikey
	// (inull) rather than keys: a datum is 88 bytes, and a GROUP BY on an
	// integer column may make a group per row.
	compact bool
	inull   bool
	ikey    int64
}

// keyDatums appends g's keys to dst.
func (g *group) keyDatums(dst []planner.Datum) []planner.Datum {
	if !g.compact {
		return append(dst, g.keys...)
	}
	if g.inull {
		return append(dst, planner.NullDatum)
	}
	return append(dst, planner.Datum{I: g.ikey})
}

// key0 is g's first key.
func (g *group) key0() planner.Datum {
	if !g.compact {
		return g.keys[0]
	}
	if g.inull {
		return planner.NullDatum
	}
	return planner.Datum{I: g.ikey}
}

// isPlainInt reports whether d is NULL or exactly Datum{I: d.I}, so that
// ikey and inull give it back as it was.
func isPlainInt(d planner.Datum) bool {
	if d.Null {
		return !d.B && d.I == 0 && math.Float64bits(d.F) == 0 && d.S == "" && d.Big == nil && d.Bytes == nil && d.N == nil
	}
	return !d.B && math.Float64bits(d.F) == 0 && d.S == "" && d.Big == nil && d.Bytes == nil && d.N == nil
}

// setKey0 makes d the one key of g, compact when it can be.
func (ag *aggregator) setKey0(g *group, d planner.Datum) {
	if ag.kind == keyInt && isPlainInt(d) {
		g.keys, g.compact, g.ikey, g.inull = nil, true, d.I, d.Null
		return
	}
	g.keys, g.compact = []planner.Datum{d}, false
}

// A distinctKind is the set a DISTINCT aggregate keeps its values in: by
// the argument's type alone, so that a batch evaluated as a vector and one
// evaluated row by row meet the same set.
type distinctKind int8

const (
	distinctEncoded distinctKind = iota
	distinctInt                  // integers, DECIMAL(18) and below, dates and times
	distinctFloat                // float bits, NaNs alike and -0 as +0
	distinctStr
)

func distinctKindOf(t Type) distinctKind {
	switch cmpKindOf(t) {
	case cmpInt, cmpUint:
		return distinctInt
	case cmpFloat:
		return distinctFloat
	case cmpString:
		return distinctStr
	}
	return distinctEncoded
}

// distinctFloatKey is the set key of a float: equal for values SQL calls
// equal.
func distinctFloatKey(f float64) int64 {
	switch {
	case f != f:
		f = math.NaN()
	case f == 0:
		f = 0
	}
	return int64(math.Float64bits(f))
}

// seenInt and seenStr add a value to s's set and report whether it is new.
func (s *aggState) seenInt(x int64) bool {
	if s.distI == nil {
		s.distI = map[int64]struct{}{}
	}
	if _, ok := s.distI[x]; ok {
		return false
	}
	s.distI[x] = struct{}{}
	return true
}

func (s *aggState) seenStr(x string) bool {
	if s.distS == nil {
		s.distS = map[string]struct{}{}
	}
	if _, ok := s.distS[x]; ok {
		return false
	}
	// The batch's strings may share a reused page buffer.
	s.distS[strings.Clone(x)] = struct{}{}
	return true
}

// distinctNew adds a non-NULL datum of type t to s's set and reports
// whether it is new.
func (s *aggState) distinctNew(d planner.Datum, t Type) bool {
	switch distinctKindOf(t) {
	case distinctInt:
		x := d.I
		if d.Big != nil {
			x = d.Big.Int64()
		}
		return s.seenInt(x)
	case distinctFloat:
		return s.seenInt(distinctFloatKey(d.F))
	case distinctStr:
		return s.seenStr(d.S)
	}
	if s.distin == nil {
		s.distin = map[string]bool{}
	}
	k := string(planner.AppendKey(nil, d, t))
	if s.distin[k] {
		return false
	}
	s.distin[k] = true
	return true
}

// updateDatum adds one evaluated argument d of type t to s; distinct says
// d is to be counted only when new.
func updateDatum(a *planner.AggCall, s *aggState, d planner.Datum, t Type, distinct bool) {
	if d.Null && !a.SeesNulls() {
		return
	}
	if distinct && !s.distinctNew(d, t) {
		return
	}
	s.n++
	if a.Accumulates() {
		if s.ext == nil {
			s.ext = a.NewAccumulator()
		}
		s.ext.Add(d)
		return
	}
	switch a.Func {
	case "sum", "avg":
		switch {
		case t.ID == TypeFloat || t.ID == TypeDouble:
			s.fsum += d.F
		default:
			switch {
			case d.Big != nil:
				s.addWide(d.Big)
			case t.ID == TypeUBigInt:
				s.acc = s.acc.addUint(uint64(d.I))
			case t.ID == TypeBoolean:
				if d.B {
					s.addInt(1)
				}
			default:
				s.addInt(d.I)
			}
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

func finish(a *planner.AggCall, s *aggState) (planner.Datum, error) {
	if a.Accumulates() {
		if s.ext == nil {
			s.ext = a.NewAccumulator()
		}
		return s.ext.Result()
	}
	return finishBuiltin(a, s)
}

// finishBuiltin is finish for the aggregates exec computes itself. A sum
// past HUGEINT's range fails as DuckDB's does.
func finishBuiltin(a *planner.AggCall, s *aggState) (planner.Datum, error) {
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
		// DECIMAL(38) sums in HUGEINT too, and fails past its range.
		if (a.T.ID == planner.TypeHugeInt || wideDecimal(a.T)) && !planner.FitsHugeInt(sum) {
			return planner.Datum{}, fmt.Errorf("%w: Overflow in HUGEINT addition: sum(%s) is %s", planner.ErrOutOfRange, a.Arg, sum)
		}
		return planner.Datum{Big: sum}, nil // sum made a new big.Int
	}
	if isFloat {
		return planner.Datum{F: s.fsum / float64(s.n)}, nil
	}
	if s.aggExtra == nil || s.isum == nil {
		return planner.Datum{F: avgOf128(s.acc, s.n, t)}, nil
	}
	return planner.Datum{F: avgOf(s.sum(), s.n, t)}, nil
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
	byInt     intGroups
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
	// srcs backs sources' answer, reused from batch to batch.
	srcs []source
	// stBuf backs states; zeros, zeroIDs.
	stBuf []*aggState
	zeros []int32
	// strCache maps a string key's address to its group (groupIDs).
	// strKeys maps the addresses of several string keys to their group
	// (groupstrkeys.go), made at the first batch that needs it.
	strKeys *strKeysCache
	// codeGroups finds groups by the keys' dictionary codes (groupcodes.go).
	codeGroups codeGroups
	// gids backs groupIDs' answer, reused from batch to batch.
	gids []int32
	// few holds the per-batch sums of updateFew (groupfew.go).
	few fewBatch
	// strCache is made at the first batch that uses it: an aggregate
	// without string keys, made per row group, does without its 6 KiB.
	strCache *[256]struct {
		s string
		g int32
	}
	// slab is what is left of the slab groups are taken from. A partial
	// aggregate keeps every slab it made in slabs, for reset to hand them
	// out again from the first (slabNext).
	slab     groupSlab
	slabs    []groupSlab
	slabNext int
	// pool, for a row group's partial aggregate, takes it back once merged
	// (aggpool.go).
	pool *aggPool
	// keys holds the strings byKey and byStr are keyed by, in a partial
	// aggregate (keyString).
	keys keyArena
	// spare is the one group of a reset aggregate without GROUP BY, its
	// states empty.
	spare *group
	// extras is the number of aggregates whose states need an aggExtra.
	extras int
	// cols, when set, holds the groups instead of groups and the tables
	// (groupcols.go).
	cols *groupCols
}

func newAggregator(p *planner.Plan) *aggregator {
	ag := &aggregator{p: p, width: len(p.Input), nullGroup: -1, kind: keyKindOf(p.GroupBy),
		byStr: map[string]int32{}, byKey: map[string]int32{}}
	ag.exprs = append(ag.exprs, p.GroupBy...)
	for _, a := range p.Aggs {
		ag.exprs = append(ag.exprs, a.Arg)
	}
	for _, a := range p.Aggs {
		if needsExtra(a) {
			ag.extras++
		}
	}
	ag.cols = newGroupCols(p)
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
		g := ag.spare
		if g == nil {
			g = &group{aggs: newStates(ag.p.Aggs)}
		}
		ag.spare = nil
		ag.groups = append(ag.groups, g)
	}
	return ag.groups[0]
}

// sources evaluates the keys and arguments over b: vectorized where they
// can be, else row by row, keys before arguments, so the first error is the
// one a row-at-a-time loop meets first (vectorized ones never fail).
func (ag *aggregator) sources(b *batch) ([]source, error) {
	if cap(ag.srcs) < len(ag.exprs) {
		ag.srcs = make([]source, len(ag.exprs))
	}
	// The batch before's, which no one holds past its batch.
	srcs := ag.srcs[:len(ag.exprs)]
	clear(srcs)
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
	rowEvals.Add(int64(b.n * len(computed)))
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
	_, err := ag.consumeBatchOwned(b, false)
	return err
}

// consumeBatchOwned is consumeBatch; with own, the caller hands b over
// when it may, and taken reports that b is released by the aggregation
// (perhaps after the call returns) rather than by the caller.
func (ag *aggregator) consumeBatchOwned(b *batch, own bool) (taken bool, err error) {
	if b.n == 0 {
		return false, nil
	}
	srcs, err := ag.sources(b)
	if err != nil {
		return false, err
	}
	ag.consumed += int64(b.n)
	if ag.cols != nil {
		if own && ag.cols.consumeOwned(b, srcs) {
			return true, nil
		}
		ag.cols.consume(srcs, b.n)
		return false, nil
	}
	nk := len(ag.p.GroupBy)
	var gids []int32
	if nk > 0 {
		gids = ag.groupIDs(b.n, srcs[:nk])
	} else {
		ag.single()
	}
	for ai, a := range ag.p.Aggs {
		if gids != nil && ag.updateFew(ai, a, srcs[nk+ai], b.n, gids) { // groupfew.go
			continue
		}
		ag.update(ai, a, srcs[nk+ai], b.n, gids)
	}
	return false, nil
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
		g = ag.byInt.find(k.i)
		ok = g >= 0
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
		ag.byInt.put(k.i, id)
	default:
		// The batch's strings may share a reused page buffer.
		ag.byStr[ag.keyString(unsafe.Slice(unsafe.StringData(k.s), len(k.s)))] = id
	}
	return id
}

// groupIDs finds (or makes) the group of every row.
func (ag *aggregator) groupIDs(n int, keys []source) []int32 {
	if cap(ag.gids) < n {
		ag.gids = make([]int32, n)
	}
	gids := ag.gids[:n]
	if ag.groupIDsCodes(keys, gids) { // groupcodes.go
		return gids
	}
	if v := keys[0].vec; ag.kind == keyStr && v != nil && v.Str != nil {
		if ag.strCache == nil {
			ag.strCache = new([256]struct {
				s string
				g int32
			})
		}
		for i, x := range v.Str {
			if v.IsNull(i) || x == "" {
				gids[i] = ag.groupOf(keys, i)
				continue
			}
			// The scan makes each dictionary entry's string once, so the
			// string's address finds its group without hashing it.
			slot := &ag.strCache[(uint64(uintptr(unsafe.Pointer(unsafe.StringData(x))))*0x9E3779B97F4A7C15)>>56]
			if len(slot.s) == len(x) && unsafe.StringData(slot.s) == unsafe.StringData(x) {
				gids[i] = slot.g
				continue
			}
			g := ag.groupOf(keys, i)
			// The cache holds the string, so its bytes cannot be freed and
			// their address reused for other bytes while it is here.
			slot.s, slot.g = x, g
			gids[i] = g
		}
		return gids
	}
	if v := keys[0].vec; ag.kind == keyInt && v != nil && v.Int != nil {
		for i, x := range v.Int[:n] {
			if v.IsNull(i) {
				gids[i] = ag.groupOf(keys, i)
				continue
			}
			g, added := ag.byInt.findOrPut(x, int32(len(ag.groups)))
			if added {
				ag.groups = append(ag.groups, ag.newGroup(keys, i))
			}
			gids[i] = g
		}
		return gids
	}
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
	if cachedStrKeys(keys) {
		ag.groupIDsStrKeys(keys, gids) // groupstrkeys.go
		return gids
	}
	for i := range gids {
		gids[i] = ag.encodedGroup(keys, i)
	}
	return gids
}

// encodedGroup finds (or makes) the group of row i by its encoded keys.
func (ag *aggregator) encodedGroup(keys []source, i int) int32 {
	ag.keyBuf = ag.keyBuf[:0]
	for k, src := range keys {
		ag.keyBuf = planner.AppendKey(ag.keyBuf, src.datum(i), ag.p.GroupBy[k].Type())
	}
	g, ok := ag.byKey[string(ag.keyBuf)]
	if !ok {
		ag.groups = append(ag.groups, ag.newGroup(keys, i))
		g = int32(len(ag.groups) - 1)
		ag.byKey[ag.keyString(ag.keyBuf)] = g
	}
	return g
}

// groupOf finds (or makes) the group of row i of a single-key aggregate.
func (ag *aggregator) groupOf(keys []source, i int) int32 {
	k := ag.keyAt(keys[0], i)
	g := ag.lookup(k)
	if g < 0 {
		g = ag.add(k, ag.newGroup(keys, i))
	}
	return g
}

// newGroup makes the group of row i's keys, from slabs: a GROUP BY may make
// a group per row.
func (ag *aggregator) newGroup(keys []source, i int) *group {
	g := ag.slabGroup()
	if ag.kind == keyInt {
		ag.setKey0(g, keys[0].datum(i))
		return g
	}
	for k, src := range keys {
		g.keys[k] = src.datum(i)
	}
	return g
}

// slabGroup takes a group with empty states from the slabs.
func (ag *aggregator) slabGroup() *group {
	nk, na := len(ag.p.GroupBy), len(ag.p.Aggs)
	if ag.kind == keyInt {
		// setKey0 gives the key.
		nk = 0
	}
	if len(ag.slab.groups) == 0 {
		ag.slab = ag.nextSlab(nk, na)
	}
	g := &ag.slab.groups[0]
	ag.slab.groups = ag.slab.groups[1:]
	if nk > 0 {
		g.keys, ag.slab.keys = ag.slab.keys[:nk:nk], ag.slab.keys[nk:]
	}
	g.aggs, ag.slab.aggs = ag.slab.aggs[:na:na], ag.slab.aggs[na:]
	for k, a := range ag.p.Aggs {
		if needsExtra(a) {
			g.aggs[k].aggExtra = &ag.slab.extras[0]
			ag.slab.extras = ag.slab.extras[1:]
		}
	}
	return g
}

// A groupSlab holds the groups, keys, states and extras groups are cut
// from.
type groupSlab struct {
	groups []group
	keys   []planner.Datum
	aggs   []aggState
	extras []aggExtra
}

// nextSlab returns the next slab of groups of nk keys and na aggregates:
// one made before and emptied by reset, else a new one.
func (ag *aggregator) nextSlab(nk, na int) groupSlab {
	const most = 256
	if ag.slabNext < len(ag.slabs) {
		ag.slabNext++
		return ag.slabs[ag.slabNext-1]
	}
	// The slabs grow with the groups: a row group's partial aggregate of a
	// few groups does not take a slab of hundreds.
	size := min(most, max(16, len(ag.groups)))
	s := groupSlab{
		groups: make([]group, size),
		keys:   make([]planner.Datum, size*nk),
		aggs:   make([]aggState, size*na),
		extras: make([]aggExtra, size*ag.extras),
	}
	if ag.pool != nil {
		// Only a partial aggregate is reset; the query's lets each slab go
		// once its groups are finished (eachBatch).
		ag.slabs = append(ag.slabs, s)
		ag.slabNext++
	}
	return s
}

// adopt copies a group of a partial aggregate into this one's slabs rather
// than keeping it where it is: a slab of the partial stays whole in memory
// while any one of its groups is referenced.
func (ag *aggregator) adopt(og *group) *group {
	g := ag.slabGroup()
	if ag.kind == keyInt {
		ag.setKey0(g, og.key0())
	} else {
		copy(g.keys, og.keys)
	}
	for i := range g.aggs {
		ext := g.aggs[i].aggExtra
		g.aggs[i] = og.aggs[i]
		if ext != nil && og.aggs[i].aggExtra != nil {
			*ext = *og.aggs[i].aggExtra
			g.aggs[i].aggExtra = ext
		}
	}
	return g
}

// update adds the batch's values of aggregate a (number ai) to each row's
// group: gids, or the single group when nil.
func (ag *aggregator) update(ai int, a *planner.AggCall, src source, n int, gids []int32) {
	if a.Arg == nil {
		if gids == nil {
			ag.groups[0].aggs[ai].n += int64(n)
			return
		}
		for _, g := range gids[:n] {
			ag.groups[g].aggs[ai].n++
		}
		return
	}
	// Row i's state is &groups[gids[i]].aggs[ai]: found by index rather
	// than through a slice of pointers, whose writes would each pass the
	// garbage collector's write barrier. Without groups, gids is all 0.
	single := gids == nil
	if single {
		gids = ag.zeroIDs(n)
	}
	groups := ag.groups
	t := a.Arg.Type()
	v := src.vec
	if v == nil {
		for i := range n {
			updateDatum(a, &groups[gids[i]].aggs[ai], src.datum(i), t, a.Distinct)
		}
		return
	}
	if a.Distinct {
		// Keep the rows whose value is new to its group, then fold them
		// in as any other rows.
		sel := firstSeen(v, t, n, ag.states(ai, n, gids), single)
		v = v.take(sel)
		gids = takeSlice(gids, sel)
		n = len(sel)
	}
	switch a.Func {
	case "count":
		for i := range n {
			if !v.IsNull(i) {
				groups[gids[i]].aggs[ai].n++
			}
		}
		return
	case "sum", "avg":
		switch {
		case a.Accumulates():
			// avg of temporal values: the registry's accumulator, below.
		case v.Float != nil && (t.ID == TypeFloat || t.ID == TypeDouble) && single && v.Nulls == nil:
			// One group and no NULL: the sum stays in a register, in the
			// same order.
			s := &groups[0].aggs[ai]
			sum := s.fsum
			for _, x := range v.Float {
				sum += x
			}
			s.fsum, s.n = sum, s.n+int64(len(v.Float))
			return
		case v.Float != nil && (t.ID == TypeFloat || t.ID == TypeDouble):
			for i, x := range v.Float {
				if !v.IsNull(i) {
					s := &groups[gids[i]].aggs[ai]
					s.n++
					s.fsum += x
				}
			}
			return
		case v.Int != nil && t.ID != TypeUBigInt && cmpKindOf(t) == cmpInt && single && v.Nulls == nil:
			s := &groups[0].aggs[ai]
			acc := s.acc
			for _, x := range v.Int {
				acc = acc.addInt(x)
			}
			s.acc, s.n = acc, s.n+int64(len(v.Int))
			return
		case v.Int != nil && t.ID != TypeUBigInt && cmpKindOf(t) == cmpInt:
			for i, x := range v.Int {
				if !v.IsNull(i) {
					s := &groups[gids[i]].aggs[ai]
					s.n++
					s.addInt(x)
				}
			}
			return
		case v.Int != nil && t.ID == TypeUBigInt:
			for i, x := range v.Int {
				if !v.IsNull(i) {
					s := &groups[gids[i]].aggs[ai]
					s.n++
					s.acc = s.acc.addUint(uint64(x))
				}
			}
			return
		case v.Big != nil:
			for i, x := range v.Big {
				if !v.IsNull(i) {
					s := &groups[gids[i]].aggs[ai]
					s.n++
					s.addWide(x)
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
				if s := &groups[gids[i]].aggs[ai]; !s.has || (isMin && x < s.bestI) || (!isMin && x > s.bestI) {
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
				if s := &groups[gids[i]].aggs[ai]; !s.has || (isMin && u < uint64(s.bestI)) || (!isMin && u > uint64(s.bestI)) {
					s.best, s.has, s.bestI = datumAt(v, i), true, x
				}
			}
			return
		case v.Float != nil && (t.ID == TypeFloat || t.ID == TypeDouble):
			for i, x := range v.Float {
				if v.IsNull(i) {
					continue
				}
				s := &groups[gids[i]].aggs[ai]
				if !s.has {
					s.best, s.has, s.bestF = datumAt(v, i), true, x
					continue
				}
				if c := planner.CompareFloat(x, s.bestF); (isMin && c < 0) || (!isMin && c > 0) {
					s.best, s.bestF = datumAt(v, i), x
				}
			}
			return
		case v.Str != nil && t.ID == TypeVarchar && ag.minMaxCodes(ai, isMin, v, n, gids):
			return
		case v.Str != nil && t.ID == TypeVarchar:
			for i, x := range v.Str {
				if v.IsNull(i) {
					continue
				}
				if s := &groups[gids[i]].aggs[ai]; !s.has || (isMin && x < s.bestS) || (!isMin && x > s.bestS) {
					s.best, s.has, s.bestS = datumAt(v, i), true, x
				}
			}
			return
		}
	}
	for i := range n {
		updateDatum(a, &groups[gids[i]].aggs[ai], datumAt(v, i), t, false)
	}
}

// firstSeen returns the non-NULL rows of v whose value is new to the set
// of its row's state.
func firstSeen(v *Vector, t Type, n int, sts []*aggState, single bool) []int32 {
	sel := make([]int32, 0, n)
	kind := distinctKindOf(t)
	if single && kind == distinctStr && v.Str != nil && n > 0 {
		return firstSeenStr(v, n, sts[0])
	}
	for i := range n {
		if v.IsNull(i) {
			continue
		}
		var isNew bool
		switch {
		case kind == distinctInt && v.Int != nil:
			isNew = sts[i].seenInt(v.Int[i])
		case kind == distinctFloat && v.Float != nil:
			isNew = sts[i].seenInt(distinctFloatKey(v.Float[i]))
		case kind == distinctStr && v.Str != nil:
			isNew = sts[i].seenStr(v.Str[i])
		default:
			isNew = sts[i].distinctNew(datumAt(v, i), t)
		}
		if isNew {
			sel = append(sel, int32(i))
		}
	}
	return sel
}

// firstSeenStr is firstSeen for strings into one state. A string seen
// before at the same address (the scan makes each dictionary entry's string
// once) is known without hashing it.
func firstSeenStr(v *Vector, n int, s *aggState) []int32 {
	if s.seenAt == nil {
		s.seenAt = new([256]string)
	}
	var sel []int32
	for i, x := range v.Str[:n] {
		if v.IsNull(i) {
			continue
		}
		p := unsafe.StringData(x)
		slot := &s.seenAt[(uint64(uintptr(unsafe.Pointer(p)))*0x9E3779B97F4A7C15)>>56]
		if x != "" && len(*slot) == len(x) && unsafe.StringData(*slot) == p {
			continue
		}
		if s.seenStr(x) {
			sel = append(sel, int32(i))
		}
		// Held here, the string's bytes cannot be freed and their address
		// reused while the slot names them.
		*slot = x
	}
	return sel
}

// zeroIDs returns n group ids of the one group of an aggregate without
// GROUP BY, which no one writes: a batch's from the zeros every aggregator
// shares (a row group's partial aggregate is made for a few batches).
func (ag *aggregator) zeroIDs(n int) []int32 {
	if n <= len(sharedZeroIDs) {
		return sharedZeroIDs[:n:n]
	}
	if cap(ag.zeros) < n {
		ag.zeros = make([]int32, n)
	}
	return ag.zeros[:n]
}

// sharedZeroIDs are the group ids of a batch of an aggregate without GROUP
// BY; read only.
var sharedZeroIDs [BatchSize]int32

// states returns each row's state of aggregate ai, in a buffer reused
// from batch to batch.
func (ag *aggregator) states(ai, n int, gids []int32) []*aggState {
	if cap(ag.stBuf) < n {
		ag.stBuf = make([]*aggState, n)
	}
	sts := ag.stBuf[:n]
	if gids == nil {
		s := &ag.groups[0].aggs[ai]
		for i := range sts {
			sts[i] = s
		}
		return sts
	}
	for i, g := range gids[:n] {
		sts[i] = &ag.groups[g].aggs[ai]
	}
	return sts
}

// eachBatch finishes the groups into batches of the first n columns of
// types and hands them to fn one by one, for a plan that neither sorts nor
// limits nor deduplicates its groups: a batch's worth of rows is made at a
// time rather than all at once. fn returning stop ends it.
//
// It is the aggregator's last use: its lookup tables are dropped first and
// each group once finished, so that the memory of the groups is freed as
// that of the output grows, where a GROUP BY may make a group per row.
func (ag *aggregator) eachBatch(types []Type, n int, fn func(b *batch) (stop bool, err error)) error {
	if ag.cols != nil {
		return ag.eachColsBatch(types, n, fn)
	}
	groups := ag.finalGroups()
	ag.groups, ag.byInt, ag.byStr, ag.byKey = nil, intGroups{}, nil, nil
	ag.strCache = nil
	ag.strKeys = nil
	ag.codeGroups = codeGroups{}
	if cols, ok := ag.plainColumns(n); ok {
		// Each column is a key or an aggregate as is: they are finished
		// straight into the columns, without rows or expressions.
		for len(groups) > 0 {
			chunk := groups[:min(len(groups), BatchSize)]
			groups = groups[len(chunk):]
			b := &batch{cols: make([]*Vector, n), n: len(chunk)}
			for c, src := range cols {
				v := newResultVector(types[c], len(chunk))
				if err := ag.finishColumn(v, src, chunk); err != nil {
					return err
				}
				b.cols[c] = v
			}
			clear(chunk)
			if stop, err := fn(b); stop || err != nil {
				return err
			}
		}
		return nil
	}
	w := len(ag.p.Project)
	rb := newRowBatcher(w, types[:n], fn)
	var arow []planner.Datum
	for i, g := range groups {
		row := rb.next()
		kept, err := ag.project(g, &arow, row)
		groups[i] = nil
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
	return rb.flush()
}

// plainColumns reports whether the first n projected columns are each a
// group key or an aggregate, unchanged and without HAVING, and returns
// their indexes into the aggregate stage's row (keys, then aggregates).
func (ag *aggregator) plainColumns(n int) ([]int, bool) {
	p := ag.p
	if p.Having != nil || n > len(p.Project) {
		return nil, false
	}
	cols := make([]int, n)
	for c, e := range p.Project[:n] {
		ref, ok := e.(*planner.ColRef)
		if !ok || ref.Index < 0 || ref.Index >= len(p.GroupBy)+len(p.Aggs) {
			return nil, false
		}
		cols[c] = ref.Index
	}
	return cols, true
}

// finishColumn appends to v the value of the aggregate stage's column src
// (a key, then the aggregates) of each group.
func (ag *aggregator) finishColumn(v *Vector, src int, groups []*group) error {
	nk := len(ag.p.GroupBy)
	if src < nk {
		for _, g := range groups {
			switch {
			case !g.compact:
				v.appendDatum(g.keys[src])
			case g.inull:
				v.appendNull()
			default:
				v.appendDatum(planner.Datum{I: g.ikey})
			}
		}
		return nil
	}
	ai := src - nk
	a := ag.p.Aggs[ai]
	if (a.Func == "count" || a.Func == "count_star") && !a.Accumulates() && v.Type.ID == TypeBigInt {
		for _, g := range groups {
			v.Int = append(v.Int, g.aggs[ai].n)
			v.markNotNull()
		}
		return nil
	}
	for _, g := range groups {
		d, err := finish(a, &g.aggs[ai])
		if err != nil {
			return err
		}
		v.appendDatum(d)
	}
	return nil
}

// finalGroups is the groups to finish: an aggregate without GROUP BY has
// its one row even over no input.
func (ag *aggregator) finalGroups() []*group {
	if len(ag.groups) == 0 && len(ag.p.GroupBy) == 0 {
		return []*group{{aggs: newStates(ag.p.Aggs)}}
	}
	return ag.groups
}

// project finishes g into out, one datum per projected column, and reports
// whether HAVING keeps it. arow is a buffer reused from group to group:
// Eval copies what it keeps.
func (ag *aggregator) project(g *group, arow *[]planner.Datum, out []planner.Datum) (bool, error) {
	p := ag.p
	r := g.keyDatums((*arow)[:0])
	for i, a := range p.Aggs {
		d, err := finish(a, &g.aggs[i])
		if err != nil {
			return false, err
		}
		r = append(r, d)
	}
	*arow = r
	return ag.projectRow(r, out)
}

// projectRow projects one row of the aggregate stage (keys, then
// aggregates) into out and reports whether HAVING keeps it.
func (ag *aggregator) projectRow(r, out []planner.Datum) (bool, error) {
	p := ag.p
	if p.Having != nil {
		d, err := planner.Eval(p.Having, r)
		if err != nil {
			return false, err
		}
		if !planner.IsTrue(d) {
			return false, nil
		}
	}
	for i, e := range p.Project {
		d, err := planner.Eval(e, r)
		if err != nil {
			return false, err
		}
		out[i] = d
	}
	return true, nil
}

// mergeable reports whether a plan's aggregates can be computed per row
// group and merged exactly: not when a float sum's rounding would depend
// on the order of the additions, nor for sum and avg of DISTINCT values
// (count(DISTINCT) merges its sets).
func mergeable(p *planner.Plan) bool {
	if !p.Aggregate {
		return false
	}
	for _, a := range p.Aggs {
		if a.Distinct && a.Func != "count" && a.Func != "min" && a.Func != "max" {
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
// they first appeared, after the groups already here. It is o's last use:
// o goes back to its pool, if it has one.
func (ag *aggregator) merge(o *aggregator) {
	defer o.recycle()
	if ag.cols != nil {
		ag.cols.merge(o.cols)
		return
	}
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
			k := ag.keyOf(og.key0())
			if gi = ag.lookup(k); gi < 0 {
				ag.add(k, ag.adopt(og))
				continue
			}
		} else {
			ag.keyBuf = ag.keyBuf[:0]
			for k, d := range og.keys {
				ag.keyBuf = planner.AppendKey(ag.keyBuf, d, ag.p.GroupBy[k].Type())
			}
			var ok bool
			if gi, ok = ag.byKey[string(ag.keyBuf)]; !ok {
				ag.groups = append(ag.groups, ag.adopt(og))
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

// mergeSets adds the values of src's DISTINCT set to dst's.
func mergeSets(dst, src *aggState) {
	if dst.distI == nil {
		dst.distI, src.distI = src.distI, nil
	}
	for x := range src.distI {
		dst.distI[x] = struct{}{}
	}
	if dst.distS == nil {
		dst.distS, src.distS = src.distS, nil
	}
	for x := range src.distS {
		dst.distS[x] = struct{}{}
	}
	if dst.distin == nil {
		dst.distin, src.distin = src.distin, nil
	}
	for x := range src.distin {
		dst.distin[x] = true
	}
}

// mergeState adds src, the state of later rows, to dst.
func mergeState(a *planner.AggCall, dst, src *aggState) {
	if a.Distinct {
		mergeSets(dst, src)
		if a.Func == "count" {
			dst.n = int64(len(dst.distI) + len(dst.distS) + len(dst.distin))
			return
		}
	}
	dst.n += src.n
	if src.aggExtra != nil && src.ext != nil {
		if dst.ext == nil {
			dst.ext = src.ext
		} else {
			dst.ext.Merge(src.ext)
		}
		return
	}
	switch a.Func {
	case "sum", "avg":
		if src.aggExtra != nil && src.isum != nil {
			dst.addBig(src.isum)
		}
		dst.addAcc(src.acc)
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
