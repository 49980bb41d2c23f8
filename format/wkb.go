package format

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// maxWKBDepth bounds how deeply geometry collections may nest, so hostile
// WKB cannot exhaust the stack. DuckDB stops at 16; real data nests once.
const maxWKBDepth = 32

// The WKB geometry type codes of the OGC Simple Features specification.
const (
	wkbPoint              = 1
	wkbLineString         = 2
	wkbPolygon            = 3
	wkbMultiPoint         = 4
	wkbMultiLineString    = 5
	wkbMultiPolygon       = 6
	wkbGeometryCollection = 7
)

var wkbNames = [...]string{
	wkbPoint:              "POINT",
	wkbLineString:         "LINESTRING",
	wkbPolygon:            "POLYGON",
	wkbMultiPoint:         "MULTIPOINT",
	wkbMultiLineString:    "MULTILINESTRING",
	wkbMultiPolygon:       "MULTIPOLYGON",
	wkbGeometryCollection: "GEOMETRYCOLLECTION",
}

// AppendWKT appends the well-known binary geometry b (ISO WKB, or EWKB with
// its Z, M and SRID flags; either byte order) as the WKT text DuckDB prints
// for a GEOMETRY. On malformed input it returns dst unchanged and an error
// wrapping ErrCorrupt (or ErrLimit for nesting deeper than it allows).
func AppendWKT(dst, b []byte) ([]byte, error) {
	r := wkbReader{b: b}
	start := len(dst)
	out, err := r.geometry(dst, 0, -1)
	if err == nil && r.pos != len(b) {
		err = fmt.Errorf("%w: WKB geometry has %d bytes after its end", ErrCorrupt, len(b)-r.pos)
	}
	if err != nil {
		return dst[:start], err
	}
	return out, nil
}

// wkbReader walks a WKB value; every read is checked against the bytes left.
type wkbReader struct {
	b   []byte
	pos int
}

func (r *wkbReader) fail(format string, args ...any) error {
	return fmt.Errorf("%w: WKB at byte %d: "+format, append([]any{ErrCorrupt, r.pos}, args...)...)
}

func (r *wkbReader) order() (binary.ByteOrder, error) {
	if r.pos >= len(r.b) {
		return nil, r.fail("truncated")
	}
	o := r.b[r.pos]
	r.pos++
	switch o {
	case 0:
		return binary.BigEndian, nil
	case 1:
		return binary.LittleEndian, nil
	}
	return nil, r.fail("byte order %d is neither 0 nor 1", o)
}

func (r *wkbReader) uint32(bo binary.ByteOrder) (uint32, error) {
	if len(r.b)-r.pos < 4 {
		return 0, r.fail("truncated")
	}
	v := bo.Uint32(r.b[r.pos:])
	r.pos += 4
	return v, nil
}

// count reads an element count and checks that elements of at least min
// bytes each fit in what is left, so no count sizes work beyond the input.
func (r *wkbReader) count(bo binary.ByteOrder, min int) (int, error) {
	n, err := r.uint32(bo)
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(min) > uint64(len(r.b)-r.pos) {
		return 0, r.fail("count %d needs more than the %d bytes left", n, len(r.b)-r.pos)
	}
	return int(n), nil
}

// header reads a geometry's byte order and type, returning the type code
// (1..7) and its coordinate dimensions (2, 3 or 4; hasM says whether the
// last is M).
func (r *wkbReader) header() (bo binary.ByteOrder, typ int, hasZ, hasM bool, err error) {
	if bo, err = r.order(); err != nil {
		return
	}
	code, err := r.uint32(bo)
	if err != nil {
		return
	}
	// EWKB keeps Z, M and SRID in the high bits; ISO adds 1000, 2000 or 3000.
	hasZ = code&0x80000000 != 0
	hasM = code&0x40000000 != 0
	if code&0x20000000 != 0 {
		if _, err = r.uint32(bo); err != nil { // the SRID says nothing the text shows
			return
		}
	}
	iso := code & 0xffff
	typ = int(iso % 1000)
	switch iso / 1000 {
	case 0:
	case 1:
		hasZ = true
	case 2:
		hasM = true
	case 3:
		hasZ, hasM = true, true
	default:
		err = r.fail("unknown geometry type %d", code)
		return
	}
	if code&0x1fff0000 != 0 || typ < wkbPoint || typ > wkbGeometryCollection {
		err = r.fail("unknown geometry type %d", code)
	}
	return
}

