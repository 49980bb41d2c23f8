package pushdown

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// ExplainOptions say how much of a plan EXPLAIN shows.
type ExplainOptions struct {
	// Verbose adds, per kept row group, every column read and one line per
	// page of the predicate's columns, and the byte ranges to read.
	Verbose bool
	// File, when set, is the file the plan was made for: its footer's
	// encoding stats count the pages of skipped row groups, which Plan
	// never looks at. Without it pages are counted in kept row groups only.
	File *format.File
	// Limit, when not empty, is the query's LIMIT clause ("LIMIT 3"): the
	// scan may stop before reading all the plan keeps, so the text says so
	// instead of a share skipped.
	Limit string
}

// String renders the plan as EXPLAIN prints it.
func (p *FilePlan) String() string {
	var b strings.Builder
	p.Format(&b, false)
	return b.String()
}

// Format writes the plan for EXPLAIN without the file at hand (pages are
// counted in kept row groups only); verbose is ExplainOptions.Verbose.
func (p *FilePlan) Format(w io.Writer, verbose bool) error {
	return p.Explain(w, ExplainOptions{Verbose: verbose})
}

// Explain writes the plan for EXPLAIN: row groups, pages and bytes, total
// and kept; what each mechanism skipped and fetched to decide; one line per
// row group with its verdict and reason (per page with Verbose); notes and
// the statistics-trust report.
func (p *FilePlan) Explain(w io.Writer, o ExplainOptions) error {
	ew := &errWriter{w: w}
	bytes := HumanBytes
	if o.Verbose {
		bytes = exactBytes
	}
	ew.printf("file %s: WHERE %s\n", p.File, p.Predicate)
	ew.printf("  mechanisms: %s\n", p.Options)
	sum := p.Summarize(o.File)
	ew.printf("  row groups: %d total -> %d kept\n", sum.RowGroups, sum.RowGroupsKept)
	what := "pages of the columns read"
	if !sum.PagesInSkipped {
		what += ", in kept row groups"
	}
	ew.printf("  %s: %d total -> %d kept", what, sum.Pages, sum.PagesKept)
	if sum.Uncounted > 0 {
		ew.printf(", and %s whose pages the footer does not count", plural(sum.Uncounted, "column chunk"))
	}
	ew.printf("\n")
	if o.Limit != "" {
		ew.printf("  bytes of column chunks: %s total -> at most %s to read in %s; %s may stop the scan early\n",
			bytes(p.ChunkBytes), bytes(p.ReadBytes), plural(len(p.ReadRanges), "range"), o.Limit)
	} else {
		ew.printf("  bytes of column chunks: %s total -> %s to read in %s, %s skipped\n", bytes(p.ChunkBytes), bytes(p.ReadBytes),
			plural(len(p.ReadRanges), "range"), percent(p.ChunkBytes-p.ReadBytes-p.GivenBytes, p.ChunkBytes))
	}
	for _, m := range sum.Mechanisms() {
		if !p.Options.Enables(m) {
			if o.Verbose {
				ew.printf("  %s: disabled\n", skippedBy(m))
			}
			continue
		}
		if !o.Verbose && sum.RowGroupsSkipped[m] == 0 && sum.PagesSkipped[m] == 0 && p.Skipped[m] == 0 {
			continue // a mechanism that skipped nothing says nothing
		}
		pages := plural(sum.PagesSkipped[m], "page") + ", "
		switch {
		case sum.PagesInSkipped:
		case m == PageIndex:
			pages = plural(sum.PagesSkipped[m], "page") + " of kept row groups, "
		default:
			pages = "" // uncounted without the file
		}
		ew.printf("  %s: %s, %s%s\n", skippedBy(m), plural(sum.RowGroupsSkipped[m], "row group"), pages, bytes(p.Skipped[m]))
	}
	if fetched := fetchedLine(p, bytes, o.Verbose); fetched != "" {
		ew.printf("  fetched to decide: %s\n", fetched)
	}
	for _, n := range notPushedDown(p.Predicate, o.File, p.Notes) {
		ew.printf("  not pushed down: %s\n", n)
	}
	kept := newKeptReasons(p, o.File)
	for _, rg := range p.RowGroups {
		why := ""
		if rg.Verdict != Skip {
			if w := kept.why(rg); w != "" {
				why = "; " + w
			}
		}
		switch rg.Verdict {
		case Skip:
			ew.printf("  row group %d (%d rows): skip, %s\n", rg.Index, rg.NumRows, rg.Reason)
		case Scan:
			ew.printf("  row group %d (%d rows): scan, %s%s\n", rg.Index, rg.NumRows, rg.Reason, why)
		default:
			ew.printf("  row group %d (%d rows): select rows %s, %s%s\n", rg.Index, rg.NumRows, rg.Rows, rg.Reason, why)
		}
		if !o.Verbose {
			continue
		}
		for _, c := range rg.Columns {
			ew.printf("    read %s\n", c)
		}
		for _, pg := range pageTable(p.PageDetails(rg)) {
			ew.printf("    %s\n", pg)
		}
	}
	if o.Verbose {
		ew.printf("  ranges to read:\n")
		for _, r := range p.ReadRanges {
			ew.printf("    [%d, %d)\n", r.Offset, r.End())
		}
	}
	for _, n := range p.Notes {
		ew.printf("  note: %s\n", n)
	}
	for _, n := range p.TrustNotes {
		ew.printf("  statistics: %s\n", n)
	}
	return ew.err
}

