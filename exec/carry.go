package exec

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A carry holds, for a row group read late, the values of the WHERE's
// columns that the query reads after it, of the rows the WHERE passes, in
// their order. Taken from the batches the WHERE is evaluated on, they need
// not be read a second time, so those columns' readers are never rewound
// and stream: a window of their pages is held, not the whole chunk.
type carry struct {
	cols []int
	vecs []*Vector
	// bytes estimates what vecs hold. Past limit, the bytes the columns
	// stream (what reading them again would fetch), the passed rows are
	// most of the row group and carrying would hold more than it saves:
	// the carry is dropped and the columns are read again for those rows.
	bytes, limit int64
	dropped      bool
	// strs holds copies of the strings carried: those gathered live in
	// the reader's blocks, of which a few rows would keep many.
	strs strArena
	// at is the next row fill hands out.
	at int
	// counted, for vectors filled through target, is how many of each
	// one's rows bytes counts.
	counted []int
}

// judgedCarried counts the row groups whose judged column was carried out
// of the judging (scanJudged), judgedCarryDropped those of them whose
// carry was dropped: tests check that both happen.
var judgedCarried, judgedCarryDropped atomic.Int64

// newCarry is the carry of the WHERE's columns cols that the rest of the
// query reads (not whereOnly) and whose pages stream, or nil when there is
// none, for a row group of rows rows whose columns are of the types typeOf
// gives. The others keep being read again for the rows passed: a column
// whose pages are fetched holds them anyway, so carrying it would add to
// what is held.
func newCarry(cols []int, whereOnly map[int]bool, readers []colReader, rows int64, typeOf func(col int) Type) *carry {
	var c *carry
	for _, col := range cols {
		if whereOnly[col] {
			continue
		}
		r, ok := readers[col].(*flatReader)
		if !ok {
			continue
		}
		if r.streamed == 0 {
			// Rewound, so its pages and dictionary must stay.
			r.once = false
			continue
		}
		if c == nil {
			c = &carry{}
			c.strs.uncached = true
		}
		c.cols = append(c.cols, col)
		c.limit += max(r.streamed, fixedCarry(typeOf(col), rows))
	}
	if c != nil {
		c.vecs = make([]*Vector, len(c.cols))
	}
	return c
}

// fixedCarry is the most a carry of rows values of type t takes when they
// are numbers or booleans, and 0 for any other type. A carry of them is
// never dropped: reading the column again would cost its bytes twice to
// save at most a row group of fixed-width values, which a batch-decoded
// plan would hold as well. Strings and other values of any length are
// dropped past the bytes their pages stream.
func fixedCarry(t Type, rows int64) int64 {
	switch {
	case t.ID == TypeBoolean:
		return 2 * rows
	case t.ID == TypeVarchar, wideDecimal(t), t.ID == TypeBlob, t.ID == TypeUUID, t.ID == TypeInterval, t.ID == TypeNested:
		return 0
	}
	return 9 * rows // a value and its NULL flag (bytesFrom)
}

// holds reports whether the carry holds column col.
func (c *carry) holds(col int) bool {
	if c == nil {
		return false
	}
	for _, x := range c.cols {
		if x == col {
			return true
		}
	}
	return false
}

// add carries the rows sel of b.
func (c *carry) add(b *batch, sel []int32) {
	if c == nil || c.dropped || len(sel) == 0 {
		return
	}
	for k, col := range c.cols {
		src := b.cols[col]
		if c.vecs[k] == nil {
			c.vecs[k] = &Vector{Type: src.Type}
		}
		c.bytes += c.vecs[k].appendCarried(src, sel, &c.strs)
	}
	if c.bytes > c.limit {
		c.dropped, c.vecs, c.strs = true, nil, strArena{}
	}
}

// target is the vector column col's values are carried in, of type t, or
// nil when the carry does not hold col.
func (c *carry) target(col int, t Type) *Vector {
	k := slices.Index(c.cols, col)
	if k < 0 {
		return nil
	}
	if c.vecs[k] == nil {
		v := newVector(t, 0)
		if v.Int != nil {
			if p := carriedInts.Get(); p != nil {
				v.Int = (*p.(*[]int64))[:0]
			}
		}
		c.vecs[k] = v
		if c.counted == nil {
			c.counted = make([]int, len(c.cols))
		}
	}
	return c.vecs[k]
}

// carriedInts holds the integers of finished carries, for the next row
// group's carry to grow into: a carry's vector, filled row group after
// row group, would otherwise grow from nothing, doubling, each time.
var carriedInts sync.Pool

// release gives the integers of the carry's vectors filled through target
// back to carriedInts, once every row they hold was filled into a batch
// (which copies them).
func (c *carry) release() {
	if c == nil {
		return
	}
	for k, v := range c.vecs {
		if v != nil && v.Int != nil && c.counted != nil {
			ints := v.Int[:0]
			carriedInts.Put(&ints)
			c.vecs[k] = nil
		}
	}
}

// grew counts the rows appended to v, a vector of target, since the last
// count, and drops the carry past its limit.
func (c *carry) grew(v *Vector) {
	k := slices.Index(c.vecs, v)
	if k < 0 {
		return
	}
	c.bytes += v.bytesFrom(c.counted[k])
	c.counted[k] = v.Len()
	if c.bytes > c.limit {
		c.dropped, c.vecs, c.strs = true, nil, strArena{}
	}
}

