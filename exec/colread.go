package exec

import (
	"fmt"
	"io"
	"slices"
	"time"
	"unsafe"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// A colReader serves one field of one row group, decoded from the pages the
// scan read, by row-group row.
type colReader interface {
	// gather appends the values of the rows in runs (ascending, disjoint,
	// and all inside decoded pages) to dst. Successive calls must ask for
	// ascending rows until rewind.
	gather(dst *Vector, runs []rowRange) error
	// rewind lets gather start again from the first row.
	rewind()
	// drain decodes what the reader holds and gather has not reached, the
	// first time through, so that a damaged page fails the query whether
	// or not one of its rows was needed.
	drain() error
}

// newNestedReader wraps the decoded leaves of field f, which has repetition
// or several leaves: it is assembled whole.
func newNestedReader(f *format.Field, data map[int]*format.ColumnData) (colReader, error) {
	v, rows, err := fieldVector(f, data)
	if err != nil {
		return nil, err
	}
	return &nestedReader{name: f.Name, vec: v, rows: rows}, nil
}

// A flatReader serves a column without repetition: one entry per row, so a
// row is found by its page's first row and entry alone. It decodes one page
// at a time as gather reaches it and holds only that page.
type flatReader struct {
	name string
	lg   format.Logical
	max  int32
	// open starts reading the leaf's pages from the first.
	open func() (*format.PageReader, error)
	// decoded, when not nil, is told of each page or slice of a page the
	// reader decodes before its first rewind (page: it begins a page), with
	// the time it took.
	decoded func(rows int64, page bool, took time.Duration)
	// again: rewound after a first pass that checked every page, so pages
	// without a wanted row are passed over undecoded.
	again bool
	pr    *format.PageReader
	// cd is the current page (nil before the first); done is set when the
	// pages are exhausted. prevEnd is the end row of the page before it.
	cd      *format.ColumnData
	p       format.PageSpan
	done    bool
	prevEnd int64
	// The cursor: an entry of the page with the index of the entry's value
	// (the number of non-null entries before it).
	e, v int
	strs strArena
	// dict is the chunk's dictionary once a page has met it, given to the
	// readers of later passes; dv is it converted (dictfilter.go).
	dict *format.Values
	dv   *dictVector
	// judging counts the rows selectRows judges.
	judging int64
	// once: the reader is never rewound, so once its pages are exhausted
	// the page reader's storage, its dictionary's included, is handed back
	// for the next chunk.
	once bool
	// streamed is how many bytes the reader streams, 0 when its pages were
	// fetched.
	streamed int64
	// closed: the pages were exhausted and the page reader closed (once).
	closed bool
}

func newFlatReader(f *format.Field, open func() (*format.PageReader, error), decoded func(int64, bool, time.Duration)) *flatReader {
	r := &flatReader{name: f.Name, lg: format.LogicalOf(f.Leaf), max: int32(f.Leaf.MaxDef), open: open, decoded: decoded}
	r.rewind()
	return r
}

func (r *flatReader) rewind() {
	if r.pr != nil || r.closed {
		// The pages of a second pass were counted in the first.
		r.decoded, r.again = nil, true
	}
	r.pr, r.cd, r.done, r.prevEnd, r.e, r.v, r.closed = nil, nil, false, -1, 0, 0, false
}

func (r *flatReader) drain() error {
	if r.again {
		return nil
	}
	for !r.done {
		if err := r.nextPage(-1); err != nil {
			return err
		}
	}
	return nil
}

// nextPage moves to the next page, the next holding row on a second pass;
// done is set after the last.
func (r *flatReader) nextPage(row int64) error {
	if r.pr == nil {
		pr, err := r.open()
		if err != nil {
			return decodeError{err}
		}
		pr.KeepIndices()
		pr.UseDictionary(r.dict)
		if r.once && r.lg.Kind == format.KindString {
			// Strings are copied into the arena as gathered, and a page is
			// left only once gathered from: its bytes can serve the next.
			pr.ReuseByteArrays()
			r.strs.uncached = true
		}
		r.pr = pr
	}
	if r.cd != nil {
		r.pr.Release()
		r.cd = nil
	}
	start := time.Now()
	var cd *format.ColumnData
	var err error
	if r.again {
		cd, err = r.pr.NextFrom(row)
	} else {
		cd, err = r.pr.Next()
	}
	if err == io.EOF {
		r.done = true
		if r.once {
			// Every value gathered was copied out of the dictionary.
			// The page reader serves later chunks: it is dropped.
			r.pr.Close()
			r.pr, r.closed = nil, true
			r.dv.drop()
			r.dict, r.dv = nil, nil
		}
		return nil
	}
	if err != nil {
		return decodeError{err}
	}
	r.dict = r.pr.Dictionary()
	// Check what gather relies on, so that a damaged file fails here
	// rather than indexing out of range.
	if len(cd.Pages) != 1 {
		return errCorrupt(r.name, "page row counts do not match the entries")
	}
	p := cd.Pages[0]
	nonNull := cd.NumEntries
	if cd.Def != nil {
		if len(cd.Def) < cd.NumEntries {
			return errCorrupt(r.name, "fewer definition levels than entries")
		}
		nonNull = 0
		for _, d := range cd.Def[:cd.NumEntries] {
			if d == r.max {
				nonNull++
			}
		}
	}
	if valuesIn(cd) < nonNull {
		return errCorrupt(r.name, "fewer values than non-null entries")
	}
	if p.NumRows != int64(p.NumEntries) || p.FirstEntry != 0 || p.NumEntries != cd.NumEntries || p.FirstRow < r.prevEnd || p.FirstRow < 0 {
		return errCorrupt(r.name, "page row counts do not match the entries")
	}
	r.cd, r.p, r.e, r.v = cd, p, p.FirstEntry, p.FirstValue
	r.prevEnd = p.FirstRow + p.NumRows
	if r.decoded != nil {
		r.decoded(p.NumRows, !p.Continued, time.Since(start))
	}
	return nil
}

// seekPage makes r's current page the one holding row.
func (r *flatReader) seekPage(row int64) error {
	for !r.done && (r.cd == nil || r.p.FirstRow+r.p.NumRows <= row) {
		if err := r.nextPage(row); err != nil {
			return err
		}
	}
	if r.done || r.p.FirstRow > row {
		return errCorrupt(r.name, fmt.Sprintf("row %d was not decoded", row))
	}
	return nil
}

func (r *flatReader) gather(dst *Vector, runs []rowRange) error {
	for _, run := range runs {
		row := run.First
		for row < run.End {
			if err := r.seekPage(row); err != nil {
				return err
			}
			p := r.p
			end := min(run.End, p.FirstRow+p.NumRows)
			e0 := p.FirstEntry + int(row-p.FirstRow)
			if err := r.appendEntries(dst, p, e0, int(end-row)); err != nil {
				return err
			}
			row = end
		}
	}
	return nil
}

// A decodeError is an error of decoding a page, which format already
// placed in its file and row group: gather passes it on as it is.
type decodeError struct{ err error }

func (e decodeError) Error() string { return e.err.Error() }
func (e decodeError) Unwrap() error { return e.err }

// appendEntries appends entries [e0, e0+n) of page p, the current page.
func (r *flatReader) appendEntries(dst *Vector, p format.PageSpan, e0, n int) error {
	cd := r.cd
	if cd.Def == nil || p.NoNulls {
		v0 := p.FirstValue + (e0 - p.FirstEntry)
		if v0 < 0 || v0+n > valuesIn(cd) {
			return errCorrupt(r.name, "fewer values than entries")
		}
		r.appendRange(dst, v0, v0+n)
		// The cursor seek walks from stays on the page's entries.
		r.e, r.v = e0+n, v0+n
		return nil
	}
	r.seek(e0)
	def := cd.Def
	end := e0 + n
	for e := e0; e < end; {
		if def[e] != r.max {
			s := e
			for e < end && def[e] != r.max {
				e++
			}
			dst.appendNulls(e - s)
			continue
		}
		s := e
		for e < end && def[e] == r.max {
			e++
		}
		if r.v+(e-s) > valuesIn(cd) {
			return errCorrupt(r.name, "fewer values than non-null entries")
		}
		r.appendRange(dst, r.v, r.v+(e-s))
		r.v += e - s
	}
	r.e = end
	return nil
}

// valuesIn counts the values of a page, kept as values or as dictionary
// indices.
func valuesIn(cd *format.ColumnData) int {
	if cd.Dict != nil {
		return len(cd.Indices)
	}
	return cd.Values.Len()
}

// appendRange appends the current page's non-null values [from, to).
func (r *flatReader) appendRange(dst *Vector, from, to int) {
	if cd := r.cd; cd.Dict != nil {
		r.appendDict(dst, cd.Dict, cd.Indices[from:to])
		return
	}
	appendValues(dst, r.lg, &r.cd.Values, from, to, &r.strs)
}

// appendValues appends the non-null values [from, to) of vals, converted to
// v's type; the common kinds in bulk, the rest through appendLeaf.
func appendValues(v *Vector, lg format.Logical, vals *format.Values, from, to int, strs *strArena) {
	n := to - from
	if n <= 0 {
		return
	}
	bulk := true
	switch lg.Kind {
	case format.KindBoolean:
		v.Bool = append(v.Bool, vals.Bool[from:to]...)
	case format.KindInt8, format.KindInt16, format.KindInt32, format.KindNull, format.KindDate:
		var out []int64
		v.Int, out = extend(v.Int, n)
		for k, x := range vals.Int32[from:to] {
			out[k] = int64(x)
		}
	case format.KindUint8, format.KindUint16, format.KindUint32:
		var out []int64
		v.Int, out = extend(v.Int, n)
		for k, x := range vals.Int32[from:to] {
			out[k] = int64(uint32(x))
		}
	case format.KindInt64, format.KindUint64:
		v.Int = append(v.Int, vals.Int64[from:to]...)
	case format.KindFloat:
		var out []float64
		v.Float, out = extend(v.Float, n)
		for k, x := range vals.Float[from:to] {
			out[k] = float64(x)
		}
	case format.KindDouble:
		if lg.Precision > 0 {
			bulk = false
			break
		}
		v.Float = append(v.Float, vals.Double[from:to]...)
	case format.KindDecimal:
		switch {
		case wideDecimal(v.Type):
			bulk = false
		case vals.Type == meta.Int32:
			var out []int64
			v.Int, out = extend(v.Int, n)
			for k, x := range vals.Int32[from:to] {
				out[k] = int64(x)
			}
		case vals.Type == meta.Int64:
			v.Int = append(v.Int, vals.Int64[from:to]...)
		default:
			bulk = false
		}
	case format.KindString:
		var out []string
		v.Str, out = extend(v.Str, n)
		for k, b := range vals.Bytes[from:to] {
			out[k] = strs.str(b)
		}
	case format.KindTimestamp, format.KindTimestampTZ:
		if v.Type.ID != TypeTimestampNS && lg.Unit != meta.Micros {
			bulk = false
			break
		}
		v.Int = append(v.Int, vals.Int64[from:to]...)
	default:
		bulk = false
	}
	if !bulk {
		for i := from; i < to; i++ {
			v.appendLeaf(lg, vals, i)
		}
		return
	}
	if v.Nulls != nil {
		var out []bool
		v.Nulls, out = extend(v.Nulls, n)
		clear(out)
	}
}

// extend lengthens s by n and returns it with the new tail to fill: one
// growth per run of values rather than an append per value.
func extend[T any](s []T, n int) (all, tail []T) {
	l := len(s)
	s = slices.Grow(s, n)[:l+n]
	return s, s[l:]
}

// A nestedReader serves an assembled STRUCT, LIST, MAP or VARIANT field.
type nestedReader struct {
	name string
	vec  *Vector
	rows []int64
	at   int
}

func (r *nestedReader) rewind() { r.at = 0 }

// drain has nothing to do: the field was decoded whole.
func (r *nestedReader) drain() error { return nil }

func (r *nestedReader) gather(dst *Vector, runs []rowRange) error {
	for _, run := range runs {
		for row := run.First; row < run.End; row++ {
			for r.at < len(r.rows) && r.rows[r.at] < row {
				r.at++
			}
			if r.at >= len(r.rows) || r.rows[r.at] != row {
				return errCorrupt(r.name, fmt.Sprintf("row %d was not decoded", row))
			}
			dst.appendRow(r.vec, r.at)
		}
	}
	return nil
}

// arenaSize is the largest block a strArena copies strings into; its
// first block is firstArena, and each next one twice the last, so that a
// column of a few rows (a glob of small files) costs a few hundred bytes,
// not a full block.
const (
	arenaSize  = 32 << 10
	firstArena = 512
)

// uncachedStrings is how many strings an arena makes before it keeps a
// cache: one of a few rows is not worth the cache's 10 KB.
const uncachedStrings = 64

// A strArena turns byte strings into Go strings with one allocation per
// block rather than one per string. Bytes written to a block are never
// written again, so the strings made from them stay immutable.
//
// Dictionary-encoded values are slices of the dictionary page, repeated:
// a small cache keyed by the slice itself (which it holds, so the bytes
// cannot be freed and their address reused) makes each dictionary entry a
// string once.
type strArena struct {
	buf  []byte
	made int
	// uncached: the bytes given may be written again once turned into
	// strings, so no cache may tell them by their address.
	uncached bool
	cache    *[256]struct {
		b []byte
		s string
	}
}

func (a *strArena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if a.cache == nil && !a.uncached {
		if a.made++; a.made > uncachedStrings {
			a.cache = new([256]struct {
				b []byte
				s string
			})
		}
	}
	p := unsafe.SliceData(b)
	var slot *struct {
		b []byte
		s string
	}
	if a.cache != nil {
		slot = &a.cache[(uint64(uintptr(unsafe.Pointer(p)))*0x9E3779B97F4A7C15)>>56]
		if len(slot.b) == len(b) && unsafe.SliceData(slot.b) == p {
			return slot.s
		}
	}
	var s string
	if cap(a.buf)-len(a.buf) < len(b) && len(b) > arenaSize/4 {
		s = string(b)
	} else {
		if cap(a.buf)-len(a.buf) < len(b) {
			a.buf = make([]byte, 0, min(max(2*cap(a.buf), firstArena, len(b)), arenaSize))
		}
		start := len(a.buf)
		a.buf = append(a.buf, b...)
		s = unsafe.String(&a.buf[start], len(b))
	}
	if slot != nil {
		slot.b, slot.s = b, s
	}
	return s
}
