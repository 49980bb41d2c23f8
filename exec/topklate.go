package exec

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// A topKLate defers a sorted limit's other columns past the scan. Each row
// group reads its WHERE's columns and sort keys as the cut (rowGroupCut)
// leaves them, and passes its survivors on without the other columns, each
// row placed by its file, row group and row; the heap keeps those. When the
// scan ends, the other columns are fetched and decoded only in the pages
// holding a row of the result: of the rows a row group's cut leaves (a few
// times k), only those that end in the heap past OFFSET are read.
type topKLate struct {
	// cols are the input columns fetched after the scan; outs pair each
	// with the projected columns that are it.
	cols []int
	outs []lateOut
	// first are the input columns each row group reads: the WHERE's and
	// the sort keys'; keys those of the sort keys the WHERE does not read,
	// read for the rows the cut leaves.
	first, keys []int
	// limit is the LIMIT: the rows the late read fetches at most.
	limit int64
	// mu guards groups, the row groups whose rows lack cols, by place.
	mu     sync.Mutex
	groups map[lateKey]*scanTask
	// final, set by the heap's owner, returns the rows of the result, the
	// rows before OFFSET left out, once the scan has passed every row.
	final func() []seqRow
	// rowsRead and rowGroupsRead count what fetchLate read, for EXPLAIN
	// ANALYZE.
	rowsRead      int64
	rowGroupsRead int
}

// A lateOut is projected column out, which is input column in.
type lateOut struct{ out, in int }

// A lateKey places a row group: the file's place in the scan, the row
// group's index in it.
type lateKey struct{ file, rowGroup int32 }

// lateRemoteReads bounds the row groups of remote files read at once
// after the scan.
const lateRemoteReads = 16

// lateMaxFiles bounds the files a deferred sorted limit holds open until
// the scan ends; a larger glob reads its other columns as it goes.
const lateMaxFiles = 64

// deferOthers sets s.late when the columns q reads besides the WHERE's and
// the sort keys' reach the result only as projected columns: every
// projected column is a column of the files or a constant, so that a row
// is its columns, fetched from wherever it lies.
func (s *topKScan) deferOthers(q *scanQuery) {
	p := q.p
	if len(p.Scan.Files) > lateMaxFiles {
		return
	}
	for _, e := range p.Project {
		switch e := e.(type) {
		case *planner.ColRef:
			if e.Index < 0 || e.Index >= q.width || isVirtual(p.Scan, e.Index) {
				return
			}
		case *planner.Const:
		default:
			return
		}
	}
	isKey := func(c int) bool {
		for _, k := range p.Order {
			if r, ok := p.Project[k.Index].(*planner.ColRef); ok && r.Index == c {
				return true
			}
		}
		return false
	}
	if !slices.ContainsFunc(q.otherCols, func(c int) bool { return !isKey(c) }) {
		return // nothing to read late
	}
	l := &topKLate{first: make([]int, len(q.whereCols), len(q.needCols)), limit: p.Limit}
	copy(l.first, q.whereCols)
	for _, c := range q.otherCols {
		if isKey(c) {
			l.keys = append(l.keys, c)
			l.first = append(l.first, c)
		} else {
			l.cols = append(l.cols, c)
		}
	}
	slices.Sort(l.first)
	for i, e := range p.Project {
		if c, ok := e.(*planner.ColRef); ok && slices.Contains(l.cols, c.Index) {
			l.outs = append(l.outs, lateOut{out: i, in: c.Index})
		}
	}
	s.late = l
}

