package pushdown

import (
	"fmt"
	"io"
	"strings"
)

// String renders the plan as EXPLAIN prints it.
func (p *FilePlan) String() string {
	var b strings.Builder
	p.Format(&b, false)
	return b.String()
}

// Format writes the plan for EXPLAIN: per row group the verdict and why,
// then the bytes skipped, fetched to decide and left to read. verbose adds
// every column read and the page index's per-page decisions.
func (p *FilePlan) Format(w io.Writer, verbose bool) error {
	ew := &errWriter{w: w}
	ew.printf("file %s: WHERE %s\n", p.File, p.Predicate)
	ew.printf("  mechanisms: %s\n", p.Options)
	sum := p.Summary()
	ew.printf("  row groups: %d total, %d kept", sum.RowGroups, sum.RowGroupsKept)
	if len(sum.RowGroupsSkipped) > 0 {
		var by []string
		for m := Constant; m < numMechanisms; m++ {
			if n := sum.RowGroupsSkipped[m]; n > 0 {
				by = append(by, fmt.Sprintf("%s %d", m, n))
			}
		}
		ew.printf(" (skipped by %s)", strings.Join(by, ", "))
	}
	ew.printf("\n")
	ew.printf("  pages of the columns read, in kept row groups: %d total, %d kept", sum.Pages, sum.PagesKept)
	if sum.Uncounted > 0 {
		ew.printf(", and %d column chunks read whole whose pages the footer does not count", sum.Uncounted)
	}
	ew.printf("\n")
	ew.printf("  bytes of column chunks: %d total, %d to read in %d ranges, %s skipped\n", p.ChunkBytes, p.ReadBytes, len(p.ReadRanges), percent(p.ChunkBytes-p.ReadBytes, p.ChunkBytes))
	for _, rg := range p.RowGroups {
		switch rg.Verdict {
		case Skip:
			ew.printf("  row group %d (%d rows): skip, %s\n", rg.Index, rg.NumRows, rg.Reason)
		case Scan:
			ew.printf("  row group %d (%d rows): scan, %s\n", rg.Index, rg.NumRows, rg.Reason)
		default:
			ew.printf("  row group %d (%d rows): select rows %s, %s\n", rg.Index, rg.NumRows, rg.Rows, rg.Reason)
		}
		if verbose && rg.Verdict != Skip {
			for _, c := range rg.Columns {
				ew.printf("    read %s\n", c)
			}
		}
		if verbose {
			for _, d := range rg.Pages {
				verdict := "skip"
				if d.Keep {
					verdict = "keep"
				}
				ew.printf("    page %d of %s, rows [%d, %d), for %s: %s, %s\n", d.Page, d.Path, d.Rows.First, d.Rows.End, d.Cond, verdict, d.Reason)
			}
		}
	}
	var skipped []string
	for m := Constant; m < numMechanisms; m++ {
		if n := p.Skipped[m]; n > 0 {
			skipped = append(skipped, fmt.Sprintf("%s %d", m, n))
		}
	}
	if len(skipped) == 0 {
		skipped = []string{"none"}
	}
	ew.printf("  skipped bytes by mechanism: %s\n", strings.Join(skipped, ", "))
	ew.printf("  fetched to decide: page index %d, bloom %d, dictionary %d bytes\n", p.IndexBytes, p.FilterBytes, p.DictionaryBytes)
	if verbose {
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

// A Summary counts what a plan keeps and skips.
type Summary struct {
	RowGroups, RowGroupsKept int
	// RowGroupsSkipped counts skipped row groups by the mechanism that proved it.
	RowGroupsSkipped map[Mechanism]int
	// Pages and PagesKept count the data pages of the columns read in the
	// row groups kept; a column read whole keeps all its pages.
	Pages, PagesKept int
	// Uncounted counts chunks read whole whose pages the footer does not count.
	Uncounted int
}

// Summary counts the plan's row groups and pages.
func (p *FilePlan) Summary() Summary {
	s := Summary{RowGroups: len(p.RowGroups), RowGroupsSkipped: map[Mechanism]int{}}
	for _, rg := range p.RowGroups {
		if rg.Verdict == Skip {
			s.RowGroupsSkipped[rg.Mechanism]++
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
			} else {
				s.PagesKept += len(c.PageIndexes)
			}
		}
	}
	return s
}

// percent renders part/whole as a percentage with one decimal.
func percent(part, whole int64) string {
	if whole <= 0 {
		return "0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
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
