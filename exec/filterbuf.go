package exec

import "sync"

// The filter's nodes are shared by the workers, so the buffers an AND, OR
// or BETWEEN needs for one batch cannot live in them; each evaluation
// borrows its own and gives it back, and the next batch on that core
// reuses it instead of allocating.
var (
	truthPool = sync.Pool{New: func() any { return new([]uint8) }}
	rowsPool  = sync.Pool{New: func() any { return new([]int32) }}
)

// borrowTruth lends a zeroed truth buffer of n rows; return it with
// truthPool.Put once nothing reads it.
func borrowTruth(n int) *[]uint8 {
	p := truthPool.Get().(*[]uint8)
	if cap(*p) < n {
		*p = make([]uint8, max(n, BatchSize))
	}
	*p = (*p)[:n]
	// A row a node leaves unwritten reads FALSE, as in a new buffer.
	clear(*p)
	return p
}

// borrowRows lends a copy of sel; return it with rowsPool.Put once nothing
// reads it.
func borrowRows(sel []int32) *[]int32 {
	p := rowsPool.Get().(*[]int32)
	*p = append((*p)[:0], sel...)
	return p
}

// fillRows fills buf, grown as needed, with the rows 0..n-1 of a batch.
func fillRows(buf []int32, n int) []int32 {
	if cap(buf) < n {
		buf = make([]int32, n, max(n, BatchSize))
	}
	buf = buf[:n]
	for i := range buf {
		buf[i] = int32(i)
	}
	return buf
}

// A selection is the buffer a row group's scan writes each batch's
// survivors to (filter.applyInto), lent by rowsPool: row group after row
// group, a worker reuses the last one's rather than allocate its own.
type selection struct{ p *[]int32 }

// borrowSelection lends a selection buffer.
func borrowSelection() selection { return selection{rowsPool.Get().(*[]int32)} }

// buf is the buffer to write the next batch's rows to.
func (s selection) buf() []int32 { return *s.p }

// keep notes sel, written to buf, as the buffer to reuse.
func (s selection) keep(sel []int32) { *s.p = sel }

// done gives the buffer back; nothing may read what it held.
func (s selection) done() {
	*s.p = (*s.p)[:0]
	rowsPool.Put(s.p)
}
