package pushdown

import (
	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// IndexPages picks, by a column chunk's offset index, the pages holding a
// row of rows, with the dictionary page: what a scan reads of a chunk the
// plan left whole once it knows which rows it wants (late
// materialization, a LIMIT). spans are the pages' row counts by the index,
// which the reader checks after decoding. ok is false when the index is
// absent, does not fit the chunk, or leaves nothing to skip; the chunk is
// then read whole.
func IndexPages(f *format.File, rg, leaf int, chunk format.Range, rows RowRanges, numRows int64) (pages []format.PageRef, spans []int64, dict format.Range, ok bool) {
	oi, err := f.ReadOffsetIndex(rg, leaf)
	if err != nil {
		return nil, nil, format.Range{}, false
	}
	return IndexPagesOf(f, oi, rg, leaf, chunk, rows, numRows)
}

// IndexPagesOf is IndexPages by the offset index oi, already read.
func IndexPagesOf(f *format.File, oi *meta.OffsetIndex, rg, leaf int, chunk format.Range, rows RowRanges, numRows int64) (pages []format.PageRef, spans []int64, dict format.Range, ok bool) {
	if oi == nil || len(oi.PageLocations) == 0 {
		return nil, nil, format.Range{}, false
	}
	prevEnd := chunk.Offset
	for i, loc := range oi.PageLocations {
		first, end := format.PageRows(oi, i, numRows)
		r := format.Range{Offset: loc.Offset, Length: int64(loc.CompressedPageSize)}
		if (i == 0 && first != 0) || end <= first || end > numRows || r.Length <= 0 || r.Offset < prevEnd || r.End() > chunk.End() {
			return nil, nil, format.Range{}, false
		}
		prevEnd = r.End()
		if rows.Overlaps(first, end) {
			pages = append(pages, format.PageRef{Range: r, FirstRow: first})
			spans = append(spans, end-first)
		}
	}
	if len(pages) == len(oi.PageLocations) {
		return nil, nil, format.Range{}, false
	}
	return pages, spans, f.DictionaryRange(rg, leaf, oi), true
}

// PagesWith keeps the pages, of those a plan chose, that hold a row of
// survivors. A page runs to the next listed page (or the row group's end):
// the rows in between lie in pages the plan left out, which hold no kept
// row.
func PagesWith(pages []format.PageRef, survivors RowRanges, numRows int64) []format.PageRef {
	var out []format.PageRef
	for j, pg := range pages {
		end := numRows
		if j+1 < len(pages) {
			end = pages[j+1].FirstRow
		}
		if survivors.Overlaps(pg.FirstRow, end) {
			out = append(out, pg)
		}
	}
	return out
}
