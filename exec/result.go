package exec

// A Batch is up to BatchSize rows of a result, one Vector per column.
type Batch struct {
	Vectors []*Vector
	Len     int
}

// BatchSize is the number of rows the executor moves at a time.
const BatchSize = 2048

// A Result is the answer to one statement.
type Result struct {
	// Columns and Types name and type the result's columns.
	Columns []string
	Types   []Type
	// Batches hold the rows in order.
	Batches []*Batch
	// Message is set instead of rows for statements that only act, such as
	// SET or CREATE VIEW, when there is something to say.
	Message string
	// Explain is set for EXPLAIN: the plan as text (or JSON), printed as is.
	Explain string
}

// NumRows counts the rows of all batches.
func (r *Result) NumRows() int {
	n := 0
	for _, b := range r.Batches {
		n += b.Len
	}
	return n
}

// Cell returns row's value in column col as DuckDB's text; null is true for NULL.
func (r *Result) Cell(row, col int) (text string, null bool) {
	for _, b := range r.Batches {
		if row < b.Len {
			v := b.Vectors[col]
			if v.IsNull(row) {
				return "", true
			}
			return string(AppendText(nil, v, row)), false
		}
		row -= b.Len
	}
	return "", true
}
