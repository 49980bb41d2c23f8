package exec

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// runStats are what EXPLAIN ANALYZE reports.
type runStats struct {
	Files, RowGroups, RowGroupsSkipped int
	// RowGroupsFromMetadata were answered by their statistics, unread.
	RowGroupsFromMetadata int
	// RowGroupsSkippedByTopK could not beat a sorted limit's rows.
	RowGroupsSkippedByTopK    int
	RowsDecoded, RowsReturned int64
	// PagesSkippedByTopK are pages of a sorted limit's key that could not
	// beat its rows, in the row groups read.
	PagesSkippedByTopK int64
	// OtherPagesLeftByTopK are pages of the other columns, in the row
	// groups read, that hold no row the sorted limit's cut left or, when
	// they are read after the scan, no row of its result.
	OtherPagesLeftByTopK int64
	// RowsReadLateByTopK are rows of a sorted limit's result whose other
	// columns were read after the scan, in RowGroupsReadLateByTopK row
	// groups (topklate.go).
	RowsReadLateByTopK      int64
	RowGroupsReadLateByTopK int
	// RowGroupsJudged had their WHERE judged by dictionary (dictfilter.go).
	RowGroupsJudged int
	// RowGroupsPartsJudged had parts of their WHERE under OR or NOT judged
	// by dictionary as their rows were read (dictfilter.go).
	RowGroupsPartsJudged int
	// RowGroupsDistinct passed on one row per dictionary entry
	// (scandistinct.go).
	RowGroupsDistinct int
	// AggregateParts is how many parts a hash aggregate's groups were
	// split into and aggregated side by side (grouppipe.go), 0 for none.
	AggregateParts int
	IO             format.IOStats
	Plans          []*pushdown.FilePlan
	// Meters are the files opened, in order, with their reads by purpose
	// (iometer.go); Scans are the scans' start and end times, and
	// ConsumeTime the part of them spent consuming their results.
	Meters      []*fileMeter
	Scans       [][2]time.Time
	ConsumeTime time.Duration
}

// options maps the session's switches onto pushdown's; a file's row
// groups are judged on as many threads as they are read.
func (s *Settings) options() pushdown.Options {
	return pushdown.Options{Statistics: s.Statistics, PageIndex: s.PageIndex, Bloom: s.Bloom, Dictionary: s.Dictionary,
		Threads: s.threads()}
}

// threads is how many row groups may be read at once.
func (s *Settings) threads() int {
	if s.Threads > 0 {
		return s.Threads
	}
	return max(runtime.GOMAXPROCS(0), 1)
}

// fieldMap matches the plan's fields (from the first file) to f's fields:
// the k-th field of a name to the k-th field of that name, so a schema that
// repeats a name maps each repeat to its own leaves.
func fieldMap(scan *planner.Scan, f *format.File) ([]*format.Field, error) {
	type key struct {
		name string
		nth  int
	}
	byName := make(map[key]*format.Field, len(f.Schema.Fields))
	seen := make(map[string]int, len(f.Schema.Fields))
	for _, ff := range f.Schema.Fields {
		byName[key{ff.Name, seen[ff.Name]}] = ff
		seen[ff.Name]++
	}
	clear(seen)
	out := make([]*format.Field, len(scan.Fields))
	for i, pf := range scan.Fields {
		nth := seen[pf.Name]
		seen[pf.Name]++
		if !scan.Needed[i] || isVirtual(scan, i) {
			continue
		}
		out[i] = byName[key{pf.Name, nth}]
		if out[i] == nil {
			return nil, fmt.Errorf("%w: Failed to read file \"%s\": schema mismatch in glob: column \"%s\" was read from the original file, but could not be found in file \"%s\"",
				ErrSchemaMismatch, f.Name, pf.Name, f.Name)
		}
		if planner.TypeOf(out[i]) != planner.TypeOf(pf) {
			return nil, fmt.Errorf("%w: column %s is %s in %s but %s in %s", ErrSchemaMismatch, pf.Name,
				planner.TypeOf(out[i]), f.Name, planner.TypeOf(pf), scan.Files[0])
		}
		if ps := scan.Parts[i]; ps != nil {
			out[i] = prunedField(out[i], ps)
		}
	}
	return out, nil
}

// fileFields is fieldMap of f and the leaves it needs, as the file before
// had them when f shares its schema: the files of a glob almost always
// share one (format.OpenSource), and the map is the same for each.
func (s *scanner) fileFields(f *format.File) ([]*format.Field, []int, error) {
	if f.Schema != nil && f.Schema == s.lastSchema {
		return s.lastFields, s.lastLeaves, nil
	}
	fields, err := fieldMap(s.q.p.Scan, f)
	if err != nil {
		return nil, nil, err
	}
	s.lastSchema, s.lastFields, s.lastLeaves = f.Schema, fields, neededLeaves(fields)
	return fields, s.lastLeaves, nil
}

// columnsOf marks the leaves of f, a file the scan opens, whose chunks'
// metadata the scan uses: the leaves it reads and those its predicate
// judges (a join filter's included, which is part of it by now). A count
// of the rows alone uses none. The footer of a glob's file is decoded for
// these alone (format.OpenSourceColumns).
func (s *scanner) columnsOf(f *format.File) ([]bool, error) {
	keep := make([]bool, len(f.Schema.Leaves))
	scan := s.q.p.Scan
	if scan.CountOnly {
		return keep, nil
	}
	_, leaves, err := s.fileFields(f)
	if err != nil {
		return nil, err
	}
	cols, err := pushdown.Columns(f, scan.Pushdown, leaves)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		keep[c] = true
	}
	return keep, nil
}

// neededLeaves lists the leaves of fields, sorted.
func neededLeaves(fields []*format.Field) []int {
	var leaves []int
	for _, fl := range fields {
		if fl != nil {
			for _, l := range fl.Leaves {
				leaves = append(leaves, l.Index)
			}
		}
	}
	sort.Ints(leaves)
	return leaves
}

// A scanQuery says what the workers do with each row group's rows.
type scanQuery struct {
	p     *planner.Plan
	width int
	// where filters the rows (nil: keep all); whereCols are the input
	// columns it reads, otherCols the other columns the query reads, and
	// needCols both.
	where                          *filter
	whereCols, otherCols, needCols []int
	// emitCols are the columns the rows the WHERE passes go on with:
	// needCols less whereOnly, the WHERE's columns nothing after it reads.
	// Those are read once, when the WHERE is judged late (scanRowGroup).
	emitCols  []int
	whereOnly map[int]bool
	// proj projects the kept rows; nil for an aggregate plan, which gets
	// the filtered input rows.
	proj *projector
	// countProof: the plan only counts rows, so a row group whose
	// statistics prove the WHERE for every row is counted unread.
	countProof bool
	// countRows: the plan only counts the rows that pass, so the workers
	// pass on counts, not the rows (countOnly).
	countRows bool
	// streamLimit: the plan stops after LIMIT rows in scan order, so
	// parallelism starts at one row group and grows only while more rows
	// are wanted.
	streamLimit bool
	// partial: workers aggregate their row groups and pass the partial
	// aggregates on, which merge exactly.
	partial bool
	// partials are the row groups' partial aggregates, reused from row
	// group to row group (aggpool.go).
	partials aggPool
	// noPartial, when set, stops the partial aggregation for row groups
	// not yet started: a spilling aggregation cannot merge new groups.
	noPartial *atomic.Bool
	// topk, for a sorted limit, skips the row groups that cannot beat it.
	topk *topKScan
	// judges are the WHERE's conjuncts on one column alone, judged by
	// dictionary where the columns are dictionary-encoded (dictfilter.go);
	// residual is the rest of the WHERE, and after the columns read once
	// the judges have chosen the rows.
	judges   []colJudge
	residual *filter
	after    []int
	// parts, when not nil, compiles the WHERE with its parts on one column
	// judged by dictionary (dictfilter.go), for the columns that have one
	// in a row group; the WHERE has no judges then.
	parts *partFilters
	// distinct is the one column the plan needs the distinct values of,
	// or -1 (scandistinct.go).
	distinct int
}

