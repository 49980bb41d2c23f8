package exec

import (
	"context"
	"encoding/binary"
	"slices"
	"sort"
	"sync"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
)

// A colJudge is the conjuncts of a WHERE that read one column alone. On a
// dictionary-encoded page it is evaluated once per dictionary entry (and
// once for NULL), and a row's truth is then its entry's: rows that fail are
// dropped by their dictionary index, their values never made.
type colJudge struct {
	col  int
	node pnode
	// picks, when not 0, is how many values one of the conjuncts keeps the
	// rows of (=, IN): likely few rows of a column of many values.
	picks int
}

// judgedWhere splits a WHERE that cannot fail into judges, one per column
// read by conjuncts of that column alone, and the conjunction of the other
// conjuncts (nil when none). ok is false when there is nothing to
// judge by column. A WHERE that may fail is left whole: which rows reach a
// failing conjunct must not change.
func judgedWhere(where planner.Expr, f *filter, width int, cols map[int]bool) (judges []colJudge, residual planner.Expr, ok bool) {
	if f == nil || !f.root.cheap() {
		return nil, nil, false
	}
	conj := []planner.Expr{where}
	if l, isAnd := where.(*planner.Logic); isAnd && l.And {
		conj = l.Xs
	}
	byCol := map[int][]planner.Expr{}
	var rest []planner.Expr
	for _, x := range conj {
		set := map[int]bool{}
		planner.Columns(x, set)
		if len(set) == 1 {
			for c := range set {
				if cols[c] {
					byCol[c] = append(byCol[c], x)
					continue
				}
				rest = append(rest, x)
			}
			continue
		}
		rest = append(rest, x)
	}
	if len(byCol) == 0 {
		return nil, nil, false
	}
	for c, xs := range byCol {
		var node pnode
		if len(byCol) == 1 && len(rest) == 0 {
			// The WHERE is this column's conjuncts alone, compiled
			// already: an IN list's set is not made twice.
			node = f.root
		} else {
			node = compile(conjunction(xs), width)
		}
		j := colJudge{col: c, node: node}
		for _, x := range xs {
			if n := valuesPicked(x); n > 0 && (j.picks == 0 || n < j.picks) {
				j.picks = n
			}
		}
		judges = append(judges, j)
	}
	sort.Slice(judges, func(i, j int) bool { return judges[i].col < judges[j].col })
	if len(rest) > 0 {
		residual = conjunction(rest)
	}
	return judges, residual, true
}

// valuesPicked is how many constants x keeps the rows holding one of, as
// col = constant or col IN (constants); 0 for any other x.
func valuesPicked(x planner.Expr) int {
	switch x := x.(type) {
	case *planner.Binary:
		_, l := x.L.(*planner.Const)
		_, r := x.R.(*planner.Const)
		if x.Op == "=" && (l || r) {
			return 1
		}
	case *planner.InList:
		isConst := func(e planner.Expr) bool { _, ok := e.(*planner.Const); return ok }
		if !x.Not && !slices.ContainsFunc(x.List, func(e planner.Expr) bool { return !isConst(e) }) {
			return len(x.List)
		}
	}
	return 0
}

// conjunction is the AND of xs.
func conjunction(xs []planner.Expr) planner.Expr {
	if len(xs) == 1 {
		return xs[0]
	}
	return &planner.Logic{And: true, Xs: xs}
}

// judgeable reports whether column c of the row group can be judged by
// dictionary: a flat leaf whose chunk has a dictionary page.
func judgeable(f *format.File, rg int, fl *format.Field) bool {
	if fl == nil || fl.Kind != format.ScalarField || fl.Leaf.MaxRep > 0 {
		return false
	}
	md := f.Chunk(rg, fl.Leaf.Index).MetaData
	if md.DictionaryPageOffset != nil && *md.DictionaryPageOffset > 0 {
		return true
	}
	for _, e := range md.Encodings {
		if e == meta.PlainDictionary || e == meta.RLEDictionary {
			return true
		}
	}
	return false
}

