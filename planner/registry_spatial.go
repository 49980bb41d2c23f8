package planner

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/peterstace/simplefeatures/geom"

	"github.com/pqsql/pqsql/format"
)

// The spatial functions of DuckDB's spatial extension, on GEOMETRY values
// held as ISO WKB. Planar predicates, distances, areas and centroids come
// from simplefeatures; a VARCHAR argument where a GEOMETRY is expected is
// parsed as WKT, as DuckDB's implicit cast does.

var tGeometry = Type{ID: TypeBlob, Name: "GEOMETRY"}

// isGeometry reports whether t is GEOMETRY (GEOGRAPHY columns read as it).
func isGeometry(t Type) bool { return t.ID == TypeBlob && t.Name == "GEOMETRY" }

func init() {
	g, d := 'g', 'd'
	fs := []*ScalarFunc{
		{Name: "st_geomfromtext", Bind: spatialBind(tGeometry, 'v'), Eval: evalGeomFromText},
		{Name: "st_geomfromwkb", Bind: spatialBind(tGeometry, 'b'), Eval: evalGeomFromWKB},
		{Name: "st_astext", Bind: spatialBind(tVarchar, g), Eval: evalAsText},
		{Name: "st_aswkb", Bind: spatialBind(Type{ID: TypeBlob}, g), Eval: evalAsWKB},
		{Name: "st_point", Bind: spatialBind(tGeometry, d, d), Eval: evalPoint},
		{Name: "st_makeenvelope", Bind: spatialBind(tGeometry, d, d, d, d), Eval: evalMakeEnvelope},
		{Name: "st_x", Bind: spatialBind(tDouble, g), Eval: pointCoord(0)},
		{Name: "st_y", Bind: spatialBind(tDouble, g), Eval: pointCoord(1)},
		{Name: "st_xmin", Bind: spatialBind(tDouble, g), Eval: extent(func(lo, _ geom.XY) float64 { return lo.X })},
		{Name: "st_xmax", Bind: spatialBind(tDouble, g), Eval: extent(func(_, hi geom.XY) float64 { return hi.X })},
		{Name: "st_ymin", Bind: spatialBind(tDouble, g), Eval: extent(func(lo, _ geom.XY) float64 { return lo.Y })},
		{Name: "st_ymax", Bind: spatialBind(tDouble, g), Eval: extent(func(_, hi geom.XY) float64 { return hi.Y })},
		{Name: "st_geometrytype", Bind: spatialBind(tVarchar, g), Eval: evalGeometryType},
		{Name: "st_isempty", Bind: spatialBind(tBool, g), Eval: unary(func(x geom.Geometry) (Datum, error) { return Datum{B: x.IsEmpty()}, nil })},
		{Name: "st_intersects", Bind: spatialBind(tBool, g, g), Eval: binaryPred(boxesMeet, func(a, b geom.Geometry) (bool, error) { return geom.Intersects(a, b), nil })},
		{Name: "st_within", Bind: spatialBind(tBool, g, g), Eval: binaryPred(flip(boxCovers), geom.Within)},
		{Name: "st_contains", Bind: spatialBind(tBool, g, g), Eval: binaryPred(boxCovers, geom.Contains)},
		{Name: "st_covers", Bind: spatialBind(tBool, g, g), Eval: binaryPred(boxCovers, geom.Covers)},
		{Name: "st_coveredby", Bind: spatialBind(tBool, g, g), Eval: binaryPred(flip(boxCovers), geom.CoveredBy)},
		{Name: "st_disjoint", Bind: spatialBind(tBool, g, g), Eval: binaryPred(nil, geom.Disjoint)},
		{Name: "st_equals", Bind: spatialBind(tBool, g, g), Eval: binaryPred(boxEquals, geom.Equals)},
		{Name: "st_intersects_extent", Bind: spatialBind(tBool, g, g), Eval: binaryPred(nil, extentsMeet)},
		{Name: "st_dwithin", Bind: spatialBind(tBool, g, g, d), Eval: evalDWithin},
		{Name: "st_distance", Bind: spatialBind(tDouble, g, g), Eval: evalDistance},
		{Name: "st_area", Bind: spatialBind(tDouble, g), Eval: unary(func(x geom.Geometry) (Datum, error) { return Datum{F: x.Area()}, nil })},
		{Name: "st_length", Bind: spatialBind(tDouble, g), Eval: unary(func(x geom.Geometry) (Datum, error) { return Datum{F: x.Length()}, nil })},
		{Name: "st_envelope", Bind: spatialBind(tGeometry, g), Eval: evalEnvelope},
		{Name: "st_centroid", Bind: spatialBind(tGeometry, g), Eval: unary(func(x geom.Geometry) (Datum, error) {
			return Datum{Bytes: x.Centroid().AsGeometry().AsBinary()}, nil
		})},
	}
	for _, f := range fs {
		f.Extension = "spatial"
	}
	registerScalar(fs...)
}