// fetchedLine lists the bytes fetched to decide, leaving out the kinds
// fetched none of unless verbose; "" when nothing was fetched.
func fetchedLine(p *FilePlan, bytes func(int64) string, verbose bool) string {
	var parts []string
	for _, f := range []struct {
		name string
		n    int64
	}{{"page index", p.IndexBytes}, {"bloom", p.FilterBytes}, {"dictionary", p.DictionaryBytes}} {
		if f.n > 0 || verbose {
			parts = append(parts, f.name+" "+bytes(f.n))
		}
	}
	return strings.Join(parts, ", ")
}

// HumanBytes renders a byte count in binary units with one decimal, as
// DuckDB prints sizes: "512 bytes", "13.5 KiB", "8.6 MiB".
func HumanBytes(n int64) string {
	if n < 1024 && n > -1024 {
		if n == 1 {
			return "1 byte"
		}
		return fmt.Sprintf("%d bytes", n)
	}
	f := float64(n)
	for _, unit := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= 1024
		if f < 1024 && f > -1024 || unit == "TiB" {
			return fmt.Sprintf("%.1f %s", f, unit)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// exactBytes renders a byte count exactly, for EXPLAIN VERBOSE.
func exactBytes(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// pageTable renders EXPLAIN VERBOSE's pages of one row group. Pages the
// page index judged get a table per column: each page once, with its rows,
// bounds and verdict, the verdict's reasons once, as numbered notes under
// the table. Runs of other pages that share their verdict take one line:
// "pages 2-15 of customer_id: skip, holds none of the kept rows".
func pageTable(lines []PageLine) []string {
	var out []string
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j].Path == lines[i].Path {
			j++
		}
		col := lines[i:j]
		judged := false
		for _, l := range col {
			judged = judged || l.Judged
		}
		if judged {
			out = append(out, judgedPages(col)...)
		} else {
			out = append(out, pageRuns(col)...)
		}
		i = j
	}
	return out
}

// judgedPages is the table of one column's pages the page index judged.
func judgedPages(col []PageLine) []string {
	rows := [][]string{{"page", "rows", "min", "max", "bytes", "verdict"}}
	var notes []string
	number := map[string]int{}
	for _, l := range col {
		verdict, why, _ := strings.Cut(l.Verdict, ", ")
		if w, rest, ok := strings.Cut(l.Verdict, "; "); ok && !strings.Contains(w, ", ") {
			verdict, why = w, rest
		} else if ok {
			why = strings.TrimPrefix(l.Verdict, verdict+", ")
		}
		if why != "" {
			n, ok := number[why]
			if !ok {
				notes = append(notes, why)
				n = len(notes)
				number[why] = n
			}
			verdict = fmt.Sprintf("%s (%d)", verdict, n)
		}
		r, mn, mx, by := "", l.Min, l.Max, ""
		if l.HasRows {
			r = fmt.Sprintf("[%d, %d)", l.Rows.First, l.Rows.End)
		}
		if mn == "" {
			mn, mx = "-", "-"
		}
		if l.Bytes > 0 {
			by = fmt.Sprint(l.Bytes)
		}
		rows = append(rows, []string{fmt.Sprint(l.Page), r, mn, mx, by, verdict})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for c, v := range r {
			widths[c] = max(widths[c], len([]rune(v)))
		}
	}
	out := []string{"pages of " + col[0].Path + ":"}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString("  ")
		for c, v := range r {
			if c > 0 {
				b.WriteString("  ")
			}
			b.WriteString(v)
			if c < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[c]-len([]rune(v))))
			}
		}
		out = append(out, b.String())
	}
	for n, note := range notes {
		out = append(out, fmt.Sprintf("  (%d) %s", n+1, note))
	}
	for _, l := range col {
		if l.Judged && !l.HasRows {
			out = append(out, "  no rows or bytes: the column index rules out no page, so the offset index is not read")
			break
		}
	}
	return out
}