func newScanQuery(p *planner.Plan, s Settings) *scanQuery {
	width := len(p.Input)
	q := &scanQuery{p: p, width: width}
	whereSet := map[int]bool{}
	if p.Where != nil {
		q.where = newFilter(p.Where, width)
		planner.Columns(p.Where, whereSet)
	}
	if p.Scan.Subquery == nil {
		// The planner marks every column the query reads as needed, the
		// WHERE's included; fieldMap maps only those.
		for i, need := range p.Scan.Needed {
			switch {
			case !need || isVirtual(p.Scan, i):
				// Hive partition columns come from the path (gather).
				continue
			case whereSet[i]:
				q.whereCols = append(q.whereCols, i)
			default:
				q.otherCols = append(q.otherCols, i)
			}
			q.needCols = append(q.needCols, i)
		}
	}
	if !p.Aggregate {
		q.proj = newProjector(p.Project, width)
	}
	q.countProof = p.Aggregate && p.Where != nil && len(p.GroupBy) == 0 && len(p.Aggs) > 0 && s.Statistics
	for _, a := range p.Aggs {
		q.countProof = q.countProof && a.Func == "count_star"
	}
	q.countRows = countOnly(p)
	q.streamLimit = !p.Aggregate && len(p.Order) == 0 && !p.Distinct && p.Limit >= 0
	q.partial = mergeable(p)
	if s.Statistics {
		q.topk = newTopKScan(p)
	}
	if q.topk != nil {
		q.topk.decodeFirst(q)
		q.topk.deferOthers(q)
	}
	if q.topk == nil && len(q.whereCols) > 0 {
		q.judgeWhere()
	}
	if q.topk == nil && q.judges == nil && len(q.whereCols) > 1 && judgingParts {
		q.judgeParts()
	}
	q.distinct = distinctColumn(p, q.needCols)
	q.whereOnly = whereOnly(p, q.whereCols)
	for _, c := range q.needCols {
		if !q.whereOnly[c] {
			q.emitCols = append(q.emitCols, c)
		}
	}
	return q
}

// whereOnly is the set of the WHERE's columns cols that no expression
// after the WHERE reads (Plan.InputExprs).
func whereOnly(p *planner.Plan, cols []int) map[int]bool {
	xs := p.InputExprs()
	if len(cols) == 0 || len(xs) == 0 || p.Where == nil {
		return nil
	}
	used := map[int]bool{}
	for _, x := range xs[1:] { // the first is the WHERE
		planner.Columns(x, used)
	}
	var out map[int]bool
	for _, c := range cols {
		if !used[c] {
			if out == nil {
				out = map[int]bool{}
			}
			out[c] = true
		}
	}
	return out
}

// countOnly reports whether a plan reads nothing of its input rows but how
// many there are: count(*) alone, without GROUP BY. A scan message's count
// then stands for that many rows.
func countOnly(p *planner.Plan) bool {
	if !p.Aggregate || len(p.GroupBy) > 0 || len(p.GroupingSets) > 0 || len(p.Aggs) == 0 {
		return false
	}
	for _, a := range p.Aggs {
		if a.Func != "count_star" {
			return false
		}
	}
	return true
}

// judgeWhere sets the judges of the WHERE's one-column conjuncts, and the
// columns still to read after them: those the rest of the query or the
// residual WHERE reads.
func (q *scanQuery) judgeWhere() {
	cols := map[int]bool{}
	for _, c := range q.whereCols {
		cols[c] = true
	}
	judges, residual, ok := judgedWhere(q.p.Where, q.where, q.width, cols)
	if !ok {
		return
	}
	used := map[int]bool{}
	for _, x := range q.p.InputExprs()[1:] { // the first is the WHERE
		planner.Columns(x, used)
	}
	if residual != nil {
		planner.Columns(residual, used)
	}
	judged := map[int]bool{}
	for _, j := range judges {
		judged[j.col] = true
	}
	q.judges = judges
	if residual != nil {
		q.residual = newFilter(residual, q.width)
	}
	for _, c := range q.needCols {
		if used[c] || !judged[c] {
			q.after = append(q.after, c)
		}
	}
}

// judgeParts sets parts for the WHERE's columns that the rest of the query
// does not read.
func (q *scanQuery) judgeParts() {
	used := map[int]bool{}
	for _, x := range q.p.InputExprs()[1:] { // the first is the WHERE
		planner.Columns(x, used)
	}
	var cols []int
	for _, c := range q.whereCols {
		if !used[c] {
			cols = append(cols, c)
		}
	}
	if len(cols) > 0 {
		q.parts = &partFilters{where: q.p.Where, width: q.width, cols: cols, by: map[string]*filter{}}
	}
}

// A scanMsg is one piece of a row group's result, in order: a batch, a
// count of rows answered from metadata, or the error that ends the scan.
type scanMsg struct {
	b     *batch
	count int64
	err   error
	// partial is a row group's aggregate, to merge.
	partial *aggregator
	// file and rowGroup place the message's rows: the file's place in the
	// scan and the row group's index in it.
	file, rowGroup int32
	// runs, for a sorted limit that fetches its other columns after the
	// scan, are the rows of the row group b holds (topklate.go); a
	// pointer, so that every task's channel of messages stays as small.
	runs *[]rowRange
	// panicked carries a worker's panic to the caller's goroutine, where
	// it is raised again as it would have been without workers.
	panicked any
}

// consumeFunc takes the scan's messages in file order; it returns true to
// stop the scan.
type consumeFunc func(m scanMsg) (stop bool, err error)

// A scanFile is an open file of a scan, closed when its last row group is done.
type scanFile struct {
	f      *format.File
	cs     *fileMeter
	closer io.Closer
	fields []*format.Field
	refs   atomic.Int32
	sc     *scanner
	// seq is the file's place in the scan.
	seq int32
	// starts are the row groups' first rows in the file, for
	// file_row_number; made once, before the workers start.
	starts []int64
	// topk judges the file's row groups and pages for a sorted limit.
	topk *topKFile
}

// typeOf is the type of column col's values.
func (f *scanFile) typeOf(col int) Type { return typeOfField(f.fields[col]) }

// rowStart is the position in the file of row group rg's first row.
func (sf *scanFile) rowStart(rg int) int64 {
	if rg < len(sf.starts) {
		return sf.starts[rg]
	}
	return 0
}

func (sf *scanFile) release() {
	if sf.refs.Add(-1) != 0 {
		return
	}
	st := sf.cs.Stats()
	sf.closer.Close()
	sf.sc.mu.Lock()
	sf.sc.io.Bytes += st.Bytes
	sf.sc.io.Requests += st.Requests
	sf.sc.mu.Unlock()
}