// spatialBind binds a spatial function whose arguments are, in order, 'g'
// GEOMETRY (or VARCHAR WKT), 'd' DOUBLE, 'v' VARCHAR or 'b' BLOB.
func spatialBind(result Type, kinds ...rune) func(f *ScalarFunc, args []Expr) (Expr, error) {
	return func(f *ScalarFunc, args []Expr) (Expr, error) {
		if len(args) != len(kinds) {
			return nil, noMatch(f.Name, args)
		}
		for i, k := range kinds {
			a, t := args[i], args[i].Type()
			var err error
			switch {
			case t.ID == TypeNull:
			case k == 'g' && isGeometry(t):
			case k == 'g' && t.ID == TypeVarchar:
				a, err = fold(newCall(scalarFuncs["st_geomfromtext"], []Expr{a}, tGeometry))
			case k == 'd' && t.IsNumeric():
				a, err = castTo(a, tDouble)
			case k == 'v' && t.ID == TypeVarchar:
			case k == 'b' && t.ID == TypeBlob && !isGeometry(t):
			default:
				return nil, noMatch(f.Name, args)
			}
			if err != nil {
				return nil, err
			}
			args[i] = a
		}
		return newCall(f, args, result), nil
	}
}

// geometryOf parses a GEOMETRY value. Validity is not checked (DuckDB does
// not check it either); malformed WKB is an error.
func geometryOf(b []byte) (geom.Geometry, error) {
	g, err := geom.UnmarshalWKB(b, geom.NoValidate{})
	if err != nil {
		return geom.Geometry{}, fmt.Errorf("%w: invalid GEOMETRY: %v", ErrInvalidInput, err)
	}
	return g, nil
}

func unary(fn func(geom.Geometry) (Datum, error)) func(*Call, []Datum) (Datum, error) {
	return func(_ *Call, a []Datum) (Datum, error) {
		g, err := geometryOf(a[0].Bytes)
		if err != nil {
			return Datum{}, err
		}
		return fn(g)
	}
}

// binaryPred is a predicate on two geometries. When need is set and the
// geometries' boxes fail it, the predicate is false without asking fn: the
// short cut GEOS takes too, which keeps answers on invalid geometries (a
// ring collapsed to a line) consistent with pruning on boxes. A panic of
// the library on input it cannot handle (NaN coordinates) is an error.
func binaryPred(need func(a, b box) bool, fn func(a, b geom.Geometry) (bool, error)) func(*Call, []Datum) (Datum, error) {
	return func(c *Call, a []Datum) (d Datum, err error) {
		x, err := geometryOf(a[0].Bytes)
		if err != nil {
			return Datum{}, err
		}
		y, err := geometryOf(a[1].Bytes)
		if err != nil {
			return Datum{}, err
		}
		if need != nil {
			bx, okx := boxOf(x)
			by, oky := boxOf(y)
			switch {
			case okx && oky && !need(bx, by):
				return Datum{B: false}, nil
			case !okx && !x.IsEmpty() || !oky && !y.IsEmpty():
				// Only NaN coordinates: no box, so nothing to meet.
				return Datum{B: false}, nil
			}
		}
		defer func() {
			if r := recover(); r != nil {
				d, err = Datum{}, fmt.Errorf("%w: %s cannot evaluate %s: %v", ErrInvalidInput, c.Name, x.AsText(), r)
			}
		}()
		ok, err := fn(x, y)
		if err != nil {
			return Datum{}, fmt.Errorf("%w: %s: %v", ErrInvalidInput, c.Name, err)
		}
		return Datum{B: ok}, nil
	}
}

// A box is a geometry's extent.
type box struct{ lo, hi geom.XY }