// pageRuns prints runs of consecutive pages that share their verdict once.
func pageRuns(col []PageLine) []string {
	var out []string
	for i := 0; i < len(col); {
		first := col[i]
		if first.Page < 0 {
			out = append(out, fmt.Sprintf("pages of %s: %s", first.Path, first.Verdict))
			i++
			continue
		}
		j := i + 1
		for j < len(col) && col[j].Page == col[j-1].Page+1 && col[j].Verdict == first.Verdict {
			j++
		}
		if j-i == 1 {
			out = append(out, fmt.Sprintf("page %d of %s: %s", first.Page, first.Path, first.Verdict))
		} else {
			out = append(out, fmt.Sprintf("pages %d-%d of %s: %s", first.Page, col[j-1].Page, first.Path, first.Verdict))
		}
		i = j
	}
	return out
}

// skippedBy labels a mechanism's line of the skip report.
func skippedBy(m Mechanism) string {
	if m == NoMechanism {
		return "skipped as empty"
	}
	return "skipped by " + m.String()
}

// Enables reports whether the options let m decide; the predicate's own
// constants and empty row groups need no mechanism.
func (o Options) Enables(m Mechanism) bool {
	switch m {
	case Statistics, BoundingBox:
		return o.Statistics
	case BloomFilter:
		return o.Bloom
	case PageIndex:
		return o.PageIndex
	case Dictionary:
		return o.Dictionary
	}
	return true
}

// A Summary counts what a plan keeps and skips.
type Summary struct {
	RowGroups, RowGroupsKept int
	// RowGroupsSkipped counts skipped row groups by the mechanism that proved it.
	RowGroupsSkipped map[Mechanism]int
	// Pages counts the data pages of the columns read, PagesKept those to
	// read; a column read whole keeps all its pages. They include the pages
	// of skipped row groups when PagesInSkipped.
	Pages, PagesKept int
	PagesInSkipped   bool
	// PagesSkipped counts skipped pages by mechanism: all pages of the row
	// groups it skipped and, for the page index, the pages it left out of
	// kept row groups.
	PagesSkipped map[Mechanism]int
	// Uncounted counts column chunks whose pages the footer does not count
	// (no encoding stats), read whole or in skipped row groups.
	Uncounted int
}

// Summary counts the plan's row groups, and its pages in kept row groups.
func (p *FilePlan) Summary() Summary { return p.Summarize(nil) }

// Summarize counts the plan's row groups and pages; with f, the file the
// plan was made for, it counts the pages of skipped row groups too, from
// the footer's encoding stats.
func (p *FilePlan) Summarize(f *format.File) Summary {
	s := Summary{RowGroups: len(p.RowGroups), RowGroupsSkipped: map[Mechanism]int{},
		PagesSkipped: map[Mechanism]int{}, PagesInSkipped: f != nil}
	for _, rg := range p.RowGroups {
		if rg.Verdict == Skip {
			s.RowGroupsSkipped[rg.Mechanism]++
			if f != nil && rg.NumRows > 0 {
				n, uncounted := skippedPages(f, rg.Index, p.Columns)
				s.Pages += n
				s.PagesSkipped[rg.Mechanism] += n
				s.Uncounted += uncounted
			}
			continue
		}
		s.RowGroupsKept++
		for _, c := range rg.Columns {
			if c.NumPages == 0 {
				s.Uncounted++
			}
			s.Pages += c.NumPages
			if c.Whole {
				s.PagesKept += c.NumPages
				continue
			}
			s.PagesKept += len(c.PageIndexes)
			s.PagesSkipped[pageMechanism(rg)] += c.NumPages - len(c.PageIndexes)
		}
	}
	return s
}

// pageMechanism is what skipped pages of a kept row group: the page
// index, or the spatial mechanism when only a GeoParquet covering's page
// index narrowed the rows.
func pageMechanism(rg RowGroupPlan) Mechanism {
	switch rg.Mechanism {
	case BoundingBox:
		return BoundingBox
	case JoinFilter:
		// The page index left the pages out, for the join filter's
		// conditions where it narrowed the row group (CreditJoinFilter).
		return JoinFilter
	}
	return PageIndex
}

