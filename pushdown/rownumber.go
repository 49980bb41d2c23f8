package pushdown

import (
	"math"
	"strconv"

	"github.com/pqsql/pqsql/format"
)

// A RowNumber is file_row_number op Value: a row's 0-based position in its
// file (read_parquet's file_row_number) compared with an integer. A row
// group holds consecutive positions, from the sum of the row counts of the
// row groups before it, so the footer decides the leaf exactly, row by
// row, with no statistics; a position is never NULL.
type RowNumber struct {
	Op    Op // Eq, Ne, Lt, Le, Gt or Ge
	Value int64
}

func (*RowNumber) expr() {}

// String is the leaf as SQL writes it.
func (r *RowNumber) String() string {
	return "file_row_number " + r.Op.String() + " " + strconv.FormatInt(r.Value, 10)
}

// RowGroupStarts returns the position in f of each row group's first row.
func RowGroupStarts(f *format.File) []int64 {
	out := make([]int64, len(f.Meta.RowGroups))
	var n int64
	for i, rg := range f.Meta.RowGroups {
		out[i] = n
		n += rg.NumRows
	}
	return out
}

// rows returns the rows, of a row group of n rows whose first row is at
// position start, whose positions satisfy the leaf.
func (r *RowNumber) rows(start, n int64) RowRanges {
	// first and end bound the satisfying positions [first, end); Ne is the
	// only leaf with two pieces.
	first, end := int64(0), start+n
	next := r.Value + 1
	if r.Value == math.MaxInt64 {
		next = r.Value // no position reaches it
	}
	switch r.Op {
	case Eq:
		first, end = r.Value, next
	case Lt:
		end = r.Value
	case Le:
		end = next
		if r.Value == math.MaxInt64 {
			end = start + n
		}
	case Gt:
		first = next
		if r.Value == math.MaxInt64 {
			first = start + n
		}
	case Ge:
		first = r.Value
	case Ne:
		return r.rowsOf(start, n, 0, r.Value).Union(r.rowsOf(start, n, next, start+n))
	default:
		return AllRows(n)
	}
	return r.rowsOf(start, n, first, end)
}

// rowsOf maps the positions [first, end) onto the rows of the row group.
func (*RowNumber) rowsOf(start, n, first, end int64) RowRanges {
	// Compared before subtracting: a bound near math.MinInt64 would wrap.
	if end <= start || first >= start+n || first >= end {
		return nil
	}
	return NewRowRanges(RowRange{First: max(first, start) - start, End: min(end, start+n) - start})
}

// truth is the leaf's value on every row of a row group: True or False
// when all rows agree, Unknown when they differ.
func (r *RowNumber) truth(start, n int64) Truth {
	rows := r.rows(start, n)
	switch {
	case rows.Covers(n):
		return True
	case rows.Empty():
		return False
	}
	return Unknown
}

// why says what the row group holds, for EXPLAIN.
func (r *RowNumber) why(start, n int64) string {
	return r.String() + ": the row group holds rows " + strconv.FormatInt(start, 10) + " to " +
		strconv.FormatInt(start+n-1, 10) + " of the file"
}
