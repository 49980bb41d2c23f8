package exec

import "github.com/pqsql/pqsql/planner"

// A rowBatcher gathers result rows into batches of BatchSize for fn,
// writing them into one reused buffer (batchOfRows copies them out).
type rowBatcher struct {
	buf   []planner.Datum
	chunk [][]planner.Datum
	w     int
	types []Type
	fn    func(b *batch) (stop bool, err error)
}

func newRowBatcher(w int, types []Type, fn func(b *batch) (stop bool, err error)) *rowBatcher {
	return &rowBatcher{buf: make([]planner.Datum, BatchSize*w), chunk: make([][]planner.Datum, 0, BatchSize), w: w, types: types, fn: fn}
}

// next is where the next row is written.
func (rb *rowBatcher) next() []planner.Datum {
	k := len(rb.chunk)
	return rb.buf[k*rb.w : (k+1)*rb.w : (k+1)*rb.w]
}

// keep adds the row last given by next, handing a full batch to fn.
func (rb *rowBatcher) keep(row []planner.Datum) (stop bool, err error) {
	if rb.chunk = append(rb.chunk, row); len(rb.chunk) < BatchSize {
		return false, nil
	}
	stop, err = rb.fn(batchOfRows(rb.chunk, rb.types))
	rb.chunk = rb.chunk[:0]
	return stop, err
}

// flush hands the rows kept since the last batch to fn.
func (rb *rowBatcher) flush() error {
	if len(rb.chunk) == 0 {
		return nil
	}
	_, err := rb.fn(batchOfRows(rb.chunk, rb.types))
	return err
}