// skippedPages counts the data pages of the leaves cols in row group rg of
// f by the footer's encoding stats, and the chunks it cannot count.
func skippedPages(f *format.File, rg int, cols []int) (pages, uncounted int) {
	if rg < 0 || rg >= len(f.Meta.RowGroups) {
		return 0, len(cols)
	}
	chunks := f.Meta.RowGroups[rg].Columns
	for _, c := range cols {
		if c < 0 || c >= len(chunks) || chunks[c].MetaData == nil {
			uncounted++
			continue
		}
		n := dataPagesOf(chunks[c].MetaData)
		if n == 0 {
			uncounted++
		}
		pages += n
	}
	return pages, uncounted
}

// Mechanisms lists the mechanisms a skip report shows, in the order Plan
// tries them: every switchable one, and the predicate's constants and
// empty row groups when they skipped something.
func (s Summary) Mechanisms() []Mechanism {
	var out []Mechanism
	for m := NoMechanism; m < numMechanisms; m++ {
		switch m {
		case Statistics, BloomFilter, PageIndex, Dictionary:
			out = append(out, m)
		default:
			if s.RowGroupsSkipped[m] > 0 || s.PagesSkipped[m] > 0 {
				out = append(out, m)
			}
		}
	}
	return out
}

// A PageLine is one page's verdict for EXPLAIN VERBOSE: the page of a
// column, its rows when the page index located them, and the verdict with
// its reasons ("skip; order_id > 19990: skip, outside ...").
type PageLine struct {
	Path string
	Page int
	// Judged says the page index judged the page; HasRows that its
	// offset index placed it (it is not read when no page is ruled out).
	Judged  bool
	HasRows bool
	Rows    RowRange
	Keep    bool
	Verdict string
	// Min and Max are the page's bounds by the column index ("" unknown);
	// Bytes its compressed size (0 unknown).
	Min, Max string
	Bytes    int64
	// Mechanism decided a skipped page: the page index when one of its
	// conditions ruled the page out, else none (it holds no kept row).
	Mechanism Mechanism
}

// String renders the line: "page 1 of order_id, rows [250, 500): keep; ...".
func (l PageLine) String() string {
	s := fmt.Sprintf("page %d of %s", l.Page, l.Path)
	if l.HasRows {
		s += fmt.Sprintf(", rows [%d, %d)", l.Rows.First, l.Rows.End)
	}
	return s + ": " + l.Verdict
}

// PageLines describes row group rg's pages for EXPLAIN VERBOSE, one string
// per page (see PageDetails).
func (p *FilePlan) PageLines(rg RowGroupPlan) []string {
	var out []string
	for _, l := range p.PageDetails(rg) {
		out = append(out, l.String())
	}
	return out
}

// PageDetails describes row group rg's pages. For a kept row group: each
// page of each of the predicate's columns, whether it is read and why, with
// the page index's decision on it for each condition that judged it. For a
// skipped row group: the pages the page index judged before the row group
// was ruled out.
func (p *FilePlan) PageDetails(rg RowGroupPlan) []PageLine {
	type key struct{ leaf, page int }
	decided := map[key][]PageDecision{}
	var order []key
	for _, d := range rg.PageDecisions() {
		k := key{d.Leaf, d.Page}
		if decided[k] == nil {
			order = append(order, k)
		}
		decided[k] = append(decided[k], d)
	}
	var out []PageLine
	if rg.Verdict == Skip {
		sort.SliceStable(order, func(i, j int) bool {
			if order[i].leaf != order[j].leaf {
				return order[i].leaf < order[j].leaf
			}
			return order[i].page < order[j].page
		})
		for _, k := range order {
			ds := decided[k]
			out = append(out, pageLine(ds[0].Path, k.page, ds, false, ""))
		}
		return out
	}
	leaves, paths := predicateColumns(p.Predicate)
	for _, c := range rg.Columns {
		if !leaves[c.Leaf] && !paths[c.Path] {
			continue
		}
		n := c.NumPages
		for _, k := range order {
			if k.leaf == c.Leaf && k.page >= n {
				n = k.page + 1
			}
		}
		if n == 0 {
			out = append(out, PageLine{Path: c.Path, Page: -1, Keep: true,
				Verdict: "keep, " + wholeWhy(rg, c) + " (the footer does not count its pages)"})
			continue
		}
		keep := make([]bool, n)
		if c.Whole {
			for i := range keep {
				keep[i] = true
			}
		}
		for _, i := range c.PageIndexes {
			if i >= 0 && i < n {
				keep[i] = true
			}
		}
		for i := range n {
			ds := decided[key{c.Leaf, i}]
			var why string
			switch {
			case c.Whole:
				why = wholeWhy(rg, c)
			case len(ds) == 0 && keep[i]:
				why = "holds kept rows"
			case len(ds) == 0:
				why = "holds none of the kept rows"
			case keep[i] && !allKeep(ds):
				why = "holds rows the rest of the predicate keeps"
			case !keep[i] && allKeep(ds):
				why = "holds none of the rows the rest of the predicate keeps"
			}
			out = append(out, pageLine(c.Path, i, ds, keep[i], why))
		}
	}
	return out
}

