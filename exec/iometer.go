package exec

import (
	"cmp"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
	"github.com/pqsql/pqsql/storage"
)

// An ioPurpose is what a read of a file was for. EXPLAIN ANALYZE counts
// every byte by purpose, so that each purpose can be checked against the
// plan on its own.
type ioPurpose int8

const (
	// ioFooter: the magic, the footer length and the footer, read to open.
	ioFooter ioPurpose = iota
	// ioIndex: column and offset indexes, read to plan.
	ioIndex
	// ioBloom: Bloom filter headers and blocks, read to plan.
	ioBloom
	// ioDictionary: dictionary pages, read to plan.
	ioDictionary
	// ioData: column chunk bytes, read by the scan.
	ioData
	// ioScanIndex: offset indexes the scan read itself, to narrow a chunk
	// the plan reads whole to the pages holding the rows it still needs.
	ioScanIndex
	// ioOther: bytes no structure of the footer accounts for; the plan
	// never reads them, so a count here is a mismatch.
	ioOther
	numPurposes
)

var purposeNames = [numPurposes]string{"footer", "page index", "bloom", "dictionary", "data", "offset index (scan)", "other"}

func (p ioPurpose) String() string { return purposeNames[p] }

// The phases of a file's life, which with where a read lands decide its
// purpose.
const (
	phaseOpen int32 = iota
	phasePlan
	phaseScan
)

// A region is a structure the footer locates: a column chunk, a column or
// offset index, a Bloom filter.
type region struct {
	r    format.Range
	kind regionKind
	leaf int // the column of a Bloom filter
}

// located is a region of the file's list, sorted by offset, with
// the largest end of the regions up to it, so that a search can stop
// walking back once no earlier region reaches an offset.
type located struct {
	region
	maxEnd int64
}

type regionKind int8

const (
	regionChunk regionKind = iota
	regionIndex
	regionBloom
)

// Why planned data bytes were not read.
const (
	// notReadFilter: late materialization found no passing row in them.
	notReadFilter = iota
	// notReadLimit: the scan stopped, or needed fewer rows, for a LIMIT.
	notReadLimit
	// notReadStats: count(*) was answered from the row group's statistics.
	notReadStats
	// notReadTopK: no row of the row group could beat a sorted limit's rows.
	notReadTopK
	numNotRead
)

// A fileMeter is the Source of one file a statement opens. It counts every
// read by purpose, with one purposeCount per purpose, and keeps
// the executor's own account of what it chose to read and not to read, so
// that EXPLAIN ANALYZE can check both against the file's plan.
//
// A read's purpose follows from when and where it starts: while the file
// is opened, every read is footer; while it is planned, a read in a column
// or offset index is page index, in a Bloom filter bloom, in a column chunk
// dictionary; while it is scanned, a read in a column chunk is data, in an
// offset index scan offset index. Anything else is other. A file planned
// while it is scanned (planstream.go) is planned through planReads, whose
// reads are the plan's whatever the phase.
type fileMeter struct {
	path  string
	phase atomic.Int32
	// regions are located once, by regionsOf.
	locateOnce sync.Once
	regions    []located
	// src is the file; counts are its reads by purpose, kept here rather
	// than in a counting source per purpose: a glob opens many files.
	src    format.Source
	counts [numPurposes]purposeCount

	// Set while the file is opened and planned, before the scan starts.
	// bound is what binding read of the file to bind its schema alone
	// (planner.Footer): the scan reads its footer again.
	bound int64
	f     *format.File
	plan  *pushdown.FilePlan
	// openTime and planTime are the metadata and planning phases, which
	// start at openedAt and opened.
	openTime, planTime time.Duration
	openedAt, opened   time.Time

	// The executor's account, kept by the scan's workers.
	// overlap counts bytes of ranges that overlap within one fetch, read
	// once for two leaves (chunk ranges padded for old parquet-mr files).
	overlap   atomic.Int64
	reread    atomic.Int64 // chunks read again after an offset index misplaced rows
	scanIndex atomic.Int64 // offset index bytes the scan chose to read
	// scanColumnIndex is the part of scanIndex that is column indexes,
	// read for a sorted limit to judge its key's pages.
	scanColumnIndex atomic.Int64
	notRead         [numNotRead]atomic.Int64
	// started sums the planned bytes of the row groups the scan started or
	// answered from statistics; the rest it never reached.
	started      atomic.Int64
	pagesDecoded atomic.Int64
	// decodeNanos is time spent fetching and decoding pages; workNanos
	// time spent on row groups in all.
	decodeNanos, workNanos atomic.Int64

	// keepReads is set under EXPLAIN, whose map alone reads dataReads.
	keepReads bool
	planOnly  bool // EXPLAIN: the file is planned, never scanned
	// dataReads are the data byte ranges read, for the map of EXPLAIN
	// ANALYZE, which marks the pages really read.
	readsMu   sync.Mutex
	dataReads []format.Range
	// progress, when set, counts planned and read data bytes for a
	// progress bar.
	progress *Progress
	// Set when the file is remote: its object, the store it came from,
	// and which planning reads were batched (see prefetchFor).
	remote        *storage.Object
	store         *storage.Store
	indexOnce     sync.Once
	scanIndexOnce sync.Once
	bloomOnce     sync.Once
	mu            sync.Mutex
	bloomLeaves   map[int]bool
	// probes are the Bloom filter hashes the plan may probe, by leaf
	// (expect); aheadBlooms the offsets of the filters whose header and
	// probed blocks were fetched ahead.
	probes      map[int][]uint64
	aheadBlooms map[int64]bool
	ahead       *aheadPlan
}