// boxOf is the box of g's coordinates whose x and y are both numbers;
// false when there is none (an empty geometry, or NaN everywhere).
//
// A coordinate with a NaN is left out, as GEOS leaves NaN ordinates out of
// an envelope and as the Parquet geospatial statistics leave them out of a
// column chunk's box. Pruning skips a row group when its box misses the
// query's, so every row of it must then answer false here, before the
// exact predicate could raise an error on the NaN (simplefeatures cannot
// evaluate it): with and without pruning, the rows of such a row group
// are false. Where the box meets the query's, the exact predicate runs on
// the NaN and fails, with and without pruning alike, since pruning keeps
// that row group.
func boxOf(g geom.Geometry) (box, bool) {
	seq := g.DumpCoordinates()
	var b box
	ok := false
	for i := range seq.Length() {
		p := seq.GetXY(i)
		if math.IsNaN(p.X) || math.IsNaN(p.Y) {
			continue
		}
		if !ok {
			b, ok = box{p, p}, true
			continue
		}
		b.lo.X, b.lo.Y = min(b.lo.X, p.X), min(b.lo.Y, p.Y)
		b.hi.X, b.hi.Y = max(b.hi.X, p.X), max(b.hi.Y, p.Y)
	}
	return b, ok
}

func boxesMeet(a, b box) bool {
	return a.lo.X <= b.hi.X && b.lo.X <= a.hi.X && a.lo.Y <= b.hi.Y && b.lo.Y <= a.hi.Y
}

func boxCovers(a, b box) bool {
	return a.lo.X <= b.lo.X && a.lo.Y <= b.lo.Y && a.hi.X >= b.hi.X && a.hi.Y >= b.hi.Y
}

func boxEquals(a, b box) bool { return a == b }

func flip(f func(a, b box) bool) func(a, b box) bool { return func(a, b box) bool { return f(b, a) } }

// extentsMeet is ST_Intersects_Extent (&&): the bounding boxes share a
// point. An empty geometry has no box and meets nothing; NaN coordinates
// are left out of the boxes (see boxOf).
func extentsMeet(a, b geom.Geometry) (bool, error) {
	x, okx := boxOf(a)
	y, oky := boxOf(b)
	return okx && oky && boxesMeet(x, y), nil
}

func evalGeomFromText(_ *Call, a []Datum) (Datum, error) {
	g, err := geom.UnmarshalWKT(a[0].S, geom.NoValidate{})
	if err != nil {
		return Datum{}, fmt.Errorf("%w: cannot parse WKT %q: %v", ErrInvalidInput, a[0].S, err)
	}
	return Datum{Bytes: g.AsBinary()}, nil
}

func evalGeomFromWKB(_ *Call, a []Datum) (Datum, error) {
	g, err := geometryOf(a[0].Bytes)
	if err != nil {
		return Datum{}, err
	}
	return Datum{Bytes: g.AsBinary()}, nil
}

func evalAsText(_ *Call, a []Datum) (Datum, error) {
	out, err := format.AppendWKT(nil, a[0].Bytes)
	if err != nil {
		return Datum{}, fmt.Errorf("%w: invalid GEOMETRY: %v", ErrInvalidInput, err)
	}
	return Datum{S: string(out)}, nil
}

func evalAsWKB(_ *Call, a []Datum) (Datum, error) {
	if _, err := geometryOf(a[0].Bytes); err != nil {
		return Datum{}, err
	}
	return Datum{Bytes: append([]byte(nil), a[0].Bytes...)}, nil
}

// wkbPoint is the little-endian ISO WKB of POINT (x y); NaN coordinates are
// WKB's empty point.
func wkbPoint(x, y float64) []byte {
	b := make([]byte, 21)
	b[0] = 1
	binary.LittleEndian.PutUint32(b[1:], 1)
	binary.LittleEndian.PutUint64(b[5:], math.Float64bits(x))
	binary.LittleEndian.PutUint64(b[13:], math.Float64bits(y))
	return b
}

func evalPoint(_ *Call, a []Datum) (Datum, error) {
	return Datum{Bytes: wkbPoint(a[0].F, a[1].F)}, nil
}

