package exec

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
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
		percentOf(t.ChunkBytes-read, t.ChunkBytes))
	files := len(meters) + len(rep.HivePath)
	if files > 1 {
		fmt.Fprintf(b, " in %s", plural(files, "file"))
	}
	b.WriteString("\n\n")
	marks := func(m *fileMeter) []pushdown.GroupMarks {
		var was func(format.Range) bool
		if analyze {
			was = m.readSet()
		}
		return m.plan.Marks(m.f, was)
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