// A dictVector is a chunk's dictionary converted to the column's type:
// numbers all at once, strings entry by entry as rows need them, since a
// large dictionary may serve a few rows.
type dictVector struct {
	src *format.Values
	vec *Vector
	// strs[i] is entry i as a string once have[i] is set.
	strs []string
	have []bool
	// truth is the judge's verdict on every entry, then on NULL; nil until
	// judged. It is held in truthBuf, borrowed from dictTruths.
	truth    []uint8
	truthBuf *[]uint8
	// pooled: vec was taken from dictVecs, and goes back on drop.
	pooled bool
}

// dictVecs holds the vectors dictionaries of numbers were converted into,
// for the next row group's dictionaries: a scan converts one a column and
// row group, and nothing but its reader reads it (values are copied out).
var dictVecs sync.Pool

// numberVector is an empty vector of dictVecs, or a new one, of type t,
// which holds its values as Int or Float, with room for n values.
func numberVector(t Type, n int) *Vector {
	v, _ := dictVecs.Get().(*Vector)
	if v == nil {
		v = &Vector{}
	}
	// Only the slice of t's values is set: readers tell a vector's kind by
	// which one is.
	if t.ID == TypeFloat || t.ID == TypeDouble {
		*v = Vector{Type: t, Float: room(v.Float, n)}
	} else {
		*v = Vector{Type: t, Int: room(v.Int, n)}
	}
	return v
}

// heldAsNumbers reports whether newVector holds values of type t as Int or
// Float.
func heldAsNumbers(t Type) bool {
	switch {
	case t.ID == TypeFloat || t.ID == TypeDouble:
		return true
	case t.ID == TypeBoolean, t.ID == TypeVarchar, wideDecimal(t), t.ID == TypeBlob, t.ID == TypeUUID, t.ID == TypeInterval, t.ID == TypeNested:
		return false
	}
	return true
}

// dictTruths holds the verdict buffers of whole dictionaries given back,
// for later dictionaries: apart from the filter's batch-sized truthPool (a
// dictionary's verdicts taking a batch's buffer would find it too small
// and make another), and kept through garbage collections, which drop a
// sync.Pool's, up to maxIdleTruthBytes: a scan judges a dictionary of much
// the same size row group after row group.
var dictTruths struct {
	mu   sync.Mutex
	free []*[]uint8
	idle int
}

// maxIdleTruthBytes bounds the verdict buffers dictTruths keeps.
const maxIdleTruthBytes = 1 << 20

// borrowDictTruth lends a zeroed verdict buffer of n entries; drop gives
// it back.
func borrowDictTruth(n int) *[]uint8 {
	dt := &dictTruths
	dt.mu.Lock()
	var p *[]uint8
	for i, b := range dt.free {
		if cap(*b) >= n {
			p = b
			dt.free = slices.Delete(dt.free, i, i+1)
			dt.idle -= cap(*b)
			break
		}
	}
	dt.mu.Unlock()
	if p == nil {
		// An eighth more: the dictionaries of a column's row groups
		// differ by a few entries, and one a little larger than the
		// buffer at hand would otherwise make another.
		b := make([]uint8, n, n+n/8)
		p = &b
	}
	*p = (*p)[:n]
	// An entry a node leaves unwritten reads FALSE, as in a new buffer.
	clear(*p)
	return p
}

// putDictTruth gives a verdict buffer back to dictTruths, or to the
// collector past maxIdleTruthBytes.
func putDictTruth(p *[]uint8) {
	dt := &dictTruths
	dt.mu.Lock()
	defer dt.mu.Unlock()
	if dt.idle+cap(*p) > maxIdleTruthBytes {
		return
	}
	dt.free = append(dt.free, p)
	dt.idle += cap(*p)
}

