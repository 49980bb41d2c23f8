package exec

import (
	"cmp"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// A topKScan is a sorted limit's hold on its scan: the heap publishes its
// worst first key in bound, and the dispatcher asks pushdown, per row
// group, whether any row of it can still sort before that key. Row groups
// are dispatched most promising first, one at a time until the heap is
// full, so that on a file sorted by the key the first row group read
// answers the query and the others are skipped.
type topKScan struct {
	key planner.SortKey
	// col is the input column the first sort key reads.
	col int
	// typ is the key's type in the plan; a file whose column has another
	// type is not judged.
	typ Type
	// k is LIMIT + OFFSET: how many rows the heap holds.
	k int
	// onlyKey: the first sort key is the only one, so rows that tie on it
	// keep their order in the files.
	onlyKey bool
	bound   topKBound
	// skipped counts the row groups skipped; pagesSkipped the pages of
	// the key column skipped in the row groups read; othersLeft the pages
	// of the columns read after the cut (rowGroupCut) that hold a row
	// the WHERE passed but none the cut left.
	skipped, pagesSkipped, othersLeft atomic.Int64
	// late, when not nil, reads the other columns after the scan, for
	// the rows of the result only (topklate.go).
	late *topKLate
	// spare holds the buffers of finished row groups' cuts for the next
	// ones (recycle).
	spareMu sync.Mutex
	spare   []*rowGroupCut
}

// newTopKScan returns the hold of a plan whose rows go to a sorted limit
// on a column of the files, or nil.
func newTopKScan(p *planner.Plan) *topKScan {
	if p.Aggregate || p.Distinct || len(p.Order) == 0 || p.Limit < 0 || p.Scan == nil || p.Scan.Subquery != nil {
		return nil
	}
	k := p.Order[0]
	c, ok := p.Project[k.Index].(*planner.ColRef)
	if !ok || c.Index < 0 || c.Index >= len(p.Input) || isVirtual(p.Scan, c.Index) {
		return nil
	}
	// LIMIT + OFFSET saturates: a sum past the largest int would read as
	// a negative k, as if no row were wanted.
	return &topKScan{key: k, col: c.Index, typ: c.T, k: int(rowsWanted(p)), onlyKey: len(p.Order) == 1}
}

// decodeFirst makes the key column one of those q decodes first, beside
// the WHERE's, so that a row group's other columns are read only for the
// rows its cut leaves (rowGroupCut).
func (s *topKScan) decodeFirst(q *scanQuery) {
	for i, c := range q.otherCols {
		if c == s.col {
			q.otherCols = append(q.otherCols[:i:i], q.otherCols[i+1:]...)
			q.whereCols = append(q.whereCols, c)
			sort.Ints(q.whereCols)
			return
		}
	}
}

// A topKFile judges one file's row groups.
type topKFile struct {
	s  *topKScan
	tk *pushdown.TopK
	lg format.Logical
	t  Type
	// exact: the key's values are the file's, in the same order, so that
	// a bound found in the file's statistics is a bound of the key.
	exact bool
	f     *format.File
	leaf  int
}

// forFile prepares the judgement over f, whose fields are the plan's
// input columns; nil when the key is no flat column of f.
func (s *topKScan) forFile(f *format.File, fields []*format.Field) *topKFile {
	if s.col >= len(fields) || fields[s.col] == nil {
		return nil
	}
	fl := fields[s.col]
	if fl.Kind != format.ScalarField || fl.Leaf == nil || typeOfField(fl) != s.typ {
		return nil
	}
	tk, err := pushdown.NewTopK(f, fl.Leaf.Index, s.key.Desc, s.key.NullsFirst)
	if err != nil {
		return nil
	}
	tf := &topKFile{s: s, tk: tk, lg: format.LogicalOf(fl.Leaf), t: typeOfField(fl), f: f, leaf: fl.Leaf.Index}
	_, tf.exact = encodeKey(tk.Order(), tf.lg, tf.t, planner.Datum{})
	return tf
}

// order returns the kept row groups of a plan, most promising first.
func (tf *topKFile) order(rgs []pushdown.RowGroupPlan) []pushdown.RowGroupPlan {
	idx := make([]int, 0, len(rgs))
	at := map[int]pushdown.RowGroupPlan{}
	for _, rg := range rgs {
		if rg.Verdict != pushdown.Skip {
			idx = append(idx, rg.Index)
			at[rg.Index] = rg
		}
	}
	out := make([]pushdown.RowGroupPlan, 0, len(rgs))
	for _, i := range tf.tk.Promising(idx) {
		out = append(out, at[i])
	}
	// Skipped row groups keep their place at the end: the dispatcher only
	// counts them.
	for _, rg := range rgs {
		if rg.Verdict == pushdown.Skip {
			out = append(out, rg)
		}
	}
	return out
}

// excludes reports whether row group rg cannot hold a row of the result
// under the bound noted when token number token was given.
func (tf *topKFile) excludes(rg, token int) bool {
	if tf.s.k <= 0 {
		// LIMIT 0: the heap takes no row.
		return true
	}
	d, ok := tf.s.bound.at(token)
	if !ok {
		return false
	}
	b, ok := tf.bound(d)
	return ok && tf.tk.ExcludesRowGroup(rg, b)
}

// bound is the heap's worst key d as pushdown judges it; false when its
// type is never judged.
func (tf *topKFile) bound(d planner.Datum) (pushdown.TopKBound, bool) {
	b := pushdown.TopKBound{Null: d.Null}
	if !d.Null {
		v, ok := encodeKey(tf.tk.Order(), tf.lg, tf.t, d)
		if !ok {
			return b, false
		}
		b.Value = v
	}
	return b, true
}

// indexWorthReading reports whether row group rg's key chunk is large
// enough beside its column index that skipping some of its pages may pay
// for reading the index: a dictionary-encoded key of few values has pages
// of a few hundred bytes, and its index would cost more than it saves.
func (tf *topKFile) indexWorthReading(rg int) bool {
	r, ok := tf.f.ColumnIndexRange(rg, tf.leaf)
	return ok && tf.f.Chunk(rg, tf.leaf).MetaData.TotalCompressedSize >= indexPayoff*r.Length
}

// indexPayoff is how many times its column index a key chunk must weigh
// for top-k to read the index.
const indexPayoff = 8

// A pageCut is what a sorted limit leaves of a row group's key column by
// its page index.
type pageCut struct {
	// rows are the rows of the pages kept.
	rows pushdown.RowRanges
	// pages and bytes are the pages skipped and their compressed size;
	// columnIndex and offsetIndex the index bytes read to judge them.
	pages, bytes, columnIndex, offsetIndex int64
}

// cutPages judges the pages of row group rg's key column by its page
// index: a page is skipped when none of its rows can sort before or tie
// with the heap's bound lb, or with the bound the pages themselves prove
// at least k rows reach (pushdown.TopK.PagesBound); the latter only when
// every row of the row group is a row of the sorted limit (whole). ok is
// false when there is nothing to judge by or nothing to skip.
func (tf *topKFile) cutPages(rg int, lb loggedBound, whole bool) (pc pageCut, ok bool) {
	var bounds []pushdown.TopKBound
	if lb.has {
		if b, ok := tf.bound(lb.d); ok {
			bounds = append(bounds, b)
		}
	}
	whole = whole && tf.exact
	if len(bounds) == 0 && !whole || !tf.indexWorthReading(rg) {
		return pc, false
	}
	p, ci, oi, why := tf.tk.Pages(rg)
	pc.columnIndex, pc.offsetIndex = ci, oi
	if why != "" {
		return pc, false
	}
	if whole {
		if b, ok := tf.tk.PagesBound(p, tf.s.k); ok {
			bounds = append(bounds, b)
		}
	}
	var kept []pushdown.RowRange
	for i, rows := range p.Rows {
		skip := false
		for _, b := range bounds {
			skip = skip || tf.tk.ExcludesPage(p, i, b)
		}
		if skip {
			pc.pages++
			pc.bytes += p.Bytes[i]
			continue
		}
		kept = append(kept, rows)
	}
	pc.rows = pushdown.NewRowRanges(kept...)
	return pc, pc.pages > 0
}

// encodeKey puts a key value in the column's physical form, for the types
// whose values the executor holds as the file does; false for the others
// (a TIMESTAMP in milliseconds, a DECIMAL read as DOUBLE), which are never
// judged.
func encodeKey(o stats.Order, lg format.Logical, t Type, d planner.Datum) ([]byte, bool) {
	var v []byte
	var err error
	switch lg.Kind {
	case format.KindInt8, format.KindInt16, format.KindInt32, format.KindInt64, format.KindDate,
		format.KindUint8, format.KindUint16, format.KindUint32:
		v, err = o.Int(d.I)
	case format.KindUint64:
		v, err = o.Uint(uint64(d.I))
	case format.KindFloat:
		v, err = o.Float(d.F)
	case format.KindDouble:
		if lg.Precision > 0 {
			return nil, false
		}
		v, err = o.Float(d.F)
	case format.KindDecimal:
		if wideDecimal(t) {
			return nil, false
		}
		x := d.I
		if d.Big != nil {
			x = d.Big.Int64()
		}
		v, err = o.Int(x)
	case format.KindString:
		v, err = o.Bytes([]byte(d.S))
	case format.KindTimestamp, format.KindTimestampTZ:
		if lg.Unit != meta.Micros || t.ID == TypeTimestampNS {
			return nil, false
		}
		v, err = o.Int(d.I)
	default:
		return nil, false
	}
	return v, err == nil
}

// A rowGroupCut narrows one row group's rows for a sorted limit before its
// other columns are fetched: the key column is decoded first (with the
// WHERE's), and only the rows that can still be among the k first survive,
// judged on the typed key against the bound the task was dispatched with
// and against the row group's own k-th row. The other columns are then
// read only in the pages that hold a survivor.
type rowGroupCut struct {
	s   *topKScan
	num *candidates[uint64]
	str *candidates[string]
	// rows are the surviving rows when the key's type is not cut.
	rows []rowRange
	// keys holds a batch's normalized keys; candidates copy the ones
	// they keep, so the next batch reuses it.
	keys []uint64
	// ranks, for a string key read by dictionary ranks (topkdict.go),
	// order the chunk's dictionary; rankReader reads the key, rankNulls
	// and every are a batch's NULLs and selection.
	ranks       *dictRanks
	rankDecided bool
	rankReader  *flatReader
	rankNulls   []bool
	every       []int32
	// spareNum is a finished cut's candidates, whose storage the next
	// numeric candidates take.
	spareNum *candidates[uint64]
}

// newRowGroupCut starts the cut of a task dispatched with bound lb, over
// a file whose key column has type t; a type other than the plan's is not
// cut.
func (s *topKScan) newRowGroupCut(lb loggedBound, t Type) *rowGroupCut {
	c := &rowGroupCut{}
	s.spareMu.Lock()
	if n := len(s.spare); n > 0 {
		c = s.spare[n-1]
		s.spare = s.spare[:n-1]
	}
	s.spareMu.Unlock()
	c.s = s
	if t != s.typ {
		return c
	}
	switch kind := cmpKindOf(s.typ); kind {
	case cmpInt, cmpUint, cmpFloat:
		c.num = c.numCandidates(s.k, s.key, s.onlyKey)
		if lb.has {
			c.num.global = &keyCut[uint64]{null: lb.d.Null}
			if !lb.d.Null {
				c.num.global.v = normDatum(lb.d, s.typ, kind)
			}
		}
	case cmpString:
		c.str = &candidates[string]{k: s.k, key: s.key, trimTies: s.onlyKey}
		if lb.has {
			c.str.global = &keyCut[string]{null: lb.d.Null, v: lb.d.S}
		}
	}
	return c
}

// add offers the rows sel of b, a batch of the row group's rows runs.
func (c *rowGroupCut) add(b *batch, runs []rowRange, sel []int32) {
	v := b.cols[c.s.col]
	kind := cmpKindOf(c.s.typ)
	switch {
	case c.num != nil && ((v.Int != nil && kind != cmpFloat) || (v.Float != nil && kind == cmpFloat)):
		c.keys = normKeysInto(c.keys, v, kind)
		c.num.add(c.keys, v.Nulls, runs, sel)
	case c.str != nil && v.Str != nil:
		c.str.add(v.Str, v.Nulls, runs, sel)
	default:
		// A representation the cut does not know: every row survives,
		// the candidates so far included.
		switch {
		case c.num != nil:
			c.rows = c.num.ranges()
		case c.str != nil:
			c.rows = c.str.ranges()
		}
		c.num, c.str = nil, nil
		c.rows = appendSelected(c.rows, runs, sel)
	}
}

// numCandidates are empty numeric candidates, in the storage of a spare
// cut's when there is one.
func (c *rowGroupCut) numCandidates(k int, key planner.SortKey, trimTies bool) *candidates[uint64] {
	n := c.spareNum
	c.spareNum = nil
	if n == nil {
		n = &candidates[uint64]{}
	}
	*n = candidates[uint64]{k: k, key: key, trimTies: trimTies,
		rows: n.rows[:0], vals: n.vals[:0], nulls: n.nulls[:0], sorted: n.sorted[:0], all: n.all[:0]}
	return n
}

// recycle keeps the buffers of c, whose survivors were taken, for the
// cut of a later row group: each would otherwise grow its own.
func (s *topKScan) recycle(c *rowGroupCut) {
	spare := &rowGroupCut{keys: c.keys[:0], rankNulls: c.rankNulls[:0], every: c.every, spareNum: c.num}
	if spare.spareNum == nil {
		spare.spareNum = c.spareNum
	}
	s.spareMu.Lock()
	s.spare = append(s.spare, spare)
	s.spareMu.Unlock()
}

// survivors are the rows left, in order.
func (c *rowGroupCut) survivors() []rowRange {
	switch {
	case c.num != nil:
		return c.num.survivors()
	case c.str != nil:
		return c.str.survivors()
	}
	return c.rows
}

// candidates are the rows of a row group that may be among the k first,
// with their keys.
type candidates[T cmp.Ordered] struct {
	k   int
	key planner.SortKey
	// trimTies: rows that tie on the key sort in row order (it is the only
	// sort key), so only the first k of a row group can be among the k
	// first.
	trimTies bool
	global   *keyCut[T]
	local    *keyCut[T]
	rows     []int64
	vals     []T
	nulls    []bool
	// sorted and all are kthCut's scratch.
	sorted []T
	all    []int32
}

func (c *candidates[T]) add(vals []T, nulls []bool, runs []rowRange, sel []int32) {
	if c.k <= 0 {
		return
	}
	if c.local == nil && len(sel) > c.k {
		// Before any cut, the batch's own k-th row cuts the rows that sort
		// after it, so that they are never copied; rows that tie with it
		// stay, and a later shrink cuts those.
		if cut, ok := kthCutBuf(&c.sorted, vals, nulls, sel, c.k, c.key); ok {
			c.local = &cut
		}
	}
	ri, base := 0, int32(0)
	for _, i := range sel {
		for i-base >= int32(runs[ri].Len()) {
			base += int32(runs[ri].Len())
			ri++
		}
		null := nulls != nil && nulls[i]
		if (c.global != nil && c.global.after(null, vals[i], c.key)) || (c.local != nil && c.local.after(null, vals[i], c.key)) {
			continue
		}
		c.rows = append(c.rows, runs[ri].First+int64(i-base))
		c.vals = append(c.vals, vals[i])
		c.nulls = append(c.nulls, null)
	}
	// Past 2k rows and a batch (2k may overflow: k is LIMIT + OFFSET).
	if n := len(c.rows) - BatchSize; n > 0 && n/2 > c.k {
		c.shrink()
	}
}

// shrink drops the candidates after the k-th. With trimTies it keeps the
// k first exactly: those before the k-th key, then those that tie with it
// in row order, for a row the k first of its row group sort before cannot
// be among the k first of all (ties keep the earlier row); later rows that
// tie with the k-th key are cut as well.
func (c *candidates[T]) shrink() {
	if len(c.rows) < c.k {
		return
	}
	all := resize(c.all, len(c.rows))
	for i := range all {
		all[i] = int32(i)
	}
	c.all = all
	cut, ok := kthCutBuf(&c.sorted, c.vals, c.nulls, all, c.k, c.key)
	if !ok {
		return
	}
	before := 0
	for i := range c.rows {
		if !cut.ties(c.nulls[i], c.vals[i]) && !cut.after(c.nulls[i], c.vals[i], c.key) {
			before++
		}
	}
	tied := c.k - before
	if !c.trimTies {
		tied = len(c.rows)
	}
	n := 0
	for i := range c.rows {
		null, v := c.nulls[i], c.vals[i]
		switch {
		case cut.ties(null, v):
			if tied == 0 {
				continue
			}
			tied--
		case cut.after(null, v, c.key):
			continue
		}
		c.rows[n], c.vals[n], c.nulls[n] = c.rows[i], c.vals[i], c.nulls[i]
		n++
	}
	c.rows, c.vals, c.nulls = c.rows[:n], c.vals[:n], c.nulls[:n]
	cut.tiesAfter = c.trimTies
	c.local = &cut
}

func (c *candidates[T]) survivors() []rowRange {
	c.shrink()
	return c.ranges()
}

// ranges are the candidates' rows as ranges.
func (c *candidates[T]) ranges() []rowRange {
	var out []rowRange
	for _, row := range c.rows {
		if n := len(out); n > 0 && out[n-1].End == row {
			out[n-1].End++
			continue
		}
		out = append(out, rowRange{First: row, End: row + 1})
	}
	return out
}

// selectAll selects every row of a batch of n rows, in storage the cut
// keeps for the next batch and, recycled, the next row groups.
func (c *rowGroupCut) selectAll(n int) []int32 {
	if cap(c.every) < n {
		c.every = allRows(n)
	}
	return c.every[:n]
}

// allRows selects every row of a batch of n rows.
func allRows(n int) []int32 {
	sel := make([]int32, n)
	for i := range sel {
		sel[i] = int32(i)
	}
	return sel
}

// topKWould are the rows a row group's other columns would be read for
// without its cut: those the WHERE passed, and those of kept0, the rows
// planned, that the key's page cut left out (kept the rest) before the
// WHERE was evaluated.
func topKWould(passing, kept0, kept []rowRange) []rowRange {
	var out []rowRange
	at := 0
	for _, r := range kept0 {
		// kept is kept0 narrowed: the gaps it leaves in r were cut.
		first := r.First
		for at < len(kept) && kept[at].First < r.End {
			k := kept[at]
			if k.First > first {
				out = append(out, rowRange{First: first, End: k.First})
			}
			first = max(first, k.End)
			if k.End > r.End {
				break
			}
			at++
		}
		if first < r.End {
			out = append(out, rowRange{First: first, End: r.End})
		}
	}
	return pushdown.RowRanges(passing).Union(out)
}

// leafWould is what a load of leaf cr, of a flat column or not, would
// read for the rows would, known without reading anything: its pages and
// their bytes. known is false when only the leaf's offset index could
// tell (a chunk planned whole, some of its rows wanted).
func leafWould(t *scanTask, cr *pushdown.ColumnRead, flat bool, would []rowRange) (pages, bytes int64, known bool) {
	switch {
	case len(would) == 0:
		return 0, 0, true
	case !flat || (cr.Whole && pushdown.RowRanges(would).Covers(t.rg.NumRows)):
		// Read as planned.
		if cr.Whole {
			return int64(cr.NumPages), cr.Bytes, true
		}
		return int64(len(cr.Pages)), cr.Bytes, true
	case cr.Whole:
		return 0, 0, false
	}
	ps := pushdown.PagesWith(cr.Pages, would, t.rg.NumRows)
	for _, pg := range ps {
		bytes += pg.Range.Length
	}
	if len(ps) > 0 {
		// Its pages are read with the dictionary page.
		bytes += cr.Dict.Length
	}
	return int64(len(ps)), bytes, true
}

// skipLoadCut accounts leaves of cols the task will not load because its
// cut left no row: the bytes a load for the rows would would have read
// are the cut's, the rest the WHERE's. It returns the pages those bytes
// hold, where known.
func (m *fileMeter) skipLoadCut(t *scanTask, cols []int, would []rowRange) (pages int64) {
	planned := leafPlans(t.rg)
	for _, c := range cols {
		if c >= len(t.file.fields) || t.file.fields[c] == nil {
			continue // a column the file does not hold (a hive partition)
		}
		fl := t.file.fields[c]
		flat := fl.Kind == format.ScalarField && fl.Leaf.MaxRep == 0
		for _, l := range fl.Leaves {
			cr := planned[l.Index]
			if cr == nil {
				continue
			}
			t.loaded += cr.Bytes
			n, cut, known := leafWould(t, cr, flat, would)
			if !known {
				cut = 0
			}
			cut = min(cut, cr.Bytes)
			pages += n
			m.notRead[notReadTopK].Add(cut)
			m.notRead[notReadFilter].Add(cr.Bytes - cut)
		}
	}
	return pages
}

// topKPagesHolding counts the pages of cols' leaves that hold a row of
// would, where known without reading anything (leafWould).
func topKPagesHolding(t *scanTask, cols []int, would []rowRange) (pages int64) {
	planned := leafPlans(t.rg)
	for _, c := range cols {
		if c >= len(t.file.fields) || t.file.fields[c] == nil {
			continue
		}
		fl := t.file.fields[c]
		flat := fl.Kind == format.ScalarField && fl.Leaf.MaxRep == 0
		for _, l := range fl.Leaves {
			if cr := planned[l.Index]; cr != nil {
				n, _, _ := leafWould(t, cr, flat, would)
				pages += n
			}
		}
	}
	return pages
}

// topKLeft accounts what a sorted limit's cut let a load of one flat leaf
// leave unread: of the pages holding a row of would (by the offset index
// oi, or else among the pages planned), those not read. would is nil when
// no cut narrowed the load.
func (a *loadAccount) topKLeft(s *topKScan, would []rowRange, oi *meta.OffsetIndex, planned, read []format.PageRef, numRows int64) {
	if s == nil || would == nil {
		return
	}
	rows := pushdown.RowRanges(would)
	var pages, bytes int64
	if oi != nil {
		for i, loc := range oi.PageLocations {
			if first, end := format.PageRows(oi, i, numRows); rows.Overlaps(first, end) {
				pages++
				bytes += int64(loc.CompressedPageSize)
			}
		}
	} else {
		for _, pg := range pushdown.PagesWith(planned, rows, numRows) {
			pages++
			bytes += pg.Range.Length
		}
	}
	for _, pg := range read {
		pages--
		bytes -= pg.Range.Length
	}
	if pages > 0 {
		s.othersLeft.Add(pages)
		a.topk += max(bytes, 0)
	}
}