// A scanTask is one row group to read, or a message ready to pass on.
type scanTask struct {
	file *scanFile
	rg   pushdown.RowGroupPlan
	out  chan scanMsg
	// limit caps the rows the task passes on (-1: no cap): a LIMIT without
	// WHERE needs only the first rows.
	limit int64
	// loaded sums the planned bytes of the leaves loaded or given up, for
	// EXPLAIN ANALYZE's account (iometer.go).
	loaded int64
	// topkBound is a sorted limit's bound when the task was dispatched.
	topkBound loggedBound
	// cutByTopK: the load under way reads fewer pages than planned
	// because a sorted limit's bound skipped them.
	cutByTopK bool
	// topkWould, while the other columns are loaded for the rows a sorted
	// limit's cut left, are the rows they would have been loaded for
	// without the cut: the pages holding one of these but no row left
	// are the cut's (topKLeft).
	topkWould []rowRange
	// fetched are the task's fetched bytes, released for later row groups
	// when it ends: those that values it passes on point into are pinned
	// (format.Fetched.Release) and stay theirs.
	fetched []*format.Fetched
	// idle, for a row group of a streamed plan, takes the worker's slot
	// back once the task's dictionaries are dropped (dispatchStream).
	idle chan struct{}
}

// taskBuffer is how many batches a worker may get ahead of the consumer on
// one row group.
const taskBuffer = 8

// aggregates reports whether the workers aggregate the row groups they
// start now.
func (s *scanner) aggregates() bool {
	return s.q.partial && !s.partialOff.Load() && (s.q.noPartial == nil || !s.q.noPartial.Load())
}

// taskOut makes the channel of a task's messages. A row group the workers
// aggregate passes one, its partial aggregate, and its channel holds no
// more: a channel of taskBuffer messages is half a kilobyte a row group.
// (One whose aggregate is handed off midway passes its batches one at a
// time.)
func (s *scanner) taskOut() chan scanMsg {
	if s.aggregates() {
		return make(chan scanMsg, 1)
	}
	return make(chan scanMsg, taskBuffer)
}

// A scanner runs one scan: a dispatcher opens and plans the files in order,
// workers read row groups in parallel, and the caller takes their results
// back in file order.
type scanner struct {
	x *executor
	q *scanQuery
	// remaining counts the rows a LIMIT without WHERE still wants from the
	// row groups not yet dispatched; the dispatcher alone uses it.
	capped      bool
	remaining   int64
	rowGroups   atomic.Int64
	rowsDecoded atomic.Int64
	judged      atomic.Int64
	partsJudged atomic.Int64
	distinct    atomic.Int64
	// partialOff turns the workers' partial aggregation off for the row
	// groups not yet started: the groups turned out too many.
	partialOff atomic.Bool
	mu         sync.Mutex
	io         format.IOStats
	// dispatchPanic is a panic of the dispatcher, raised again by scanFiles.
	dispatchPanic any
	// The dispatcher's tokens: how many it has taken, and whether it holds
	// one it has not used.
	tokensTaken int
	holding     bool
	// idle holds a slot per worker not reading a streamed row group; the
	// dispatcher takes one before it judges such a row group.
	idle chan struct{}
	// The dispatcher's last file's schema, and the fields and leaves it
	// mapped of it (fileFields).
	lastSchema *format.Schema
	lastFields []*format.Field
	lastLeaves []int
	// planner plans the dispatcher's files, one after another.
	planner pushdown.Planner
	// freeTasks are tasks the consumer is done with, for the dispatcher
	// to reuse: a task per row group, made anew, is a few hundred bytes a
	// file of a glob.
	freeTasks chan *scanTask
}

// newTask is a task for row group rg of sf: one the consumer is done
// with, or a new one.
func (s *scanner) newTask(sf *scanFile, rg pushdown.RowGroupPlan) *scanTask {
	var t *scanTask
	select {
	case t = <-s.freeTasks:
	default:
		t = new(scanTask)
	}
	*t = scanTask{file: sf, rg: rg, limit: -1}
	return t
}

// doneWith takes back a task whose messages were all consumed: its worker
// closed t.out last, and nothing else holds it.
func (s *scanner) doneWith(t *scanTask) {
	select {
	case s.freeTasks <- t:
	default:
	}
}

// takeToken waits for a token, unless the dispatcher holds one; false
// when the scan is cancelled.
func (s *scanner) takeToken(ctx context.Context, tokens chan struct{}) bool {
	if s.holding {
		s.holding = false
		return true
	}
	select {
	case <-tokens:
		s.tokensTaken++
		return true
	case <-ctx.Done():
		return false
	}
}

// scanFiles reads the plan's files, following each file's pushdown plan and
// nothing else, and passes the results to consume in file order.
func (x *executor) scanFiles(ctx context.Context, q *scanQuery, consume consumeFunc) error {
	defer x.timeScan(time.Now())
	consume = x.timeConsume(consume)
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	threads := x.settings.threads()
	window := 2 * threads
	granted := window
	if q.streamLimit || q.topk != nil {
		granted = 1
	}
	// A token is a row group in flight: dispatched and not yet consumed.
	tokens := make(chan struct{}, window)
	// give hands out a token; a sorted limit notes the bound it held then.
	give := func() {
		if q.topk != nil {
			q.topk.bound.logToken()
		}
		tokens <- struct{}{}
	}
	for range granted {
		give()
	}
	order := make(chan *scanTask, window)
	work := make(chan *scanTask)
	s := &scanner{x: x, q: q, freeTasks: make(chan *scanTask, window)}
	if q.streamLimit && q.where == nil {
		// A row-at-a-time loop projects at least one row even for LIMIT 0,
		// and fails if that row does.
		s.capped, s.remaining = true, max(rowsWanted(q.p), 1)
	}
	var wg sync.WaitGroup
	wg.Add(1 + threads)
	go func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				s.dispatchPanic = r
			}
		}()
		s.dispatch(ctx, tokens, order, work)
	}()
	for range threads {
		go func() {
			defer wg.Done()
			for t := range work {
				s.work(ctx, t)
			}
		}()
	}
	var panicked any
	err := func() error {
		for t := range order {
			for m := range t.out {
				if t.file != nil {
					m.file, m.rowGroup = t.file.seq, int32(t.rg.Index)
				}
				if m.panicked != nil {
					panicked = m.panicked
					return nil
				}
				stop, err := consume(m)
				if err != nil || stop {
					return err
				}
			}
			s.doneWith(t)
			give()
			if granted < window {
				give()
				granted++
			}
		}
		return parent.Err()
	}()
	cancel()
	wg.Wait()
	if panicked == nil {
		panicked = s.dispatchPanic
	}
	if panicked != nil {
		panic(panicked)
	}
	if q.topk != nil && q.topk.late != nil {
		// The other columns of the result's rows (topklate.go); the held
		// files are released whatever ended the scan.
		if lerr := s.fetchLate(parent, err == nil); err == nil {
			err = lerr
		}
	}
	x.stats.RowGroups += int(s.rowGroups.Load())
	if q.topk != nil {
		x.stats.RowGroupsSkippedByTopK += int(q.topk.skipped.Load())
		x.stats.PagesSkippedByTopK += q.topk.pagesSkipped.Load()
		x.stats.OtherPagesLeftByTopK += q.topk.othersLeft.Load()
		if l := q.topk.late; l != nil {
			x.stats.RowsReadLateByTopK += l.rowsRead
			x.stats.RowGroupsReadLateByTopK += l.rowGroupsRead
		}
	}
	x.stats.RowsDecoded += s.rowsDecoded.Load()
	x.stats.RowGroupsJudged += int(s.judged.Load())
	x.stats.RowGroupsPartsJudged += int(s.partsJudged.Load())
	x.stats.RowGroupsDistinct += int(s.distinct.Load())
	x.stats.IO.Bytes += s.io.Bytes
	x.stats.IO.Requests += s.io.Requests
	return err
}