var _ format.Source = (*fileMeter)(nil)

func newFileMeter(path string, src format.Source) *fileMeter {
	m := &fileMeter{path: path, src: src}
	m.remote, _ = src.(*storage.Object)
	return m
}

// A purposeCount counts the reads of one purpose, as a
// format.CountingSource does.
type purposeCount struct {
	bytes, requests atomic.Int64
}

// Stats are the reads counted.
func (c *purposeCount) Stats() format.IOStats {
	return format.IOStats{Bytes: c.bytes.Load(), Requests: c.requests.Load()}
}

// Credit counts reads made through another source on the same file, such
// as the footer read once and decoded for an earlier stage.
func (c *purposeCount) Credit(st format.IOStats) {
	c.bytes.Add(st.Bytes)
	c.requests.Add(st.Requests)
}

// ReadAt counts the read under its purpose.
func (m *fileMeter) ReadAt(p []byte, off int64) (int, error) {
	return m.read(p, off, m.phase.Load())
}

// read counts a read made in phase under its purpose.
func (m *fileMeter) read(p []byte, off int64, phase int32) (int, error) {
	purpose := m.purpose(phase, off)
	if purpose == ioData {
		m.progress.addRead(int64(len(p)))
		if m.keepReads {
			m.readsMu.Lock()
			m.dataReads = append(m.dataReads, format.Range{Offset: off, Length: int64(len(p))})
			m.readsMu.Unlock()
		}
	}
	if m.remote != nil {
		m.prefetchFor(purpose, off)
	}
	c := &m.counts[purpose]
	c.requests.Add(1)
	var n int
	var err error
	if m.remote != nil {
		n, err = m.remote.ReadPurpose(p, off, storePurpose[purpose])
	} else {
		n, err = m.src.ReadAt(p, off)
	}
	c.bytes.Add(int64(n))
	if err != nil && m.remote != nil {
		m.forgetIfChanged(err)
	}
	return n, err
}

// readSet returns a function reporting whether any byte of a range was
// read as data.
func (m *fileMeter) readSet() func(format.Range) bool {
	m.readsMu.Lock()
	reads := append([]format.Range(nil), m.dataReads...)
	m.readsMu.Unlock()
	sort.Slice(reads, func(i, j int) bool { return reads[i].Offset < reads[j].Offset })
	// Merge, so that ends grow with offsets and one search suffices.
	var merged []format.Range
	for _, r := range reads {
		if n := len(merged); n > 0 && r.Offset <= merged[n-1].End() {
			if r.End() > merged[n-1].End() {
				merged[n-1].Length = r.End() - merged[n-1].Offset
			}
			continue
		}
		merged = append(merged, r)
	}
	return func(r format.Range) bool {
		i := sort.Search(len(merged), func(i int) bool { return merged[i].End() > r.Offset })
		return i < len(merged) && merged[i].Offset < r.End()
	}
}

