package stats

import (
	"fmt"

	"github.com/pqsql/pqsql/format/meta"
)

// ChunkRowsContradiction says why a column chunk's num_values cannot be
// believed beside its row group's row count, or "". Every row has at least
// one level entry in every leaf, and exactly one in a leaf that is not
// repeated; a chunk that says otherwise (num_values 0 in a row group of 8
// rows) contradicts itself, and nothing derived from num_values (all null,
// all NaN) may prove a skip. repeated says the leaf has a repetition level.
func ChunkRowsContradiction(numValues, rows int64, repeated bool) string {
	switch {
	case numValues < rows:
		return fmt.Sprintf("the chunk's metadata contradicts itself: num_values %d is fewer than the row group's %d rows", numValues, rows)
	case !repeated && numValues != rows:
		return fmt.Sprintf("the chunk's metadata contradicts itself: num_values %d differs from the row group's %d rows in a column that is not repeated", numValues, rows)
	}
	return ""
}

// PageIndexContradiction says why a chunk's column index cannot be believed
// beside its offset index and statistics, or "". pageRows(i) is the rows
// of page i by the offset index; it is consulted only for a leaf that is
// not repeated, whose pages hold one entry per row. chunkNulls is the
// chunk statistics' null_count, or -1 when unknown.
func PageIndexContradiction(ci *meta.ColumnIndex, pageRows func(i int) int64, repeated bool, chunkNulls int64) string {
	if ci.NullCounts == nil || repeated {
		return ""
	}
	var sum int64
	for i, n := range ci.NullCounts {
		rows := pageRows(i)
		switch {
		case n < 0:
			// parquet-mr writes -1 where it kept no count: unknown, no proof.
			return ""
		case n > rows:
			return fmt.Sprintf("the column index gives page %d %d nulls, but the offset index gives it %d rows", i, n, rows)
		case ci.NullPages[i] && n != rows:
			return fmt.Sprintf("the column index says page %d holds only nulls, but gives it %d nulls of %d rows", i, n, rows)
		case !ci.NullPages[i] && n == rows && rows > 0:
			return fmt.Sprintf("the column index gives page %d %d nulls of %d rows, but says it holds values", i, n, rows)
		}
		sum += n
	}
	if chunkNulls >= 0 && sum != chunkNulls {
		return fmt.Sprintf("the column index counts %d nulls in the chunk, its statistics %d", sum, chunkNulls)
	}
	return ""
}
