package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// ExplainJSON is what EXPLAIN (FORMAT JSON) prints: one object holding what
// the text form says. Byte counts are bytes of the files; times are
// nanoseconds.
type ExplainJSON struct {
	// Plan is the plan tree: each operator with its children.
	Plan *PlanNodeJSON `json:"plan"`
	// Files are the pushdown plans of the files scanned, in scan order: for
	// EXPLAIN ANALYZE those of the files the run opened.
	Files []pushdown.PlanJSON `json:"files"`
	// FromMetadata lists the files whose part of the answer the footer
	// gives alone (count(*), or count, min and max from trusted
	// statistics): they have no plan and no data is read.
	FromMetadata []string `json:"answered_from_metadata"`
	// HivePath lists the files of hive-partitioned scans that the WHERE
	// rules out by their partition values: they are never opened.
	HivePath []HivePathJSON `json:"skipped_by_hive_path"`
	// Totals sums Files.
	Totals TotalsJSON `json:"totals"`
	// Analyze is set by EXPLAIN ANALYZE.
	Analyze *AnalyzeJSON `json:"analyze,omitempty"`
	// Verify is set by EXPLAIN VERIFY.
	Verify *VerifyJSON `json:"verify,omitempty"`
	// Remote lists the requests to each remote file (see RemoteJSON).
	Remote []RemoteJSON `json:"remote,omitempty"`
}

// TotalsJSON sums the plans of a statement's files.
type TotalsJSON struct {
	Files          int   `json:"files"`
	RowGroups      int   `json:"row_groups"`
	RowGroupsKept  int   `json:"row_groups_kept"`
	Pages          int   `json:"pages"`
	PagesKept      int   `json:"pages_kept"`
	PagesUncounted int   `json:"pages_uncounted"`
	ChunkBytes     int64 `json:"chunk_bytes"`
	ReadBytes      int64 `json:"read_bytes"`
	ReadRanges     int   `json:"read_ranges"`
	// SkippedPercent is the share of ChunkBytes not to read, rounded to 0.1.
	SkippedPercent float64 `json:"skipped_percent"`
	// Bytes fetched to decide.
	IndexBytes      int64 `json:"index_bytes"`
	FilterBytes     int64 `json:"filter_bytes"`
	DictionaryBytes int64 `json:"dictionary_bytes"`
	// GivenBytes are dictionary pages the dictionary check read, which the
	// scan does not read again.
	GivenBytes int64 `json:"dictionary_given_bytes"`
	// Skipped is what each mechanism skipped, by mechanism name.
	Skipped map[string]SkippedJSON `json:"skipped"`
}

// SkippedJSON is what one mechanism skipped: row groups, pages and bytes
// of column chunks; for the hive path, whole files and their bytes on disk
// (their row groups and pages are not counted: they are never opened).
type SkippedJSON struct {
	Files     int   `json:"files,omitempty"`
	RowGroups int   `json:"row_groups"`
	Pages     int   `json:"pages"`
	Bytes     int64 `json:"bytes"`
}

// HivePathJSON is a file the hive path skipped: its size on disk and the
// WHERE conjunct that is not true for its partition values.
type HivePathJSON struct {
	File   string `json:"file"`
	Bytes  int64  `json:"bytes"`
	Reason string `json:"reason"`
}