// drop hands back the storage dv borrowed; nothing reads its verdicts after.
func (dv *dictVector) drop() {
	if dv == nil {
		return
	}
	if dv.truthBuf != nil {
		putDictTruth(dv.truthBuf)
		dv.truth, dv.truthBuf = nil, nil
	}
	if v := dv.vec; dv.pooled {
		*v = Vector{Int: v.Int[:0], Float: v.Float[:0]}
		dictVecs.Put(v)
		dv.vec, dv.pooled = nil, false
	}
}

// dictFor returns the converted dictionary d, for vectors of type t.
func (r *flatReader) dictFor(d *format.Values, t Type) *dictVector {
	if r.dv != nil && r.dv.src == d {
		return r.dv
	}
	r.dv.drop()
	dv := &dictVector{src: d}
	n := d.Len()
	switch {
	case r.lg.Kind == format.KindString:
		dv.strs, dv.have = make([]string, n), make([]bool, n)
	case sameInts(r.lg, d, t):
		// Read as they are: a dictionary of a hundred thousand numbers
		// is not copied to serve a page.
		dv.vec = &Vector{Type: t, Int: d.Int64[:n:n]}
	case heldAsNumbers(t):
		dv.vec, dv.pooled = numberVector(t, n), true
		appendValues(dv.vec, r.lg, d, 0, n, &r.strs)
	default:
		dv.vec = newVector(t, n)
		appendValues(dv.vec, r.lg, d, 0, n, &r.strs)
	}
	r.dv = dv
	return dv
}

// releaseDicts hands back the storage of the dictionaries of numbers the
// readers of a row group met, once the row group is read: every value
// taken from them was copied, and the next row group's dictionaries can be
// decoded into it rather than into fresh memory.
func releaseDicts(readers []colReader) {
	for _, r := range readers {
		if fr, ok := r.(*flatReader); ok && fr.dict != nil {
			format.ReleaseDictionary(fr.dict)
			fr.dv.drop()
			fr.dict, fr.dv = nil, nil
		}
	}
}

// sparseDictRows: rows fewer than a dictionary's entries over this many
// convert their entries one by one.
const sparseDictRows = 64

// sameInts reports whether appendValues would copy the int64 values of d
// into a vector of type t unchanged.
func sameInts(lg format.Logical, d *format.Values, t Type) bool {
	if d.Type != meta.Int64 || d.Len() == 0 {
		return false
	}
	switch lg.Kind {
	case format.KindInt64, format.KindUint64:
		return true
	case format.KindDecimal:
		return !wideDecimal(t)
	case format.KindTimestamp, format.KindTimestampTZ:
		return t.ID == TypeTimestampNS || lg.Unit == meta.Micros
	}
	return false
}

// appendDict appends the dictionary entries idx to dst.
func (r *flatReader) appendDict(dst *Vector, d *format.Values, idx []int32) {
	n := len(idx)
	if n == 0 {
		return
	}
	if r.lg.Kind != format.KindString && (r.dv == nil || r.dv.src != d) && n*sparseDictRows < d.Len() {
		// A few rows of a large dictionary (a sorted limit's survivors)
		// convert their entries alone, not the whole dictionary.
		for _, i := range idx {
			appendValues(dst, r.lg, d, int(i), int(i)+1, &r.strs)
		}
		return
	}
	dv := r.dictFor(d, dst.Type)
	switch {
	case dv.vec == nil:
		dst.noteCodes(dv, idx)
		var out []string
		dst.Str, out = extend(dst.Str, n)
		for k, i := range idx {
			if !dv.have[i] {
				dv.strs[i], dv.have[i] = r.strs.str(d.Bytes[i]), true
			}
			out[k] = dv.strs[i]
		}
	case dv.vec.Int != nil:
		var out []int64
		dst.Int, out = extend(dst.Int, n)
		for k, i := range idx {
			out[k] = dv.vec.Int[i]
		}
	case dv.vec.Float != nil:
		var out []float64
		dst.Float, out = extend(dst.Float, n)
		for k, i := range idx {
			out[k] = dv.vec.Float[i]
		}
	default:
		for _, i := range idx {
			dst.appendRow(dv.vec, int(i))
		}
		return
	}
	if dst.Nulls != nil {
		var out []bool
		dst.Nulls, out = extend(dst.Nulls, n)
		clear(out)
	}
}

