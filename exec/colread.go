package exec

import (
	"fmt"
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
}

// newColReader wraps the decoded leaves of field f.
func newColReader(f *format.Field, data map[int]*format.ColumnData) (colReader, error) {
	if f.Kind == format.ScalarField && f.Leaf.MaxRep == 0 {
		return newFlatReader(f, data[f.Leaf.Index])
	}
	v, rows, err := fieldVector(f, data)
	if err != nil {
		return nil, err
	}
	return &nestedReader{name: f.Name, vec: v, rows: rows}, nil
}

// A flatReader serves a column without repetition: one entry per row, so a
// row is found by its page's first row and entry alone.
type flatReader struct {
	name string
	cd   *format.ColumnData
	lg   format.Logical
	max  int32
	// The cursor: page, and an entry of it with the index of the entry's
	// value (the number of non-null entries before it).
	page, e, v int
	strs       strArena
}

func newFlatReader(f *format.Field, cd *format.ColumnData) (*flatReader, error) {
	if cd == nil {
		return nil, errCorrupt(f.Name, "the column was not decoded")
	}
	r := &flatReader{name: f.Name, cd: cd, lg: format.LogicalOf(f.Leaf), max: int32(f.Leaf.MaxDef)}
	// Check what gather relies on, so that a damaged file fails here
	// rather than indexing out of range.
	nonNull := cd.NumEntries
	if cd.Def != nil {
		if len(cd.Def) < cd.NumEntries {
			return nil, errCorrupt(f.Name, "fewer definition levels than entries")
		}
		nonNull = 0
		for _, d := range cd.Def[:cd.NumEntries] {
			if d == r.max {
				nonNull++
			}
		}
	}
	if cd.Values.Len() < nonNull {
		return nil, errCorrupt(f.Name, "fewer values than non-null entries")
	}
	prevEnd := int64(-1)
	entry := 0
	for _, p := range cd.Pages {
		if p.NumRows != int64(p.NumEntries) || p.FirstEntry != entry || p.FirstRow < prevEnd || p.FirstRow < 0 {
			return nil, errCorrupt(f.Name, "page row counts do not match the entries")
		}
		entry += p.NumEntries
		prevEnd = p.FirstRow + p.NumRows
	}
	if entry != cd.NumEntries {
		return nil, errCorrupt(f.Name, "page row counts do not match the entries")
	}
	r.rewind()
	return r, nil
}

func (r *flatReader) rewind() {
	r.page, r.e, r.v = 0, 0, 0
	if len(r.cd.Pages) > 0 {
		p := r.cd.Pages[0]
		r.e, r.v = p.FirstEntry, p.FirstValue
	}
}

func (r *flatReader) gather(dst *Vector, runs []rowRange) error {
	pages := r.cd.Pages
	for _, run := range runs {
		row := run.First
		for row < run.End {
			for r.page < len(pages) && pages[r.page].FirstRow+pages[r.page].NumRows <= row {
				r.page++
				if r.page < len(pages) {
					r.e, r.v = pages[r.page].FirstEntry, pages[r.page].FirstValue
				}
			}
			if r.page >= len(pages) || pages[r.page].FirstRow > row {
				return fmt.Errorf("%w: column %s: row %d was not decoded", ErrCorrupt, r.name, row)
			}
			p := pages[r.page]
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

// appendEntries appends entries [e0, e0+n) of page p.
func (r *flatReader) appendEntries(dst *Vector, p format.PageSpan, e0, n int) error {
	cd := r.cd
	if cd.Def == nil {
		v0 := p.FirstValue + (e0 - p.FirstEntry)
		if v0 < 0 || v0+n > cd.Values.Len() {
			return errCorrupt(r.name, "fewer values than entries")
		}
		appendValues(dst, r.lg, &cd.Values, v0, v0+n, &r.strs)
		return nil
	}
	if e0 < r.e {
		r.e, r.v = p.FirstEntry, p.FirstValue
	}
	def := cd.Def
	for ; r.e < e0; r.e++ {
		if def[r.e] == r.max {
			r.v++
		}
	}
	end := e0 + n
	for e := e0; e < end; {
		if def[e] != r.max {
			dst.appendNull()
			e++
			continue
		}
		s := e
		for e < end && def[e] == r.max {
			e++
		}
		if r.v+(e-s) > cd.Values.Len() {
			return errCorrupt(r.name, "fewer values than non-null entries")
		}
		appendValues(dst, r.lg, &cd.Values, r.v, r.v+(e-s), &r.strs)
		r.v += e - s
	}
	r.e = end
	return nil
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
		for _, x := range vals.Int32[from:to] {
			v.Int = append(v.Int, int64(x))
		}
	case format.KindUint8, format.KindUint16, format.KindUint32:
		for _, x := range vals.Int32[from:to] {
			v.Int = append(v.Int, int64(uint32(x)))
		}
	case format.KindInt64, format.KindUint64:
		v.Int = append(v.Int, vals.Int64[from:to]...)
	case format.KindFloat:
		for _, x := range vals.Float[from:to] {
			v.Float = append(v.Float, float64(x))
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
			for _, x := range vals.Int32[from:to] {
				v.Int = append(v.Int, int64(x))
			}
		case vals.Type == meta.Int64:
			v.Int = append(v.Int, vals.Int64[from:to]...)
		default:
			bulk = false
		}
	case format.KindString:
		for _, b := range vals.Bytes[from:to] {
			v.Str = append(v.Str, strs.str(b))
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
		for range n {
			v.Nulls = append(v.Nulls, false)
		}
	}
}

// A nestedReader serves an assembled STRUCT, LIST, MAP or VARIANT field.
type nestedReader struct {
	name string
	vec  *Vector
	rows []int64
	at   int
}

func (r *nestedReader) rewind() { r.at = 0 }

func (r *nestedReader) gather(dst *Vector, runs []rowRange) error {
	for _, run := range runs {
		for row := run.First; row < run.End; row++ {
			for r.at < len(r.rows) && r.rows[r.at] < row {
				r.at++
			}
			if r.at >= len(r.rows) || r.rows[r.at] != row {
				return fmt.Errorf("%w: column %s: row %d was not decoded", ErrCorrupt, r.name, row)
			}
			dst.appendRow(r.vec, r.at)
		}
	}
	return nil
}

// arenaSize is the size of the blocks a strArena copies strings into.
const arenaSize = 32 << 10

// A strArena turns byte strings into Go strings with one allocation per
// block rather than one per string. Bytes written to a block are never
// written again, so the strings made from them stay immutable.
//
// Dictionary-encoded values are slices of the dictionary page, repeated:
// a small cache keyed by the slice itself (which it holds, so the bytes
// cannot be freed and their address reused) makes each dictionary entry a
// string once.
type strArena struct {
	buf   []byte
	cache [256]struct {
		b []byte
		s string
	}
}

func (a *strArena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	p := unsafe.SliceData(b)
	slot := &a.cache[(uint64(uintptr(unsafe.Pointer(p)))*0x9E3779B97F4A7C15)>>56]
	if len(slot.b) == len(b) && unsafe.SliceData(slot.b) == p {
		return slot.s
	}
	var s string
	if cap(a.buf)-len(a.buf) < len(b) && len(b) > arenaSize/4 {
		s = string(b)
	} else {
		if cap(a.buf)-len(a.buf) < len(b) {
			a.buf = make([]byte, 0, arenaSize)
		}
		start := len(a.buf)
		a.buf = append(a.buf, b...)
		s = unsafe.String(&a.buf[start], len(b))
	}
	slot.b, slot.s = b, s
	return s
}
