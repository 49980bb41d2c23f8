package pushdown

import "encoding/json"

// PlanJSON is the JSON form of a FilePlan, as EXPLAIN (FORMAT JSON) prints
// it. Byte counts are bytes of the file; row ranges are [first, end) row
// numbers within a row group; mechanisms are named as in the text form
// ("statistics", "bloom", "page index", "dictionary", "predicate", "none").
type PlanJSON struct {
	File       string `json:"file"`
	Predicate  string `json:"predicate"`
	Mechanisms string `json:"mechanisms"`
	// RowGroups and RowGroupsKept count row groups; RowGroupsSkipped counts
	// skipped ones by mechanism name.
	RowGroups        int            `json:"row_groups"`
	RowGroupsKept    int            `json:"row_groups_kept"`
	RowGroupsSkipped map[string]int `json:"row_groups_skipped"`
	// Pages and PagesKept count data pages of the columns read, in every row
	// group when PagesInSkipped and in kept row groups otherwise;
	// PagesSkipped counts skipped pages by mechanism name; PagesUncounted
	// counts column chunks whose pages the footer does not count.
	Pages          int            `json:"pages"`
	PagesKept      int            `json:"pages_kept"`
	PagesInSkipped bool           `json:"pages_include_skipped_row_groups"`
	PagesSkipped   map[string]int `json:"pages_skipped"`
	PagesUncounted int            `json:"pages_uncounted"`
	// ChunkBytes is the size of the read columns' chunks; ReadBytes what is
	// left to read, in ReadRanges ranges; SkippedBytes by mechanism name;
	// SkippedPercent is the share of ChunkBytes not read, rounded to 0.1.
	ChunkBytes     int64            `json:"chunk_bytes"`
	ReadBytes      int64            `json:"read_bytes"`
	ReadRanges     int              `json:"read_ranges"`
	SkippedBytes   map[string]int64 `json:"skipped_bytes"`
	SkippedPercent float64          `json:"skipped_percent"`
	// Bytes fetched to decide: column and offset indexes, Bloom filter
	// headers and blocks, dictionary pages.
	IndexBytes      int64 `json:"index_bytes"`
	FilterBytes     int64 `json:"filter_bytes"`
	DictionaryBytes int64 `json:"dictionary_bytes"`
	// GivenBytes are dictionary pages of the chunks the dictionary check
	// read and the scan does not read again.
	GivenBytes int64 `json:"dictionary_given_bytes"`
	// Groups holds one entry per row group.
	Groups     []GroupJSON `json:"groups"`
	TrustNotes []string    `json:"statistics_notes"`
	Notes      []string    `json:"notes"`
}

// GroupJSON is one row group's decision.
type GroupJSON struct {
	Index     int        `json:"index"`
	Rows      int64      `json:"rows"`
	Verdict   string     `json:"verdict"` // "scan", "select" or "skip"
	Mechanism string     `json:"mechanism"`
	Reason    string     `json:"reason"`
	Keep      [][2]int64 `json:"keep_rows,omitempty"`
	// Why says, for a kept row group, what the statistics and Bloom filters
	// allow: "statistics: order_id in [4001, 8000] may hold 4400".
	Why string `json:"why,omitempty"`
	// Columns say what is read of each column: "order_id: pages 1 of 16 (2061 bytes)".
	Columns []string `json:"columns,omitempty"`
	// Pages are the pages of the predicate's columns, with EXPLAIN VERBOSE
	// only: each page once, with its verdict.
	Pages []PageJSON `json:"pages,omitempty"`
}

// PageJSON is one page's verdict. Verdict is "keep" or "skip"; Mechanism
// is what skipped it ("page index", or "none" when it holds none of the
// rows the rest of the predicate keeps; for a kept page "none"); Min and
// Max are its bounds by the column index as SQL literals (null when
// unknown); Bytes its compressed size (0 when unknown); Reason the words
// of the text form.
type PageJSON struct {
	Column    string  `json:"column"`
	Page      int     `json:"page"`
	FirstRow  *int64  `json:"first_row"`
	Rows      *int64  `json:"rows"`
	Verdict   string  `json:"verdict"`
	Mechanism string  `json:"mechanism"`
	Min       *string `json:"min"`
	Max       *string `json:"max"`
	Bytes     int64   `json:"bytes"`
	Reason    string  `json:"reason"`
}

