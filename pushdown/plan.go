package pushdown

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
)

// Options switches the mechanisms Plan may use; users flip them with SET.
type Options struct {
	// Statistics judges row groups by their column chunks' statistics.
	Statistics bool
	// PageIndex judges pages by column indexes and maps rows to pages with
	// offset indexes.
	PageIndex bool
	// Bloom probes Bloom filters for = and IN.
	Bloom bool
	// Dictionary reads the dictionary of chunks whose data pages are all
	// dictionary-encoded.
	Dictionary bool
	// Threads bounds how many row groups Plan judges at once; 0 or 1
	// judges them one after another. It changes no decision.
	Threads int
}

// AllMechanisms enables every mechanism.
func AllMechanisms() Options {
	return Options{Statistics: true, PageIndex: true, Bloom: true, Dictionary: true}
}

// Mechanism names what decided a row group or page.
type Mechanism int8

// The mechanisms, in the order Plan tries them (cheapest first).
const (
	NoMechanism Mechanism = iota
	// Constant: the predicate is FALSE or NULL by its types alone.
	Constant
	Statistics
	BloomFilter
	PageIndex
	Dictionary
	// BoundingBox: a spatial predicate's query box misses the geospatial
	// statistics' box or the GeoParquet file bbox. It decides with the
	// statistics and is switched with them.
	BoundingBox
	// JoinFilter: a join's build-side keys, pushed into the probe side's
	// predicate once the build side is complete, ruled the rows out where
	// the scan's own predicate would have read them (CreditJoinFilter).
	JoinFilter
	numMechanisms
)

var mechanismNames = [...]string{NoMechanism: "none", Constant: "predicate", Statistics: "statistics",
	BloomFilter: "bloom", PageIndex: "page index", Dictionary: "dictionary", BoundingBox: "spatial", JoinFilter: "join filter"}

// String names the mechanism as EXPLAIN prints it.
func (m Mechanism) String() string {
	if m >= 0 && m < numMechanisms {
		return mechanismNames[m]
	}
	return fmt.Sprintf("Mechanism(%d)", int(m))
}

// Verdict is a row group's fate.
type Verdict int8

// The verdicts.
const (
	// Scan reads every row of the row group.
	Scan Verdict = iota
	// Select reads only the rows in RowGroupPlan.Rows.
	Select
	// Skip reads nothing: no row can satisfy the predicate.
	Skip
)

// String names the verdict as EXPLAIN prints it.
func (v Verdict) String() string {
	switch v {
	case Scan:
		return "scan"
	case Select:
		return "select"
	}
	return "skip"
}

// A FilePlan is how to scan one file for one predicate: the executor reads
// exactly what it lists.
type FilePlan struct {
	File string
	// Predicate is the WHERE as resolved for this file.
	Predicate Expr
	Options   Options
	// Columns are the leaves read: the projection and the predicate's columns.
	Columns   []int
	RowGroups []RowGroupPlan
	// Skipped counts bytes of the read columns' chunks not read, by the
	// mechanism that proved them unneeded.
	Skipped map[Mechanism]int64
	// ChunkBytes is the size of the read columns' chunks in all row groups.
	ChunkBytes int64
	// ReadBytes is the size of ReadRanges.
	ReadBytes int64
	// IndexBytes, FilterBytes and DictionaryBytes were fetched to decide:
	// column and offset indexes, Bloom filter headers and blocks, dictionary pages.
	IndexBytes, FilterBytes, DictionaryBytes int64
	// GivenBytes are the dictionary pages, among the chunks' bytes, that the
	// dictionary check read and the scan is given decoded (ColumnRead.Given):
	// neither skipped nor left to read.
	GivenBytes int64
	// ReadRanges are the byte ranges left to read, sorted and merged.
	ReadRanges []format.Range
	// TrustNotes report statistics that were refused or carry caveats.
	TrustNotes []string
	// Notes report leaves not pushed down and index or filter data that
	// could not be used.
	Notes []string
}

// A RowGroupPlan is the decision for one row group.
type RowGroupPlan struct {
	Index   int
	NumRows int64
	Verdict Verdict
	// Mechanism skipped the row group (Skip) or narrowed its rows (Select).
	Mechanism Mechanism
	// Reason says why, in words.
	Reason string
	// Rows are the rows to read; nil when skipped.
	Rows    RowRanges
	Columns []ColumnRead
	// judged are the page index's verdicts on the predicate's columns'
	// pages (PageDecisions).
	judged []pageJudgement
	// SkippedBytes counts the read columns' chunk bytes not read.
	SkippedBytes int64
}

