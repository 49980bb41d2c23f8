package exec

import (
	"math/big"
	"sync"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// A batch is up to BatchSize rows in columns, the unit the executor moves
// between its stages. Before projection cols follow the plan's input layout
// (a column the query does not read is nil); after it, the projection's.
type batch struct {
	cols []*Vector
	n    int
	// pooled marks a batch the scan made, whose columns no one else holds:
	// release may recycle them.
	pooled bool
	// truths are the verdicts of a WHERE's dictionary-judged parts on the
	// rows, one slice a part, while the WHERE is applied (dictfilter.go).
	truths [][]uint8
}

// rowRange is the row-group rows [First, End).
type rowRange = pushdown.RowRange

// take returns the rows sel of v, in that order, as a new vector.
func (v *Vector) take(sel []int32) *Vector {
	out := &Vector{Type: v.Type}
	if v.Nulls != nil {
		// Most selections of a column with NULLs somewhere hold none:
		// flags are made only for one that does.
		for _, i := range sel {
			if v.Nulls[i] {
				out.Nulls = takeSlice(v.Nulls, sel)
				break
			}
		}
	}
	switch {
	case v.Int != nil:
		out.Int = takeSlice(v.Int, sel)
	case v.Float != nil:
		out.Float = takeSlice(v.Float, sel)
	case v.Bool != nil:
		out.Bool = takeSlice(v.Bool, sel)
	case v.Str != nil:
		out.Str = takeSlice(v.Str, sel)
	case v.Bytes != nil:
		out.Bytes = takeSlice(v.Bytes, sel)
	case v.Big != nil:
		out.Big = takeSlice(v.Big, sel)
	case v.Nested != nil:
		out.Nested = takeSlice(v.Nested, sel)
	default:
		if out.Nulls == nil && v.Nulls != nil {
			out.Nulls = make([]bool, len(sel))
		}
	}
	return out
}

func takeSlice[T any](s []T, sel []int32) []T {
	out := make([]T, len(sel))
	for j, i := range sel {
		out[j] = s[i]
	}
	return out
}

// head returns the first n rows of v, sharing its storage.
func (v *Vector) head(n int) *Vector {
	out := *v
	if out.Nulls != nil {
		out.Nulls = out.Nulls[:n]
	}
	switch {
	case v.Int != nil:
		out.Int = v.Int[:n]
	case v.Float != nil:
		out.Float = v.Float[:n]
	case v.Bool != nil:
		out.Bool = v.Bool[:n]
	case v.Str != nil:
		out.Str = v.Str[:n]
		if c := v.dictCodes(); c != nil {
			out.Codes = c[:n:n]
		}
	case v.Bytes != nil:
		out.Bytes = v.Bytes[:n]
	case v.Big != nil:
		out.Big = v.Big[:n]
	case v.Nested != nil:
		out.Nested = v.Nested[:n]
	}
	return &out
}

// appendRow appends row i of src, a vector of the same type, to v.
func (v *Vector) appendRow(src *Vector, i int) {
	if src.IsNull(i) {
		v.appendNull()
		return
	}
	switch {
	case src.Int != nil:
		v.Int = append(v.Int, src.Int[i])
	case src.Float != nil:
		v.Float = append(v.Float, src.Float[i])
	case src.Bool != nil:
		v.Bool = append(v.Bool, src.Bool[i])
	case src.Str != nil:
		v.Str = append(v.Str, src.Str[i])
	case src.Bytes != nil:
		v.Bytes = append(v.Bytes, src.Bytes[i])
	case src.Big != nil:
		v.Big = append(v.Big, src.Big[i])
	case src.Nested != nil:
		v.Nested = append(v.Nested, src.Nested[i])
	}
	v.markNotNull()
}

// take keeps the rows sel of b.
func (b *batch) take(sel []int32) *batch {
	if len(sel) == b.n {
		return b
	}
	var out *batch
	if b.pooled {
		out = scanBatch(len(b.cols), len(sel))
	} else {
		out = &batch{cols: make([]*Vector, len(b.cols)), n: len(sel)}
	}
	for i, v := range b.cols {
		switch {
		case v == nil:
		case b.pooled:
			// Into the scan's vectors, which release recycles.
			out.cols[i] = v.takePooled(sel)
		default:
			out.cols[i] = v.take(sel)
		}
	}
	return out
}

// takePooled is take into a vector of the scan's pools.
func (v *Vector) takePooled(sel []int32) *Vector {
	var out *Vector
	switch {
	case v.Int != nil:
		out = recycled(&intVecs, v.Type)
		out.Int = takeInto(room(out.Int, len(sel)), v.Int, sel)
	case v.Float != nil:
		out = recycled(&floatVecs, v.Type)
		out.Float = takeInto(room(out.Float, len(sel)), v.Float, sel)
	case v.Str != nil:
		out = recycled(&strVecs, v.Type)
		out.Str = takeInto(room(out.Str, len(sel)), v.Str, sel)
	default:
		return v.take(sel)
	}
	if v.Nulls != nil {
		for _, i := range sel {
			if v.Nulls[i] {
				out.Nulls = takeInto(nullFlags(0, len(sel)), v.Nulls, sel)
				break
			}
		}
	}
	return out
}

// takeInto appends the values sel of s to dst.
func takeInto[T any](dst, s []T, sel []int32) []T {
	dst = dst[:len(sel)]
	for j, i := range sel {
		dst[j] = s[i]
	}
	return dst
}

// head keeps the first n rows of b.
func (b *batch) head(n int) *batch {
	if n >= b.n {
		return b
	}
	out := &batch{cols: make([]*Vector, len(b.cols)), n: n}
	for i, v := range b.cols {
		if v != nil {
			out.cols[i] = v.head(n)
		}
	}
	return out
}

// A rowBuffer evaluates row-at-a-time expressions over a batch: it holds one
// input row, filled only in the columns the expressions read.
type rowBuffer struct {
	row  []planner.Datum
	cols []int
}

// newRowBuffer prepares rows of width columns for the expressions xs.
func newRowBuffer(width int, xs ...planner.Expr) *rowBuffer {
	set := map[int]bool{}
	for _, x := range xs {
		if x != nil {
			planner.Columns(x, set)
		}
	}
	rb := &rowBuffer{row: make([]planner.Datum, width)}
	for c := range set {
		if c >= 0 && c < width {
			rb.cols = append(rb.cols, c)
		}
	}
	return rb
}

// load fills the buffer with row i of b and returns it.
func (rb *rowBuffer) load(b *batch, i int) []planner.Datum {
	for _, c := range rb.cols {
		if c < len(b.cols) && b.cols[c] != nil {
			rb.row[c] = datumAt(b.cols[c], i)
		}
	}
	return rb.row
}

// rowsOf returns the rows of b as datums, for the stages that sort or
// compare whole rows.
func rowsOf(b *batch) [][]planner.Datum {
	w := len(b.cols)
	slab := make([]planner.Datum, b.n*w)
	rows := make([][]planner.Datum, b.n)
	for i := range rows {
		r := slab[i*w : (i+1)*w : (i+1)*w]
		for c, v := range b.cols {
			if v != nil {
				r[c] = datumAt(v, i)
			}
		}
		rows[i] = r
	}
	return rows
}

// batchOfRows packs datum rows of the given column types into a batch.
func batchOfRows(rows [][]planner.Datum, types []Type) *batch {
	b := &batch{cols: make([]*Vector, len(types)), n: len(rows)}
	for c, t := range types {
		v := newResultVector(t, len(rows))
		for _, r := range rows {
			v.appendDatum(r[c])
		}
		b.cols[c] = v
	}
	return b
}

// Batches that only pass through (filtered out, or folded into aggregates)
// give their columns back to these pools, so a scan does not allocate a
// batch's worth of memory per batch.
var (
	// The scan's vectors of each kind, with their storage (scanVector).
	intVecs, floatVecs, strVecs sync.Pool
	codePool                    slicePool[int32]
	// nullPool holds NULL flags of released batches, which appendNull
	// reuses: a column with NULLs otherwise allocates flags per batch.
	nullPool slicePool[bool]
)

// A slicePool holds released slices. sync.Pool stores pointers, and a
// slice put in it needs a box: the boxes are pooled too, since boxing each
// slice anew cost an allocation per column of every batch released.
type slicePool[T any] struct{ full, empty sync.Pool }

// get returns a released slice, emptied, or nil.
func (p *slicePool[T]) get() []T {
	b, _ := p.full.Get().(*[]T)
	if b == nil {
		return nil
	}
	s := (*b)[:0]
	*b = nil
	p.empty.Put(b)
	return s
}

// put keeps s for a later get.
func (p *slicePool[T]) put(s []T) {
	b, _ := p.empty.Get().(*[]T)
	if b == nil {
		b = new([]T)
	}
	*b = s[:0]
	p.full.Put(b)
}

// nullFlags returns n false flags with room for c, reusing released ones.
func nullFlags(n, c int) []bool {
	s := nullPool.get()
	if cap(s) < max(n, c) {
		return make([]bool, n, max(n, c))
	}
	s = s[:n]
	clear(s)
	return s
}

// scanVector is newVector for the scan's batches, drawing on the pools: a
// released batch's vectors come back whole, their storage with them.
func scanVector(t Type, n int) *Vector {
	switch {
	case t.ID == TypeFloat || t.ID == TypeDouble:
		v := recycled(&floatVecs, t)
		v.Float = room(v.Float, n)
		return v
	case t.ID == TypeVarchar:
		v := recycled(&strVecs, t)
		v.Str = room(v.Str, n)
		return v
	case t.ID == TypeBoolean, wideDecimal(t), t.ID == TypeBlob, t.ID == TypeUUID, t.ID == TypeInterval, t.ID == TypeNested:
		return newVector(t, n)
	default:
		v := recycled(&intVecs, t)
		v.Int = room(v.Int, n)
		return v
	}
}

// recycled is a released vector of pool p, or a new one, made empty and of
// type t; release gives it back to p.
func recycled(p *sync.Pool, t Type) *Vector {
	v, _ := p.Get().(*Vector)
	if v == nil {
		v = &Vector{}
	}
	*v = Vector{Type: t, Int: v.Int, Float: v.Float, Str: v.Str, pool: p}
	return v
}

// room is s emptied, with room for n values.
func room[T any](s []T, n int) []T {
	if cap(s) < n {
		// Sized to the rows at hand: a row group of a few rows (a glob
		// of small files) must not cost a full batch per column.
		return make([]T, 0, n)
	}
	return s[:0]
}

// pooled is a released slice of p, or a new one, with room for n values.
func pooled[T any](p *slicePool[T], n int) []T { return room(p.get(), n) }

// release gives the columns of a batch the scan made back to the pools;
// nothing may use them afterwards.
func (b *batch) release() {
	if !b.pooled {
		return
	}
	for _, v := range b.cols {
		if v == nil {
			continue
		}
		if v.Nulls != nil {
			nullPool.put(v.Nulls)
		}
		if v.Codes != nil {
			codePool.put(v.Codes)
		}
		if v.Str != nil {
			clear(v.Str)
		}
		if p := v.pool; p != nil {
			// The vector goes back whole: the storage of its pool's kind
			// of values stays with it, and nothing else of it is kept.
			*v = Vector{Int: v.Int[:0], Float: v.Float[:0], Str: v.Str[:0]}
			switch p {
			case &intVecs:
				v.Float, v.Str = nil, nil
			case &floatVecs:
				v.Int, v.Str = nil, nil
			default:
				v.Int, v.Float = nil, nil
			}
			p.Put(v)
			continue
		}
		// Other vectors (a partition column's, a row number's) are left
		// to the collector.
	}
	// The batch itself serves the next one scanBatch makes.
	clear(b.cols)
	*b = batch{cols: b.cols[:0]}
	batchPool.Put(b)
}

// batchPool holds released batches of the scan, for scanBatch.
var batchPool sync.Pool

// scanBatch is an empty batch of n rows and width columns for the scan to
// fill, recycled when released.
func scanBatch(width, n int) *batch {
	b, _ := batchPool.Get().(*batch)
	if b == nil {
		b = &batch{}
	}
	if cap(b.cols) < width {
		b.cols = make([]*Vector, width)
	}
	b.cols, b.n, b.pooled = b.cols[:width], n, true
	return b
}

// packBatches drops empty batches and copies runs of small ones (a
// selective filter leaves many) into full ones, so that a result has about
// as many batches as its rows fill. A small batch with no other to join
// stays as it is.
func packBatches(bs []*batch) []*batch {
	var out []*batch
	// The run of small batches so far: its first batch as it is (first),
	// or all of them copied into one (packed).
	var first, packed *batch
	flush := func() {
		switch {
		case packed != nil:
			out = append(out, packed)
		case first != nil:
			out = append(out, first)
		}
		first, packed = nil, nil
	}
	for k, b := range bs {
		if b.n == 0 {
			continue
		}
		if b.n >= BatchSize/2 {
			flush()
			out = append(out, b)
			continue
		}
		if held := first; held != nil || packed != nil {
			if packed != nil {
				held = packed
			}
			if held.n+b.n > BatchSize {
				flush()
			}
		}
		if first == nil && packed == nil {
			first = b
			continue
		}
		if packed == nil {
			// Room for the rows the run can gather, at most a batch.
			room := first.n + b.n
			for _, c := range bs[k+1:] {
				if c.n >= BatchSize/2 || room >= BatchSize {
					break
				}
				room += c.n
			}
			room = min(room, BatchSize)
			packed = &batch{cols: make([]*Vector, len(first.cols))}
			for c, v := range first.cols {
				if v != nil {
					packed.cols[c] = emptyLike(v, room)
				}
			}
			packed.appendRows(first)
			first = nil
		}
		packed.appendRows(b)
	}
	flush()
	return out
}

// appendRows appends the rows of b, of the same columns, to p.
func (p *batch) appendRows(b *batch) {
	for c, v := range b.cols {
		if v == nil {
			continue
		}
		for i := range b.n {
			p.cols[c].appendRow(v, i)
		}
	}
	p.n += b.n
}

// emptyLike is an empty vector of v's type and representation, with room
// for n rows.
func emptyLike(v *Vector, n int) *Vector {
	out := &Vector{Type: v.Type}
	switch {
	case v.Int != nil:
		out.Int = make([]int64, 0, n)
	case v.Float != nil:
		out.Float = make([]float64, 0, n)
	case v.Bool != nil:
		out.Bool = make([]bool, 0, n)
	case v.Str != nil:
		out.Str = make([]string, 0, n)
	case v.Bytes != nil:
		out.Bytes = make([][]byte, 0, n)
	case v.Big != nil:
		out.Big = make([]*big.Int, 0, n)
	case v.Nested != nil:
		out.Nested = make([]format.Value, 0, n)
	default:
		return newResultVector(v.Type, n)
	}
	return out
}