// bytesFrom is about how many bytes v's rows from row on take, as
// appendCarried counts them.
func (v *Vector) bytesFrom(row int) int64 {
	n := int64(v.Len() - row)
	var size int64
	if v.Nulls != nil {
		size += n
	}
	if v.Codes != nil {
		size += 4 * n
	}
	switch {
	case v.Int != nil, v.Float != nil:
		size += 8 * n
	case v.Bool != nil:
		size += n
	case v.Str != nil:
		for _, s := range v.Str[row:] {
			size += 16 + int64(len(s))
		}
	case v.Bytes != nil:
		for _, b := range v.Bytes[row:] {
			size += 24 + int64(len(b))
		}
	case v.Big != nil:
		size += 48 * n
	case v.Nested != nil:
		size += 64 * n
	}
	return size
}

// fill sets the carried columns of b, the next b.n rows carried, in
// vectors of the scan's pools: b's release gives them back as it does the
// gathered ones.
func (c *carry) fill(b *batch) {
	if c == nil {
		return
	}
	for k, col := range c.cols {
		src := c.vecs[k]
		v := scanVector(src.Type, b.n)
		v.appendSpan(src, c.at, c.at+b.n)
		b.cols[col] = v
	}
	c.at += b.n
}

// appendCarried appends the rows sel of src, of v's type, to v, copying
// strings into strs and byte strings anew, as page buffers are reused; a
// dictionary's codes stay while every row has one of the same dictionary,
// which the vector then keeps alive. It returns about how many bytes v
// grew by.
func (v *Vector) appendCarried(src *Vector, sel []int32, strs *strArena) int64 {
	n0, n := v.Len(), int64(len(sel))
	var size int64
	if src.Nulls != nil || v.Nulls != nil {
		if v.Nulls == nil {
			v.Nulls = make([]bool, n0, n0+len(sel))
		}
		for _, i := range sel {
			v.Nulls = append(v.Nulls, src.IsNull(int(i)))
		}
		size += n
	}
	codes := src.dictCodes()
	if codes != nil && (n0 == 0 || v.Dict == src.Dict && len(v.Codes) == n0) {
		v.Dict = src.Dict
		for _, i := range sel {
			v.Codes = append(v.Codes, codes[i])
		}
		size += 4 * n
	} else {
		v.Dict, v.Codes, codes = nil, nil, nil
	}
	switch {
	case src.Int != nil:
		v.Int = appendTaken(v.Int, src.Int, sel)
		size += 8 * n
	case src.Float != nil:
		v.Float = appendTaken(v.Float, src.Float, sel)
		size += 8 * n
	case src.Bool != nil:
		v.Bool = appendTaken(v.Bool, src.Bool, sel)
		size += n
	case src.Str != nil:
		for _, i := range sel {
			s := src.Str[i]
			if codes == nil {
				// A dictionary's entries are held by it; others are copied.
				s = strs.str(unsafe.Slice(unsafe.StringData(s), len(s)))
			}
			v.Str = append(v.Str, s)
			size += 16 + int64(len(s))
		}
	case src.Bytes != nil:
		for _, i := range sel {
			v.Bytes = append(v.Bytes, bytes.Clone(src.Bytes[i]))
			size += 24 + int64(len(src.Bytes[i]))
		}
	case src.Big != nil:
		v.Big = appendTaken(v.Big, src.Big, sel)
		size += 48 * n
	case src.Nested != nil:
		v.Nested = appendTaken(v.Nested, src.Nested, sel)
		size += 64 * n
	}
	return size
}

// appendSpan appends the rows [from, to) of src, of v's type, to v.
func (v *Vector) appendSpan(src *Vector, from, to int) {
	if src.Nulls != nil {
		if v.Nulls == nil {
			v.Nulls = nullFlags(v.Len(), v.Len()+to-from)
		}
		v.Nulls = append(v.Nulls, src.Nulls[from:to]...)
	} else if v.Nulls != nil {
		v.Nulls = extendZero(v.Nulls, to-from)
	}
	if codes := src.dictCodes(); codes != nil {
		// Before the strings: noteCodes reads how many v has.
		v.noteCodes(src.Dict, codes[from:to])
	}
	switch {
	case src.Int != nil:
		v.Int = append(v.Int, src.Int[from:to]...)
	case src.Float != nil:
		v.Float = append(v.Float, src.Float[from:to]...)
	case src.Bool != nil:
		v.Bool = append(v.Bool, src.Bool[from:to]...)
	case src.Str != nil:
		v.Str = append(v.Str, src.Str[from:to]...)
	case src.Bytes != nil:
		v.Bytes = append(v.Bytes, src.Bytes[from:to]...)
	case src.Big != nil:
		v.Big = append(v.Big, src.Big[from:to]...)
	case src.Nested != nil:
		v.Nested = append(v.Nested, src.Nested[from:to]...)
	}
}

// appendTaken appends the values sel of s to dst.
func appendTaken[T any](dst, s []T, sel []int32) []T {
	for _, i := range sel {
		dst = append(dst, s[i])
	}
	return dst
}
