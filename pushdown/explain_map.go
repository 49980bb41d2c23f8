package pushdown

import (
	"fmt"
	"io"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// A Mark says what happened to one page, for EXPLAIN (FORMAT MAP).
type Mark int8

// The marks. A page is read, or skipped by the mechanism that proved it
// holds no match; MarkUnread is a page the plan kept that the run did not
// read (EXPLAIN ANALYZE: a LIMIT stopped the scan, or no row passed the
// filter).
const (
	MarkRead Mark = iota
	MarkPartial
	MarkUnread
	MarkStatistics
	MarkPageIndex
	MarkBloom
	MarkDictionary
	MarkSpatial
	MarkHivePath
	MarkTopK
	MarkJoinFilter
	MarkPredicate
	MarkFooter
	numMarks
)

// markInfo is each mark's glyph, ANSI colour and legend text.
var markInfo = [numMarks]struct {
	glyph, color, legend string
}{
	MarkRead:       {"█", "\x1b[32m", "read"},
	MarkPartial:    {"▒", "\x1b[32m", "read in part"},
	MarkUnread:     {"·", "\x1b[2m", "planned, not read"},
	MarkStatistics: {"s", "\x1b[34m", "statistics"},
	MarkPageIndex:  {"p", "\x1b[36m", "page index"},
	MarkBloom:      {"b", "\x1b[35m", "bloom"},
	MarkDictionary: {"d", "\x1b[33m", "dictionary"},
	MarkSpatial:    {"g", "\x1b[32m", "spatial"},
	MarkHivePath:   {"h", "\x1b[90m", "hive path"},
	MarkTopK:       {"k", "\x1b[31m", "top-k"},
	MarkJoinFilter: {"j", "\x1b[31m", "join filter"},
	MarkPredicate:  {"c", "\x1b[90m", "predicate or empty"},
	MarkFooter:     {"f", "\x1b[90m", "answered from the footer"},
}

// Glyph is the mark's character, coloured when color is set.
func (m Mark) Glyph(color bool) string {
	if m < 0 || m >= numMarks {
		return "?"
	}
	if color {
		return markInfo[m].color + markInfo[m].glyph + "\x1b[0m"
	}
	return markInfo[m].glyph
}

// markOf is the mark of pages a mechanism skipped.
func markOf(m Mechanism) Mark {
	switch m {
	case Statistics:
		return MarkStatistics
	case PageIndex:
		return MarkPageIndex
	case BloomFilter:
		return MarkBloom
	case Dictionary:
		return MarkDictionary
	case BoundingBox:
		return MarkSpatial
	case JoinFilter:
		return MarkJoinFilter
	}
	return MarkPredicate
}

// Legend lists what the marks mean, "█ read  s statistics ...", in lines
// of at most width columns. The marks of glob maps (read in part, answered
// from the footer) are listed only when glob is set.
func Legend(color, glob bool, width int) string {
	var b strings.Builder
	used := 0
	for m := Mark(0); m < numMarks; m++ {
		if !glob && (m == MarkPartial || m == MarkFooter) {
			continue
		}
		n := 2 + len([]rune(markInfo[m].legend))
		switch {
		case used == 0:
		case used+2+n > width:
			b.WriteByte('\n')
			used = 0
		default:
			b.WriteString("  ")
			used += 2
		}
		b.WriteString(m.Glyph(color) + " " + markInfo[m].legend)
		used += n
	}
	return b.String()
}

// A ChunkMarks is one column chunk's pages, in order.
type ChunkMarks struct {
	Path  string
	Pages []Mark
}

// A GroupMarks is one row group's chunks of the columns read.
type GroupMarks struct {
	Index  int
	Chunks []ChunkMarks
}

// Marks marks every data page of the columns read. f, the file the plan
// was made for, counts the pages of skipped row groups (one mark stands for
// a chunk whose pages the footer does not count). read, when set, reports
// whether bytes of a range were read (EXPLAIN ANALYZE); without it the
// plan's reads count as read.
func (p *FilePlan) Marks(f *format.File, read func(format.Range) bool) []GroupMarks {
	was := func(r format.Range) Mark {
		if read == nil || read(r) {
			return MarkRead
		}
		return MarkUnread
	}
	var out []GroupMarks
	for _, rg := range p.RowGroups {
		g := GroupMarks{Index: rg.Index}
		if rg.Verdict == Skip {
			mark := markOf(rg.Mechanism)
			for _, leaf := range p.Columns {
				n := 1
				path := fmt.Sprintf("column %d", leaf)
				if f != nil && leaf >= 0 && leaf < len(f.Schema.Leaves) {
					path = f.Schema.Leaves[leaf].Path
					if rg.Index < len(f.Meta.RowGroups) && leaf < len(f.Meta.RowGroups[rg.Index].Columns) {
						if md := f.Meta.RowGroups[rg.Index].Columns[leaf].MetaData; md != nil {
							n = max(dataPagesOf(md), 1)
						}
					}
				}
				g.Chunks = append(g.Chunks, ChunkMarks{Path: path, Pages: repeatMark(mark, n)})
			}
			out = append(out, g)
			continue
		}
		for _, c := range rg.Columns {
			n := max(c.NumPages, 1)
			if c.Whole {
				g.Chunks = append(g.Chunks, ChunkMarks{Path: c.Path, Pages: repeatMark(was(c.Chunk), n)})
				continue
			}
			pages := repeatMark(markOf(pageMechanism(rg)), n)
			for i, pi := range c.PageIndexes {
				if pi >= 0 && pi < n && i < len(c.Pages) {
					pages[pi] = was(c.Pages[i].Range)
				}
			}
			g.Chunks = append(g.Chunks, ChunkMarks{Path: c.Path, Pages: pages})
		}
		out = append(out, g)
	}
	return out
}

func repeatMark(m Mark, n int) []Mark {
	out := make([]Mark, n)
	for i := range out {
		out[i] = m
	}
	return out
}

// Summary is one mark per row group: read when every page was, read in
// part when some were, else what skipped its first page.
func (g GroupMarks) Summary() Mark {
	all, some := true, false
	first := MarkPredicate
	for _, c := range g.Chunks {
		for i, m := range c.Pages {
			if m == MarkRead {
				some = true
				continue
			}
			if all || i == 0 {
				first = m
			}
			all = false
		}
	}
	switch {
	case all:
		return MarkRead
	case some:
		return MarkPartial
	}
	return first
}

// WriteGrid draws a file's row groups down and its columns across, each
// cell a page, within width columns: a column with more pages than its
// share of the width shows each cell for a run of pages, read when any of
// them is read.
func WriteGrid(w io.Writer, groups []GroupMarks, width int, color bool) error {
	if len(groups) == 0 {
		return nil
	}
	label := fmt.Sprintf("row group %d", groups[len(groups)-1].Index)
	lw := len(label) + 2
	var paths []string
	var pages []int
	for _, g := range groups {
		for i, c := range g.Chunks {
			if i >= len(paths) {
				paths = append(paths, c.Path)
				pages = append(pages, 0)
			}
			pages[i] = max(pages[i], len(c.Pages))
		}
	}
	widths := scaleWidths(pages, width-lw-2*(len(pages)-1))
	// A column is at least as wide as the start of its name.
	colW := make([]int, len(widths))
	for i, p := range paths {
		colW[i] = max(widths[i], min(len([]rune(p)), 8))
	}
	ew := &errWriter{w: w}
	var head strings.Builder
	head.WriteString(strings.Repeat(" ", lw))
	for i, p := range paths {
		if i > 0 {
			head.WriteString("  ")
		}
		head.WriteString(fitText(p, colW[i]))
	}
	ew.printf("%s\n", strings.TrimRight(head.String(), " "))
	for _, g := range groups {
		var b strings.Builder
		b.WriteString(fmt.Sprintf("%-*s", lw, fmt.Sprintf("row group %d", g.Index)))
		for i := range paths {
			if i > 0 {
				b.WriteString("  ")
			}
			var marks []Mark
			if i < len(g.Chunks) {
				marks = g.Chunks[i].Pages
			}
			b.WriteString(cells(marks, widths[i], color))
			b.WriteString(strings.Repeat(" ", colW[i]-widths[i]))
		}
		ew.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
	return ew.err
}

// cells draws marks in width cells: one a page when they fit, else each
// cell a run of pages, read when any of them is read and otherwise marked
// as its first page.
func cells(marks []Mark, width int, color bool) string {
	var b strings.Builder
	n := len(marks)
	shown := min(n, width)
	for i := range shown {
		lo, hi := i*n/shown, (i+1)*n/shown
		m := marks[lo]
		for _, x := range marks[lo:hi] {
			if x == MarkRead {
				m = MarkRead
				break
			}
		}
		b.WriteString(m.Glyph(color))
	}
	b.WriteString(strings.Repeat(" ", width-shown))
	return b.String()
}

// WriteLine draws one file of a glob as a line: its name in nameWidth
// columns, its row groups in cellWidth cells (scaled when more), then tail.
func WriteLine(w io.Writer, name string, groups []GroupMarks, nameWidth, cellWidth int, color bool, tail string) error {
	marks := make([]Mark, len(groups))
	for i, g := range groups {
		marks[i] = g.Summary()
	}
	return writeMarksLine(w, name, marks, nameWidth, cellWidth, color, tail)
}

// WriteMarkLine draws a file of a glob that one mark tells: skipped by its
// hive path, or answered from the footer.
func WriteMarkLine(w io.Writer, name string, m Mark, nameWidth, cellWidth int, color bool, tail string) error {
	return writeMarksLine(w, name, []Mark{m}, nameWidth, cellWidth, color, tail)
}

func writeMarksLine(w io.Writer, name string, marks []Mark, nameWidth, cellWidth int, color bool, tail string) error {
	_, err := fmt.Fprintf(w, "%s  %s  %s\n", fitText(name, nameWidth), cells(marks, max(cellWidth, 1), color), tail)
	return err
}

// scaleWidths shares room among columns in proportion to their pages, a
// column never wider than its pages nor narrower than one cell.
func scaleWidths(pages []int, room int) []int {
	total := 0
	for _, p := range pages {
		total += p
	}
	out := make([]int, len(pages))
	for i, p := range pages {
		out[i] = p
		if total > room && room > 0 {
			out[i] = max(1, p*room/total)
		}
		out[i] = max(out[i], 1)
	}
	return out
}

// fitText pads or cuts s to width columns.
func fitText(s string, width int) string {
	r := []rune(s)
	if len(r) > width {
		if width <= 1 {
			return string(r[:max(width, 0)])
		}
		return string(r[:width-1]) + "…"
	}
	return s + strings.Repeat(" ", width-len(r))
}
