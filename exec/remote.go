package exec

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
	"github.com/pqsql/pqsql/storage"
)

// defaultStore serves executors made without a session (tests, benchmarks).
var defaultStore = storage.NewStore()

// storePurpose is the request purpose of each read purpose: a remote
// object told what each read is for caches metadata and reports requests by
// purpose.
var storePurpose = [numPurposes]storage.Purpose{
	ioFooter: storage.Footer, ioIndex: storage.Index, ioBloom: storage.Bloom,
	ioDictionary: storage.Dictionary, ioData: storage.Data, ioScanIndex: storage.Index, ioOther: storage.Data,
}

// openCounted opens a file through the session's storage and a fileMeter,
// so that EXPLAIN ANALYZE can report the bytes and requests the query
// made, by purpose.
func (x *executor) openCounted(path string) (*format.File, *fileMeter, interface{ Close() error }, error) {
	return x.openCountedFooter(path, nil, nil)
}

// openCountedFooter is openCounted with the footer binding read of the
// file, when it kept one: the file is not read or decoded again, and the
// reads binding made count as the file's footer reads, as they would had
// the scan made them. With keep, the footer's row groups are decoded with
// the chunk metadata of the leaves keep marks alone
// (format.OpenSourceColumns, File.Decode).
func (x *executor) openCountedFooter(path string, kept *planner.Footer, keep func(*format.File) ([]bool, error)) (*format.File, *fileMeter, interface{ Close() error }, error) {
	st, ctx := x.store, x.ctx
	if st == nil {
		st = defaultStore
	}
	if ctx == nil {
		ctx = context.Background()
	}
	var src storage.Source
	if obj, ok := x.warmed[path]; ok {
		delete(x.warmed, path) // its prefetched data serves one scan of it
		src = obj
	} else {
		s, err := st.Open(ctx, path)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w: %w", planner.ErrIO, err)
		}
		src = s
	}
	m := newFileMeter(path, src)
	m.store = st
	m.planOnly = x.planOnly
	m.keepReads = x.keepMeters
	m.openedAt = time.Now()
	if kept != nil && m.remote == nil {
		if kept.File == nil {
			// Opened for its schema at binding: read again below.
			m.counts[ioFooter].Credit(kept.Read)
			m.bound = kept.Read.Bytes
		} else if f, err := kept.File.DecodeOnce(m, x.settings.readLimits(), keep); err == nil {
			// A file changed since binding read it (another size) is
			// opened again, as is one whose footer the limits refuse, to
			// fail as it would.
			f.Name = path
			m.counts[ioFooter].Credit(kept.Read)
			m.openTime = time.Since(m.openedAt)
			m.setFile(f)
			return f, m, src, nil
		}
	}
	var f *format.File
	var err error
	if keep != nil {
		f, err = format.OpenSourceColumns(m, path, x.settings.readLimits(), keep)
	} else {
		f, err = format.OpenSource(m, path, x.settings.readLimits())
	}
	if err != nil {
		src.Close()
		return nil, nil, nil, err
	}
	m.openTime = time.Since(m.openedAt)
	m.setFile(f)
	return f, m, src, nil
}

// DefersHead lets a remote file's leading magic arrive with its first
// page reads rather than in a request of its own at open.
func (m *fileMeter) DefersHead() bool { return m.remote != nil }

var _ format.HeadDeferrer = (*fileMeter)(nil)