// Size is the file's size.
func (m *fileMeter) Size() int64 { return m.src.Size() }

// Stats sums the reads of every purpose.
func (m *fileMeter) Stats() format.IOStats {
	var st format.IOStats
	for i := range m.counts {
		s := m.counts[i].Stats()
		st.Bytes += s.Bytes
		st.Requests += s.Requests
	}
	return st
}

// keepMeter keeps an opened file's meter for EXPLAIN's report. Without
// EXPLAIN it is dropped, and with it the file's footer, once its scan ends.
func (x *executor) keepMeter(m *fileMeter) {
	if x.keepMeters {
		x.stats.Meters = append(x.stats.Meters, m)
	}
}

// setFile starts the planning phase of file f. Its structures are located
// at the first read that needs them (regionsOf): a file answered from its
// footer alone (count(*) of a glob) never pays for it.
func (m *fileMeter) setFile(f *format.File) {
	m.f = f
	m.opened = time.Now()
	m.phase.Store(phasePlan)
}

// regionsOf returns the file's structures, located once.
func (m *fileMeter) regionsOf() []located {
	m.locateOnce.Do(m.locate)
	return m.regions
}

// locate finds the structures the footer places: column chunks, column and
// offset indexes and Bloom filters. It runs for every file a query plans.
// A read's purpose asks only which kinds of structure hold its offset, so
// chunks and indexes are kept as the runs they lie in (writers put a
// file's chunks, and its indexes, one after another): a footer of
// thousands of chunks locates in a few regions, not thousands. Bloom
// filters stay one region each, for the column they belong to.
func (m *fileMeter) locate() {
	f := m.f
	blooms, unsized := 0, 0
	for rg := range f.Meta.RowGroups {
		for c := range f.Meta.RowGroups[rg].Columns {
			if md := f.Chunk(rg, c).MetaData; md != nil && md.BloomFilterOffset != nil {
				blooms++
				if md.BloomFilterLength == nil || *md.BloomFilterLength <= 0 {
					unsized++
				}
			}
		}
	}
	var chunks, colIdx, offIdx runs
	for rg := range f.Meta.RowGroups {
		for c := range f.Meta.RowGroups[rg].Columns {
			if !f.Decoded(c) {
				// Opened without its metadata: the scan reads nothing of it.
				continue
			}
			if r, err := f.ChunkRange(rg, c); err == nil {
				chunks.add(r)
			}
			if r, ok := f.ColumnIndexRange(rg, c); ok {
				colIdx.add(r)
			}
			if r, ok := f.OffsetIndexRange(rg, c); ok {
				offIdx.add(r)
			}
		}
	}
	rs := make([]located, 0, len(chunks)+len(colIdx)+len(offIdx)+blooms)
	for _, r := range chunks {
		rs = append(rs, located{region: region{r, regionChunk, 0}})
	}
	for _, ix := range [2]runs{colIdx, offIdx} {
		for _, r := range ix {
			rs = append(rs, located{region: region{r, regionIndex, 0}})
		}
	}
	// starts are where every structure begins, for a filter without a
	// length, which runs to the next one.
	var starts []int64
	if unsized > 0 {
		starts = m.starts()
	}
	footer := f.Source.Size() - f.FooterSize
	for rg := range f.Meta.RowGroups {
		for c := range f.Meta.RowGroups[rg].Columns {
			md := f.Chunk(rg, c).MetaData
			if md == nil || md.BloomFilterOffset == nil {
				continue
			}
			off := *md.BloomFilterOffset
			var end int64
			if md.BloomFilterLength != nil && *md.BloomFilterLength > 0 {
				end = off + int64(*md.BloomFilterLength)
			} else {
				end = footer
				if i, _ := slices.BinarySearch(starts, off+1); i < len(starts) {
					end = min(end, starts[i])
				}
			}
			if end > off {
				rs = append(rs, located{region: region{format.Range{Offset: off, Length: end - off}, regionBloom, c}})
			}
		}
	}
	slices.SortStableFunc(rs, func(a, b located) int { return cmp.Compare(a.r.Offset, b.r.Offset) })
	for i := range rs {
		rs[i].maxEnd = rs[i].r.End()
		if i > 0 {
			rs[i].maxEnd = max(rs[i].maxEnd, rs[i-1].maxEnd)
		}
	}
	m.regions = rs
}

