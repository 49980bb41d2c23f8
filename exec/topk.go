package exec

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/pqsql/pqsql/planner"
)

// topK keeps the k first rows of an ORDER BY ... LIMIT in a max-heap, so a
// sorted limit never holds more than k rows. Ties keep the row earlier in
// the files, whatever order the row groups were read in: a row's position
// is its file, its row group and the order it arrived in within them.
//
// Rows are boxed only when they may enter the heap: each batch is first cut
// on its typed first sort key against the heap's worst row and against the
// batch's own k-th row (keyCut), which is how a sorted limit over a million
// rows boxes a few thousand.
type topK struct {
	keys  []planner.SortKey
	types []Type
	k     int
	rows  []seqRow
	seq   int64
	less  func(a, b []planner.Datum) bool
	// bound, when not nil, is told the heap's worst first key each time the
	// heap changes, for the scan to skip what cannot beat it.
	bound *topKBound
}

// A rowPos places a row in the scan: file, row group, then arrival.
type rowPos struct {
	file, rowGroup int32
	seq            int64
}

func (a rowPos) compare(b rowPos) int {
	if c := cmp.Compare(a.file, b.file); c != 0 {
		return c
	}
	if c := cmp.Compare(a.rowGroup, b.rowGroup); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

type seqRow struct {
	row []planner.Datum
	pos rowPos
}

func newTopK(keys []planner.SortKey, types []Type, k int) *topK {
	return &topK{keys: keys, types: types, k: k, less: rowLess(keys, types)}
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
	return a.pos.compare(b.pos) < 0
}

// add offers one row at position pos.
func (t *topK) add(row []planner.Datum, pos rowPos) bool {
	if t.k <= 0 {
		return false
	}
	r := seqRow{row: row, pos: pos}
	if len(t.rows) < t.k {
		heap.Push(t, r)
		return true
	}
	if t.before(r, t.rows[0]) {
		t.rows[0] = r
		heap.Fix(t, 0)
		return true
	}
	return false
}

// addBatch offers the rows of b, a batch of row group rg of file file.
// runs, when not nil, are the rows of the row group b holds (topKLate):
// each row's place is then its row, which orders ties as arrival does.
func (t *topK) addBatch(b *batch, file, rg int32, runs []rowRange) {
	if t.k <= 0 || b.n == 0 {
		return
	}
	sel := t.cut(b)
	pos := rowPos{file: file, rowGroup: rg}
	rc := rowCursor{runs: runs}
	seqOf := func(i int32) int64 {
		if runs != nil {
			return rc.row(i)
		}
		return t.seq + int64(i)
	}
	if sel != nil {
		if len(sel) == 0 {
			t.seq += int64(b.n)
			return
		}
		rows := rowsOf(b.take(sel))
		changed := false
		for j, r := range rows {
			pos.seq = seqOf(sel[j])
			changed = t.add(r, pos) || changed
		}
		t.seq += int64(b.n)
		if changed {
			t.publish()
		}
		return
	}
	changed := false
	for i, r := range rowsOf(b) {
		pos.seq = seqOf(int32(i))
		changed = t.add(r, pos) || changed
	}
	t.seq += int64(b.n)
	if changed {
		t.publish()
	}
}

// worst is the first key of the heap's worst row, once the heap is full.
func (t *topK) worst() (planner.Datum, bool) {
	if len(t.rows) < t.k || t.k <= 0 {
		return planner.Datum{}, false
	}
	return t.rows[0].row[t.keys[0].Index], true
}

// publish tells the scan the heap's worst first key.
func (t *topK) publish() {
	if t.bound == nil {
		return
	}
	if d, ok := t.worst(); ok {
		t.bound.set(d)
	}
}

// output returns the heap's rows in order past the first offset: the rows
// of the result. Their columns are the heap's own, which a caller may fill.
func (t *topK) output(offset int64) []seqRow {
	slices.SortFunc(t.rows, func(a, b seqRow) int {
		switch {
		case t.before(a, b):
			return -1
		case t.before(b, a):
			return 1
		}
		return 0
	})
	return t.rows[min(offset, int64(len(t.rows))):]
}

func (t *topK) sorted() [][]planner.Datum {
	sort.Slice(t.rows, func(i, j int) bool { return t.before(t.rows[i], t.rows[j]) })
	out := make([][]planner.Datum, len(t.rows))
	for i, r := range t.rows {
		out[i] = r.row
	}
	return out
}

// cut returns the rows of b that may enter the heap, judged on the typed
// first sort key alone; nil when it cannot judge (all rows may). A row is
// dropped only when its first key sorts strictly after the cut: after the
// heap's worst row, or after k rows of the batch itself.
func (t *topK) cut(b *batch) []int32 {
	k := t.keys[0]
	v := b.cols[k.Index]
	if v == nil {
		return nil
	}
	typ := t.types[k.Index]
	worst, full := t.worst()
	switch kind := cmpKindOf(typ); {
	case kind == cmpString && v.Str != nil:
		var hc *keyCut[string]
		if full {
			hc = &keyCut[string]{null: worst.Null, v: worst.S}
		}
		return cutRows(v.Str, v.Nulls, b.n, t.k, k, hc)
	case v.Int != nil && (kind == cmpInt || kind == cmpUint), v.Float != nil && kind == cmpFloat:
		norms := normKeys(v, kind)
		var hc *keyCut[uint64]
		if full {
			hc = &keyCut[uint64]{null: worst.Null}
			if !worst.Null {
				hc.v = normDatum(worst, typ, kind)
			}
		}
		return cutRows(norms, v.Nulls, b.n, t.k, k, hc)
	}
	return nil
}

// normKeys maps a numeric vector to unsigned keys in the same order
// (planner.Compare's: NaN above every number, -0 equal to +0).
func normKeys(v *Vector, kind cmpKind) []uint64 {
	return normKeysInto(nil, v, kind)
}

// normKeysInto is normKeys writing into buf's storage when it is large
// enough, overwriting what it held.
func normKeysInto(buf []uint64, v *Vector, kind cmpKind) []uint64 {
	var out []uint64
	switch kind {
	case cmpInt:
		out = resize(buf, len(v.Int))
		for i, x := range v.Int {
			out[i] = uint64(x) ^ 1<<63
		}
	case cmpUint:
		out = resize(buf, len(v.Int))
		for i, x := range v.Int {
			out[i] = uint64(x)
		}
	default:
		out = resize(buf, len(v.Float))
		for i, x := range v.Float {
			out[i] = normFloat(x)
		}
	}
	return out
}

// resize returns n elements in s's storage, or new storage when s is too
// small; their values are whatever was there.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func normFloat(f float64) uint64 {
	switch {
	case f != f:
		return ^uint64(0)
	case f == 0:
		f = 0
	}
	u := math.Float64bits(f)
	if u&(1<<63) != 0 {
		return ^u
	}
	return u | 1<<63
}