// dispatch opens and plans the files in order and hands out their row
// groups, at most as many at a time as there are tokens.
func (s *scanner) dispatch(ctx context.Context, tokens chan struct{}, order, work chan *scanTask) {
	defer close(order)
	defer close(work)
	// pass queues a message that needs no worker.
	pass := func(m scanMsg) bool {
		t := &scanTask{out: make(chan scanMsg, 1)}
		t.out <- m
		close(t.out)
		if !s.takeToken(ctx, tokens) {
			return false
		}
		select {
		case order <- t:
			return true
		case <-ctx.Done():
			return false
		}
	}
	scan := s.q.p.Scan
	s.x.settings.Progress.addFiles(len(scan.Files))
	s.x.warmRemote(ctx, scan)
	for seq, path := range scan.Files {
		if ctx.Err() != nil {
			return
		}
		f, cs, closer, err := s.x.openCountedFooter(path, scan.TakeFooter(path), s.columnsOf)
		if err != nil {
			pass(scanMsg{err: err})
			return
		}
		cs.progress = s.x.settings.Progress
		s.x.stats.Files++
		s.x.keepMeter(cs)
		sf := &scanFile{f: f, cs: cs, closer: closer, sc: s, seq: int32(seq)}
		if scan.HasRowNumber {
			sf.starts = pushdown.RowGroupStarts(f)
		}
		sf.refs.Store(1)
		if !s.dispatchFile(ctx, sf, tokens, order, work, pass) {
			sf.release()
			return
		}
		sf.release()
	}
}

// dispatchFile plans one file and hands out its row groups; false stops
// the scan.
func (s *scanner) dispatchFile(ctx context.Context, sf *scanFile, tokens chan struct{}, order, work chan *scanTask, pass func(scanMsg) bool) bool {
	q, f := s.q, sf.f
	if q.p.Scan.CountOnly {
		var n int64
		for _, rg := range f.Meta.RowGroups {
			s.rowGroups.Add(1)
			n += rg.NumRows
		}
		return pass(scanMsg{count: n})
	}
	fields, leaves, err := s.fileFields(f)
	if err != nil {
		pass(scanMsg{err: err})
		return false
	}
	sf.fields = fields
	if s.streams(sf) {
		return s.dispatchStream(ctx, sf, tokens, order, work, pass)
	}
	sf.cs.expect(q.p.Scan.Pushdown, leaves, s.x.settings.options())
	fp, err := s.planner.Plan(f, q.p.Scan.Pushdown, leaves, s.x.settings.options())
	if err != nil {
		pass(scanMsg{err: err})
		return false
	}
	s.x.creditJoinFilter(q.p.Scan, f, leaves, fp)
	sf.cs.planned(fp)
	// The statistics' verdicts come from pushdown, as the plan's do.
	var proof *pushdown.Prover
	if q.countProof {
		proof = pushdown.NewProver(f)
	}
	rgs := fp.RowGroups
	var topk *topKFile
	if q.topk != nil {
		if topk = q.topk.forFile(f, fields); topk != nil {
			rgs = topk.order(rgs)
		}
	}
	sf.topk = topk
	for _, rg := range rgs {
		if rg.Verdict == pushdown.Skip {
			s.x.stats.RowGroupsSkipped++
			continue
		}
		if proof != nil && rg.Verdict == pushdown.Scan && proof.RowGroup(fp.Predicate, rg.Index) == pushdown.True {
			s.x.stats.RowGroupsFromMetadata++
			sf.cs.answered(rg)
			if !pass(scanMsg{count: rg.NumRows}) {
				return false
			}
			continue
		}
		t := s.newTask(sf, rg)
		if s.capped {
			t.limit = s.remaining
			if rg.Rows != nil {
				s.remaining -= rg.Rows.Count()
			} else {
				s.remaining -= rg.NumRows
			}
		}
		if !s.takeToken(ctx, tokens) {
			return false
		}
		// Judged once the token is in hand, by the bound the heap held
		// when the token was given: the rows read meanwhile have
		// tightened it, and which rows those were does not depend on
		// timing. A skip keeps the token for the next row group.
		if topk != nil && topk.excludes(rg.Index, s.tokensTaken-1) {
			q.topk.skipped.Add(1)
			sf.cs.skippedByTopK(rg)
			s.holding = true
			continue
		}
		if q.topk != nil {
			t.topkBound = q.topk.bound.logged(s.tokensTaken - 1)
		}
		// Made once the row group is read: a skipped one's would be waste.
		t.out = s.taskOut()
		sf.refs.Add(1)
		select {
		case order <- t:
		case <-ctx.Done():
			sf.release()
			return false
		}
		select {
		case work <- t:
		case <-ctx.Done():
			close(t.out)
			sf.release()
			return false
		}
		if s.capped && s.remaining <= 0 {
			return false
		}
	}
	return true
}

// work reads one row group and passes its results on.
func (s *scanner) work(ctx context.Context, t *scanTask) {
	if idle := t.idle; idle != nil {
		// Deferred first, so run last: the slot comes back once the
		// row group's dictionaries are dropped. Once t.out is closed, t
		// is not touched: the consumer reuses it (freeTasks).
		defer func() { idle <- struct{}{} }()
	}
	defer t.file.release()
	defer close(t.out)
	defer func() {
		for _, f := range t.fetched {
			f.Release()
		}
	}()
	if ctx.Err() != nil {
		return
	}
	s.rowGroups.Add(1)
	defer t.file.cs.finish(t, time.Now())
	send := func(m scanMsg) bool {
		select {
		case t.out <- m:
			return true
		case <-ctx.Done():
			return false
		}
	}
	defer func() {
		if r := recover(); r != nil {
			send(scanMsg{panicked: r})
		}
	}()
	// The dictionaries pushdown decoded are not needed once the row group
	// is read, and every value taken from them was copied; the plan
	// outlives the scan.
	defer func() {
		for i := range t.rg.Columns {
			format.ReleaseDictionary(t.rg.Columns[i].Dictionary)
			t.rg.Columns[i].Dictionary = nil
		}
	}()
	if !s.aggregates() {
		if err := s.scanRowGroup(ctx, t, send); err != nil {
			send(scanMsg{err: err})
		}
		return
	}
	// Aggregate here; the first error, of the aggregate or of the scan,
	// ends the row group. Once the row group has more groups than its rows
	// allow (partialRowsPerGroup), or another one had, the groups so far go
	// as a partial aggregate and the rest of the rows as they are.
	ag := s.q.partials.take(s.q.p)
	var aggErr error
	handedOff := false
	err := s.scanRowGroup(ctx, t, func(m scanMsg) bool {
		if handedOff {
			return send(m)
		}
		if _, aggErr = ag.consume(m); aggErr != nil {
			return false
		}
		if int64(ag.numGroups())*partialRowsPerGroup > t.rg.NumRows {
			s.partialOff.Store(true)
		}
		if s.partialOff.Load() {
			handedOff = true
			return send(scanMsg{partial: ag})
		}
		return ctx.Err() == nil
	})
	if aggErr != nil {
		err = aggErr
	}
	if handedOff {
		if err != nil {
			send(scanMsg{err: err})
		}
		return
	}
	if int64(ag.numGroups())*partialRowsPerGroup > ag.consumed {
		// With this many groups, building them twice (here and when
		// merging) costs more than the parallel aggregation saves.
		s.partialOff.Store(true)
	}
	send(scanMsg{partial: ag, err: err})
}