// wkbBox is the little-endian ISO WKB polygon of a box, with the ring
// DuckDB's ST_MakeEnvelope writes: (xmin ymin, xmin ymax, xmax ymax, xmax
// ymin, xmin ymin).
func wkbBox(xmin, ymin, xmax, ymax float64) []byte {
	ring := [5][2]float64{{xmin, ymin}, {xmin, ymax}, {xmax, ymax}, {xmax, ymin}, {xmin, ymin}}
	b := make([]byte, 0, 13+len(ring)*16)
	b = append(b, 1)
	b = binary.LittleEndian.AppendUint32(b, 3)
	b = binary.LittleEndian.AppendUint32(b, 1)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ring)))
	for _, p := range ring {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p[0]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p[1]))
	}
	return b
}

func evalMakeEnvelope(_ *Call, a []Datum) (Datum, error) {
	return Datum{Bytes: wkbBox(a[0].F, a[1].F, a[2].F, a[3].F)}, nil
}

// pointCoord is ST_X (axis 0) or ST_Y (axis 1): NULL for an empty point,
// an error for any other geometry type.
func pointCoord(axis int) func(*Call, []Datum) (Datum, error) {
	return func(c *Call, a []Datum) (Datum, error) {
		g, err := geometryOf(a[0].Bytes)
		if err != nil {
			return Datum{}, err
		}
		if g.Type() != geom.TypePoint {
			return Datum{}, fmt.Errorf("%w: %s only supports POINT geometries, found %s", ErrInvalidInput, c.Name, geometryTypeName(g))
		}
		xy, ok := g.MustAsPoint().XY()
		if !ok {
			return NullDatum, nil
		}
		if axis == 0 {
			return Datum{F: xy.X}, nil
		}
		return Datum{F: xy.Y}, nil
	}
}

// extent reads one side of a geometry's box; an empty geometry has none.
func extent(side func(lo, hi geom.XY) float64) func(*Call, []Datum) (Datum, error) {
	return unary(func(g geom.Geometry) (Datum, error) {
		lo, hi, ok := g.Envelope().MinMaxXYs()
		if !ok {
			return NullDatum, nil
		}
		return Datum{F: side(lo, hi)}, nil
	})
}

// geometryTypeName is the type as ST_GeometryType names it: POINT,
// LINESTRING, ..., GEOMETRYCOLLECTION.
func geometryTypeName(g geom.Geometry) string {
	return strings.ToUpper(g.Type().String())
}

func evalGeometryType(_ *Call, a []Datum) (Datum, error) {
	g, err := geometryOf(a[0].Bytes)
	if err != nil {
		return Datum{}, err
	}
	return Datum{S: geometryTypeName(g)}, nil
}

func evalDistance(_ *Call, a []Datum) (Datum, error) {
	x, err := geometryOf(a[0].Bytes)
	if err != nil {
		return Datum{}, err
	}
	y, err := geometryOf(a[1].Bytes)
	if err != nil {
		return Datum{}, err
	}
	dist, ok := geom.Distance(x, y)
	if !ok {
		return NullDatum, nil // an empty geometry has no distance
	}
	return Datum{F: dist}, nil
}

func evalDWithin(_ *Call, a []Datum) (Datum, error) {
	x, err := geometryOf(a[0].Bytes)
	if err != nil {
		return Datum{}, err
	}
	y, err := geometryOf(a[1].Bytes)
	if err != nil {
		return Datum{}, err
	}
	// Boxes grown by the distance that miss each other answer false before
	// any distance is computed, as pruning does (see boxOf).
	bx, okx := boxOf(x)
	by, oky := boxOf(y)
	if d := a[2].F; okx && oky && d >= 0 && (bx.lo.X-d > by.hi.X || by.lo.X-d > bx.hi.X || bx.lo.Y-d > by.hi.Y || by.lo.Y-d > bx.hi.Y) {
		return Datum{B: false}, nil
	}
	if !okx && !x.IsEmpty() || !oky && !y.IsEmpty() {
		return Datum{B: false}, nil
	}
	dist, ok := geom.Distance(x, y)
	return Datum{B: ok && dist <= a[2].F}, nil
}

func evalEnvelope(_ *Call, a []Datum) (Datum, error) {
	g, err := geometryOf(a[0].Bytes)
	if err != nil {
		return Datum{}, err
	}
	return Datum{Bytes: g.Envelope().AsGeometry().AsBinary()}, nil
}