// pageLine builds one page's verdict: keep or skip, why, and each
// condition's decision: "keep; order_id = 431: keep, its bounds cannot rule
// it out".
func pageLine(path string, page int, ds []PageDecision, keep bool, why string) PageLine {
	l := PageLine{Path: path, Page: page, Keep: keep}
	if len(ds) > 0 {
		l.Judged = true
		for _, d := range ds {
			if d.Located {
				l.HasRows, l.Rows, l.Bytes = true, d.Rows, d.Bytes
				break
			}
		}
		l.Min, l.Max = ds[0].Bounds()
		if !keep && !allKeep(ds) {
			l.Mechanism = PageIndex
		}
	}
	var b strings.Builder
	b.WriteString(verdictWord(keep))
	if why != "" {
		b.WriteString(", " + why)
	}
	for _, d := range ds {
		fmt.Fprintf(&b, "; %s: %s, %s", d.Cond, verdictWord(d.Keep), d.Reason)
	}
	l.Verdict = b.String()
	return l
}

func verdictWord(keep bool) string {
	if keep {
		return "keep"
	}
	return "skip"
}

func allKeep(ds []PageDecision) bool {
	for _, d := range ds {
		if !d.Keep {
			return false
		}
	}
	return true
}

// wholeWhy says why a chunk read whole keeps every page.
func wholeWhy(rg RowGroupPlan, c ColumnRead) string {
	switch {
	case rg.Verdict == Scan:
		return "every row of the row group is kept"
	case c.Note != "":
		return "the chunk is read whole: " + c.Note
	}
	return "the chunk is read whole"
}

// predicateColumns lists the leaves of a resolved predicate's conditions
// and the paths its residuals read.
func predicateColumns(e Expr) (leaves map[int]bool, paths map[string]bool) {
	leaves, paths = map[int]bool{}, map[string]bool{}
	var walk func(Expr)
	walk = func(e Expr) {
		switch n := e.(type) {
		case *And:
			for _, x := range n.Xs {
				walk(x)
			}
		case *Or:
			for _, x := range n.Xs {
				walk(x)
			}
		case *Not:
			walk(n.X)
		case *Cond:
			if n.Col.Leaf != nil {
				leaves[n.Col.Leaf.Index] = true
			}
			paths[n.Col.Path] = true
		case *Spatial:
			if n.Col.Leaf != nil {
				leaves[n.Col.Leaf.Index] = true
			}
			paths[n.Col.Path] = true
		case *Residual:
			for _, c := range n.Columns {
				paths[c] = true
			}
		}
	}
	if e != nil {
		walk(e)
	}
	return leaves, paths
}

// plural renders a count with its noun: "1 page", "3 pages".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// percent renders part/whole as a percentage with one decimal.
func percent(part, whole int64) string {
	return fmt.Sprintf("%.1f%%", percentOf(part, whole))
}

// percentOf is part/whole in percent, rounded to one decimal; 0 when whole
// is not positive.
func percentOf(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return float64(int64(1000*float64(part)/float64(whole)+0.5)) / 10
}

// String lists the enabled mechanisms.
func (o Options) String() string {
	var on []string
	for _, m := range []struct {
		on   bool
		name string
	}{{o.Statistics, "statistics"}, {o.Bloom, "bloom"}, {o.PageIndex, "page index"}, {o.Dictionary, "dictionary"}} {
		if m.on {
			on = append(on, m.name)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ", ")
}

// String describes one column read: "order_id: pages 1 of 16 (2061 bytes)".
func (c ColumnRead) String() string {
	if c.Whole {
		s := fmt.Sprintf("%s: whole chunk (%d bytes)", c.Path, c.Bytes)
		if c.Note != "" {
			s += ", " + c.Note
		}
		return s
	}
	keep := make([]bool, c.NumPages)
	for _, i := range c.PageIndexes {
		if i >= 0 && i < len(keep) {
			keep[i] = true
		}
	}
	s := fmt.Sprintf("%s: %s of %d", c.Path, pageList(keep), c.NumPages)
	if c.Dict.Length > 0 {
		s += " and the dictionary"
	}
	return s + fmt.Sprintf(" (%d bytes)", c.Bytes)
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