// judgeDict returns j's verdict on every entry of dictionary d and, last,
// on NULL.
func (r *flatReader) judgeDict(j *colJudge, d *format.Values, t Type, width int) ([]uint8, error) {
	dv := r.dictFor(d, t)
	if dv.truth != nil {
		return dv.truth, nil
	}
	n := d.Len()
	v := dv.vec
	if v == nil {
		for i := range n {
			if !dv.have[i] {
				dv.strs[i], dv.have[i] = r.strs.str(d.Bytes[i]), true
			}
		}
		v = &Vector{Type: t, Str: dv.strs}
	}
	// The entries are judged where they are, and NULL in a batch of its
	// own: a dictionary of a hundred thousand entries is not copied to
	// gain one row.
	// Borrowed: a verdict a byte for each of a hundred thousand entries,
	// row group after row group.
	dv.truthBuf = borrowDictTruth(n + 1)
	truth := *dv.truthBuf
	// In windows of judgeWindow entries, so that the selection of every
	// entry is one small one shared for good, not one as long as the
	// largest dictionary.
	b := &batch{cols: make([]*Vector, width)}
	var w Vector
	b.cols[j.col] = &w
	for lo := 0; lo < n; lo += judgeWindow {
		hi := min(lo+judgeWindow, n)
		entryWindow(&w, v, lo, hi)
		b.n = hi - lo
		if err := j.node.eval(b, windowRows[:hi-lo:hi-lo], truth[lo:hi]); err != nil {
			return nil, err
		}
	}
	null := newVector(t, 1)
	null.appendNull()
	b = &batch{cols: make([]*Vector, width), n: 1}
	b.cols[j.col] = null
	if err := j.node.eval(b, []int32{0}, truth[n:]); err != nil {
		return nil, err
	}
	dv.truth = truth
	return truth, nil
}

// judgeWindow is how many dictionary entries are judged at a time, at
// most BatchSize; tests make it small to judge the fixtures' dictionaries
// in many windows.
var judgeWindow = BatchSize

// windowRows is 0, 1, 2, ... judgeWindow-1, shared read-only by every
// judging of a dictionary as its selection of a window's entries.
var windowRows = allRows(BatchSize)

// entryWindow makes w the entries [lo, hi) of dictionary vector v,
// sharing its values. The entries' codes are not kept: they number the
// whole dictionary.
func entryWindow(w, v *Vector, lo, hi int) {
	*w = Vector{Type: v.Type}
	if v.Nulls != nil {
		w.Nulls = v.Nulls[lo:hi:hi]
	}
	if v.Int != nil {
		w.Int = v.Int[lo:hi:hi]
	}
	if v.Float != nil {
		w.Float = v.Float[lo:hi:hi]
	}
	if v.Bool != nil {
		w.Bool = v.Bool[lo:hi:hi]
	}
	if v.Str != nil {
		w.Str = v.Str[lo:hi:hi]
	}
	if v.Bytes != nil {
		w.Bytes = v.Bytes[lo:hi:hi]
	}
	if v.Big != nil {
		w.Big = v.Big[lo:hi:hi]
	}
	if v.Nested != nil {
		w.Nested = v.Nested[lo:hi:hi]
	}
}

// keptPool holds buffers of the rows judges keep, for the judges of later
// row groups: a selective judge keeps many ranges of a row each, which a
// buffer of its own would grow to, doubling, row group after row group.
var keptPool = sync.Pool{New: func() any { return new([]rowRange) }}

// putKept gives buf, when not nil, back to keptPool.
func putKept(buf *[]rowRange) {
	if buf != nil {
		*buf = (*buf)[:0]
		keptPool.Put(buf)
	}
}