// JSON renders the plan as PlanJSON, without the file at hand and without
// per-page lines.
func (p *FilePlan) JSON() PlanJSON { return p.ExplainJSON(ExplainOptions{}) }

// ExplainJSON renders the plan as PlanJSON, with what o asks for: the
// pages of skipped row groups counted when o.File is set, per-page lines
// with o.Verbose.
func (p *FilePlan) ExplainJSON(o ExplainOptions) PlanJSON {
	sum := p.Summarize(o.File)
	j := PlanJSON{File: p.File, Predicate: p.Predicate.String(), Mechanisms: p.Options.String(),
		RowGroups: sum.RowGroups, RowGroupsKept: sum.RowGroupsKept, RowGroupsSkipped: map[string]int{},
		Pages: sum.Pages, PagesKept: sum.PagesKept, PagesInSkipped: sum.PagesInSkipped, PagesSkipped: map[string]int{},
		PagesUncounted: sum.Uncounted, ChunkBytes: p.ChunkBytes, ReadBytes: p.ReadBytes,
		ReadRanges: len(p.ReadRanges), SkippedBytes: map[string]int64{},
		GivenBytes: p.GivenBytes, SkippedPercent: percentOf(p.ChunkBytes-p.ReadBytes-p.GivenBytes, p.ChunkBytes), IndexBytes: p.IndexBytes,
		FilterBytes: p.FilterBytes, DictionaryBytes: p.DictionaryBytes,
		TrustNotes: append([]string{}, p.TrustNotes...), Notes: append([]string{}, p.Notes...)}
	for m, n := range sum.RowGroupsSkipped {
		j.RowGroupsSkipped[m.String()] = n
	}
	for m, n := range sum.PagesSkipped {
		j.PagesSkipped[m.String()] = n
	}
	for m, n := range p.Skipped {
		j.SkippedBytes[m.String()] = n
	}
	kept := newKeptReasons(p, o.File)
	for _, rg := range p.RowGroups {
		g := GroupJSON{Index: rg.Index, Rows: rg.NumRows, Verdict: rg.Verdict.String(), Mechanism: rg.Mechanism.String(), Reason: rg.Reason}
		if rg.Verdict != Skip {
			g.Why = kept.why(rg)
		}
		for _, r := range rg.Rows {
			g.Keep = append(g.Keep, [2]int64{r.First, r.End})
		}
		for _, c := range rg.Columns {
			g.Columns = append(g.Columns, c.String())
		}
		if o.Verbose {
			for _, l := range p.PageDetails(rg) {
				g.Pages = append(g.Pages, l.JSON(rg))
			}
		}
		j.Groups = append(j.Groups, g)
	}
	return j
}

// MarshalJSON encodes the plan as PlanJSON.
func (p *FilePlan) MarshalJSON() ([]byte, error) { return json.Marshal(p.JSON()) }

// JSON is the page's object; rg is its row group, whose mechanism skipped
// the pages of a skipped row group.
func (l PageLine) JSON(rg RowGroupPlan) PageJSON {
	j := PageJSON{Column: l.Path, Page: l.Page, Verdict: verdictWord(l.Keep), Mechanism: l.Mechanism.String(),
		Bytes: l.Bytes, Reason: l.Verdict}
	if rg.Verdict == Skip {
		j.Mechanism = rg.Mechanism.String()
	}
	if l.HasRows {
		first, n := l.Rows.First, l.Rows.End-l.Rows.First
		j.FirstRow, j.Rows = &first, &n
	}
	if l.Min != "" {
		mn, mx := l.Min, l.Max
		j.Min, j.Max = &mn, &mx
	}
	return j
}