// A ColumnRead is what to read of one column chunk in a kept row group.
type ColumnRead struct {
	Leaf int
	Path string
	// Chunk is the whole column chunk.
	Chunk format.Range
	// Whole says to read and decode Chunk entirely (ReadColumn). Otherwise
	// read Dict (when Length > 0) and Pages (ReadPages).
	Whole bool
	Dict  format.Range
	Pages []format.PageRef
	// PageIndexes are Pages' positions in the offset index, of NumPages.
	PageIndexes []int
	NumPages    int
	// Bytes is what this read costs.
	Bytes int64
	// Note says why the chunk is read whole when rows were narrowed.
	Note string
	// Dictionary, when not nil, is the chunk's dictionary, decoded by the
	// dictionary check: the scan is given it instead of reading the
	// dictionary page again. Dict is then empty, a whole read covers Tail
	// (the chunk past its dictionary page) rather than Chunk, and Bytes
	// counts neither: Given holds the dictionary page's bytes, which the
	// check read (FilePlan.DictionaryBytes). The scan may drop Dictionary
	// once the row group is read; Tail and Given stay.
	Dictionary *format.Values
	Tail       format.Range
	Given      int64
}

// WholeRange is the bytes a whole read of the chunk covers.
func (c *ColumnRead) WholeRange() format.Range {
	if c.Whole && c.Tail.Length > 0 {
		return c.Tail
	}
	return c.Chunk
}

// PageDecisions are the page index's per-page decisions on the
// predicate's columns, for EXPLAIN VERBOSE.
func (rg *RowGroupPlan) PageDecisions() []PageDecision {
	var out []PageDecision
	for i := range rg.judged {
		out = append(out, rg.judged[i].decisions(rg.NumRows)...)
	}
	return out
}

// A PageDecision is the page index's verdict on one page for one leaf of
// the predicate.
type PageDecision struct {
	Leaf int
	Path string
	Cond string
	Page int
	// Rows and Bytes (the page's compressed size) are the offset index's;
	// Located says they are known: the offset index is not read when the
	// column index keeps every page.
	Rows    RowRange
	Bytes   int64
	Located bool
	Keep    bool
	Reason  string
	// cond and min, max are the condition and the page's bounds, written
	// in SQL only when a plan is shown (Bounds).
	cond     *Cond
	min, max []byte
}

// Bounds are the page's bounds as the column index gives them, in SQL
// ("" when it has none: a page of nulls, or refused bounds).
func (d PageDecision) Bounds() (min, max string) {
	if d.cond == nil || d.min == nil || d.max == nil {
		return "", ""
	}
	return d.cond.show(d.min), d.cond.show(d.max)
}

// Plan judges pred against f's metadata and returns the scan plan for the
// leaves in columns (the predicate's own columns are added: the executor
// needs them to filter rows). pred may be nil for no WHERE. Index and filter
// data that cannot be read only keeps data; Plan fails on predicates that do
// not fit the file (ErrUnknownColumn, ErrType) and on a corrupt footer.
func Plan(f *format.File, pred Expr, columns []int, opt Options) (*FilePlan, error) {
	return new(Planner).Plan(f, pred, columns, opt)
}

// A Planner plans files one after another, as Plan does, and keeps what it
// judges row groups with from one file to the next: a scan of a glob plans
// its files with one rather than paying for that state at every file. The
// plans it returns share nothing with it. It is not safe for concurrent use.
type Planner struct {
	p      planner
	judged []judgedRowGroup
}

// Plan is Plan(f, pred, columns, opt).
func (pl *Planner) Plan(f *format.File, pred Expr, columns []int, opt Options) (*FilePlan, error) {
	p := &pl.p
	if err := p.reset(f, pred, columns, opt); err != nil {
		return nil, err
	}
	judged := p.rowGroups(pl.judged)
	// The row groups' plans are the file plan's now (fold copies them);
	// the slice kept for the next file must not hold on to them.
	defer func() {
		clear(judged)
		pl.judged = judged[:0]
		p.f, p.pred, p.plan, p.geo, p.starts = nil, nil, nil, nil, nil
	}()
	for i := range judged {
		if judged[i].err != nil {
			return nil, judged[i].err
		}
	}
	p.plan.RowGroups = make([]RowGroupPlan, 0, len(judged))
	for i := range judged {
		p.fold(&judged[i])
	}
	return p.finish(), nil
}

// newPlanner resolves pred against f and chooses the leaves to read: the
// part of a plan that comes before any row group is judged.
func newPlanner(f *format.File, pred Expr, columns []int, opt Options) (*planner, error) {
	p := new(planner)
	if err := p.reset(f, pred, columns, opt); err != nil {
		return nil, err
	}
	return p, nil
}