// partialRowsPerGroup is how many rows per group a row group's partial
// aggregate must fold to be worth merging.
const partialRowsPerGroup = 256

// scanRowGroup reads one kept row group as its plan says. With a WHERE
// whose columns are not all the query reads, it materializes late: it
// decodes the WHERE's columns first, finds the rows that pass, and fetches
// and decodes the other columns only in the pages that hold such rows.
func (s *scanner) scanRowGroup(ctx context.Context, t *scanTask, send func(scanMsg) bool) error {
	q, rg := s.q, t.rg
	kept := rg.Rows
	if kept == nil {
		kept = pushdown.AllRows(rg.NumRows)
	}
	// rows are the rows the task needs when they are fewer than kept.
	var rows []rowRange
	if t.limit >= 0 && pushdown.RowRanges(kept).Count() > t.limit {
		kept = firstRows(kept, t.limit)
		rows = kept
	}
	readers := make([]colReader, q.width)
	defer releaseDicts(readers)
	if q.judges != nil && rows == nil && s.judgeable(t) {
		return s.scanJudged(ctx, t, kept, readers, send)
	}
	if q.distinct >= 0 && rows == nil && judgeable(t.file.f, t.rg.Index, t.file.fields[q.distinct]) {
		return s.scanDistinct(ctx, t, kept, readers, send)
	}
	kept0 := kept
	if tf := t.file.topk; tf != nil && rows == nil {
		// Only the pages of the key that can still beat the rows held
		// are read, of every column read first (topkscan.go).
		whole := q.where == nil && (rg.Rows == nil || pushdown.RowRanges(rg.Rows).Covers(rg.NumRows))
		pc, ok := tf.cutPages(rg.Index, t.topkBound, whole)
		t.file.cs.scanIndex.Add(pc.columnIndex + pc.offsetIndex)
		t.file.cs.scanColumnIndex.Add(pc.columnIndex)
		if ok {
			q.topk.pagesSkipped.Add(pc.pages)
			kept = pushdown.RowRanges(kept).Intersect(pc.rows)
			rows, t.cutByTopK = kept, true
			if len(kept) == 0 {
				t.file.cs.skipLoadTopK(t, q.needCols)
				q.topk.othersLeft.Add(topKPagesHolding(t, q.otherCols, kept0))
				return nil
			}
		}
	}
	where := q.where
	if f := q.parts.forTask(t); f != nil {
		where = f
		s.partsJudged.Add(1)
	}
	// A sorted limit cuts its key first even when it reads nothing else:
	// the workers then drop, in parallel and into reused vectors, the rows
	// the heap would refuse one by one after them.
	late := (where != nil && len(q.otherCols) > 0) || q.topk != nil
	first := q.needCols
	if late {
		first = q.whereCols
	}
	// Read once, in order: a chunk read whole may stream (streamAbove).
	// Read late, the WHERE's columns the rest of the query reads are
	// carried out of the first pass (carry.go), but for a sorted limit's,
	// which are read again for the rows it passes.
	once := func(c int) bool { return !late || q.whereOnly[c] || q.topk == nil }
	if err := s.loadOnce(t, first, rows, readers, once); err != nil {
		return err
	}
	if !late {
		return s.emit(ctx, t, kept, q.needCols, readers, where, send, nil)
	}
	var carried *carry
	if q.topk == nil {
		carried = newCarry(q.whereCols, q.whereOnly, readers, rg.NumRows, t.file.typeOf)
	}
	var survivors []rowRange
	var whereErr error
	var cut *rowGroupCut
	// every selects a whole batch; neither the cut nor appendSelected
	// keeps it.
	var every []int32
	// selBuf holds each batch's survivors for the next batch, and the
	// next row group, to reuse.
	selBuf := borrowSelection()
	defer selBuf.done()
	// passing are the rows the WHERE passes, which the cut narrows.
	var passing []rowRange
	t.cutByTopK = false
	if q.topk != nil {
		cut = q.topk.newRowGroupCut(t.topkBound, typeOfField(t.file.fields[q.topk.col]))
	}
	gathered := where.unjudged(q.whereCols)
	parts := s.newPartJudge(t, where, kept, readers)
	for c := (runCursor{rs: kept}); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		runs := c.next(BatchSize)
		if runs == nil {
			break
		}
		if cut != nil && q.where == nil && len(q.whereCols) == 1 && cut.rankKey(readers[q.topk.col], runs[0].First, rg.NumRows) {
			if err := cut.addRanked(runs, int(rowCount(runs))); err != nil {
				return s.readError(t, err)
			}
			continue
		}
		b, err := s.gather(t, runs, gathered, readers)
		if err == nil {
			err = parts.judge(b, runs, readers)
		}
		if err != nil {
			return err
		}
		var sel []int32
		if where != nil {
			sel, err = where.applyInto(b, selBuf.buf())
			selBuf.keep(sel)
		} else if cut != nil {
			sel = cut.selectAll(b.n)
		} else {
			if cap(every) < b.n {
				every = allRows(b.n)
			}
			sel = every[:b.n]
		}
		if cut != nil {
			cut.add(b, runs, sel)
			if where != nil {
				passing = appendSelected(passing, runs, sel)
			}
		} else {
			survivors = appendSelected(survivors, runs, sel)
			carried.add(b, sel)
		}
		b.release()
		if err != nil {
			whereErr = err
			break
		}
	}
	var would []rowRange
	if cut != nil {
		survivors = cut.survivors()
		q.topk.recycle(cut)
		would = kept0
		if where != nil {
			would = topKWould(passing, kept0, kept)
		}
	}
	if err := s.drain(t, q.whereCols, readers); err != nil {
		return err
	}
	switch {
	case len(survivors) == 0 && cut != nil:
		q.topk.othersLeft.Add(t.file.cs.skipLoadCut(t, q.otherCols, would))
	case len(survivors) == 0:
		t.file.cs.skipLoad(t, q.otherCols)
	default:
		others := q.otherCols
		if carried != nil && carried.dropped {
			// Read again, as the other columns are, in the pages holding
			// the rows passed.
			others = append(slices.Clone(others), carried.cols...)
			carried = nil
		}
		var lateBytes int64
		deferred := false
		if cut != nil {
			lateBytes, deferred = q.topk.late.defers(t)
		}
		if deferred {
			// Only the later sort keys now; the rest once the scan ends.
			others = q.topk.late.keys
		}
		if len(others) > 0 {
			// Without a WHERE every page left unread is the cut's.
			t.topkWould, t.cutByTopK = would, cut != nil && where == nil
			err := s.load(t, others, survivors, readers)
			t.topkWould, t.cutByTopK = nil, false
			if err != nil {
				return err
			}
		}
		for _, c := range q.whereCols {
			if !q.whereOnly[c] && !carried.holds(c) {
				readers[c].rewind()
			}
		}
		var err error
		if deferred {
			err = s.emitLate(ctx, t, lateBytes, survivors, would, where == nil, readers, send)
		} else {
			err = s.emit(ctx, t, survivors, q.emitCols, readers, nil, send, carried)
		}
		if err != nil {
			return err
		}
	}
	return whereErr
}