// expect tells a remote file's meter what its plan will judge, before
// pushdown.Plan runs, so that its first planning read can fetch ahead what
// the plan will read of indexes and filters, and little more: the row
// groups the statistics alone keep (a plan of the footer's statistics,
// which reads nothing), and in them the page indexes of the columns the
// plan judges or reads and the Bloom filter blocks its = and IN probe.
func (m *fileMeter) expect(pred pushdown.Expr, columns []int, opt pushdown.Options) {
	if m.remote == nil || m.f == nil {
		return
	}
	g := *m.f
	g.Source = noReads{m.f.Source.Size()}
	pre, err := pushdown.Plan(&g, pred, nil, pushdown.Options{Statistics: opt.Statistics})
	if err != nil {
		return // fetch ahead for every row group and column, as unplanned
	}
	a := &aheadPlan{judged: map[int]bool{}, read: map[int]bool{}}
	for _, rg := range pre.RowGroups {
		if rg.Verdict != pushdown.Skip {
			a.rowGroups = append(a.rowGroups, rg.Index)
		}
	}
	for _, c := range pre.Columns {
		a.judged[c], a.read[c] = true, true
	}
	for _, c := range columns {
		a.read[c] = true
	}
	m.ahead = a
	if opt.Bloom {
		m.probes = pushdown.BloomHashes(m.f, pred)
	}
}

// An aheadPlan is what a file's plan may read of indexes and filters, by
// its statistics alone.
type aheadPlan struct {
	rowGroups []int
	// judged are the leaves the predicate judges, whose column indexes
	// the plan reads; read the leaves whose offset indexes it reads to map
	// rows to pages (judged or in the output).
	judged, read map[int]bool
}

// noReads is the source of a plan that must read nothing: any read fails.
type noReads struct{ size int64 }

func (n noReads) ReadAt([]byte, int64) (int, error) { return 0, errPlanRead }
func (n noReads) Size() int64                       { return n.size }

var errPlanRead = errors.New("a statistics plan read the file")

// rowGroupsAhead returns the row groups whose indexes and filters to fetch
// ahead: those the statistics keep, or all when unknown.
func (m *fileMeter) rowGroupsAhead() []int {
	if m.ahead != nil {
		return m.ahead.rowGroups
	}
	out := make([]int, m.f.NumRowGroups())
	for i := range out {
		out[i] = i
	}
	return out
}

// indexRanges returns the page index ranges to fetch ahead.
func (m *fileMeter) indexRanges() []format.Range {
	var rs []format.Range
	if m.ahead == nil {
		for _, r := range m.regionsOf() {
			if r.kind == regionIndex {
				rs = append(rs, r.r)
			}
		}
		return rs
	}
	for _, rg := range m.ahead.rowGroups {
		for c := range m.f.Schema.Leaves {
			if r, ok := m.f.ColumnIndexRange(rg, c); ok && m.ahead.judged[c] {
				rs = append(rs, r)
			}
			if r, ok := m.f.OffsetIndexRange(rg, c); ok && m.ahead.read[c] {
				rs = append(rs, r)
			}
		}
	}
	return rs
}

// prefetchFor batches the planning reads of a remote file. The first read
// of a page index fetches the indexes the plan may read (expect), which
// writers put together before the footer, coalesced into few requests, and
// with them, in the same round, the Bloom filter reads the plan may make
// (prefetchBlooms). The first read of a Bloom filter fetches those alone:
// the plan probes a row group's filters before its page index, and when
// the filters rule every row group out no index is read. A failed batch
// is not an error here: the read that follows retries and reports it.
func (m *fileMeter) prefetchFor(purpose ioPurpose, off int64) {
	switch purpose {
	case ioIndex:
		m.indexOnce.Do(func() {
			done := make(chan struct{})
			go func() {
				defer close(done)
				m.prefetchBlooms()
			}()
			m.remote.Prefetch(m.indexRanges(), storage.Index)
			<-done
		})
	case ioScanIndex:
		// The scan reads offset indexes of chunks the plan reads whole, of
		// its own choosing: all of the file's, in one go.
		m.scanIndexOnce.Do(func() {
			var rs []format.Range
			for _, r := range m.regionsOf() {
				if r.kind == regionIndex {
					rs = append(rs, r.r)
				}
			}
			m.remote.Prefetch(rs, storage.Index)
		})
	case ioBloom:
		m.prefetchBlooms()
		m.prefetchWholeBlooms(off)
	}
}

