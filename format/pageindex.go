package format

import (
	"fmt"

	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
)

// HasPageIndex reports whether leaf col of row group rg has both a
// ColumnIndex and an OffsetIndex.
func (f *File) HasPageIndex(rg, col int) bool {
	c := f.Chunk(rg, col)
	return c.ColumnIndexOffset != nil && c.ColumnIndexLength != nil && c.OffsetIndexOffset != nil && c.OffsetIndexLength != nil
}

// ColumnIndexRange and OffsetIndexRange locate a chunk's page index parts.
func (f *File) ColumnIndexRange(rg, col int) (Range, bool) {
	c := f.Chunk(rg, col)
	if c.ColumnIndexOffset == nil || c.ColumnIndexLength == nil {
		return Range{}, false
	}
	return Range{*c.ColumnIndexOffset, int64(*c.ColumnIndexLength)}, true
}

// OffsetIndexRange locates a chunk's OffsetIndex.
func (f *File) OffsetIndexRange(rg, col int) (Range, bool) {
	c := f.Chunk(rg, col)
	if c.OffsetIndexOffset == nil || c.OffsetIndexLength == nil {
		return Range{}, false
	}
	return Range{*c.OffsetIndexOffset, int64(*c.OffsetIndexLength)}, true
}

// absent is the ErrAbsent error for a chunk's missing structure.
func (f *File) absent(what string, rg, col int) error {
	return fmt.Errorf("format: file %s: row group %d, column %s: %w %s", f.Name, rg, f.Schema.Leaves[col].Path, ErrAbsent, what)
}

// indexRange fails unless r can be a chunk's page index part: inside the
// file and no longer than a page may be.
func (f *File) indexRange(r Range, what string, rg, col int) error {
	if r.Length <= 0 || r.Length > f.Limits.MaxPageSize {
		return fmt.Errorf("%s: %w: %s of %d bytes", f.indexWhere("", rg, col), ErrCorrupt, what, r.Length)
	}
	if err := checkRange(f.Source, r); err != nil {
		return fmt.Errorf("%s: %w", f.indexWhere(what, rg, col), err)
	}
	return nil
}

// indexBytes reads a chunk's page index part by read (readPooled or
// readRange).
func (f *File) indexBytes(r Range, what string, rg, col int, read func(Source, Range) ([]byte, error)) ([]byte, error) {
	if err := f.indexRange(r, what, rg, col); err != nil {
		return nil, err
	}
	b, err := read(f.Source, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.indexWhere(what, rg, col), err)
	}
	return b, nil
}

// ReadColumnIndex reads and checks the ColumnIndex of leaf col in row group
// rg. It returns an error wrapping ErrAbsent when the chunk has none.
func (f *File) ReadColumnIndex(rg, col int) (*meta.ColumnIndex, error) {
	r, ok := f.ColumnIndexRange(rg, col)
	if !ok {
		return nil, f.absent("column index", rg, col)
	}
	b, err := f.indexBytes(r, "column index", rg, col, readPooled)
	if err != nil {
		return nil, err
	}
	// The index decoded copies what it keeps of the bytes.
	defer putFetchBuffer(b)
	return f.DecodeColumnIndex(rg, col, b)
}

// DecodeColumnIndex decodes and checks a ColumnIndex already fetched.
func (f *File) DecodeColumnIndex(rg, col int, b []byte) (*meta.ColumnIndex, error) {
	ci, err := thrift.DecodeColumnIndex(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", f.indexWhere("column index", rg, col), ErrCorrupt, err)
	}
	if err := f.checkColumnIndex(ci, rg, col); err != nil {
		return nil, err
	}
	return ci, nil
}

// A ColumnIndexBuf holds a column index decoded by ReadColumnIndexInto or
// DecodeColumnIndexInto; the arrays of its lists serve the next one decoded
// into it, so that judging chunk after chunk allocates them once.
type ColumnIndexBuf struct{ b thrift.ColumnIndexBuf }