// selectRows appends to dst the rows of ranges for which j is TRUE, and
// returns how many they are; with count set, only how many. It walks the pages as gather
// does; a dictionary-encoded page is judged by its dictionary, any other by
// its values. keep, when not nil, carries the column's values of the rows
// returned, taken from each page as it is judged, so that the column need
// not be read again.
func (r *flatReader) selectRows(ctx context.Context, dst, ranges []rowRange, j *colJudge, t Type, width int, count bool, keep *carry) ([]rowRange, int64, error) {
	out := dst
	var res []uint8
	var sel []int32
	var kept int64
	r.judging = rowCount(ranges)
	var spans []rowRange
	for c := (runCursor{rs: ranges}); ; {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		runs := c.next(BatchSize)
		if runs == nil {
			return out, kept, nil
		}
		n := 0
		for _, run := range runs {
			n += int(run.Len())
		}
		res = extendZero(res[:0], n)
		var into *Vector
		if keep != nil && !keep.dropped {
			into = keep.target(j.col, t)
		}
		if err := r.judgeRunsKeeping(j, t, width, runs, res, into, &spans); err != nil {
			return nil, 0, err
		}
		if into != nil {
			keep.grew(into)
		}
		if count {
			// TRUE is the only truth with bit 0 set.
			for _, x := range res {
				kept += int64(x & tTrue)
			}
			continue
		}
		sel = sel[:0]
		for i, x := range res {
			if x == tTrue {
				sel = append(sel, int32(i))
			}
		}
		kept += int64(len(sel))
		out = appendSelected(out, runs, sel)
	}
}

// judgeRuns writes j's verdict on the rows runs to res, one a row.
func (r *flatReader) judgeRuns(j *colJudge, t Type, width int, runs []rowRange, res []uint8) error {
	return r.judgeRunsKeeping(j, t, width, runs, res, nil, nil)
}

// judgeRunsKeeping is judgeRuns that, given into, appends to it the values
// of the rows judged TRUE, from each page while it is the current one: a
// reader that streams cannot go back to it. spans is scratch.
func (r *flatReader) judgeRunsKeeping(j *colJudge, t Type, width int, runs []rowRange, res []uint8, into *Vector, spans *[]rowRange) error {
	pos := 0
	for _, run := range runs {
		for row := run.First; row < run.End; {
			if err := r.seekPage(row); err != nil {
				return err
			}
			end := min(run.End, r.p.FirstRow+r.p.NumRows)
			e0 := r.p.FirstEntry + int(row-r.p.FirstRow)
			k := int(end - row)
			if into != nil && r.cd.Def != nil {
				// Judging moves the cursor past the entries; it comes
				// back to their first to take the kept ones.
				r.seek(e0)
			}
			e, v := r.e, r.v
			if err := r.judgeEntries(j, t, width, e0, k, res[pos:pos+k]); err != nil {
				return err
			}
			if into != nil {
				r.e, r.v = e, v
				*spans = trueSpans((*spans)[:0], res[pos:pos+k], row)
				if err := r.gather(into, *spans); err != nil {
					return err
				}
			}
			pos += k
			row = end
		}
	}
	return nil
}

// trueSpans appends the runs of rows judged TRUE in res, the verdicts on
// the rows from first on.
func trueSpans(dst []rowRange, res []uint8, first int64) []rowRange {
	for i := 0; i < len(res); {
		if res[i] != tTrue {
			i++
			continue
		}
		s := i
		for i < len(res) && res[i] == tTrue {
			i++
		}
		dst = append(dst, rowRange{First: first + int64(s), End: first + int64(i)})
	}
	return dst
}