// AnalyzeJSON is what EXPLAIN ANALYZE measured at the reader while running
// the query.
type AnalyzeJSON struct {
	Files                 int `json:"files"`
	RowGroupsRead         int `json:"row_groups_read"`
	RowGroupsSkipped      int `json:"row_groups_skipped"`
	RowGroupsFromMetadata int `json:"row_groups_from_metadata"`
	// RowGroupsSkippedByTopK are row groups no row of which could beat the
	// rows a sorted limit held, by their statistics.
	RowGroupsSkippedByTopK int `json:"row_groups_skipped_by_top_k,omitempty"`
	// PagesSkippedByTopK are pages of the sort key, in the row groups
	// read, none of whose rows could beat them, by the page index.
	PagesSkippedByTopK int64 `json:"pages_skipped_by_top_k,omitempty"`
	// OtherPagesLeftByTopK are pages of the other columns, in the row
	// groups read, that hold a row the WHERE passes (any row, without one)
	// but none that could beat them, by the sort key read first, or, when
	// they are read after the scan, none of the result.
	OtherPagesLeftByTopK int64 `json:"other_pages_left_by_top_k,omitempty"`
	// RowsReadLateByTopK are the rows of a sorted limit's result whose
	// other columns were read after the scan, in RowGroupsReadLateByTopK
	// row groups: only the pages holding them were.
	RowsReadLateByTopK      int64 `json:"rows_read_late_by_top_k,omitempty"`
	RowGroupsReadLateByTopK int   `json:"row_groups_read_late_by_top_k,omitempty"`
	PagesDecoded            int64 `json:"pages_decoded"`
	RowsDecoded             int64 `json:"rows_decoded"`
	RowsReturned            int64 `json:"rows_returned"`
	// BytesRead and Requests count every read of the statement; Unmetered
	// is the part no file meter saw: table functions, which read footers
	// themselves and have no plan.
	BytesRead int64 `json:"bytes_read"`
	Requests  int64 `json:"requests"`
	Unmetered int64 `json:"unmetered_bytes,omitempty"`
	// IO accounts the bytes read by purpose against the plan: footer, page
	// index, bloom, dictionary, data, offset index (scan), other.
	IO []IOJSON `json:"io"`
	// MatchesPlan says every purpose's account balances (IOJSON.Matches).
	MatchesPlan bool `json:"matches_plan"`
	// PeakMemory is the most memory_limit counted at once; SpillFiles and
	// SpillBytes what sorts and aggregations wrote to temp_directory.
	PeakMemory int64 `json:"peak_memory_bytes,omitempty"`
	SpillFiles int   `json:"spill_files,omitempty"`
	SpillBytes int64 `json:"spill_bytes,omitempty"`
	// Time is the wall time and the phases, summed over threads.
	Time TimeJSON `json:"time_ns"`
}

// IOJSON accounts one purpose's bytes. For data, Planned (the plan's
// column reads of the kept row groups) + Reread equals Read plus the bytes
// the scan declared not read (NotRead..., AnsweredFromStatistics,
// OverlapReadOnce); for every
// other purpose Planned equals Read. Planned is the plan's count, except
// for "offset index (scan)", which no plan reads: there it is what the scan
// declared reading, to narrow a chunk the plan reads whole, and for
// "other", where it is 0.
type IOJSON struct {
	Purpose  string `json:"purpose"`
	Planned  int64  `json:"planned"`
	Read     int64  `json:"read"`
	Requests int64  `json:"requests"`
	// Data only: planned bytes not read because late materialization found
	// no passing row in them, because of a LIMIT (or the scan stopping
	// early), or because count(*) was answered from statistics; bytes of
	// two leaves' ranges that overlap (padded chunk ranges), read once;
	// and chunks read again because an offset index misplaced rows.
	NotReadAfterFilter     int64 `json:"not_read_after_filter,omitempty"`
	NotReadAfterLimit      int64 `json:"not_read_after_limit,omitempty"`
	AnsweredFromStatistics int64 `json:"answered_from_statistics,omitempty"`
	// SkippedByTopK: row groups and pages a sorted limit skipped (data
	// only).
	SkippedByTopK int64 `json:"skipped_by_top_k,omitempty"`
	// ColumnIndexesForTopK: of the scan's index bytes, the column indexes
	// a sorted limit read to judge pages ("offset index (scan)" only).
	ColumnIndexesForTopK int64 `json:"column_indexes_for_top_k,omitempty"`
	OverlapReadOnce      int64 `json:"overlap_read_once,omitempty"`
	Reread               int64 `json:"reread,omitempty"`
	// PlannedMerged is, for data, the plan's ranges merged across columns
	// and row groups (FilePlan.ReadBytes): Planned less their overlap.
	PlannedMerged int64 `json:"planned_merged,omitempty"`
	Matches       bool  `json:"matches"`
}

// TimeJSON is time per phase in nanoseconds: the wall time of the query;
// opening files (the footer); planning them (indexes and filters); fetching
// and decoding pages; and executing (filters, projections, aggregates,
// sorts). Phases are summed over threads.
type TimeJSON struct {
	Total           int64 `json:"total"`
	Metadata        int64 `json:"metadata"`
	IndexAndFilters int64 `json:"index_and_filters"`
	Decode          int64 `json:"decode"`
	Execute         int64 `json:"execute"`
}