// prefetchBlooms fetches, once, the header read and the probed blocks of
// every Bloom filter the plan may probe (expect), where the footer's
// bloom_filter_length gives the filter's layout (format.File.BloomReads):
// a few hundred bytes per filter in one round, where the whole filters
// are megabytes and reading header, then blocks, two rounds. The probes
// still read where each decoded header says: a layout that guessed wrong
// costs reads of their own, never a wrong answer.
func (m *fileMeter) prefetchBlooms() {
	m.bloomOnce.Do(func() {
		if len(m.probes) == 0 {
			return
		}
		var rs []format.Range
		ahead := map[int64]bool{}
		for _, rg := range m.rowGroupsAhead() {
			for leaf, hashes := range m.probes {
				if leaf >= len(m.f.Schema.Leaves) || !m.f.HasBloomFilter(rg, leaf) {
					continue
				}
				reads, ok := m.f.BloomReads(rg, leaf, hashes)
				if !ok {
					continue
				}
				rs = append(rs, reads...)
				ahead[*m.f.Chunk(rg, leaf).MetaData.BloomFilterOffset] = true
			}
		}
		m.mu.Lock()
		m.aheadBlooms = ahead
		m.mu.Unlock()
		m.remote.Prefetch(rs, storage.Bloom)
	})
}

// prefetchWholeBlooms fetches, on the first read of a column's Bloom
// filter that was not fetched ahead (no length in the footer, no probes
// known), that column's filters in every row group, whole, in parallel:
// their blocks are known only once each header is read.
func (m *fileMeter) prefetchWholeBlooms(off int64) {
	leaf, start := -1, int64(0)
	for _, r := range m.regionsOf() {
		if r.kind == regionBloom && off >= r.r.Offset && off < r.r.End() {
			leaf, start = r.leaf, r.r.Offset
			break
		}
	}
	m.mu.Lock()
	done := m.bloomLeaves[leaf] || m.aheadBlooms[start]
	if m.bloomLeaves == nil {
		m.bloomLeaves = map[int]bool{}
	}
	if !done {
		m.bloomLeaves[leaf] = true
	}
	ahead := m.aheadBlooms
	m.mu.Unlock()
	if done || leaf < 0 {
		return
	}
	var rs []format.Range
	for _, r := range m.regionsOf() {
		if r.kind == regionBloom && r.leaf == leaf && !ahead[r.r.Offset] {
			rs = append(rs, r.r)
		}
	}
	m.remote.Prefetch(rs, storage.Bloom)
}

// prefetch fetches the data ranges a load is about to read, coalesced and
// in parallel, when the file is remote; local reads need no batching.
func (m *fileMeter) prefetch(ranges []format.Range) error {
	if m.remote == nil || len(ranges) == 0 {
		return nil
	}
	err := m.remote.Prefetch(ranges, storage.Data)
	if err != nil {
		m.forgetIfChanged(err)
	}
	return err
}

// forgetIfChanged drops a file replaced during the query from the
// session cache, so that the next query reads the new version.
func (m *fileMeter) forgetIfChanged(err error) {
	if m.store != nil && isChanged(err) {
		m.store.Forget(m.path)
	}
}

// plannedRequests is what the plan's data reads cost in requests and
// bytes, with the store's coalescing: one batch per row group, as load
// fetches them.
func (m *fileMeter) plannedRequests() (requests, bytes int64) {
	if m.plan == nil || m.remote == nil {
		return 0, 0
	}
	gap := m.store.Options().CoalesceGap
	head := !m.remote.HasHead() // the first pages fetched bring it
	for _, rg := range m.plan.RowGroups {
		if rg.Verdict == pushdown.Skip {
			continue
		}
		var rs []format.Range
		if head {
			rs, head = append(rs, format.Range{Offset: 0, Length: 4}), false
		}
		for _, c := range rg.Columns {
			if c.Whole {
				rs = append(rs, c.WholeRange())
				continue
			}
			if c.Dict.Length > 0 {
				rs = append(rs, c.Dict)
			}
			for _, p := range c.Pages {
				rs = append(rs, p.Range)
			}
		}
		for _, r := range storage.Coalesce(rs, gap) {
			requests++
			bytes += r.Length
		}
	}
	return requests, bytes
}

