package exec

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
	"github.com/pqsql/pqsql/storage"
)

// defaultMapWidth is the width of EXPLAIN (FORMAT MAP) off a terminal.
const defaultMapWidth = 100

// writeMap renders EXPLAIN (FORMAT MAP): a heading with the bytes read of
// the bytes the scans' columns hold, then for one file a grid (row groups
// down, the columns read across, a cell a page) and for many files a line
// per file (a cell a row group), then the legend. With analyze the marks
// show what the run read, not what the plan would.
func (rep *ExplainJSON) writeMap(b *strings.Builder, meters []*fileMeter, analyze bool, width int, color bool) error {
	if width <= 0 {
		width = defaultMapWidth
	}
	t := rep.Totals
	read := t.ReadBytes
	if analyze {
		read = 0
		for _, m := range meters {
			read += m.counts[ioData].Stats().Bytes
		}
	}
	fmt.Fprintf(b, "read %s of %s (%.1f%% skipped)", pushdown.HumanBytes(read), pushdown.HumanBytes(t.ChunkBytes),
		percentOf(t.ChunkBytes-read-t.GivenBytes, t.ChunkBytes))
	files := len(meters) + len(rep.HivePath)
	if files > 1 {
		fmt.Fprintf(b, " in %s", plural(files, "file"))
	}
	b.WriteString("\n\n")
	marks := func(m *fileMeter) []pushdown.GroupMarks {
		if !analyze {
			return m.plan.Marks(m.f, nil)
		}
		was := m.readSet()
		return m.pagesRead(m.plan.Marks(m.f, was), was)
	}
	glob := files > 1
	if !glob {
		for _, m := range meters {
			if m.plan == nil {
				fmt.Fprintf(b, "%s: answered from the footer, no data read\n", m.path)
				continue
			}
			fmt.Fprintf(b, "%s\n", m.path)
			if err := pushdown.WriteGrid(b, marks(m), width, color); err != nil {
				return err
			}
		}
	} else {
		nameWidth := 0
		for _, m := range meters {
			nameWidth = max(nameWidth, len([]rune(m.path)))
		}
		for _, h := range rep.HivePath {
			nameWidth = max(nameWidth, len([]rune(h.File)))
		}
		nameWidth = min(nameWidth, width/2)
		cellWidth := 1
		for _, m := range meters {
			if m.plan != nil {
				cellWidth = max(cellWidth, len(m.plan.RowGroups))
			}
		}
		// Room is left for the tail, "146.2 KiB of 546.1 KiB".
		cellWidth = max(1, min(cellWidth, width-nameWidth-4-24))
		for _, m := range meters {
			if m.plan == nil {
				if err := pushdown.WriteMarkLine(b, m.path, pushdown.MarkFooter, nameWidth, cellWidth, color, "answered from the footer"); err != nil {
					return err
				}
				continue
			}
			fileRead := m.plan.ReadBytes
			if analyze {
				fileRead = m.counts[ioData].Stats().Bytes
			}
			tail := fmt.Sprintf("%s of %s", pushdown.HumanBytes(fileRead), pushdown.HumanBytes(m.plan.ChunkBytes))
			if err := pushdown.WriteLine(b, m.path, marks(m), nameWidth, cellWidth, color, tail); err != nil {
				return err
			}
		}
		for _, h := range rep.HivePath {
			tail := "skipped by hive path, " + pushdown.HumanBytes(h.Bytes) + " on disk"
			if err := pushdown.WriteMarkLine(b, h.File, pushdown.MarkHivePath, nameWidth, cellWidth, color, tail); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(b, "\n%s\n", pushdown.Legend(color, glob, width))
	return nil
}

// pagesRead marks the pages of chunks planned whole by what the run read
// of each: a chunk planned whole is read in part when the executor learns
// which rows it needs (a LIMIT that stops early, top-k, late
// materialization) and fetches only their pages, which the chunk-wide
// mark would hide. The pages' ranges come from the chunk's offset index,
// read (uncounted, the run being over) only for chunks the run read in
// part; a chunk without a sound one keeps its chunk-wide mark.
func (m *fileMeter) pagesRead(gs []pushdown.GroupMarks, was func(format.Range) bool) []pushdown.GroupMarks {
	whole := m.wholeRead()
	var src storage.Source
	defer func() {
		if src != nil {
			src.Close()
		}
	}()
	for k, rg := range m.plan.RowGroups {
		if rg.Verdict == pushdown.Skip || k >= len(gs) {
			continue
		}
		g := gs[k]
		for i, c := range rg.Columns {
			if !c.Whole || i >= len(g.Chunks) || whole(c.Chunk) || !was(c.Chunk) {
				continue
			}
			if src == nil {
				// The scan closed the file: open it again for its indexes.
				var err error
				if m.store == nil {
					return gs
				}
				if src, err = m.store.Open(context.Background(), m.path); err != nil {
					return gs
				}
			}
			locs, ok := pageRanges(m.f, src, rg.Index, c.Leaf)
			if !ok || len(locs) != len(g.Chunks[i].Pages) {
				continue
			}
			for p, r := range locs {
				g.Chunks[i].Pages[p] = pushdown.MarkUnread
				if was(r) {
					g.Chunks[i].Pages[p] = pushdown.MarkRead
				}
			}
		}
	}
	return gs
}

// pageRanges returns the byte ranges of the data pages of leaf col in row
// group rg from its offset index, read from src.
func pageRanges(f *format.File, src storage.Source, rg, col int) ([]format.Range, bool) {
	r, ok := f.OffsetIndexRange(rg, col)
	if !ok || r.Length <= 0 || r.Length > 1<<26 {
		return nil, false
	}
	b := make([]byte, r.Length)
	if _, err := src.ReadAt(b, r.Offset); err != nil {
		return nil, false
	}
	oi, err := f.DecodeOffsetIndex(rg, col, b)
	if err != nil || oi == nil {
		return nil, false
	}
	out := make([]format.Range, len(oi.PageLocations))
	for i, loc := range oi.PageLocations {
		out[i] = format.Range{Offset: loc.Offset, Length: int64(loc.CompressedPageSize)}
	}
	return out, true
}

// wholeRead returns a function reporting whether every byte of a range
// was read as data.
func (m *fileMeter) wholeRead() func(format.Range) bool {
	m.readsMu.Lock()
	reads := append([]format.Range(nil), m.dataReads...)
	m.readsMu.Unlock()
	sort.Slice(reads, func(i, j int) bool { return reads[i].Offset < reads[j].Offset })
	var merged []format.Range
	for _, r := range reads {
		if n := len(merged); n > 0 && r.Offset <= merged[n-1].End() {
			merged[n-1].Length = max(merged[n-1].End(), r.End()) - merged[n-1].Offset
			continue
		}
		merged = append(merged, r)
	}
	return func(r format.Range) bool {
		i := sort.Search(len(merged), func(i int) bool { return merged[i].End() > r.Offset })
		return i < len(merged) && merged[i].Offset <= r.Offset && merged[i].End() >= r.End()
	}
}
