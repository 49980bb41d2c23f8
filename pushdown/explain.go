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
	ew.printf("  skipped bytes: %s\n", strings.Join(skipped, ", "))
	ew.printf("  fetched to decide: page index %d, bloom %d, dictionary %d bytes\n", p.IndexBytes, p.FilterBytes, p.DictionaryBytes)
	ew.printf("  read: %d of %d bytes of column chunks, in %d ranges\n", p.ReadBytes, p.ChunkBytes, len(p.ReadRanges))
	if verbose {
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