// defers reports whether task t passes its rows on without the late
// columns, and the planned bytes of their leaves. A late column whose
// dictionary pushdown decoded is read as it goes: the task releases that
// dictionary when it ends.
//
// So is every late column when the result has more rows than the file
// has pages of a late column (at the density of this row group's): the
// result's rows would then hold most pages, and reading them after the
// scan would save little of what reading them with the row group's
// survivors costs, and lose the reads' overlap with the scan. On 1M rows
// in 8 row groups of 63 pages a column, LIMIT 400 decodes 3,161 pages
// late where 5,061 were decoded with the survivors, and LIMIT 1000 4,914
// where 5,544 were, in more requests and more memory.
func (l *topKLate) defers(t *scanTask) (bytes int64, ok bool) {
	if l == nil || l.final == nil {
		// No heap fills the rows in: they go whole.
		return 0, false
	}
	var pages, leaves int64
	for _, c := range l.cols {
		fl := t.file.fields[c]
		if fl == nil {
			return 0, false
		}
		for _, lf := range fl.Leaves {
			cr := planOf(t.rg, lf.Index)
			if cr == nil || cr.Dictionary != nil {
				return 0, false
			}
			bytes += cr.Bytes
			// Without a page index a chunk is read whole: one page.
			pages += int64(max(cr.NumPages, len(cr.Pages), 1))
			leaves++
		}
	}
	// limit × rows ≤ file rows × pages per leaf, in floats: LIMIT may be
	// as large as an int64.
	filePages := float64(t.file.f.Meta.NumRows) * float64(pages) / float64(leaves) / float64(max(t.rg.NumRows, 1))
	return bytes, deferAlways || float64(l.limit) <= filePages
}

// deferAlways, set by tests, defers whatever the result's size, so that
// the late read runs on files of a page too.
var deferAlways = false

// planOf is row group rg's read of leaf, or nil.
func planOf(rg pushdown.RowGroupPlan, leaf int) *pushdown.ColumnRead {
	for i := range rg.Columns {
		if rg.Columns[i].Leaf == leaf {
			return &rg.Columns[i]
		}
	}
	return nil
}

// hold notes that task t passes rows without the late columns, which the
// rows would (topKWould) would have read them for, and keeps its file
// open until fetch. The late columns' planned bytes count as loaded: fetch
// accounts them.
func (l *topKLate) hold(t *scanTask, bytes int64, would []rowRange, cutByTopK bool) {
	t.loaded += bytes
	t.file.refs.Add(1)
	g := &scanTask{file: t.file, rg: t.rg, limit: -1, topkWould: would, cutByTopK: cutByTopK}
	l.mu.Lock()
	if l.groups == nil {
		l.groups = map[lateKey]*scanTask{}
	}
	l.groups[lateKey{t.file.seq, int32(t.rg.Index)}] = g
	l.mu.Unlock()
}

// take returns the held row groups and forgets them.
func (l *topKLate) take() map[lateKey]*scanTask {
	l.mu.Lock()
	defer l.mu.Unlock()
	gs := l.groups
	l.groups = nil
	return gs
}

// emitLate passes on the rows survivors of task t, whose first columns
// the readers hold, without the late columns, each batch with its rows'
// places in the row group.
func (s *scanner) emitLate(ctx context.Context, t *scanTask, lateBytes int64, survivors, would []rowRange, cutByTopK bool, readers []colReader, send func(scanMsg) bool) error {
	l := s.q.topk.late
	l.hold(t, lateBytes, would, cutByTopK)
	// The WHERE's columns nothing after it reads were read once.
	first := l.first
	if len(s.q.whereOnly) > 0 {
		first = slices.DeleteFunc(slices.Clone(first), func(c int) bool { return s.q.whereOnly[c] })
	}
	for c := (runCursor{rs: survivors}); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		runs := c.next(BatchSize)
		if runs == nil {
			return s.drain(t, l.first, readers)
		}
		b, err := s.gather(t, runs, first, readers)
		if err != nil {
			return err
		}
		out, err := s.q.project(b)
		rows := slices.Clone(runs)
		if out.n > 0 && !send(scanMsg{b: out, runs: &rows}) {
			return ctx.Err()
		}
		if err != nil {
			return s.drainFirst(t, l.first, readers, err)
		}
	}
}