// starts are the sorted offsets where the file's structures begin: its
// column chunks, page indexes and Bloom filters.
func (m *fileMeter) starts() []int64 {
	f := m.f
	var starts []int64
	for rg := range f.Meta.RowGroups {
		for c := range f.Meta.RowGroups[rg].Columns {
			if !f.Decoded(c) {
				continue
			}
			if r, err := f.ChunkRange(rg, c); err == nil {
				starts = append(starts, r.Offset)
			}
			if r, ok := f.ColumnIndexRange(rg, c); ok {
				starts = append(starts, r.Offset)
			}
			if r, ok := f.OffsetIndexRange(rg, c); ok {
				starts = append(starts, r.Offset)
			}
			if md := f.Chunk(rg, c).MetaData; md != nil && md.BloomFilterOffset != nil {
				starts = append(starts, *md.BloomFilterOffset)
			}
		}
	}
	slices.Sort(starts)
	return starts
}

// runs are byte ranges of one kind of structure, each range added joined
// to the last run when it starts inside it or where it ends: they cover
// exactly the bytes the ranges added do.
type runs []format.Range

func (rs *runs) add(r format.Range) {
	if n := len(*rs); n > 0 {
		last := &(*rs)[n-1]
		if r.Offset >= last.Offset && r.Offset <= last.End() {
			last.Length = max(last.End(), r.End()) - last.Offset
			return
		}
	}
	*rs = append(*rs, r)
}

// planned records the file's plan and starts the scanning phase.
func (m *fileMeter) planned(p *pushdown.FilePlan) {
	m.prefetchPlan(p)
	m.plan = p
	m.progress.addPlanned(p.ReadBytes)
	m.planTime = time.Since(m.opened)
	m.phase.Store(phaseScan)
}

// purpose classifies a read made in phase starting at off.
func (m *fileMeter) purpose(phase int32, off int64) ioPurpose {
	if phase == phaseOpen || off < 4 {
		// The leading magic is part of the footer's reads, also when a
		// remote file serves it with the first pages (DefersHead).
		return ioFooter
	}
	in := [3]bool{}
	regions := m.regionsOf()
	i := sort.Search(len(regions), func(i int) bool { return regions[i].r.Offset > off }) - 1
	for ; i >= 0 && regions[i].maxEnd > off; i-- {
		if r := regions[i]; off < r.r.End() {
			in[r.kind] = true
		}
	}
	return purposeIn(phase, in)
}

// purposeIn classifies a read made in phase by the kinds of structure that
// hold its offset (in, indexed by region kind).
func purposeIn(phase int32, in [3]bool) ioPurpose {
	switch {
	case phase == phasePlan && in[regionIndex]:
		return ioIndex
	case phase == phasePlan && in[regionBloom]:
		return ioBloom
	case phase == phasePlan && in[regionChunk]:
		return ioDictionary
	case phase == phaseScan && in[regionChunk]:
		return ioData
	case phase == phaseScan && in[regionIndex]:
		return ioScanIndex
	}
	return ioOther
}

// plannedBytes is what the plan reads of one kept row group.
func plannedBytes(rg pushdown.RowGroupPlan) int64 {
	var n int64
	for _, c := range rg.Columns {
		n += c.Bytes
	}
	return n
}

// answered accounts a kept row group counted from its statistics, unread.
func (m *fileMeter) answered(rg pushdown.RowGroupPlan) {
	n := plannedBytes(rg)
	m.started.Add(n)
	m.notRead[notReadStats].Add(n)
}

// skippedByTopK accounts a kept row group a sorted limit skipped, unread.
func (m *fileMeter) skippedByTopK(rg pushdown.RowGroupPlan) {
	n := plannedBytes(rg)
	m.started.Add(n)
	m.notRead[notReadTopK].Add(n)
}