// reset readies p to plan f, keeping the scratch an earlier file's row
// groups gave back.
func (p *planner) reset(f *format.File, pred Expr, columns []int, opt Options) error {
	if pred == nil {
		pred = &Const{True}
	}
	geo := readGeo(f)
	resolved, notes, err := resolve(f.Schema, withCovering(geo, pred))
	if err != nil {
		return fmt.Errorf("pushdown: file %s: %w", f.Name, err)
	}
	cols, err := readColumns(f, resolved, columns)
	if err != nil {
		return fmt.Errorf("pushdown: file %s: %w", f.Name, err)
	}
	if !f.Decoded(-1) {
		// Opened without some leaves' chunk metadata (Columns lists what a
		// plan uses): one this plan needs is refused here rather than
		// judged without it.
		used, err := usedColumns(f, resolved, cols)
		if err != nil {
			return fmt.Errorf("pushdown: file %s: %w", f.Name, err)
		}
		for _, c := range used {
			if !f.Decoded(c) {
				return fmt.Errorf("pushdown: file %s: column %s: %w", f.Name, f.Schema.Leaves[c].Path, format.ErrNotDecoded)
			}
		}
	}
	p.f, p.opt, p.pred, p.geo, p.starts = f, opt, resolved, geo, RowGroupStarts(f)
	clear(p.trust)
	clear(p.noted)
	p.ranges = p.ranges[:0]
	p.plan = &FilePlan{File: f.Name, Predicate: resolved, Options: opt, Columns: cols,
		Skipped: map[Mechanism]int64{}, Notes: notes}
	sc, err := stats.Columns(f.Meta)
	if err != nil || len(sc) != len(f.Schema.Leaves) {
		// Without them no bounds can be trusted; every row group is kept.
		p.plan.Notes = append(p.plan.Notes, fmt.Sprintf("statistics and page index unused: the schema's leaves cannot be matched to their column orders (%v)", err))
		p.opt.Statistics, p.opt.PageIndex = false, false
	}
	p.cols = sc
	return nil
}

// fold adds one judged row group to the plan; row groups are folded in
// order, so that the plan does not depend on which goroutine judged which.
func (p *planner) fold(j *judgedRowGroup) {
	p.add(&j.tally)
	rp := j.plan
	for _, c := range rp.Columns {
		if c.Whole {
			p.ranges = append(p.ranges, c.WholeRange())
			continue
		}
		if c.Dict.Length > 0 {
			p.ranges = append(p.ranges, c.Dict)
		}
		for _, pg := range c.Pages {
			p.ranges = append(p.ranges, pg.Range)
		}
	}
	p.plan.RowGroups = append(p.plan.RowGroups, rp)
}

// finish completes the plan once every row group is folded: the ranges
// left to read and the statistics-trust report.
func (p *planner) finish() *FilePlan {
	// Coalesce copies: ranges is scratch for the next file.
	p.plan.ReadRanges = format.Coalesce(p.ranges, 0)
	p.ranges = p.ranges[:0]
	for _, r := range p.plan.ReadRanges {
		p.plan.ReadBytes += r.Length
	}
	p.plan.TrustNotes = p.trustNotes()
	return p.plan
}

// Columns lists, sorted and each once, the leaves of f whose chunks' metadata
// a plan of pred reading columns uses: those columns and the predicate's,
// a spatial predicate's covering columns included. A file whose footer was
// decoded with these leaves' chunk metadata alone
// (format.OpenSourceColumns) plans as if decoded whole.
func Columns(f *format.File, pred Expr, columns []int) ([]int, error) {
	var resolved Expr
	if pred != nil {
		var err error
		if resolved, _, err = resolve(f.Schema, withCovering(readGeo(f), pred)); err != nil {
			return nil, fmt.Errorf("pushdown: file %s: %w", f.Name, err)
		}
	}
	cols, err := usedColumns(f, resolved, columns)
	if err != nil {
		return nil, fmt.Errorf("pushdown: file %s: %w", f.Name, err)
	}
	return cols, nil
}

// readColumns validates the projection and adds the predicate's columns,
// sorted, each once.
func readColumns(f *format.File, pred Expr, columns []int) ([]int, error) {
	return leavesOf(f, pred, columns, false)
}

// usedColumns is readColumns with the leaves of the GeoParquet covering
// columns the predicate's spatial leaves judge: those are judged on their
// metadata, never read.
func usedColumns(f *format.File, pred Expr, columns []int) ([]int, error) {
	return leavesOf(f, pred, columns, true)
}