// VerifyJSON is EXPLAIN VERIFY's verdict: the query run with every pruning
// mechanism and with none.
type VerifyJSON struct {
	Identical bool `json:"identical"`
	// Rows and RowsWithoutPruning count the two results' rows.
	Rows               int `json:"rows"`
	RowsWithoutPruning int `json:"rows_without_pruning"`
	// Ordered says the rows were compared in order (the query has ORDER
	// BY); otherwise as multisets. FirstDifference is the first row that
	// differs in order, -1 when none.
	Ordered         bool `json:"ordered"`
	FirstDifference int  `json:"first_difference"`
	// OnlyWithPruning and OnlyWithoutPruning count the rows of one result
	// missing from the other, as multisets; the examples show a few.
	OnlyWithPruning     int      `json:"only_with_pruning"`
	OnlyWithoutPruning  int      `json:"only_without_pruning"`
	ExamplesWith        []string `json:"examples_with_pruning,omitempty"`
	ExamplesWithout     []string `json:"examples_without_pruning,omitempty"`
	BytesWithPruning    int64    `json:"bytes_read_with_pruning"`
	BytesWithoutPruning int64    `json:"bytes_read_without_pruning"`
}

// explain runs EXPLAIN [ANALYZE] [VERBOSE] [VERIFY] [(FORMAT JSON)]. Without
// ANALYZE or VERIFY it reads only footers, indexes and filters, never a
// data page.
func (s *Session) explain(ctx context.Context, st *planner.Explain) (*Result, error) {
	x := newExecutor(ctx, s.Settings, s.store)
	x.keepMeters = true
	defer x.close()
	var run *executor
	if st.Analyze {
		run = x
	}
	p, err := s.plan(ctx, st.Query, run)
	if err != nil {
		return nil, err
	}
	planText := p.Explain()
	rep := &ExplainJSON{Plan: planTree(planText)}
	if st.Analyze {
		start := time.Now()
		if _, err := x.result(ctx, p); err != nil {
			return nil, err
		}
		// Running may have pushed join filters into the plan.
		planText = p.Explain()
		rep.Plan = planTree(planText)
		rep.Analyze = x.analysis(time.Since(start))
	} else if err := x.planScans(p); err != nil {
		return nil, err
	}
	rep.addFiles(x.stats.Meters, st.Verbose)
	rep.Remote = remoteReport(x.stats.Meters, st.Analyze)
	rep.addHivePath(p)
	if st.Verify {
		if rep.Verify, err = s.verify(ctx, st.Query); err != nil {
			return nil, err
		}
	}
	if st.Format == "map" {
		var b strings.Builder
		if err := rep.writeMap(&b, x.stats.Meters, st.Analyze, s.Settings.MapWidth, s.Settings.MapColor); err != nil {
			return nil, err
		}
		return &Result{Explain: b.String()}, nil
	}
	if st.Format == "json" {
		// Predicates hold < and >: no HTML escaping, the JSON is read as is.
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return nil, err
		}
		return &Result{Explain: b.String()}, nil
	}
	var b strings.Builder
	limit := ""
	if !st.Analyze && p.Limit >= 0 {
		limit = fmt.Sprintf("LIMIT %d", p.Limit)
	}
	if err := rep.writeText(&b, planText, x.stats.Meters, pushdown.ExplainOptions{Verbose: st.Verbose, Limit: limit}); err != nil {
		return nil, err
	}
	return &Result{Explain: b.String()}, nil
}

