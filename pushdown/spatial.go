package pushdown

import (
	"fmt"
	"math"
	"strconv"

	"github.com/pqsql/pqsql/format"
)

// A Box is a planar bounding box, closed on every side.
type Box struct {
	XMin, XMax, YMin, YMax float64
}

// IsProper reports whether b bounds something: no NaN and min <= max on
// both axes. Only a proper box may rule anything out.
func (b Box) IsProper() bool {
	for _, v := range [...]float64{b.XMin, b.XMax, b.YMin, b.YMax} {
		if math.IsNaN(v) {
			return false
		}
	}
	return b.XMin <= b.XMax && b.YMin <= b.YMax
}

// Disjoint reports whether two proper boxes share no point. Touching edges
// are shared points, so boxes that touch are not disjoint.
func (b Box) Disjoint(o Box) bool {
	return b.XMax < o.XMin || o.XMax < b.XMin || b.YMax < o.YMin || o.YMax < b.YMin
}

// Grow is b widened by d on every side and then by one unit in the last
// place outwards, so that rounding in the sum, or in a distance computed
// later, never makes the grown box smaller than the exact one.
func (b Box) Grow(d float64) Box {
	d += math.Abs(d) * 1e-9
	return Box{XMin: math.Nextafter(b.XMin-d, math.Inf(-1)), XMax: math.Nextafter(b.XMax+d, math.Inf(1)),
		YMin: math.Nextafter(b.YMin-d, math.Inf(-1)), YMax: math.Nextafter(b.YMax+d, math.Inf(1))}
}

// String renders the box as EXPLAIN prints it: x[10, 11.5] y[50, 51.5].
func (b Box) String() string {
	return "x[" + coord(b.XMin) + ", " + coord(b.XMax) + "] y[" + coord(b.YMin) + ", " + coord(b.YMax) + "]"
}