// judgeable reports whether every judged column of the task's row group is
// a flat leaf with a dictionary.
func (s *scanner) judgeable(t *scanTask) bool {
	for _, j := range s.q.judges {
		if !judgeable(t.file.f, t.rg.Index, t.file.fields[j.col]) {
			return false
		}
	}
	return true
}

// scanJudged reads a row group whose WHERE has judges: each judged column
// narrows the rows by its dictionary, and the other columns are read, and
// the residual WHERE evaluated, only for the rows left.
func (s *scanner) scanJudged(ctx context.Context, t *scanTask, kept []rowRange, readers []colReader, send func(scanMsg) bool) error {
	q := s.q
	s.judged.Add(1)
	cols := make([]int, len(q.judges))
	for i, j := range q.judges {
		cols[i] = j.col
	}
	// A judged column nothing after the judges reads is read once; so is
	// the last judge's when read after: the rows it keeps are the rows
	// read after, whose values it carries out of the judging (carry.go).
	carryCol := -1
	if last := &q.judges[len(q.judges)-1]; slices.Contains(q.after, last.col) && carriesJudged(t, last, kept) {
		carryCol = last.col
	}
	once := func(c int) bool { return c == carryCol || !slices.Contains(q.after, c) }
	if err := s.loadOnce(t, cols, nil, readers, once); err != nil {
		return err
	}
	var carried *carry
	if carryCol >= 0 {
		// nil when the column's pages were fetched: they are read again.
		carried = newCarry([]int{carryCol}, nil, readers, t.rg.NumRows, t.file.typeOf)
		defer carried.release()
	}
	// A plan that counts the rows the judges leave needs only their number.
	countOnly := q.countRows && q.residual == nil && len(q.after) == 0
	var count int64
	// The rows each judge keeps are held in a buffer of keptPool, given
	// back once the next judge, or the row group, is done with them.
	var held *[]rowRange
	defer func() { putKept(held) }()
	for i, j := range q.judges {
		if len(kept) == 0 {
			break
		}
		r := readers[j.col].(*flatReader)
		last := countOnly && i == len(q.judges)-1
		var keep *carry
		if j.col == carryCol && i == len(q.judges)-1 {
			keep = carried
		}
		buf := keptPool.Get().(*[]rowRange)
		var err error
		*buf, count, err = r.selectRows(ctx, (*buf)[:0], kept, &j, typeOfField(t.file.fields[j.col]), q.width, last, keep)
		putKept(held)
		held, kept = buf, *buf
		if err != nil {
			return s.readError(t, err)
		}
		if last {
			kept = nil
		}
	}
	if err := s.drain(t, cols, readers); err != nil {
		return err
	}
	if countOnly {
		if count > 0 && !send(scanMsg{count: count}) {
			return ctx.Err()
		}
		return nil
	}
	if carried != nil {
		judgedCarried.Add(1)
	}
	if carried != nil && carried.dropped {
		// Read again, as the other columns are, for the rows kept.
		judgedCarryDropped.Add(1)
		readers[carryCol], carried = nil, nil
	}
	var rest []int
	for _, c := range q.after {
		switch {
		case readers[c] == nil:
			rest = append(rest, c)
		case !carried.holds(c):
			readers[c].rewind()
		}
	}
	if len(kept) == 0 {
		t.file.cs.skipLoad(t, rest)
		return nil
	}
	if err := s.load(t, rest, kept, readers); err != nil {
		return err
	}
	return s.emit(ctx, t, kept, q.after, readers, q.residual, send, carried)
}

// carriesJudged reports whether the values of the rows judge j keeps of
// the rows kept are carried out of the judging. Carried, they are not read
// again, but a carry grown past the bytes of the column's pages is dropped
// and the column read again for the rows kept. So only a judge keeping the
// rows of a short list of values (at most one per rowsPerPickedValue rows)
// is carried, on a column whose pages take at least an eighth of the bytes
// of its values: a few values of a column of many, not of a column of few,
// whose rows one value may fill.
func carriesJudged(t *scanTask, j *colJudge, kept []rowRange) bool {
	fl := t.file.fields[j.col]
	cr := leafPlans(t.rg)[fl.Leaf.Index]
	rows := rowCount(kept)
	if j.picks == 0 || int64(j.picks)*rowsPerPickedValue > rows || fl.Kind != format.ScalarField || fl.Leaf.MaxRep != 0 || cr == nil {
		return false
	}
	size := int64(8)
	if typeOfField(fl).ID == TypeVarchar {
		size = 16
	}
	return judgedCarryDensity*cr.Bytes >= size*rows
}

// rowsPerPickedValue is how many rows to judge a judge's list of values
// needs per value, and judgedCarryDensity how many times the bytes of the
// column's pages must cover those of its values, for its column to be
// carried (carriesJudged).
var rowsPerPickedValue, judgedCarryDensity int64 = 64, 8

// emit gathers the rows of ranges in batches, filters them with where
// (when not nil) and passes them on, projected if the query projects. The
// columns carried, when not nil, hold their rows of ranges already.
func (s *scanner) emit(ctx context.Context, t *scanTask, ranges []rowRange, cols []int, readers []colReader, where *filter, send func(scanMsg) bool, carried *carry) error {
	if s.q.countRows && where == nil {
		// Nothing of the rows is read: their count is the answer.
		if n := rowCount(ranges); !send(scanMsg{count: n}) {
			return ctx.Err()
		}
		return s.drain(t, cols, readers)
	}
	// rows holds each batch's survivors, copied out by take, for the next
	// batch, and the next row group, to reuse.
	rows := borrowSelection()
	defer rows.done()
	if carried != nil {
		cols = slices.DeleteFunc(slices.Clone(cols), carried.holds)
	}
	gathered := where.unjudged(cols)
	parts := s.newPartJudge(t, where, ranges, readers)
	for c := (runCursor{rs: ranges}); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		runs := c.next(BatchSize)
		if runs == nil {
			return s.drain(t, cols, readers)
		}
		b, err := s.gather(t, runs, gathered, readers)
		if err == nil {
			err = parts.judge(b, runs, readers)
		}
		if err != nil {
			return err
		}
		carried.fill(b)
		var whereErr error
		if where != nil && s.q.countRows {
			var sel []int32
			sel, whereErr = where.applyInto(b, rows.buf())
			rows.keep(sel)
			b.release()
			if len(sel) > 0 && !send(scanMsg{count: int64(len(sel))}) {
				return ctx.Err()
			}
			if whereErr != nil {
				return s.drainFirst(t, cols, readers, whereErr)
			}
			continue
		}
		if where != nil {
			var sel []int32
			sel, whereErr = where.applyInto(b, rows.buf())
			rows.keep(sel)
			b.truths = nil
			if kept := b.take(sel); kept != b {
				b.release()
				b = kept
			}
		}
		if b.n > 0 {
			out, err := s.q.project(b)
			if out.n > 0 && !send(scanMsg{b: out}) {
				return ctx.Err()
			}
			if err != nil {
				return s.drainFirst(t, cols, readers, err)
			}
		}
		if whereErr != nil {
			return s.drainFirst(t, cols, readers, whereErr)
		}
	}
}

// drain has the readers of cols decode the pages they hold and did not
// reach, as load decoded every page before the first row: a damaged page
// fails the row group even when none of its rows was needed.
func (s *scanner) drain(t *scanTask, cols []int, readers []colReader) error {
	for _, c := range cols {
		if err := readers[c].drain(); err != nil {
			return s.readError(t, err)
		}
	}
	return nil
}