// ReadColumnIndexInto is ReadColumnIndex into buf, whose column index it
// returns, valid until buf is decoded into again. Its byte values are
// slices of raw, the bytes read, which belong to the caller: keeping raw
// keeps the column index, which DecodeColumnIndexInto gives again.
func (f *File) ReadColumnIndexInto(rg, col int, buf *ColumnIndexBuf) (ci *meta.ColumnIndex, raw []byte, err error) {
	r, ok := f.ColumnIndexRange(rg, col)
	if !ok {
		return nil, nil, f.absent("column index", rg, col)
	}
	// Not pooled: the caller keeps the bytes.
	raw, err = f.indexBytes(r, "column index", rg, col, readRange)
	if err != nil {
		return nil, nil, err
	}
	ci, err = f.DecodeColumnIndexInto(rg, col, raw, buf)
	if err != nil {
		return nil, nil, err
	}
	return ci, raw, nil
}

// DecodeColumnIndexInto is DecodeColumnIndex into buf, whose column index
// it returns, valid until buf is decoded into again. Its byte values are
// slices of b, which must not change while they are in use.
func (f *File) DecodeColumnIndexInto(rg, col int, b []byte, buf *ColumnIndexBuf) (*meta.ColumnIndex, error) {
	if err := thrift.DecodeColumnIndexInto(b, &buf.b); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", f.indexWhere("column index", rg, col), ErrCorrupt, err)
	}
	ci := &buf.b.CI
	if err := f.checkColumnIndex(ci, rg, col); err != nil {
		return nil, err
	}
	return ci, nil
}

// checkColumnIndex fails unless ci's lists each have an entry a page.
func (f *File) checkColumnIndex(ci *meta.ColumnIndex, rg, col int) error {
	n := len(ci.NullPages)
	if len(ci.MinValues) != n || len(ci.MaxValues) != n || (ci.NullCounts != nil && len(ci.NullCounts) != n) ||
		(ci.NanCounts != nil && len(ci.NanCounts) != n) {
		return fmt.Errorf("%s: %w: list lengths differ (%d null_pages, %d min, %d max, %d null counts)", f.indexWhere("column index", rg, col), ErrCorrupt, n, len(ci.MinValues), len(ci.MaxValues), len(ci.NullCounts))
	}
	return nil
}

// indexWhere names a chunk's page index part for an error; it is built
// only when one is returned.
func (f *File) indexWhere(what string, rg, col int) string {
	where := fmt.Sprintf("format: file %s: row group %d, column %s", f.Name, rg, f.Schema.Leaves[col].Path)
	if what != "" {
		where += ": " + what
	}
	return where
}

// ReadOffsetIndex reads and checks the OffsetIndex of leaf col in row group
// rg. It returns an error wrapping ErrAbsent when the chunk has none.
func (f *File) ReadOffsetIndex(rg, col int) (*meta.OffsetIndex, error) {
	r, ok := f.OffsetIndexRange(rg, col)
	if !ok {
		return nil, f.absent("offset index", rg, col)
	}
	b, err := f.indexBytes(r, "offset index", rg, col, readPooled)
	if err != nil {
		return nil, err
	}
	// The index decoded copies what it keeps of the bytes.
	defer putFetchBuffer(b)
	return f.DecodeOffsetIndex(rg, col, b)
}

// DecodeOffsetIndex decodes an OffsetIndex already fetched and checks that
// its pages lie in the chunk, in order, with rising first rows from 0.
func (f *File) DecodeOffsetIndex(rg, col int, b []byte) (*meta.OffsetIndex, error) {
	oi, err := thrift.DecodeOffsetIndex(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", f.indexWhere("offset index", rg, col), ErrCorrupt, err)
	}
	if err := f.checkOffsetIndex(oi, rg, col); err != nil {
		return nil, err
	}
	return oi, nil
}

// An OffsetIndexBuf holds an offset index read by ReadOffsetIndexInto and
// the bytes it was read from; the arrays of both serve the next one read
// into it, so that placing the pages of chunk after chunk allocates them
// once.
type OffsetIndexBuf struct {
	b   thrift.OffsetIndexBuf
	raw []byte
}

