package planner

import (
	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
)

// spatialFuncs are the spatial predicates pushdown can judge on bounding
// boxes, each implying that its two geometries' boxes meet.
var spatialFuncs = map[string]pushdown.SpatialFunc{
	"st_intersects": pushdown.STIntersects, "st_contains": pushdown.STContains, "st_within": pushdown.STWithin,
	"st_covers": pushdown.STCovers, "st_coveredby": pushdown.STCoveredBy, "st_equals": pushdown.STEquals,
	"st_intersects_extent": pushdown.STIntersectsExtent, "st_dwithin": pushdown.STDWithin,
}

// spatialPush is the pushdown leaf of a spatial predicate between a
// GEOMETRY column and a constant geometry, in either order, or nil.
func spatialPush(e *Call, fields []*format.Field) pushdown.Expr {
	fn, ok := spatialFuncs[e.Name]
	if !ok || len(e.Args) < 2 {
		return nil
	}
	col, ok := column(e.Args[0], fields)
	k, ok1 := e.Args[1].(*Const)
	if !ok || !ok1 {
		col, ok = column(e.Args[1], fields)
		k, ok1 = e.Args[0].(*Const)
		if !ok || !ok1 {
			return nil
		}
	}
	if k.Value.Null || !isGeometry(k.T) {
		return nil
	}
	g, err := geometryOf(k.Value.Bytes)
	if err != nil {
		return nil
	}
	out := &pushdown.Spatial{Col: col, Func: fn, Text: e.String()}
	lo, hi, ok := g.Envelope().MinMaxXYs()
	if !ok {
		out.QueryEmpty = true
	}
	out.Query = pushdown.Box{XMin: lo.X, XMax: hi.X, YMin: lo.Y, YMax: hi.Y}
	if fn == pushdown.STDWithin {
		d, ok := e.Args[2].(*Const)
		if !ok || d.Value.Null {
			return nil
		}
		out.Distance = d.Value.F
	}
	return out
}