func coord(v float64) string {
	if a := math.Abs(v); a != 0 && (a >= 1e15 || a < 1e-6) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// SpatialFunc is a spatial predicate whose truth implies that the bounding
// boxes of its two geometries meet (after growing one by a distance).
type SpatialFunc int8

// The spatial predicates pushdown judges. ST_Disjoint is not one of them:
// it is true exactly where boxes can prove nothing.
const (
	STIntersects SpatialFunc = iota
	STContains
	STWithin
	STCovers
	STCoveredBy
	STEquals
	STIntersectsExtent
	STDWithin
)

var spatialFuncNames = [...]string{STIntersects: "ST_Intersects", STContains: "ST_Contains", STWithin: "ST_Within",
	STCovers: "ST_Covers", STCoveredBy: "ST_CoveredBy", STEquals: "ST_Equals",
	STIntersectsExtent: "ST_Intersects_Extent", STDWithin: "ST_DWithin"}

// String is the function's SQL name.
func (f SpatialFunc) String() string {
	if f >= 0 && int(f) < len(spatialFuncNames) {
		return spatialFuncNames[f]
	}
	return fmt.Sprintf("SpatialFunc(%d)", int(f))
}

// A Spatial is a spatial predicate between a GEOMETRY (or GEOGRAPHY)
// column and a constant geometry, in either argument order. Every
// SpatialFunc implies that the column value's box meets Query (grown by
// Distance for ST_DWithin), which is what the column chunk's geospatial
// statistics and a GeoParquet covering can rule out.
type Spatial struct {
	Col  Column
	Func SpatialFunc
	// Query is the constant's bounding box; QueryEmpty says the constant has
	// no coordinates (an empty geometry), which prunes nothing.
	Query      Box
	QueryEmpty bool
	// Distance is ST_DWithin's distance.
	Distance float64
	// Text is the call as SQL, for EXPLAIN.
	Text string
	// Row, when set, evaluates the exact predicate on one row (for Eval).
	Row func(Row) Truth

	// covering is what the predicate implies of a GeoParquet covering's
	// columns (see withCovering); cover is it resolved. Neither is part of
	// the predicate's columns: they are judged on metadata, never read.
	covering, cover Expr
}

func (*Spatial) expr() {}

// String renders the node as SQL.
func (e *Spatial) String() string { return e.Text }

// box is the region a column value's box must meet for the predicate to
// hold, or false when no region can be stated.
func (e *Spatial) box() (Box, bool) {
	if e.QueryEmpty || !e.Query.IsProper() {
		return Box{}, false
	}
	if e.Func == STDWithin {
		if math.IsNaN(e.Distance) || math.IsInf(e.Distance, 1) {
			return Box{}, false
		}
		return e.Query.Grow(max(e.Distance, 0)), true
	}
	return e.Query, true
}

// resolveSpatial binds a spatial leaf. Its negation proves nothing on a
// bounding box (a geometry whose box meets the query's may still not meet
// the query), so NOT of it becomes a Residual.
func (r *resolver) resolveSpatial(n *Spatial, negate bool) (Expr, error) {
	c, err := r.col(n.Col)
	if err != nil {
		return nil, err
	}
	switch {
	case negate:
		return r.residual(n, true, []string{n.Col.Path}, fmt.Errorf("%w: the negation of a spatial predicate cannot be judged on bounding boxes", ErrUnsupported)), nil
	case c.Leaf.MaxRep > 0:
		return r.residual(n, false, []string{n.Col.Path}, fmt.Errorf("%w: %s is a repeated column, whose values are not rows", ErrUnsupported, c.Path)), nil
	}
	switch format.LogicalOf(c.Leaf).Kind {
	case format.KindGeometry, format.KindGeography, format.KindBlob:
	default:
		return r.residual(n, false, []string{n.Col.Path}, fmt.Errorf("%w: %s is not a geometry column", ErrUnsupported, c.Path)), nil
	}
	out := *n
	out.Col = c
	if n.covering != nil {
		cover, err := r.resolve(n.covering, false)
		if err != nil {
			return nil, err
		}
		out.cover = simplify(cover)
	}
	return &out, nil
}

// spatialRows is what a spatial leaf allows at level: the boxes of the
// geospatial statistics and the file bbox, then what the covering columns'
// statistics and page index allow.
func (s *rgState) spatialRows(e *Spatial, level int) RowRanges {
	r := s.all
	if level >= lvSpatial && s.p.enabled(lvSpatial) {
		if r, _ = s.spatialLeaf(e); r.Empty() {
			return r
		}
	}
	if e.cover != nil && !s.noCover {
		r = r.Intersect(s.node(e.cover, level))
	}
	return r
}

// byCovering reports whether what the predicate allows at level passes
// test only when GeoParquet coverings are ignored: the covering columns'
// statistics or page index, not their own mechanism's bounds on the
// predicate's columns, skipped the row group or narrowed its rows, so the
// credit is the spatial mechanism's. The state without coverings shares
// the fetched index data and the leaves' results, which coverings do not
// change.
func (s *rgState) byCovering(level int, test func(RowRanges) bool) bool {
	if !hasCovering(s.p.pred) {
		return false
	}
	if s.uncovered == nil {
		s.makeMemos() // made now, so that both states share them
		u := *s
		u.noCover, u.nodes = true, map[Expr]*[numLevels]*RowRanges{}
		s.uncovered = &u
	}
	return test(s.uncovered.node(s.p.pred, level))
}

// hasCovering reports whether a resolved predicate judges a spatial leaf
// through a GeoParquet covering.
func hasCovering(e Expr) bool {
	switch n := e.(type) {
	case *And:
		for _, x := range n.Xs {
			if hasCovering(x) {
				return true
			}
		}
	case *Or:
		for _, x := range n.Xs {
			if hasCovering(x) {
				return true
			}
		}
	case *Spatial:
		return n.cover != nil
	}
	return false
}

// spatialWhy says why a spatial leaf allows no row at level.
func (s *rgState) spatialWhy(e *Spatial, level int) string {
	if level >= lvSpatial && s.p.enabled(lvSpatial) {
		if _, why := s.spatialLeaf(e); why != "" {
			return why
		}
	}
	if e.cover != nil && !s.noCover {
		return "spatial covering: " + s.why(e.cover, level)
	}
	return ""
}

// spatialLeaf judges a spatial leaf on one row group's geospatial
// statistics: skip when the chunk's box cannot meet the query's.
func (s *rgState) spatialLeaf(e *Spatial) (RowRanges, string) {
	q, ok := e.box()
	if !ok {
		return s.all, ""
	}
	if fb, ok := s.p.fileBoxes()[e.Col.Path]; ok && fb.Disjoint(q) {
		return nil, fmt.Sprintf("spatial: file bbox %s is disjoint from query box %s", fb, q)
	}
	md := s.p.f.Chunk(s.rg, e.Col.Leaf.Index).MetaData
	if md == nil || md.GeospatialStatistics == nil || md.GeospatialStatistics.BBox == nil {
		return s.all, ""
	}
	bb := md.GeospatialStatistics.BBox
	b := Box{XMin: bb.XMin, XMax: bb.XMax, YMin: bb.YMin, YMax: bb.YMax}
	if format.LogicalOf(e.Col.Leaf).Kind == format.KindGeography && b.XMin > b.XMax {
		// The box crosses the antimeridian, but the predicates are planar:
		// an edge from x=170 to x=-170 passes x=0 in the plane, outside the
		// wrapped box, so its longitudes bound nothing they test. Its
		// latitudes still do: a planar edge stays between its vertices'.
		if !math.IsNaN(b.YMin+b.YMax) && b.YMin <= b.YMax && (b.YMax < q.YMin || q.YMax < b.YMin) {
			return nil, fmt.Sprintf("spatial: GEOGRAPHY bbox %s crosses the antimeridian, but its latitudes miss query box %s", b, q)
		}
		why := fmt.Sprintf("spatial: the GEOGRAPHY box %s crosses the antimeridian, so only its latitudes bound planar predicates, and they meet query box %s", b, q)
		s.note(fmt.Sprintf("row group %d, column %s: %s; kept", s.rg, e.Col.Path, why))
		s.kept = append(s.kept, why)
		return s.all, ""
	}
	if !b.IsProper() {
		return s.all, ""
	}
	if b.Disjoint(q) {
		return nil, fmt.Sprintf("spatial: bbox %s is disjoint from query box %s", b, q)
	}
	return s.all, ""
}