// normDatum is normKeys for one non-NULL datum.
func normDatum(d planner.Datum, t Type, kind cmpKind) uint64 {
	switch kind {
	case cmpFloat:
		return normFloat(d.F)
	case cmpUint:
		return uint64(d.I)
	}
	x := d.I
	if t.ID == TypeDecimal && d.Big != nil {
		x = d.Big.Int64()
	}
	return uint64(x) ^ 1<<63
}

// A keyCut is a first-key value rows are cut against: NULL, or v. With
// tiesAfter, a row that ties with it is cut too: k rows earlier in the
// row group hold it already.
type keyCut[T cmp.Ordered] struct {
	null      bool
	v         T
	tiesAfter bool
}

// after reports whether a row's key (null, or x) sorts strictly after the
// cut under key k, or ties with it when ties are cut.
func (c *keyCut[T]) after(null bool, x T, k planner.SortKey) bool {
	switch {
	case null && c.null:
		return c.tiesAfter
	case null:
		return !k.NullsFirst
	case c.null:
		return k.NullsFirst
	case x == c.v:
		return c.tiesAfter
	case k.Desc:
		return x < c.v
	}
	return x > c.v
}

// ties reports whether a row's key (null, or x) equals the cut.
func (c *keyCut[T]) ties(null bool, x T) bool {
	return null == c.null && (null || x == c.v)
}