// judgeEntries writes j's verdict on entries [e0, e0+n) of the current page
// to res.
func (r *flatReader) judgeEntries(j *colJudge, t Type, width, e0, n int, res []uint8) error {
	cd := r.cd
	// A dictionary larger than the rows to judge is cheaper passed over:
	// the rows' own values are judged.
	if cd.Dict == nil || int64(cd.Dict.Len()) > r.judging {
		tmp := newVector(t, n)
		if err := r.appendEntries(tmp, r.p, e0, n); err != nil {
			return err
		}
		b := &batch{cols: make([]*Vector, width), n: n}
		b.cols[j.col] = tmp
		return j.node.eval(b, allRows(n), res)
	}
	truth, err := r.judgeDict(j, cd.Dict, t, width)
	if err != nil {
		return err
	}
	null := truth[len(truth)-1]
	idx := cd.Indices
	if cd.Def == nil {
		v0 := r.p.FirstValue + (e0 - r.p.FirstEntry)
		if v0 < 0 || v0+n > len(idx) {
			return errCorrupt(r.name, "fewer values than entries")
		}
		for k, i := range idx[v0 : v0+n] {
			res[k] = truth[i]
		}
		return nil
	}
	r.seek(e0)
	def := cd.Def
	for k := range n {
		if def[e0+k] != r.max {
			res[k] = null
			continue
		}
		if r.v >= len(idx) {
			return errCorrupt(r.name, "fewer values than non-null entries")
		}
		res[k] = truth[idx[r.v]]
		r.v++
	}
	r.e = e0 + n
	return nil
}

// rowCount counts the rows of ranges.
func rowCount(ranges []rowRange) int64 {
	var n int64
	for _, r := range ranges {
		n += r.Len()
	}
	return n
}

// seek moves the cursor to entry e of the current page, counting the
// non-null entries before it.
func (r *flatReader) seek(e int) {
	if r.p.NoNulls {
		// Entry and value advance together.
		r.e, r.v = e, r.p.FirstValue+(e-r.p.FirstEntry)
		return
	}
	if e < r.e {
		r.e, r.v = r.p.FirstEntry, r.p.FirstValue
	}
	for ; r.e < e; r.e++ {
		if r.cd.Def[r.e] == r.max {
			r.v++
		}
	}
}

// judgingParts switches partsFilter's judging on; tests compare against
// the WHERE evaluated over the columns read whole.
var judgingParts = true

// A judgedExpr stands in a WHERE for a subtree on one column that the scan
// judges by its dictionary: the filter reads the subtree's verdict on each
// row from batch.truths[slot] instead of reading the column.
type judgedExpr struct {
	slot int
	x    planner.Expr
}

func (e *judgedExpr) Type() Type     { return Type{ID: TypeBoolean} }
func (e *judgedExpr) String() string { return e.x.String() }

// judgedNode reads a judged part's verdicts.
type judgedNode struct{ slot int }

func (n judgedNode) cheap() bool { return true }

func (n judgedNode) eval(b *batch, sel []int32, res []uint8) error {
	t := b.truths[n.slot]
	for _, i := range sel {
		res[i] = t[i]
	}
	return nil
}

// partsFilter compiles where with its parts on one column of cols judged by
// dictionary, or returns nil when it has none. A part is a largest subtree
// under AND, OR and NOT that reads one column alone and cannot fail: its
// verdict on every dictionary entry is its verdict on the rows holding
// that entry, and judging rows that the rest of the WHERE has decided
// already changes nothing. A column is judged only when one part reads it
// and nothing else in the WHERE does, so that one pass over its pages
// serves the batch; the WHERE whole is left to judgedWhere.
func partsFilter(where planner.Expr, width int, cols map[int]bool) *filter {
	part := func(e planner.Expr) (int, bool) {
		set := map[int]bool{}
		planner.Columns(e, set)
		if len(set) != 1 {
			return 0, false
		}
		for c := range set {
			if cols[c] && compile(e, width).cheap() {
				return c, true
			}
		}
		return 0, false
	}
	if _, ok := part(where); ok {
		return nil
	}
	parts, rest := map[int]int{}, map[int]bool{}
	var walk func(e planner.Expr)
	walk = func(e planner.Expr) {
		if c, ok := part(e); ok {
			parts[c]++
			return
		}
		switch x := e.(type) {
		case *planner.Logic:
			for _, y := range x.Xs {
				walk(y)
			}
		case *planner.Not:
			walk(x.X)
		default:
			planner.Columns(e, rest)
		}
	}
	walk(where)
	f := &filter{width: width}
	var rewrite func(e planner.Expr) planner.Expr
	rewrite = func(e planner.Expr) planner.Expr {
		if c, ok := part(e); ok {
			if parts[c] != 1 || rest[c] {
				return e
			}
			f.parts = append(f.parts, colJudge{col: c, node: compile(e, width)})
			return &judgedExpr{slot: len(f.parts) - 1, x: e}
		}
		switch x := e.(type) {
		case *planner.Logic:
			xs := make([]planner.Expr, len(x.Xs))
			for i, y := range x.Xs {
				xs[i] = rewrite(y)
			}
			return &planner.Logic{And: x.And, Xs: xs}
		case *planner.Not:
			return &planner.Not{X: rewrite(x.X)}
		}
		return e
	}
	judged := rewrite(where)
	if len(f.parts) == 0 {
		return nil
	}
	f.root = compile(judged, width)
	return f
}