// ReadOffsetIndexInto is ReadOffsetIndex into buf, whose offset index it
// returns with the bytes it was decoded from: both are valid until buf is
// read into again.
func (f *File) ReadOffsetIndexInto(rg, col int, buf *OffsetIndexBuf) (oi *meta.OffsetIndex, raw []byte, err error) {
	r, ok := f.OffsetIndexRange(rg, col)
	if !ok {
		return nil, nil, f.absent("offset index", rg, col)
	}
	if err := f.indexRange(r, "offset index", rg, col); err != nil {
		return nil, nil, err
	}
	if int64(cap(buf.raw)) < r.Length {
		buf.raw = make([]byte, r.Length)
	}
	raw = buf.raw[:r.Length]
	if err := readFull(f.Source, raw, r.Offset); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", f.indexWhere("offset index", rg, col), err)
	}
	oi, err = f.DecodeOffsetIndexInto(rg, col, raw, buf)
	if err != nil {
		return nil, nil, err
	}
	return oi, raw, nil
}

// DecodeOffsetIndexInto is DecodeOffsetIndex into buf, whose offset index
// it returns, valid until buf is read into again.
func (f *File) DecodeOffsetIndexInto(rg, col int, b []byte, buf *OffsetIndexBuf) (*meta.OffsetIndex, error) {
	if err := thrift.DecodeOffsetIndexInto(b, &buf.b); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", f.indexWhere("offset index", rg, col), ErrCorrupt, err)
	}
	oi := &buf.b.OI
	if err := f.checkOffsetIndex(oi, rg, col); err != nil {
		return nil, err
	}
	return oi, nil
}

// checkOffsetIndex fails unless oi's pages lie in the chunk, in order, with
// rising first rows from 0.
func (f *File) checkOffsetIndex(oi *meta.OffsetIndex, rg, col int) error {
	chunk, err := f.ChunkRange(rg, col)
	if err != nil {
		return fmt.Errorf("%s: %w", f.indexWhere("offset index", rg, col), err)
	}
	rows := f.Meta.RowGroups[rg].NumRows
	prevEnd, prevRow := chunk.Offset, int64(-1)
	for i, p := range oi.PageLocations {
		if p.CompressedPageSize <= 0 || p.Offset < prevEnd || p.Offset+int64(p.CompressedPageSize) > chunk.End() {
			return fmt.Errorf("%s: %w: page %d at [%d, %d) is outside column chunk [%d, %d) or overlaps the previous page", f.indexWhere("offset index", rg, col), ErrCorrupt, i, p.Offset, p.Offset+int64(p.CompressedPageSize), chunk.Offset, chunk.End())
		}
		if (i == 0 && p.FirstRowIndex != 0) || p.FirstRowIndex <= prevRow || p.FirstRowIndex >= rows {
			return fmt.Errorf("%s: %w: page %d starts at row %d (previous %d, row group has %d rows)", f.indexWhere("offset index", rg, col), ErrCorrupt, i, p.FirstRowIndex, prevRow, rows)
		}
		prevEnd, prevRow = p.Offset+int64(p.CompressedPageSize), p.FirstRowIndex
	}
	return nil
}

// PageRows returns the row range [first, end) of page i of an OffsetIndex in
// a row group of rows rows.
func PageRows(oi *meta.OffsetIndex, i int, rows int64) (first, end int64) {
	first = oi.PageLocations[i].FirstRowIndex
	if i+1 < len(oi.PageLocations) {
		return first, oi.PageLocations[i+1].FirstRowIndex
	}
	return first, rows
}

// DictionaryRange is the bytes before a chunk's first data page, where its
// dictionary page sits; Length is 0 when there is none.
func (f *File) DictionaryRange(rg, col int, oi *meta.OffsetIndex) Range {
	chunk, err := f.ChunkRange(rg, col)
	if err != nil || oi == nil || len(oi.PageLocations) == 0 {
		return Range{}
	}
	first := oi.PageLocations[0].Offset
	if first <= chunk.Offset {
		return Range{}
	}
	return Range{chunk.Offset, first - chunk.Offset}
}