// cutRows keeps the rows of a batch of n rows (keys vals, NULLs nulls) that
// sort no later than the heap's cut hc (when not nil) and than the batch's
// own k-th row.
func cutRows[T cmp.Ordered](vals []T, nulls []bool, n, k int, key planner.SortKey, hc *keyCut[T]) []int32 {
	isNull := func(i int) bool { return nulls != nil && nulls[i] }
	sel := make([]int32, 0, n)
	for i := range n {
		if hc == nil || !hc.after(isNull(i), vals[i], key) {
			sel = append(sel, int32(i))
		}
	}
	if len(sel) <= k {
		return sel
	}
	// The batch's own k-th row: no row after it can be among the k first.
	bc, ok := kthCut(vals, nulls, sel, k, key)
	if !ok {
		return sel
	}
	kept := sel[:0]
	for _, i := range sel {
		if !bc.after(isNull(int(i)), vals[i], key) {
			kept = append(kept, i)
		}
	}
	return kept
}

// kthCut is the key of the k-th of the rows sel in sort order (false when
// they are fewer than k, or the k-th is a NULL sorting last, which cuts
// nothing).
func kthCut[T cmp.Ordered](vals []T, nulls []bool, sel []int32, k int, key planner.SortKey) (keyCut[T], bool) {
	var buf []T
	return kthCutBuf(&buf, vals, nulls, sel, k, key)
}

// kthCutBuf is kthCut sorting the keys in *buf's storage, kept there for
// the next call.
func kthCutBuf[T cmp.Ordered](buf *[]T, vals []T, nulls []bool, sel []int32, k int, key planner.SortKey) (keyCut[T], bool) {
	nn := (*buf)[:0]
	defer func() { *buf = nn[:0] }()
	nullCount := 0
	for _, i := range sel {
		if nulls != nil && nulls[i] {
			nullCount++
		} else {
			nn = append(nn, vals[i])
		}
	}
	var bc keyCut[T]
	switch {
	case k <= 0 || len(sel) < k:
		return bc, false
	case key.NullsFirst && nullCount >= k:
		bc.null = true
	case key.NullsFirst:
		bc.v = kth(nn, k-nullCount, key.Desc)
	case len(nn) >= k:
		bc.v = kth(nn, k, key.Desc)
	default:
		return bc, false
	}
	return bc, true
}

// kth is the k-th (from 1) value of xs in ascending order, or descending
// with desc; xs is reordered.
func kth[T cmp.Ordered](xs []T, k int, desc bool) T {
	slices.Sort(xs)
	if desc {
		return xs[len(xs)-k]
	}
	return xs[k-1]
}

// A topKBound is the heap's worst first key as the scan reads it: set by
// the consumer, read by the dispatcher deciding whether a row group can
// still hold a row of the result.
type topKBound struct {
	mu  sync.Mutex
	d   planner.Datum
	has bool
	// log is the bound as each scan token was given, so that a decision
	// depends on the rows consumed before its token, not on timing.
	log []loggedBound
}

type loggedBound struct {
	d   planner.Datum
	has bool
}

// logToken notes the bound as a token is given.
func (b *topKBound) logToken() {
	b.mu.Lock()
	b.log = append(b.log, loggedBound{b.d, b.has})
	b.mu.Unlock()
}

// logged is the bound noted for token i.
func (b *topKBound) logged(i int) loggedBound {
	d, has := b.at(i)
	return loggedBound{d: d, has: has}
}

// at is the bound noted for token i.
func (b *topKBound) at(i int) (planner.Datum, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if i < 0 || i >= len(b.log) {
		return planner.Datum{}, false
	}
	return b.log[i].d, b.log[i].has
}

func (b *topKBound) set(d planner.Datum) {
	b.mu.Lock()
	b.d, b.has = d, true
	b.mu.Unlock()
}