// fetchLate fills the late columns of the result's rows: for each row
// group holding some, it reads them in the pages that hold those rows, a
// few row groups at a time. The row groups holding none account the pages
// they leave (skipLoadCut). Every held file is released; read is false
// when the scan failed, and nothing is read then.
func (s *scanner) fetchLate(ctx context.Context, read bool) (err error) {
	l := s.q.topk.late
	groups := l.take()
	defer func() {
		for _, g := range groups {
			g.file.release()
		}
	}()
	if len(groups) == 0 || l.final == nil || !read {
		return nil
	}
	rows := l.final()
	// The rows to fill, in order of place: each row group's are a span.
	var idx []int
	for i, r := range rows {
		if groups[lateKey{r.pos.file, r.pos.rowGroup}] != nil {
			idx = append(idx, i) // the others were read whole as they came
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return rows[a].pos.compare(rows[b].pos) })
	var keys []lateKey
	var at [][]int
	for j, i := range idx {
		k := lateKey{rows[i].pos.file, rows[i].pos.rowGroup}
		if n := len(keys); n > 0 && keys[n-1] == k {
			at[n-1] = idx[j-len(at[n-1]) : j+1]
			continue
		}
		keys = append(keys, k)
		at = append(at, idx[j:j+1])
	}
	for k, g := range groups {
		if _, found := slices.BinarySearchFunc(keys, k, compareLateKeys); !found {
			s.q.topk.othersLeft.Add(g.file.cs.skipLoadCut(g, l.cols, g.topkWould))
		}
	}
	l.rowGroupsRead += len(keys)
	l.rowsRead += int64(len(idx))
	// Remote reads wait on the network, not the cores: all at once, so
	// that the late read costs one round trip.
	par := s.x.settings.threads()
	for _, g := range groups {
		if g.file.cs.remote != nil {
			par = max(par, min(len(keys), lateRemoteReads))
		}
	}
	if len(keys) == 1 || par == 1 {
		// One at a time, here: no goroutine is worth it.
		for i, k := range keys {
			if err := s.fetchGroup(ctx, groups[k], rows, at[i]); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, len(keys))
	panics := make([]any, len(keys))
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i, k := range keys {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			defer func() { panics[i] = recover() }()
			errs[i] = s.fetchGroup(ctx, groups[k], rows, at[i])
		}()
	}
	wg.Wait()
	for i := range keys {
		if panics[i] != nil {
			panic(panics[i])
		}
		if errs[i] != nil {
			return errs[i]
		}
	}
	return nil
}

// compareLateKeys orders row groups by place.
func compareLateKeys(a, b lateKey) int {
	if c := cmp.Compare(a.file, b.file); c != 0 {
		return c
	}
	return cmp.Compare(a.rowGroup, b.rowGroup)
}

// fetchGroup reads the late columns of row group g for the rows at of
// rows, in order of their places in the row group, and writes them in.
func (s *scanner) fetchGroup(ctx context.Context, g *scanTask, rows []seqRow, at []int) error {
	l := s.q.topk.late
	defer func(start time.Time) {
		for _, f := range g.fetched {
			f.Release()
		}
		g.file.cs.workNanos.Add(int64(time.Since(start)))
	}(time.Now())
	var want []rowRange
	for _, i := range at {
		row := rows[i].pos.seq
		if row < 0 || row >= g.rg.NumRows {
			return fmt.Errorf("exec: %s: row group %d: row %d of a sorted limit out of range", g.file.f.Name, g.rg.Index, row)
		}
		if n := len(want); n > 0 && want[n-1].End == row {
			want[n-1].End++
			continue
		}
		want = append(want, rowRange{First: row, End: row + 1})
	}
	readers := make([]colReader, s.q.width)
	defer releaseDicts(readers)
	if err := s.load(g, l.cols, want, readers); err != nil {
		return err
	}
	next := 0
	for c := (runCursor{rs: want}); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		runs := c.next(BatchSize)
		if runs == nil {
			break
		}
		b, err := s.gather(g, runs, l.cols, readers)
		if err != nil {
			return err
		}
		for j := range b.n {
			r := rows[at[next]].row
			next++
			for _, o := range l.outs {
				r[o.out] = datumAt(b.cols[o.in], j)
			}
		}
		// The datums hold copies, or the fetched bytes, not the vectors.
		b.release()
	}
	return s.drain(g, l.cols, readers)
}

// A rowCursor numbers the rows of runs, asked for in increasing order of
// their positions in a batch of those runs.
type rowCursor struct {
	runs []rowRange
	ri   int
	base int32
}

// row is the row at position i of the batch.
func (c *rowCursor) row(i int32) int64 {
	for i-c.base >= int32(c.runs[c.ri].Len()) {
		c.base += int32(c.runs[c.ri].Len())
		c.ri++
	}
	return c.runs[c.ri].First + int64(i-c.base)
}