// A RemoteJSON is what a statement asked of one remote file: the
// requests made by purpose (EXPLAIN: to open and plan it; EXPLAIN
// ANALYZE: all), and for EXPLAIN the data requests its plan will make.
type RemoteJSON struct {
	URL      string         `json:"url"`
	Size     int64          `json:"size"`
	Requests []RequestsJSON `json:"requests"`
	// PlannedData is set by EXPLAIN: the data requests of the plan, with
	// the coalescing gap they assume.
	PlannedData *PlannedDataJSON `json:"planned_data,omitempty"`
	Analyze     bool             `json:"-"`
}

// RequestsJSON counts the requests of one purpose.
type RequestsJSON struct {
	Purpose   string `json:"purpose"`
	Requests  int64  `json:"requests"`
	Bytes     int64  `json:"bytes"`
	Retries   int64  `json:"retries"`
	CacheHits int64  `json:"reads_from_cache"`
	// WaitNanos is the time spent waiting on the network, summed over
	// requests.
	WaitNanos int64 `json:"wait_ns"`
}

// PlannedDataJSON is what a plan's data reads will cost.
type PlannedDataJSON struct {
	Requests    int64 `json:"requests"`
	Bytes       int64 `json:"bytes"`
	CoalesceGap int64 `json:"coalesce_gap"`
}

// remoteReport gathers the requests of the remote files among meters,
// once per file.
func remoteReport(meters []*fileMeter, analyze bool) []RemoteJSON {
	var out []RemoteJSON
	seen := map[string]bool{}
	for _, m := range meters {
		if m.remote == nil || seen[m.path] {
			continue
		}
		seen[m.path] = true
		st := m.remote.Stats()
		if l := m.remote.Ledger(); l != nil {
			st = l.File(m.remote.URL())
		}
		r := RemoteJSON{URL: m.path, Size: m.remote.Size(), Analyze: analyze}
		for p := storage.Purpose(0); p < storage.NumPurposes; p++ {
			s := st[p]
			if p == storage.Data && !analyze {
				n, bytes := m.plannedRequests()
				r.PlannedData = &PlannedDataJSON{Requests: n, Bytes: bytes, CoalesceGap: m.store.Options().CoalesceGap}
				continue
			}
			r.Requests = append(r.Requests, RequestsJSON{Purpose: p.String(), Requests: s.Requests, Bytes: s.Bytes,
				Retries: s.Retries, CacheHits: s.CacheHits, WaitNanos: int64(s.Wait)})
		}
		out = append(out, r)
	}
	return out
}

// writeRemote writes the remote files' requests as EXPLAIN prints them.
func writeRemote(b *strings.Builder, files []RemoteJSON) {
	for _, r := range files {
		fmt.Fprintf(b, "\nremote %s: %d bytes\n", r.URL, r.Size)
		var total, retries, wait int64
		for _, s := range r.Requests {
			total += s.Requests
			retries += s.Retries
			wait += s.WaitNanos
			if s.Requests == 0 && s.CacheHits == 0 && s.Retries == 0 {
				continue
			}
			fmt.Fprintf(b, "  %s: %s, %d bytes", s.Purpose, plural(s.Requests, "request"), s.Bytes)
			if s.CacheHits > 0 {
				fmt.Fprintf(b, ", %s served from cache", plural(s.CacheHits, "read"))
			}
			if r.Analyze && s.Retries > 0 {
				fmt.Fprintf(b, ", %d retries", s.Retries)
			}
			b.WriteString("\n")
		}
		if d := r.PlannedData; d != nil {
			fmt.Fprintf(b, "  data: %s planned, %d bytes (coalescing gaps up to %d bytes)\n", plural(d.Requests, "request"), d.Bytes, d.CoalesceGap)
		}
		if r.Analyze {
			fmt.Fprintf(b, "  requests: %d, retries: %d, network wait: %s\n", total, retries, time.Duration(wait).Round(time.Microsecond))
		}
	}
}