// geometry appends one geometry. parentDims is the enclosing collection's
// dimension flags (-1 at the top), which a member must share.
func (r *wkbReader) geometry(dst []byte, depth int, parentDims int) ([]byte, error) {
	if depth > maxWKBDepth {
		return dst, fmt.Errorf("%w: WKB geometry collections nest deeper than %d", ErrLimit, maxWKBDepth)
	}
	bo, typ, hasZ, hasM, err := r.header()
	if err != nil {
		return dst, err
	}
	flags := dimFlags(hasZ, hasM)
	if parentDims >= 0 && flags != parentDims {
		return dst, r.fail("%s inside a collection has other Z/M dimensions than the collection", wkbNames[typ])
	}
	dims := 2 + flags&1 + flags>>1
	dst = append(dst, wkbNames[typ]...)
	dst = append(dst, dimSuffix(flags)...)
	switch typ {
	case wkbPoint:
		return r.point(dst, bo, dims)
	case wkbLineString:
		return r.coordList(dst, bo, dims)
	case wkbPolygon:
		return r.rings(dst, bo, dims)
	}
	// The multi types and collections hold whole geometries, header and all.
	n, err := r.count(bo, 5)
	if err != nil {
		return dst, err
	}
	if n == 0 {
		return append(dst, "EMPTY"...), nil
	}
	dst = append(dst, '(')
	for i := 0; i < n; i++ {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if typ == wkbGeometryCollection {
			if dst, err = r.geometry(dst, depth+1, flags); err != nil {
				return dst, err
			}
			continue
		}
		pbo, ptyp, pz, pm, err := r.header()
		if err != nil {
			return dst, err
		}
		if want := typ - 3; ptyp != want {
			return dst, r.fail("%s holds a %s", wkbNames[typ], wkbNames[ptyp])
		}
		if dimFlags(pz, pm) != flags {
			return dst, r.fail("%s holds a part with other Z/M dimensions", wkbNames[typ])
		}
		switch ptyp {
		case wkbPoint:
			// DuckDB lists a multipoint's points without their own parentheses.
			dst, err = r.coords(dst, pbo, dims, true)
		case wkbLineString:
			dst, err = r.coordList(dst, pbo, dims)
		default:
			dst, err = r.rings(dst, pbo, dims)
		}
		if err != nil {
			return dst, err
		}
	}
	return append(dst, ')'), nil
}

func dimFlags(hasZ, hasM bool) int {
	f := 0
	if hasZ {
		f |= 1
	}
	if hasM {
		f |= 2
	}
	return f
}

func dimSuffix(flags int) string {
	return [...]string{" ", " Z ", " M ", " ZM "}[flags]
}

// point appends a point's coordinates in parentheses, or EMPTY when all are
// NaN (WKB has no other way to write an empty point).
func (r *wkbReader) point(dst []byte, bo binary.ByteOrder, dims int) ([]byte, error) {
	if len(r.b)-r.pos < 8*dims {
		return dst, r.fail("truncated point")
	}
	if r.allNaN(bo, dims) {
		r.pos += 8 * dims
		return append(dst, "EMPTY"...), nil
	}
	dst = append(dst, '(')
	dst, err := r.coords(dst, bo, dims, false)
	return append(dst, ')'), err
}

func (r *wkbReader) allNaN(bo binary.ByteOrder, dims int) bool {
	for d := 0; d < dims; d++ {
		if !math.IsNaN(math.Float64frombits(bo.Uint64(r.b[r.pos+8*d:]))) {
			return false
		}
	}
	return true
}

// coords appends one vertex, its numbers separated by spaces; emptyPoint
// prints an all-NaN vertex as EMPTY.
func (r *wkbReader) coords(dst []byte, bo binary.ByteOrder, dims int, emptyPoint bool) ([]byte, error) {
	if len(r.b)-r.pos < 8*dims {
		return dst, r.fail("truncated coordinates")
	}
	if emptyPoint && r.allNaN(bo, dims) {
		r.pos += 8 * dims
		return append(dst, "EMPTY"...), nil
	}
	for d := 0; d < dims; d++ {
		if d > 0 {
			dst = append(dst, ' ')
		}
		dst = appendCoord(dst, math.Float64frombits(bo.Uint64(r.b[r.pos:])))
		r.pos += 8
	}
	return dst, nil
}

// coordList appends a counted vertex list as (x y, x y) or EMPTY.
func (r *wkbReader) coordList(dst []byte, bo binary.ByteOrder, dims int) ([]byte, error) {
	n, err := r.count(bo, 8*dims)
	if err != nil {
		return dst, err
	}
	if n == 0 {
		return append(dst, "EMPTY"...), nil
	}
	dst = append(dst, '(')
	for i := 0; i < n; i++ {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst, _ = r.coords(dst, bo, dims, false) // count checked the bytes
	}
	return append(dst, ')'), nil
}

// rings appends a polygon's counted rings as ((...), (...)) or EMPTY.
func (r *wkbReader) rings(dst []byte, bo binary.ByteOrder, dims int) ([]byte, error) {
	n, err := r.count(bo, 4)
	if err != nil {
		return dst, err
	}
	if n == 0 {
		return append(dst, "EMPTY"...), nil
	}
	dst = append(dst, '(')
	for i := 0; i < n; i++ {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if dst, err = r.coordList(dst, bo, dims); err != nil {
			return dst, err
		}
	}
	return append(dst, ')'), nil
}

// appendCoord appends a coordinate as DuckDB's WKT writer does: the
// shortest round-trip text, without a trailing ".0".
func appendCoord(dst []byte, f float64) []byte {
	start := len(dst)
	dst = AppendFloat(dst, f, 64)
	if s := dst[start:]; bytes.HasSuffix(s, []byte(".0")) && bytes.IndexByte(s, 'e') < 0 {
		dst = dst[:len(dst)-2]
	}
	return dst
}