// drainFirst returns the error of draining, which would have come first
// when pages were decoded before evaluating, or else err.
func (s *scanner) drainFirst(t *scanTask, cols []int, readers []colReader, err error) error {
	if derr := s.drain(t, cols, readers); derr != nil {
		return derr
	}
	return err
}

// readError places an error of a column reader in its file and row group;
// format's decoding errors are placed already.
func (s *scanner) readError(t *scanTask, err error) error {
	if de, ok := err.(decodeError); ok {
		return de.err
	}
	return fmt.Errorf("%s: row group %d: %w", t.file.f.Name, t.rg.Index, err)
}

// project applies the query's projection, if any, to filtered rows.
func (q *scanQuery) project(b *batch) (*batch, error) {
	if q.proj == nil {
		return b, nil
	}
	return q.proj.apply(b)
}

// gather builds the batch of the rows in runs for the columns cols.
func (s *scanner) gather(t *scanTask, runs []rowRange, cols []int, readers []colReader) (*batch, error) {
	n := 0
	for _, r := range runs {
		n += int(r.Len())
	}
	b := scanBatch(s.q.width, n)
	for _, c := range cols {
		fl := t.file.fields[c]
		v := scanVector(typeOfField(fl), n)
		if err := readers[c].gather(v, runs); err != nil {
			return nil, s.readError(t, err)
		}
		b.cols[c] = v
	}
	fillPartitions(s.q.p.Scan, t.file.f.Name, b)
	fillRowNumber(s.q.p.Scan, t.file.rowStart(t.rg.Index), runs, b)
	return b, nil
}

// load fetches and decodes the columns cols of the task's row group: what
// the plan lists or, given the rows needed (late materialization, a LIMIT),
// only the pages that hold one of them. All byte ranges are fetched in one
// go.
func (s *scanner) load(t *scanTask, cols []int, rows []rowRange, readers []colReader) error {
	return s.loadOnce(t, cols, rows, readers, func(int) bool { return false })
}

// loadOnce is load; once says which columns' readers are never rewound, so
// that a flat leaf of them read from a local file may stream: its pages are
// read a window at a time, in order, rather than fetched with the others.
func (s *scanner) loadOnce(t *scanTask, cols []int, rows []rowRange, readers []colReader, once func(c int) bool) error {
	f, rg := t.file.f, t.rg
	acct := t.file.cs.beginLoad(t)
	reads := leafPlans(rg)
	plan := map[int]*leafRead{}
	var ranges []format.Range
	// oiBuf serves the offset index of each chunk read whole in turn: what
	// it places is copied out (IndexPagesOf).
	var oiBuf *format.OffsetIndexBuf
	for _, c := range cols {
		fl := t.file.fields[c]
		flat := fl.Kind == format.ScalarField && fl.Leaf.MaxRep == 0
		once := once(c)
		for _, l := range fl.Leaves {
			cr := reads[l.Index]
			if cr == nil {
				return fmt.Errorf("exec: %s: row group %d: the scan plan does not read column %s", f.Name, rg.Index, l.Path)
			}
			lr := &leafRead{whole: cr.Whole, dict: cr.Dict, pages: cr.Pages}
			switch {
			case !flat || rows == nil:
			case cr.Whole:
				// The plan reads the chunk whole; its offset index, if
				// sound, says which pages hold the rows.
				acct.offsetIndex(f, rg.Index, l.Index)
				if oiBuf == nil {
					oiBuf = new(format.OffsetIndexBuf)
				}
				oi, _, err := f.ReadOffsetIndexInto(rg.Index, l.Index, oiBuf)
				if err != nil {
					oi = nil
				}
				if pages, spans, dict, ok := pushdown.IndexPagesOf(f, oi, rg.Index, l.Index, cr.Chunk, pushdown.RowRanges(rows), rg.NumRows); ok {
					lr.whole, lr.pages, lr.spans, lr.dict = false, pages, spans, dict
					acct.topKLeft(s.q.topk, t.topkWould, oi, nil, pages, rg.NumRows)
				}
			default:
				lr.pages = pushdown.PagesWith(cr.Pages, pushdown.RowRanges(rows), rg.NumRows)
				acct.topKLeft(s.q.topk, t.topkWould, nil, cr.Pages, lr.pages, rg.NumRows)
			}
			if flat && cr.Dictionary != nil {
				// The dictionary check decoded the dictionary already.
				lr.given, lr.dict = cr.Dictionary, format.Range{}
			}
			first := len(ranges)
			if lr.whole {
				whole := cr.Chunk
				if lr.given != nil {
					whole = cr.WholeRange()
				}
				if once && flat && rows == nil && t.file.cs.remote == nil && whole.Length > int64(streamAbove) {
					lr.stream, lr.streamed = true, whole.Length
					acct.leaf(cr, []format.Range{whole})
					plan[l.Index] = lr
					continue
				}
				ranges = append(ranges, whole)
			} else {
				if len(lr.pages) == 0 {
					lr.dict = format.Range{}
				}
				var listed int64
				if lr.dict.Length > 0 {
					ranges = append(ranges, lr.dict)
					listed += lr.dict.Length
				}
				for _, pg := range lr.pages {
					ranges = append(ranges, pg.Range)
					listed += pg.Range.Length
				}
				// Listed pages stream as a whole chunk does: a window of
				// them held rather than all (pages checked against their
				// headers first, spans, are fetched).
				local := t.file.cs.remote == nil
				// A dictionary page larger than a window is read a window
				// at a time as it decodes, so that its compressed bytes are
				// never held beside it (format.PageReader.StreamDictionary).
				lr.streamDict = flat && local && lr.dict.Length > int64(streamAbove)
				if once && flat && lr.spans == nil && local && listed > int64(streamAbove) {
					lr.stream, lr.streamed = true, listed
					acct.leaf(cr, ranges[first:])
					ranges = ranges[:first]
					plan[l.Index] = lr
					continue
				}
				if lr.streamDict {
					acct.leaf(cr, ranges[first:])
					ranges = slices.Delete(ranges, first, first+1)
					plan[l.Index] = lr
					continue
				}
			}
			acct.leaf(cr, ranges[first:])
			plan[l.Index] = lr
		}
	}
	var fetched *format.Fetched
	if len(ranges) > 0 {
		var err error
		if err := t.file.cs.prefetch(ranges); err != nil {
			return err
		}
		if fetched, err = format.Fetch(f.Source, ranges, 0); err != nil {
			return err
		}
		t.fetched = append(t.fetched, fetched)
	}
	var pages int64
	defer func() { acct.end(pages) }()
	for _, c := range cols {
		fl := t.file.fields[c]
		if fl.Kind == format.ScalarField && fl.Leaf.MaxRep == 0 {
			open, err := s.opener(t, acct, fl.Leaf.Index, plan[fl.Leaf.Index], fetched)
			if err != nil {
				return err
			}
			m := t.file.cs
			r := newFlatReader(fl, open, func(rows int64, page bool, took time.Duration) {
				if page {
					m.pagesDecoded.Add(1)
				}
				m.decodeNanos.Add(int64(took))
				s.rowsDecoded.Add(rows)
			})
			r.once = once(c)
			if lr := plan[fl.Leaf.Index]; lr != nil {
				r.streamed = lr.streamed
			}
			readers[c] = r
			continue
		}
		// A nested field is decoded whole and assembled. A whole chunk is
		// decoded by ReadColumn, which reads through the file's source:
		// serve it the fetched bytes.
		whole := *f
		whole.Source = fetchedSource{fetched: fetched, src: f.Source}
		data := make(map[int]*format.ColumnData, len(fl.Leaves))
		for _, l := range fl.Leaves {
			lr := plan[l.Index]
			var cd *format.ColumnData
			var err error
			if lr.whole {
				cd, err = whole.ReadColumn(rg.Index, l.Index)
			} else {
				cd, err = f.ReadPages(rg.Index, l.Index, lr.dict, lr.pages, fetched)
			}
			if err != nil {
				return err
			}
			data[l.Index] = cd
			pages += int64(len(cd.Pages))
		}
		r, err := newNestedReader(fl, data)
		if err != nil {
			return fmt.Errorf("%s: row group %d: %w", f.Name, rg.Index, err)
		}
		readers[c] = r
		var n int64
		for _, p := range data[fl.Leaves[0].Index].Pages {
			n += p.NumRows
		}
		s.rowsDecoded.Add(n)
	}
	return nil
}