// finish accounts a row group's task when it ends: its time, and the
// planned bytes of the leaves it never loaded (the scan stopped first).
func (m *fileMeter) finish(t *scanTask, start time.Time) {
	m.workNanos.Add(int64(time.Since(start)))
	n := plannedBytes(t.rg)
	m.started.Add(n)
	if rest := n - t.loaded; rest > 0 {
		m.notRead[notReadLimit].Add(rest)
	}
}

// skipLoad accounts leaves of cols the task will not load: late
// materialization left no row to read them for.
func (m *fileMeter) skipLoad(t *scanTask, cols []int) { m.skipLeaves(t, cols, notReadFilter) }

// skipLoadTopK accounts leaves of cols the task will not load: no page of
// the sort key could beat a sorted limit's rows.
func (m *fileMeter) skipLoadTopK(t *scanTask, cols []int) { m.skipLeaves(t, cols, notReadTopK) }

func (m *fileMeter) skipLeaves(t *scanTask, cols []int, why int) {
	planned := leafPlans(t.rg)
	for _, c := range cols {
		if c >= len(t.file.fields) || t.file.fields[c] == nil {
			continue // a column the file does not hold (a hive partition)
		}
		for _, l := range t.file.fields[c].Leaves {
			if cr := planned[l.Index]; cr != nil {
				t.loaded += cr.Bytes
				m.notRead[why].Add(cr.Bytes)
			}
		}
	}
}

// leafPlans indexes a row group's column reads by leaf.
func leafPlans(rg pushdown.RowGroupPlan) map[int]*pushdown.ColumnRead {
	out := make(map[int]*pushdown.ColumnRead, len(rg.Columns))
	for i := range rg.Columns {
		out[rg.Columns[i].Leaf] = &rg.Columns[i]
	}
	return out
}

// loadAccount is load's account of one call: what the plan says about the
// leaves loaded, and what load chose to read of them.
type loadAccount struct {
	m                 *fileMeter
	t                 *scanTask
	planned           int64
	ranges            []format.Range
	reread, scanIndex int64
	// topk is the bytes of pages a sorted limit's cut left unread, of
	// those the WHERE's rows would have been read in (topKLeft).
	topk  int64
	start time.Time
}

func (m *fileMeter) beginLoad(t *scanTask) *loadAccount {
	return &loadAccount{m: m, t: t, start: time.Now()}
}

// leaf accounts one leaf: planned by cr, read as ranges.
func (a *loadAccount) leaf(cr *pushdown.ColumnRead, ranges []format.Range) {
	a.planned += cr.Bytes
	a.ranges = append(a.ranges, ranges...)
}

// offsetIndex accounts the offset index load reads of a leaf planned whole.
func (a *loadAccount) offsetIndex(f *format.File, rg, leaf int) {
	if r, ok := f.OffsetIndexRange(rg, leaf); ok {
		a.scanIndex += r.Length
	}
}

// end closes the account: the planned bytes not fetched were left out for
// the rows the task needs, which the WHERE (late materialization) or a
// LIMIT narrowed. format.Fetch reads overlapping ranges once.
func (a *loadAccount) end(pages int64) {
	m := a.m
	a.t.loaded += a.planned
	var raw, fetched int64
	for _, r := range a.ranges {
		raw += r.Length
	}
	for _, r := range format.Coalesce(a.ranges, 0) {
		fetched += r.Length
	}
	m.overlap.Add(raw - fetched)
	m.reread.Add(a.reread)
	m.scanIndex.Add(a.scanIndex)
	m.pagesDecoded.Add(pages)
	if rest := a.planned - raw; rest > 0 {
		why := notReadFilter
		switch {
		case a.t.limit >= 0:
			why = notReadLimit
		case a.t.cutByTopK:
			why = notReadTopK
		case a.topk > 0:
			tk := min(a.topk, rest)
			m.notRead[notReadTopK].Add(tk)
			rest -= tk
		}
		m.notRead[why].Add(rest)
	}
	m.decodeNanos.Add(int64(time.Since(a.start)))
}

// rereadChunk accounts a chunk read again, whole, because its offset index
// misplaced rows.
func (a *loadAccount) rereadChunk(f *format.File, rg, leaf int) {
	if r, err := f.ChunkRange(rg, leaf); err == nil {
		a.reread += r.Length
	}
}