// judges reports whether f judges column c by dictionary.
func (f *filter) judges(c int) bool {
	for _, j := range f.parts {
		if j.col == c {
			return true
		}
	}
	return false
}

// unjudged is cols without the columns f judges.
func (f *filter) unjudged(cols []int) []int {
	if f == nil || f.parts == nil {
		return cols
	}
	var out []int
	for _, c := range cols {
		if !f.judges(c) {
			out = append(out, c)
		}
	}
	return out
}

// partFilters compiles a WHERE with its parts judged by dictionary for
// each set of columns that row groups have dictionaries for, once a set.
type partFilters struct {
	where planner.Expr
	width int
	// cols are the columns that may be judged: the WHERE's that the rest
	// of the query does not read.
	cols []int
	mu   sync.Mutex
	by   map[string]*filter
}

// forTask returns the WHERE judging by dictionary the columns that have one
// in the task's row group, or nil when it judges none.
func (p *partFilters) forTask(t *scanTask) *filter {
	if p == nil {
		return nil
	}
	var key []byte
	cols := map[int]bool{}
	for _, c := range p.cols {
		if judgeable(t.file.f, t.rg.Index, t.file.fields[c]) {
			cols[c] = true
			key = binary.AppendUvarint(key, uint64(c))
		}
	}
	if len(cols) == 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	f, ok := p.by[string(key)]
	if !ok {
		f = partsFilter(p.where, p.width, cols)
		p.by[string(key)] = f
	}
	return f
}

// A partJudge fills the truths of a filter's judged parts for the batches
// of one row group, in buffers reused from batch to batch.
type partJudge struct {
	s     *scanner
	t     *scanTask
	where *filter
	bufs  [][]uint8
}

// newPartJudge prepares the judging of where's parts over the rows ranges
// of the task's row group; nil when where judges nothing.
func (s *scanner) newPartJudge(t *scanTask, where *filter, ranges []rowRange, readers []colReader) *partJudge {
	if where == nil || where.parts == nil {
		return nil
	}
	n := rowCount(ranges)
	for _, j := range where.parts {
		readers[j.col].(*flatReader).judging = n
	}
	return &partJudge{s: s, t: t, where: where, bufs: make([][]uint8, len(where.parts))}
}

// judge sets b.truths to the parts' verdicts on the rows runs of b.
func (p *partJudge) judge(b *batch, runs []rowRange, readers []colReader) error {
	if p == nil {
		return nil
	}
	for k := range p.where.parts {
		j := &p.where.parts[k]
		p.bufs[k] = extendZero(p.bufs[k][:0], b.n)
		r := readers[j.col].(*flatReader)
		if err := r.judgeRuns(j, typeOfField(p.t.file.fields[j.col]), p.s.q.width, runs, p.bufs[k]); err != nil {
			return p.s.readError(p.t, err)
		}
	}
	b.truths = p.bufs
	return nil
}