// isChanged reports whether err says the file changed during the query.
func isChanged(err error) bool { return errors.Is(err, storage.ErrChanged) }

// warmAhead bounds how many remote files of a scan are opened ahead of
// the scan, so that a glob of thousands of files does not fill memory
// with footers.
const warmAhead = 64

// warmData bounds the planned data of one file that warmRemote fetches
// ahead of the scan; beyond it, the scan fetches as it loads.
const warmData = 1 << 20

// warmRemote opens a scan's first remote files all in parallel: it reads
// their footers, plans them, and fetches the page indexes, Bloom filters
// and, for a selective plan, the data the plan keeps. The scan then opens
// and plans file after file without a round trip each: a glob costs the
// round trips of one file, not of each. A failure here is left for the
// scan's own open to report.
func (x *executor) warmRemote(ctx context.Context, scan *planner.Scan) {
	st := x.store
	if st == nil || len(scan.Files) < 2 {
		return
	}
	var mu sync.Mutex
	var plans []warmPlan
	x.warmed = map[string]*storage.Object{}
	var wg sync.WaitGroup
	seen := map[string]bool{}
	for _, path := range scan.Files {
		if len(seen) == warmAhead {
			break
		}
		if seen[path] || !storage.IsRemote(path) {
			continue
		}
		seen[path] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			src, err := st.Open(ctx, path)
			if err != nil {
				return
			}
			obj, ok := src.(*storage.Object)
			if !ok {
				return
			}
			// The meter batches the plan's index and filter reads as the
			// scan's would, and counts nothing the statement reports.
			m := newFileMeter(path, src)
			f, err := format.OpenSource(m, path, x.settings.readLimits())
			if err != nil || scan.CountOnly {
				return
			}
			m.setFile(f)
			fields, err := fieldMap(scan, f)
			if err != nil {
				return
			}
			m.expect(scan.Pushdown, neededLeaves(fields), x.settings.options())
			fp, err := pushdown.Plan(f, scan.Pushdown, neededLeaves(fields), x.settings.options())
			if err != nil || fp.ReadBytes == 0 || fp.ReadBytes > warmData {
				return
			}
			mu.Lock()
			plans = append(plans, warmPlan{path, obj, fp.ReadRanges})
			mu.Unlock()
		}()
	}
	wg.Wait()
	// The data of every file goes out at once, after all are planned:
	// fetched as each plan ends, the requests of a glob spread over the
	// planning time of its files, a round or more on a busy machine. The
	// pages merge by the gap alone: a dozen requests a file would be
	// hundreds in this one round.
	for _, p := range plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p.obj.PrefetchWide(p.ranges, storage.Data) == nil {
				mu.Lock()
				x.warmed[p.path] = p.obj
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// A warmPlan is the data a remote file's plan keeps, to fetch ahead.
type warmPlan struct {
	path   string
	obj    *storage.Object
	ranges []format.Range
}

// prefetchAll bounds the planned data a remote file fetches in one go,
// before its scan starts.
const prefetchAll = 8 << 20

// prefetchPlan fetches every data range a remote file's plan keeps, in
// one parallel round, when they are few bytes: a selective query then
// costs one data round trip instead of one per late-materialization step
// and row group. Larger plans are fetched row group by row group as the
// scan loads them. A failure is left for the scan's reads to retry and
// report.
func (m *fileMeter) prefetchPlan(p *pushdown.FilePlan) {
	if m.remote == nil || m.planOnly || p.ReadBytes == 0 || p.ReadBytes > prefetchAll {
		return
	}
	m.remote.Prefetch(p.ReadRanges, storage.Data)
}