func leavesOf(f *format.File, pred Expr, columns []int, covers bool) ([]int, error) {
	out := make([]int, 0, len(columns)+4)
	for _, c := range columns {
		if c < 0 || c >= len(f.Schema.Leaves) {
			return nil, fmt.Errorf("%w: leaf %d (the file has %d)", ErrBadColumn, c, len(f.Schema.Leaves))
		}
		out = append(out, c)
	}
	var walk func(Expr) error
	walk = func(e Expr) error {
		switch n := e.(type) {
		case *And:
			for _, x := range n.Xs {
				if err := walk(x); err != nil {
					return err
				}
			}
		case *Or:
			for _, x := range n.Xs {
				if err := walk(x); err != nil {
					return err
				}
			}
		case *Cond:
			out = append(out, n.Col.Leaf.Index)
		case *Spatial:
			out = append(out, n.Col.Leaf.Index)
			if covers && n.cover != nil {
				return walk(n.cover)
			}
		case *Residual:
			for _, path := range n.Columns {
				l := f.Schema.LeafByPath(path)
				if l == nil {
					vs := variantLeaves(f.Schema, path)
					if vs == nil {
						return fmt.Errorf("%w: %q", ErrUnknownColumn, path)
					}
					for _, v := range vs {
						out = append(out, v.Index)
					}
					continue
				}
				out = append(out, l.Index)
			}
		}
		return nil
	}
	if err := walk(pred); err != nil {
		return nil, err
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// planner holds one Plan call's state.
type planner struct {
	f     *format.File
	opt   Options
	pred  Expr
	cols  []stats.Column
	plan  *FilePlan
	trust map[string][]int // trust report line -> row groups; made when needed
	noted map[string]bool
	geo   *geoInfo
	// starts are the row groups' first rows in the file (RowNumber).
	starts []int64
	// freeScratch is page index scratch finished row groups gave back.
	freeMu      sync.Mutex
	freeScratch []*indexScratch
	freeOI      []*format.OffsetIndexBuf
	// freeStates are row groups' states given back once judged.
	freeStates []*rgState
	// ranges are the folded row groups' reads, coalesced by finish.
	ranges []format.Range
}

// An rgTally is what judging one row group adds to the file's plan: bytes
// and notes. Row groups are judged concurrently, each into its own tally,
// and Plan adds the tallies up in row-group order, so that the plan does
// not depend on which goroutine finished first.
type rgTally struct {
	rg                                       int
	chunkBytes, givenBytes                   int64
	indexBytes, filterBytes, dictionaryBytes int64
	// skipped are bytes by mechanism, those in counted (a bit per
	// mechanism) added to FilePlan.Skipped even when 0, as a map's keys.
	skipped [numMechanisms]int64
	counted uint16
	notes   []string
	// trust are the statistics' report lines of the row group, once each.
	trust []string
}

// counted has a bit for every mechanism: this fails to compile when there
// are more than 16.
const _ = uint16(1 << (numMechanisms - 1))

// skip counts b bytes skipped by m.
func (t *rgTally) skip(m Mechanism, b int64) {
	t.skipped[m] += b
	t.counted |= 1 << m
}

// A judgedRowGroup is one row group's plan, its tally and the error that
// ended its judgement.
type judgedRowGroup struct {
	plan  RowGroupPlan
	tally rgTally
	err   error
}

// judge judges row group rg into j.
func (p *planner) judge(j *judgedRowGroup, rg int) {
	*j = judgedRowGroup{tally: rgTally{rg: rg}}
	j.plan, j.err = p.rowGroup(rg, &j.tally)
}

// rowGroups judges every row group, up to opt.Threads at a time: the
// page index, Bloom filter and dictionary reads of a file's row groups
// went one after another while the scan's workers waited for the plan. Only the tallies and the format.File,
// whose reads are safe to share, are touched by more than one of them. A
// panic is raised again in the caller's goroutine, as it was when row
// groups were judged there.
// The judgements go in out, grown to the row groups' number.
func (p *planner) rowGroups(out []judgedRowGroup) []judgedRowGroup {
	n := len(p.f.Meta.RowGroups)
	out = slices.Grow(out[:0], n)[:n]
	workers := min(p.opt.Threads, n)
	if workers <= 1 {
		for rg := range n {
			if p.judge(&out[rg], rg); out[rg].err != nil {
				return out[:rg+1]
			}
		}
		return out
	}
	// After an error no row group is started: Plan returns the first
	// error in row-group order, and the rest need not be read.
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	panics := make([]any, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			for !failed.Load() {
				rg := int(next.Add(1)) - 1
				if rg >= n {
					return
				}
				if p.judge(&out[rg], rg); out[rg].err != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, r := range panics {
		if r != nil {
			panic(r)
		}
	}
	return out
}

// add folds one row group's tally into the plan.
func (p *planner) add(t *rgTally) {
	pl := p.plan
	pl.ChunkBytes += t.chunkBytes
	pl.GivenBytes += t.givenBytes
	pl.IndexBytes += t.indexBytes
	pl.FilterBytes += t.filterBytes
	pl.DictionaryBytes += t.dictionaryBytes
	for m, b := range t.skipped {
		if t.counted&(1<<m) != 0 {
			pl.Skipped[Mechanism(m)] += b
		}
	}
	for _, n := range t.notes {
		p.note(n)
	}
	for _, line := range t.trust {
		if p.trust == nil {
			p.trust = map[string][]int{}
		}
		p.trust[line] = append(p.trust[line], t.rg)
	}
}

// note records a plan-level note of the row group; Plan keeps each once.
func (s *rgState) note(n string) {
	s.tally.notes = append(s.tally.notes, n)
}

// note records a plan-level note once.
func (p *planner) note(s string) {
	if p.noted == nil {
		p.noted = map[string]bool{}
	}
	if !p.noted[s] {
		p.noted[s] = true
		p.plan.Notes = append(p.plan.Notes, s)
	}
}

// The levels of evaluation: each adds one mechanism to those before it,
// cheapest first. Statistics come with the footer; a Bloom probe costs a
// small header and one 32-byte block and can rule out a whole row group; a
// column index costs more but can narrow rows; a dictionary page costs most.
// Spatial boxes come with the footer too and go first, so that a GeoParquet
// covering's comparisons do not take the credit for what the box proves.
const (
	lvConst = iota
	lvSpatial
	lvStats
	lvBloom
	lvPage
	lvDict
	numLevels
)

var levelMechanism = [numLevels]Mechanism{Constant, BoundingBox, Statistics, BloomFilter, PageIndex, Dictionary}

func (p *planner) enabled(level int) bool {
	switch level {
	case lvStats, lvSpatial:
		return p.opt.Statistics
	case lvPage:
		return p.opt.PageIndex
	case lvBloom:
		return p.opt.Bloom
	case lvDict:
		return p.opt.Dictionary
	}
	return true
}

// leafResult is what one leaf allows at one level.
type leafResult struct {
	rows RowRanges
	// mech and reason say what emptied or last narrowed the rows.
	mech   Mechanism
	reason string
}

// rgState evaluates the predicate on one row group, fetching index and
// filter data only when a cheaper level could not rule the row group out.
type rgState struct {
	p *planner
	// tally is where the row group's bytes and notes go (rgTally).
	tally  *rgTally
	rg     int
	rows   int64
	all    RowRanges
	leaves map[*Cond]*[numLevels]*leafResult
	nodes  map[Expr]*[numLevels]*RowRanges
	bounds map[int]*stats.Bounds
	index  map[int]*chunkIndex
	oi     map[int]*offsetIndex
	// passing holds the offset index of a chunk read only to choose its
	// pages (lastOffsetIndex).
	passing *offsetIndex
	blooms  map[int]*bloomState
	dicts   map[int]*dictState
	judged  []pageJudgement
	// noCover ignores GeoParquet coverings; uncovered is such a state for
	// the same row group (see byCovering).
	noCover   bool
	uncovered *rgState
	// kept says why a mechanism that could not rule the row group out
	// kept it, for its reason.
	kept []string
}

func (p *planner) rowGroup(rg int, t *rgTally) (RowGroupPlan, error) {
	md := &p.f.Meta.RowGroups[rg]
	s := p.newRGState(rg, t)
	defer s.release()
	out := RowGroupPlan{Index: rg, NumRows: md.NumRows}
	var chunkBytes int64
	chunks := make([]format.Range, len(p.plan.Columns))
	for i, c := range p.plan.Columns {
		r, err := p.f.ChunkRange(rg, c)
		if err != nil {
			return out, fmt.Errorf("pushdown: file %s: %w", p.f.Name, err)
		}
		chunks[i] = r
		chunkBytes += r.Length
	}
	t.chunkBytes += chunkBytes
	skip := func(m Mechanism, why string) (RowGroupPlan, error) {
		out.Verdict, out.Mechanism, out.Reason = Skip, m, why
		out.SkippedBytes = chunkBytes
		out.judged = s.judged
		t.skip(m, chunkBytes)
		return out, nil
	}
	if md.NumRows == 0 {
		return skip(NoMechanism, "the row group has no rows")
	}
	last := lvConst
	for level := lvConst; level < numLevels; level++ {
		if level > lvConst && !p.enabled(level) {
			continue
		}
		last = level
		if s.node(p.pred, level).Empty() {
			m := levelMechanism[level]
			if s.byCovering(level, func(r RowRanges) bool { return !r.Empty() }) {
				m = BoundingBox
			}
			return skip(m, s.why(p.pred, level))
		}
	}
	rows := s.node(p.pred, last)
	out.Rows = rows
	out.judged = s.judged
	if rows.Covers(s.rows) {
		out.Verdict = Scan
		if k, ok := p.pred.(*Const); ok && k.Value == True {
			out.Reason = "no predicate"
		} else {
			out.Reason = "no mechanism rules out " + p.pred.String()
		}
		for _, why := range s.kept {
			out.Reason += "; " + why
		}
	} else {
		out.Verdict, out.Mechanism = Select, PageIndex
		if s.byCovering(last, func(r RowRanges) bool { return r.Covers(s.rows) }) {
			out.Mechanism = BoundingBox
		}
		out.Reason = s.narrowed(p.pred, last)
	}
	out.Columns = make([]ColumnRead, 0, len(p.plan.Columns))
	for i, c := range p.plan.Columns {
		cr, err := s.columnRead(c, chunks[i], rows)
		if err != nil {
			return out, err
		}
		given := s.giveDictionary(&cr)
		t.givenBytes += given
		out.Columns = append(out.Columns, cr)
		if skipped := chunks[i].Length - cr.Bytes - given; skipped > 0 {
			out.SkippedBytes += skipped
			t.skip(out.Mechanism, skipped)
		}
	}
	return out, nil
}

// newRGState is the state of row group rg: one a judged row group gave
// back (release), its memos emptied, or a new one, whose memos are made when
// first written (makeMemos): a plan without a predicate writes none.
func (p *planner) newRGState(rg int, t *rgTally) *rgState {
	rows := p.f.Meta.RowGroups[rg].NumRows
	p.freeMu.Lock()
	var s *rgState
	if n := len(p.freeStates); n > 0 {
		s = p.freeStates[n-1]
		p.freeStates[n-1] = nil
		p.freeStates = p.freeStates[:n-1]
	}
	p.freeMu.Unlock()
	if s == nil {
		return &rgState{p: p, tally: t, rg: rg, rows: rows, all: AllRows(rows)}
	}
	*s = rgState{p: p, tally: t, rg: rg, rows: rows, all: AllRows(rows),
		leaves: s.leaves, nodes: s.nodes, bounds: s.bounds, index: s.index, oi: s.oi, blooms: s.blooms, dicts: s.dicts}
	return s
}

// release gives the row group's index scratch back, then the state itself,
// its memos emptied, for the next row group: its plan holds none of them,
// and what they held (dictionaries, filter blocks) is not kept alive.
func (s *rgState) release() {
	s.releaseIndexes()
	clear(s.leaves)
	clear(s.nodes)
	clear(s.bounds)
	clear(s.index)
	clear(s.oi)
	clear(s.blooms)
	clear(s.dicts)
	p := s.p
	p.freeMu.Lock()
	p.freeStates = append(p.freeStates, s)
	p.freeMu.Unlock()
}

// makeMemos makes the state's memos not made yet.
func (s *rgState) makeMemos() {
	if s.leaves != nil {
		return
	}
	s.leaves, s.nodes = map[*Cond]*[numLevels]*leafResult{}, map[Expr]*[numLevels]*RowRanges{}
	s.bounds, s.index, s.oi = map[int]*stats.Bounds{}, map[int]*chunkIndex{}, map[int]*offsetIndex{}
	s.blooms, s.dicts = map[int]*bloomState{}, map[int]*dictState{}
}

// node is the rows that may satisfy e with the mechanisms up to level.
// Results only shrink as levels rise, so an AND or OR already empty at the
// level below stays empty without fetching anything more.
func (s *rgState) node(e Expr, level int) RowRanges {
	switch n := e.(type) {
	case *Const:
		// Decided by the value alone, at every level: nothing to memo.
		if n.Value == True {
			return s.all
		}
		return nil
	case *Residual:
		return s.all
	}
	memo := s.nodes[e]
	if memo == nil {
		s.makeMemos()
		memo = new([numLevels]*RowRanges)
		s.nodes[e] = memo
	}
	if r := memo[level]; r != nil {
		return *r
	}
	var r RowRanges
	switch n := e.(type) {
	case *Const:
		if n.Value == True {
			r = s.all
		}
	case *Residual:
		r = s.all
	case *RowNumber:
		// The row counts decide it exactly at every level.
		r = n.rows(s.p.starts[s.rg], s.rows)
	case *Cond:
		r = s.leaf(n, level).rows
	case *Spatial:
		r = s.spatialRows(n, level)
	case *And:
		if level > lvConst && s.node(e, s.below(level)).Empty() {
			break
		}
		r = s.all
		for _, x := range n.Xs {
			if r = r.Intersect(s.node(x, level)); r.Empty() {
				break
			}
		}
	case *Or:
		if level > lvConst && s.node(e, s.below(level)).Empty() {
			break
		}
		for _, x := range n.Xs {
			if r = r.Union(s.node(x, level)); r.Covers(s.rows) {
				break
			}
		}
	default:
		r = s.all
	}
	memo[level] = &r
	return r
}

// below is the highest enabled level under level.
func (s *rgState) below(level int) int {
	for l := level - 1; l > lvConst; l-- {
		if s.p.enabled(l) {
			return l
		}
	}
	return lvConst
}

// leaf is what one leaf allows at level: what it allowed at the level below,
// narrowed by this level's mechanism if enabled and still needed.
func (s *rgState) leaf(c *Cond, level int) *leafResult {
	memo := s.leaves[c]
	if memo == nil {
		s.makeMemos()
		memo = new([numLevels]*leafResult)
		s.leaves[c] = memo
	}
	if r := memo[level]; r != nil {
		return r
	}
	var out *leafResult
	if level == lvConst {
		out = &leafResult{rows: s.all}
	} else {
		prev := s.leaf(c, s.below(level))
		out = prev
		if !prev.rows.Empty() && s.p.enabled(level) {
			var allowed RowRanges
			var why string
			switch level {
			case lvStats:
				allowed, why = s.statsLeaf(c)
			case lvPage:
				allowed, why = s.pageLeaf(c)
			case lvBloom:
				allowed, why = s.bloomLeaf(c)
			case lvDict:
				allowed, why = s.dictLeaf(c)
			default:
				allowed = s.all // lvSpatial judges only Spatial leaves
			}
			if rows := prev.rows.Intersect(allowed); !rows.Equal(prev.rows) {
				out = &leafResult{rows: rows, mech: levelMechanism[level], reason: why}
			}
		}
	}
	memo[level] = out
	return out
}

// why explains why e is empty at level.
func (s *rgState) why(e Expr, level int) string {
	switch n := e.(type) {
	case *Const:
		return "the predicate is " + n.Value.String() + " for every row"
	case *Cond:
		return s.leaf(n, level).reason
	case *RowNumber:
		return n.why(s.p.starts[s.rg], s.rows)
	case *Spatial:
		return s.spatialWhy(n, level)
	case *And:
		for _, x := range n.Xs {
			if s.node(x, level).Empty() {
				return s.why(x, level)
			}
		}
		parts := make([]string, len(n.Xs))
		for i, x := range n.Xs {
			parts[i] = x.String()
		}
		return "page index: no row lies in the pages kept for all of " + strings.Join(parts, ", ")
	case *Or:
		var parts []string
		for _, x := range n.Xs {
			if w := s.why(x, level); w != "" {
				parts = append(parts, w)
			}
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// narrowed explains the rows kept at level, from the leaves that narrowed them.
func (s *rgState) narrowed(e Expr, level int) string {
	var parts []string
	seen := map[string]bool{}
	var walk func(Expr, string)
	walk = func(e Expr, prefix string) {
		switch n := e.(type) {
		case *And:
			for _, x := range n.Xs {
				walk(x, prefix)
			}
		case *Or:
			for _, x := range n.Xs {
				walk(x, prefix)
			}
		case *Spatial:
			if n.cover != nil {
				walk(n.cover, "spatial covering: ")
			}
		case *RowNumber:
			start := s.p.starts[s.rg]
			// Under OR a leaf that allows no row narrows nothing.
			rows := n.rows(start, s.rows)
			if why := n.why(start, s.rows); !rows.Empty() && !rows.Covers(s.rows) && !seen[why] {
				seen[why] = true
				parts = append(parts, why)
			}
		case *Cond:
			r := s.leaf(n, level)
			if why := prefix + r.reason; r.reason != "" && !r.rows.Empty() && !seen[why] {
				seen[why] = true
				parts = append(parts, why)
			}
		}
	}
	walk(e, "")
	rows := s.node(e, level)
	head := fmt.Sprintf("%d of %d rows", rows.Count(), s.rows)
	if len(parts) == 0 {
		return head
	}
	return head + "; " + strings.Join(parts, "; ")
}

// dataPagesOf counts a chunk's data pages from its encoding stats, which
// the footer holds for free; 0 when the writer did not write them.
func dataPagesOf(md *meta.ColumnMetaData) int {
	n := 0
	for _, e := range md.EncodingStats {
		if e.PageType == meta.DataPage || e.PageType == meta.DataPageV2 {
			n += int(e.Count)
		}
	}
	return n
}

// columnRead chooses what to read of column c for the kept rows.
func (s *rgState) columnRead(c int, chunk format.Range, rows RowRanges) (ColumnRead, error) {
	leaf := s.p.f.Schema.Leaves[c]
	cr := ColumnRead{Leaf: c, Path: leaf.Path, Chunk: chunk, Whole: true, Bytes: chunk.Length,
		NumPages: dataPagesOf(s.p.f.Chunk(s.rg, c).MetaData)}
	if rows.Covers(s.rows) || !s.p.opt.PageIndex {
		return cr, nil
	}
	if leaf.MaxRep > 0 {
		cr.Note = "a repeated column's pages are not pruned"
		return cr, nil
	}
	oi := s.lastOffsetIndex(c)
	if oi.oi == nil {
		cr.Note = oi.why
		return cr, nil
	}
	cr.NumPages = len(oi.oi.PageLocations)
	for i, loc := range oi.oi.PageLocations {
		first, end := format.PageRows(oi.oi, i, s.rows)
		if !rows.Overlaps(first, end) {
			continue
		}
		r := format.Range{Offset: loc.Offset, Length: int64(loc.CompressedPageSize)}
		cr.Pages = append(cr.Pages, format.PageRef{Range: r, FirstRow: first, NumRows: end - first})
		cr.PageIndexes = append(cr.PageIndexes, i)
	}
	cr.Whole = false
	cr.Bytes = 0
	if len(cr.Pages) > 0 {
		cr.Dict = s.p.f.DictionaryRange(s.rg, c, oi.oi)
		cr.Bytes = cr.Dict.Length
	}
	for _, pg := range cr.Pages {
		cr.Bytes += pg.Range.Length
	}
	return cr, nil
}

// offsetIndex is a chunk's offset index, read once per plan into scratch
// the row group gives back once judged (releaseIndexes): what the plan
// keeps of it is copied out.
type offsetIndex struct {
	oi *meta.OffsetIndex
	// raw is the bytes oi was decoded from, in buf as oi is.
	raw []byte
	buf *format.OffsetIndexBuf
	why string
}

func (s *rgState) offsetIndex(c int) *offsetIndex {
	if x := s.oi[c]; x != nil {
		return x
	}
	x := &offsetIndex{}
	s.makeMemos()
	s.oi[c] = x
	s.readOffsetIndex(c, x)
	return x
}

// lastOffsetIndex is offsetIndex for its last use, choosing the chunk's
// pages: one not read already is read into one buffer that serves every
// such chunk of the row group in turn, and not kept.
func (s *rgState) lastOffsetIndex(c int) *offsetIndex {
	if x := s.oi[c]; x != nil {
		return x
	}
	x := s.passing
	if x == nil {
		x = &offsetIndex{}
		s.passing = x
	}
	*x = offsetIndex{buf: x.buf}
	s.readOffsetIndex(c, x)
	return x
}

// readOffsetIndex reads chunk c's offset index into x.
func (s *rgState) readOffsetIndex(c int, x *offsetIndex) {
	f := s.p.f
	r, ok := f.OffsetIndexRange(s.rg, c)
	if !ok {
		x.why = "the chunk has no offset index"
		return
	}
	s.tally.indexBytes += max(r.Length, 0)
	if x.buf == nil {
		x.buf = s.p.takeOffsetIndexBuf()
	}
	oi, raw, err := f.ReadOffsetIndexInto(s.rg, c, x.buf)
	switch {
	case err != nil:
		x.why = fmt.Sprintf("the offset index cannot be read (%v), so the chunk is read whole", err)
		s.note(fmt.Sprintf("row group %d, column %s: %s", s.rg, f.Schema.Leaves[c].Path, x.why))
	case oi == nil || len(oi.PageLocations) == 0:
		x.why = "the offset index lists no pages"
	default:
		x.oi, x.raw = oi, raw
	}
}

// trustNotes renders the statistics-trust report, one line per distinct
// caveat with the row groups it applies to.
func (p *planner) trustNotes() []string {
	lines := make([]string, 0, len(p.trust))
	for line := range p.trust {
		lines = append(lines, line)
	}
	sort.Strings(lines)
	out := make([]string, len(lines))
	for i, line := range lines {
		rgs := p.trust[line]
		parts := make([]string, len(rgs))
		for j, rg := range rgs {
			parts[j] = fmt.Sprint(rg)
		}
		label := "row group "
		if len(rgs) > 1 {
			label = "row groups "
		}
		out[i] = label + strings.Join(parts, ", ") + ": " + line
	}
	return out
}