// planScans opens and plans every file p scans, as running p would, and
// reads nothing more: files answered from the footer are opened only.
func (x *executor) planScans(p *planner.Plan) error {
	x.planOnly = true
	x.keepMeters = true
	s := p.Scan
	if ins := inputsOf(s); len(ins) > 0 {
		for _, in := range ins {
			if err := x.planScans(in); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.Files) == 0 {
		return nil
	}
	if _, ok, err := x.metaAggregate(p); err != nil || ok {
		return err
	}
	for _, path := range s.Files {
		if err := x.planFile(s, path); err != nil {
			return err
		}
	}
	return nil
}

// planFile opens and plans one file of scan s, as the scan's dispatcher
// does.
func (x *executor) planFile(s *planner.Scan, path string) error {
	f, m, closer, err := x.openCounted(path)
	if err != nil {
		return err
	}
	defer closer.Close()
	x.keepMeter(m)
	if s.CountOnly {
		return nil
	}
	fields, err := fieldMap(s, f)
	if err != nil {
		return err
	}
	m.expect(s.Pushdown, neededLeaves(fields), x.settings.options())
	fp, err := pushdown.Plan(f, s.Pushdown, neededLeaves(fields), x.settings.options())
	if err != nil {
		return err
	}
	m.planned(fp)
	return nil
}

// addFiles adds the files' plans and their totals.
func (rep *ExplainJSON) addFiles(meters []*fileMeter, verbose bool) {
	rep.Files = []pushdown.PlanJSON{}
	rep.FromMetadata = []string{}
	t := &rep.Totals
	t.Skipped = map[string]SkippedJSON{}
	for _, m := range meters {
		if m.plan == nil {
			rep.FromMetadata = append(rep.FromMetadata, m.path)
			continue
		}
		j := m.plan.ExplainJSON(pushdown.ExplainOptions{Verbose: verbose, File: m.f})
		rep.Files = append(rep.Files, j)
		t.Files++
		t.RowGroups += j.RowGroups
		t.RowGroupsKept += j.RowGroupsKept
		t.Pages += j.Pages
		t.PagesKept += j.PagesKept
		t.PagesUncounted += j.PagesUncounted
		t.ChunkBytes += j.ChunkBytes
		t.ReadBytes += j.ReadBytes
		t.ReadRanges += j.ReadRanges
		t.IndexBytes += j.IndexBytes
		t.FilterBytes += j.FilterBytes
		t.DictionaryBytes += j.DictionaryBytes
		t.GivenBytes += j.GivenBytes
		names := map[string]bool{}
		for _, mp := range []map[string]int{j.RowGroupsSkipped, j.PagesSkipped} {
			for k := range mp {
				names[k] = true
			}
		}
		for k := range j.SkippedBytes {
			names[k] = true
		}
		for k := range names {
			s := t.Skipped[k]
			s.RowGroups += j.RowGroupsSkipped[k]
			s.Pages += j.PagesSkipped[k]
			s.Bytes += j.SkippedBytes[k]
			t.Skipped[k] = s
		}
	}
	t.SkippedPercent = percentOf(t.ChunkBytes-t.ReadBytes-t.GivenBytes, t.ChunkBytes)
}

// hivePathName names partition pruning in skip reports.
const hivePathName = "hive path"

// addHivePath adds the files partition pruning skipped, in every scan of p.
func (rep *ExplainJSON) addHivePath(p *planner.Plan) {
	rep.HivePath = []HivePathJSON{}
	var walk func(p *planner.Plan)
	walk = func(p *planner.Plan) {
		s := p.Scan
		for _, in := range inputsOf(s) {
			walk(in)
		}
		for _, f := range s.PrunedFiles {
			rep.HivePath = append(rep.HivePath, HivePathJSON{File: f.Path, Bytes: f.Bytes, Reason: f.Reason})
			sk := rep.Totals.Skipped[hivePathName]
			sk.Files++
			sk.Bytes += f.Bytes
			rep.Totals.Skipped[hivePathName] = sk
		}
	}
	walk(p)
}

// percentOf is part/whole in percent, rounded to one decimal.
func percentOf(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return float64(int64(1000*float64(part)/float64(whole)+0.5)) / 10
}

// writeText renders the report as EXPLAIN prints it: the plan tree; for
// many files the totals first; then each file's plan, the files skipped
// by their hive path last, in one group.
func (rep *ExplainJSON) writeText(b *strings.Builder, plan string, meters []*fileMeter, o pushdown.ExplainOptions) error {
	bytes := pushdown.HumanBytes
	if o.Verbose {
		bytes = func(n int64) string { return fmt.Sprintf("%d bytes", n) }
	}
	b.WriteString(plan)
	if t := rep.Totals; t.Files > 1 || len(rep.HivePath) > 0 {
		b.WriteString("\n")
		share := fmt.Sprintf("%.1f%% skipped", t.SkippedPercent)
		if o.Limit != "" {
			share = o.Limit + " may stop the scan early"
		}
		fmt.Fprintf(b, "all %s: read %s of %s (%s); row groups %d -> %d, pages %d -> %d, %s\n",
			plural(t.Files+len(rep.HivePath)+len(rep.FromMetadata), "file"), bytes(t.ReadBytes), bytes(t.ChunkBytes), share,
			t.RowGroups, t.RowGroupsKept, t.Pages, t.PagesKept, plural(t.ReadRanges, "range"))
		for _, k := range skipOrder(t.Skipped) {
			s := t.Skipped[k]
			if s.Files == 0 && s.RowGroups == 0 && s.Pages == 0 && s.Bytes == 0 && !o.Verbose {
				continue
			}
			if k == hivePathName {
				fmt.Fprintf(b, "  skipped by %s: %s, %s on disk\n", k, plural(s.Files, "file"), bytes(s.Bytes))
				continue
			}
			fmt.Fprintf(b, "  skipped by %s: %s, %s, %s\n", k, plural(s.RowGroups, "row group"), plural(s.Pages, "page"), bytes(s.Bytes))
		}
		var fetched []string
		for _, f := range []struct {
			name string
			n    int64
		}{{"page index", t.IndexBytes}, {"bloom", t.FilterBytes}, {"dictionary", t.DictionaryBytes}} {
			if f.n > 0 || o.Verbose {
				fetched = append(fetched, f.name+" "+bytes(f.n))
			}
		}
		if len(fetched) > 0 {
			fmt.Fprintf(b, "  fetched to decide: %s\n", strings.Join(fetched, ", "))
		}
	}
	var footer []string
	// Without VERBOSE, files one mechanism ruled out whole are grouped by
	// it: their plans say nothing more.
	whole := map[string][]*fileMeter{}
	var wholeOrder []string
	for _, m := range meters {
		if m.plan == nil {
			footer = append(footer, m.path)
			continue
		}
		if mech, ok := skippedWhole(m.plan); ok && !o.Verbose && len(meters) > 1 {
			if whole[mech] == nil {
				wholeOrder = append(wholeOrder, mech)
			}
			whole[mech] = append(whole[mech], m)
			continue
		}
		b.WriteString("\n")
		fo := o
		fo.File = m.f
		if err := m.plan.Explain(b, fo); err != nil {
			return err
		}
	}
	for _, mech := range wholeOrder {
		fmt.Fprintf(b, "\nskipped whole by %s: %s\n", mech, plural(len(whole[mech]), "file"))
		for _, m := range whole[mech] {
			rg := m.plan.RowGroups[0]
			fmt.Fprintf(b, "  %s: %s, %s; row group %d: %s\n", m.path, plural(len(m.plan.RowGroups), "row group"),
				bytes(m.plan.ChunkBytes), rg.Index, rg.Reason)
		}
	}
	if len(footer) > 0 {
		fmt.Fprintf(b, "\nanswered from the footer, no data read: %s\n", plural(len(footer), "file"))
		for _, p := range footer {
			fmt.Fprintf(b, "  %s\n", p)
		}
	}
	if len(rep.HivePath) > 0 {
		fmt.Fprintf(b, "\nskipped by hive path: %s\n", plural(len(rep.HivePath), "file"))
		for _, h := range rep.HivePath {
			fmt.Fprintf(b, "  %s: %s (%s)\n", h.File, h.Reason, bytes(h.Bytes))
		}
	}
	writeRemote(b, rep.Remote)
	if a := rep.Analyze; a != nil {
		b.WriteString("\n")
		a.writeText(b)
	}
	if v := rep.Verify; v != nil {
		b.WriteString("\n")
		v.writeText(b)
	}
	return nil
}

// skippedWhole reports whether p skips every row group of its file by one
// mechanism, and names it.
func skippedWhole(p *pushdown.FilePlan) (string, bool) {
	if len(p.RowGroups) == 0 {
		return "", false
	}
	m := p.RowGroups[0].Mechanism
	for _, rg := range p.RowGroups {
		if rg.Verdict != pushdown.Skip || rg.Mechanism != m {
			return "", false
		}
	}
	return m.String(), true
}

// skipOrder lists the mechanisms of a skip report: the four switchable
// ones in the order the planner tries them, then any other that skipped.
func skipOrder(skipped map[string]SkippedJSON) []string {
	out := []string{pushdown.Statistics.String(), pushdown.BloomFilter.String(), pushdown.PageIndex.String(), pushdown.Dictionary.String()}
	var rest []string
	for k := range skipped {
		if !slices.Contains(out, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// analysis gathers what the run measured, with total its wall time.
func (x *executor) analysis(total time.Duration) *AnalyzeJSON {
	st := &x.stats
	a := &AnalyzeJSON{Files: st.Files, RowGroupsRead: st.RowGroups, RowGroupsSkipped: st.RowGroupsSkipped,
		RowGroupsFromMetadata: st.RowGroupsFromMetadata, RowGroupsSkippedByTopK: st.RowGroupsSkippedByTopK, PagesSkippedByTopK: st.PagesSkippedByTopK, OtherPagesLeftByTopK: st.OtherPagesLeftByTopK,
		RowsReadLateByTopK: st.RowsReadLateByTopK, RowGroupsReadLateByTopK: st.RowGroupsReadLateByTopK, RowsDecoded: st.RowsDecoded, RowsReturned: st.RowsReturned,
		BytesRead: st.IO.Bytes, Requests: st.IO.Requests}
	if x.mem != nil {
		a.PeakMemory = x.mem.peak.Load()
	}
	if x.spill != nil {
		a.SpillFiles, a.SpillBytes = x.spill.files, x.spill.bytes
	}
	acct := make([]IOJSON, numPurposes)
	for p := range acct {
		acct[p].Purpose = ioPurpose(p).String()
	}
	var plannedKept, started int64
	var meta, planTime, decode, work time.Duration
	for _, m := range st.Meters {
		for p := range m.counts {
			s := m.counts[p].Stats()
			acct[p].Read += s.Bytes
			acct[p].Requests += s.Requests
		}
		// Opening reads the leading magic, then the footer and its tail;
		// a glob's later file was opened by binding for its schema too.
		acct[ioFooter].Planned += int64(len("PAR1")) + m.f.FooterSize + m.bound
		meta += m.openTime
		acct[ioScanIndex].Planned += m.scanIndex.Load()
		acct[ioScanIndex].ColumnIndexesForTopK += m.scanColumnIndex.Load()
		acct[ioData].Reread += m.reread.Load()
		acct[ioData].NotReadAfterFilter += m.notRead[notReadFilter].Load()
		acct[ioData].NotReadAfterLimit += m.notRead[notReadLimit].Load()
		acct[ioData].AnsweredFromStatistics += m.notRead[notReadStats].Load()
		acct[ioData].SkippedByTopK += m.notRead[notReadTopK].Load()
		acct[ioData].OverlapReadOnce += m.overlap.Load()
		a.PagesDecoded += m.pagesDecoded.Load()
		decode += time.Duration(m.decodeNanos.Load())
		work += time.Duration(m.workNanos.Load())
		started += m.started.Load()
		if fp := m.plan; fp != nil {
			acct[ioIndex].Planned += fp.IndexBytes
			acct[ioBloom].Planned += fp.FilterBytes
			acct[ioDictionary].Planned += fp.DictionaryBytes
			acct[ioData].PlannedMerged += fp.ReadBytes
			planTime += m.planTime
			for _, rg := range fp.RowGroups {
				if rg.Verdict != pushdown.Skip {
					plannedKept += plannedBytes(rg)
				}
			}
		}
	}
	// Kept row groups the scan never reached: it stopped for a LIMIT.
	acct[ioData].Planned = plannedKept
	acct[ioData].NotReadAfterLimit += plannedKept - started
	a.MatchesPlan = true
	for p := range acct {
		c := &acct[p]
		c.Matches = c.Planned+c.Reread == c.Read+c.NotReadAfterFilter+c.NotReadAfterLimit+c.AnsweredFromStatistics+c.SkippedByTopK+c.OverlapReadOnce
		a.MatchesPlan = a.MatchesPlan && c.Matches
	}
	a.IO = acct
	a.Unmetered = a.BytesRead
	for _, c := range acct {
		a.Unmetered -= c.Read
	}
	// Time outside the scans is execution (final aggregation, sorting),
	// less the opening of files outside them (metadata answers, table
	// functions).
	outside := total
	for _, sp := range st.Scans {
		outside -= sp[1].Sub(sp[0])
	}
	for _, m := range st.Meters {
		if !inSpans(m.openedAt, st.Scans) {
			outside -= m.openTime
		}
	}
	execute := work - decode + st.ConsumeTime + max(outside, 0)
	a.Time = TimeJSON{Total: int64(total), Metadata: int64(meta), IndexAndFilters: int64(planTime),
		Decode: int64(decode), Execute: int64(max(execute, 0))}
	return a
}

func (a *AnalyzeJSON) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "analyze:\n")
	fmt.Fprintf(b, "  files: %d, row groups read: %d, skipped: %d\n", a.Files, a.RowGroupsRead, a.RowGroupsSkipped)
	if a.RowGroupsFromMetadata > 0 {
		fmt.Fprintf(b, "  row groups answered from statistics, unread: %d\n", a.RowGroupsFromMetadata)
	}
	if a.RowGroupsSkippedByTopK > 0 {
		fmt.Fprintf(b, "  row groups skipped by top-k (statistics cannot beat the rows held): %d\n", a.RowGroupsSkippedByTopK)
	}
	if a.PagesSkippedByTopK > 0 {
		fmt.Fprintf(b, "  pages of the sort key skipped by top-k (page index cannot beat the rows held): %d\n", a.PagesSkippedByTopK)
	}
	if a.OtherPagesLeftByTopK > 0 {
		fmt.Fprintf(b, "  pages of the other columns left unread by top-k (the sort key read first: no row in them can beat the rows held): %d\n", a.OtherPagesLeftByTopK)
	}
	if a.RowsReadLateByTopK > 0 {
		fmt.Fprintf(b, "  other columns read by top-k after the scan, for the result's rows only: %s in %s\n",
			plural(a.RowsReadLateByTopK, "row"), plural(int64(a.RowGroupsReadLateByTopK), "row group"))
	}
	fmt.Fprintf(b, "  pages decoded: %d, rows decoded: %d, rows returned: %d\n", a.PagesDecoded, a.RowsDecoded, a.RowsReturned)
	fmt.Fprintf(b, "  bytes read: %d in %s\n", a.BytesRead, plural(a.Requests, "request"))
	if a.Unmetered != 0 {
		fmt.Fprintf(b, "  read by table functions, outside any plan: %d bytes\n", a.Unmetered)
	}
	for _, c := range a.IO {
		switch c.Purpose {
		case ioData.String():
			fmt.Fprintf(b, "  data: planned %d, read %d in %s; not read after filtering %d, after LIMIT %d, answered from statistics %d",
				c.Planned, c.Read, plural(c.Requests, "request"), c.NotReadAfterFilter, c.NotReadAfterLimit, c.AnsweredFromStatistics)
			if c.SkippedByTopK > 0 {
				fmt.Fprintf(b, "; skipped by top-k %d", c.SkippedByTopK)
			}
			if c.OverlapReadOnce > 0 {
				fmt.Fprintf(b, "; overlapping ranges read once %d", c.OverlapReadOnce)
			}
			if c.PlannedMerged != c.Planned {
				fmt.Fprintf(b, "; the plan's merged ranges hold %d", c.PlannedMerged)
			}
			if c.Reread > 0 {
				fmt.Fprintf(b, "; re-read after an offset index misplaced rows %d", c.Reread)
			}
		case ioScanIndex.String():
			if c.ColumnIndexesForTopK > 0 {
				fmt.Fprintf(b, "  offset and column indexes the scan read to narrow chunks planned whole: declared %d (column indexes for top-k %d), read %d in %s",
					c.Planned, c.ColumnIndexesForTopK, c.Read, plural(c.Requests, "request"))
				break
			}
			fmt.Fprintf(b, "  offset indexes the scan read to narrow chunks planned whole: declared %d, read %d in %s",
				c.Planned, c.Read, plural(c.Requests, "request"))
		case ioOther.String():
			if c.Read == 0 {
				continue
			}
			fmt.Fprintf(b, "  other: read %d in %s, which no plan accounts for", c.Read, plural(c.Requests, "request"))
		default:
			fmt.Fprintf(b, "  %s: planned %d, read %d in %s", c.Purpose, c.Planned, c.Read, plural(c.Requests, "request"))
		}
		if !c.Matches {
			b.WriteString(" (MISMATCH)")
		}
		b.WriteString("\n")
	}
	yes := "yes"
	if !a.MatchesPlan {
		yes = "NO"
	}
	fmt.Fprintf(b, "  measured bytes equal the planned ones: %s\n", yes)
	t := a.Time
	fmt.Fprintf(b, "  time: total %s; metadata %s, index and filters %s, decode %s, execute %s (phases summed over threads)\n",
		dur(t.Total), dur(t.Metadata), dur(t.IndexAndFilters), dur(t.Decode), dur(t.Execute))
}

// dur renders nanoseconds rounded to the microsecond.
func dur(ns int64) string { return time.Duration(ns).Round(time.Microsecond).String() }

// plural renders a count with its noun: "1 request", "3 requests".
func plural[N int | int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// timeScan records a scan's start and end.
func (x *executor) timeScan(start time.Time) {
	x.stats.Scans = append(x.stats.Scans, [2]time.Time{start, time.Now()})
}

// inSpans reports whether t lies in one of spans.
func inSpans(t time.Time, spans [][2]time.Time) bool {
	for _, sp := range spans {
		if !t.Before(sp[0]) && t.Before(sp[1]) {
			return true
		}
	}
	return false
}

// timeConsume wraps consume to add the time it takes to ConsumeTime.
func (x *executor) timeConsume(consume consumeFunc) consumeFunc {
	return func(m scanMsg) (bool, error) {
		start := time.Now()
		stop, err := consume(m)
		x.stats.ConsumeTime += time.Since(start)
		return stop, err
	}
}

// verify runs q with the session's pruning mechanisms (as SET left them)
// and with none, and compares the results: in order when q has ORDER BY, as
// multisets otherwise.
func (s *Session) verify(ctx context.Context, q *planner.Select) (*VerifyJSON, error) {
	run := func(on bool) ([]resultRow, *executor, *planner.Plan, error) {
		set := s.Settings
		if !on {
			set.Statistics, set.PageIndex, set.Bloom, set.Dictionary = false, false, false, false
		}
		x := newExecutor(ctx, set, s.store)
		defer x.close()
		p, err := s.plan(ctx, q, x)
		if err != nil {
			return nil, nil, nil, err
		}
		res, err := x.result(ctx, p)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("verify, pruning %v: %w", on, err)
		}
		return resultRows(res), x, p, nil
	}
	with, xw, p, err := run(true)
	if err != nil {
		return nil, err
	}
	without, xo, _, err := run(false)
	if err != nil {
		return nil, err
	}
	v := compareRows(with, without, len(p.Order) > 0)
	v.BytesWithPruning, v.BytesWithoutPruning = xw.stats.IO.Bytes, xo.stats.IO.Bytes
	return v, nil
}

// compareRows compares the rows of a run with pruning and one without:
// in order when ordered, and always as multisets, for the counts.
func compareRows(with, without []resultRow, ordered bool) *VerifyJSON {
	v := &VerifyJSON{Rows: len(with), RowsWithoutPruning: len(without), Ordered: ordered, FirstDifference: -1}
	for i := range max(len(with), len(without)) {
		if i >= len(with) || i >= len(without) || with[i].key != without[i].key {
			v.FirstDifference = i
			break
		}
	}
	count := map[string]int{}
	for _, r := range without {
		count[r.key]++
	}
	for _, r := range with {
		if count[r.key] > 0 {
			count[r.key]--
			continue
		}
		v.OnlyWithPruning++
		if len(v.ExamplesWith) < 3 {
			v.ExamplesWith = append(v.ExamplesWith, r.text)
		}
	}
	// What is left in count are the rows of without that with lacks.
	for _, r := range without {
		if count[r.key] > 0 {
			count[r.key]--
			v.OnlyWithoutPruning++
			if len(v.ExamplesWithout) < 3 {
				v.ExamplesWithout = append(v.ExamplesWithout, r.text)
			}
		}
	}
	v.Identical = v.OnlyWithPruning == 0 && v.OnlyWithoutPruning == 0 && (!ordered || v.FirstDifference < 0)
	return v
}

func (v *VerifyJSON) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "verify: with pruning (statistics, bloom, page index, dictionary): %s, %d bytes read\n", plural(v.Rows, "row"), v.BytesWithPruning)
	fmt.Fprintf(b, "verify: without pruning: %s, %d bytes read\n", plural(v.RowsWithoutPruning, "row"), v.BytesWithoutPruning)
	how := "compared as multisets: the query has no ORDER BY"
	if v.Ordered {
		how = "compared in order"
	}
	if v.Identical {
		fmt.Fprintf(b, "identical: yes (%s, %s)\n", plural(v.Rows, "row"), how)
		return
	}
	fmt.Fprintf(b, "identical: no (%s", how)
	if v.Ordered && v.FirstDifference >= 0 {
		fmt.Fprintf(b, "; first difference at row %d", v.FirstDifference)
	}
	fmt.Fprintf(b, "; %s only with pruning, %d only without)\n", plural(v.OnlyWithPruning, "row"), v.OnlyWithoutPruning)
	for _, r := range v.ExamplesWith {
		fmt.Fprintf(b, "  only with pruning: %s\n", r)
	}
	for _, r := range v.ExamplesWithout {
		fmt.Fprintf(b, "  only without pruning: %s\n", r)
	}
}

// A resultRow is one row of a result: key compares rows exactly (each
// cell's text, length-prefixed, or NULL), text shows it.
type resultRow struct{ key, text string }

func resultRows(res *Result) []resultRow {
	var out []resultRow
	var key []byte
	cells := make([]string, len(res.Columns))
	for _, bt := range res.Batches {
		for i := range bt.Len {
			key = key[:0]
			for c, v := range bt.Vectors {
				if v.IsNull(i) {
					key = append(key, 'N')
					cells[c] = "NULL"
					continue
				}
				text := AppendText(nil, v, i)
				key = fmt.Appendf(key, "%d:", len(text))
				key = append(key, text...)
				cells[c] = string(text)
			}
			out = append(out, resultRow{key: string(key), text: strings.Join(cells, " | ")})
		}
	}
	return out
}