// opener returns how a flat leaf's pages are read as lr says, from the
// fetched bytes. Pages chosen by the offset index are checked against their
// headers first: if the index misplaces rows, the chunk is read again
// whole, as the plan says.
func (s *scanner) opener(t *scanTask, acct *loadAccount, leaf int, lr *leafRead, fetched *format.Fetched) (func() (*format.PageReader, error), error) {
	f, rg := t.file.f, t.rg.Index
	var pages []format.PageRef // nil: the whole chunk
	dict := lr.dict
	if !lr.whole {
		pages = lr.pages
		if pages == nil {
			pages = []format.PageRef{}
		}
	}
	given, from := lr.given, int64(0)
	if given != nil && lr.whole {
		if cr, err := f.ChunkRange(rg, leaf); err == nil {
			from = leafPlans(t.rg)[leaf].WholeRange().Offset
			if from <= cr.Offset {
				from = 0
			}
		}
	}
	if lr.stream {
		fetched = nil
	}
	if lr.spans != nil && !headersMatch(f, rg, leaf, lr.pages, lr.spans, fetched) {
		acct.rereadChunk(f, rg, leaf)
		given, from = nil, 0
		pages, dict, fetched = nil, format.Range{}, nil
		if r, err := f.ChunkRange(rg, leaf); err == nil {
			// Read once, in one request, however often the leaf is rewound.
			if fetched, err = format.Fetch(f.Source, []format.Range{r}, 0); err != nil {
				return nil, fmt.Errorf("%s: row group %d: %w", f.Name, rg, err)
			}
			t.fetched = append(t.fetched, fetched)
		}
	}
	return func() (*format.PageReader, error) {
		pr, err := f.NewPageReader(rg, leaf, dict, pages, fetched)
		if err != nil {
			return nil, err
		}
		if lr.stream {
			pr.StreamChunk(streamWindow)
		}
		if lr.streamDict && dict.Length > 0 {
			pr.StreamDictionary(streamWindow)
		}
		if given != nil {
			pr.UseDictionaryBefore(given, from)
		}
		return pr, nil
	}, nil
}

// headersMatch reports whether the pages' headers declare the rows the
// offset index promised (spans). A header that cannot be read counts as a
// match: decoding the page reports it.
func headersMatch(f *format.File, rg, leaf int, pages []format.PageRef, spans []int64, fetched *format.Fetched) bool {
	for i, pg := range pages {
		n, err := f.DataPageEntries(rg, leaf, pg, fetched)
		if err != nil {
			return true
		}
		if n != spans[i] {
			return false
		}
	}
	return true
}

// A leafRead is what load reads of one leaf.
type leafRead struct {
	whole bool
	dict  format.Range
	pages []format.PageRef
	// spans are the pages' row counts by the offset index, checked after
	// decoding; nil when the pages come from the plan.
	spans []int64
	// given is the chunk's dictionary, decoded by pushdown's dictionary
	// check; a whole read then starts past the dictionary page.
	given *format.Values
	// stream: the chunk, or its listed pages, are read from the file a
	// window at a time, not fetched with the others; streamed bytes.
	stream   bool
	streamed int64
	// streamDict: the dictionary page is read from the file as it
	// decodes, not fetched with the others.
	streamDict bool
}

// streamWindow is how many bytes of a chunk a streaming reader holds, and
// streamAbove how large a chunk, its listed pages or its dictionary page
// must be to stream: one no larger is fetched with the row group's others,
// in as few requests as their places allow. A window holds a page at
// least, however large; reading a local file 16 KiB at a time rather than
// 32 costs no time measurably (the bytes come from the page cache, and a
// smaller buffer stays in the processor's), and every worker holds one.
var streamWindow, streamAbove = 16 << 10, 64 << 10

// firstRows is the first n rows of rs.
func firstRows(rs []rowRange, n int64) []rowRange {
	var out []rowRange
	for _, r := range rs {
		if n <= 0 {
			break
		}
		end := min(r.End, r.First+n)
		out = append(out, rowRange{First: r.First, End: end})
		n -= end - r.First
	}
	return out
}

// fetchedSource serves reads from fetched bytes where they lie, and from
// the file otherwise.
type fetchedSource struct {
	fetched *format.Fetched
	src     format.Source
}

func (s fetchedSource) ReadAt(p []byte, off int64) (int, error) {
	if s.fetched != nil {
		if b, ok := s.fetched.Slice(format.Range{Offset: off, Length: int64(len(p))}); ok {
			return copy(p, b), nil
		}
	}
	return s.src.ReadAt(p, off)
}

func (s fetchedSource) Size() int64 { return s.src.Size() }

// A runCursor walks row ranges in pieces of at most a batch.
type runCursor struct {
	rs  []rowRange
	i   int
	pos int64 // next row of rs[i]; 0 means its First
	// buf holds the runs next returned last, reused by the next call.
	buf []rowRange
}

// next returns the next runs of up to size rows in all, or nil at the end.
// The runs are valid until the next call.
func (c *runCursor) next(size int) []rowRange {
	if c.buf == nil {
		// A call returns a run of each range at most: sized so, the
		// runs of many ranges of a row each cost no doubling.
		c.buf = make([]rowRange, 0, max(0, min(size, len(c.rs)-c.i)))
	}
	out := c.buf[:0]
	left := int64(size)
	for left > 0 && c.i < len(c.rs) {
		r := c.rs[c.i]
		from := max(r.First, c.pos)
		if from >= r.End {
			c.i++
			c.pos = 0
			continue
		}
		to := min(r.End, from+left)
		out = append(out, rowRange{First: from, End: to})
		left -= to - from
		c.pos = to
	}
	c.buf = out
	if len(out) == 0 {
		return nil
	}
	return out
}

// appendSelected adds to survivors the rows of runs at the batch positions
// sel, merging neighbours into ranges.
func appendSelected(survivors, runs []rowRange, sel []int32) []rowRange {
	ri, base := 0, int32(0)
	for _, i := range sel {
		for i-base >= int32(runs[ri].Len()) {
			base += int32(runs[ri].Len())
			ri++
		}
		row := runs[ri].First + int64(i-base)
		if n := len(survivors); n > 0 && survivors[n-1].End == row {
			survivors[n-1].End++
			continue
		}
		survivors = append(survivors, rowRange{First: row, End: row + 1})
	}
	return survivors
}
