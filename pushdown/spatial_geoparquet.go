package pushdown

import (
	"encoding/json"
	"math"

	"github.com/pqsql/pqsql/format"
)

// GeoParquet 1.1 files describe their geometry columns in a "geo" key-value
// entry: per column an optional file-wide bbox and an optional covering, a
// struct column whose xmin, ymin, xmax and ymax fields hold each row's box.
// The file bbox rules out every row group of a file at once; the covering
// columns' ordinary statistics and page index rule out row groups and pages.

// geoMeta is the part of the "geo" entry this package reads.
type geoMeta struct {
	Columns map[string]geoColumn `json:"columns"`
}

type geoColumn struct {
	Encoding string          `json:"encoding"`
	CRS      json.RawMessage `json:"crs"`
	Edges    string          `json:"edges"`
	BBox     []float64       `json:"bbox"`
	Covering *struct {
		BBox map[string][]string `json:"bbox"`
	} `json:"covering"`
}

// geoInfo is what a file's "geo" entry proves, keyed by geometry leaf path.
type geoInfo struct {
	boxes    map[string]Box
	covering map[string][4]string // xmin, ymin, xmax, ymax leaf paths
	// projected marks columns whose CRS is not geographic, whose row boxes
	// therefore never wrap around the antimeridian.
	projected map[string]bool
}

// readGeo parses f's "geo" entry. An entry that is missing or cannot be
// read proves nothing; only planar columns with WKB values are used, since
// a spherical-edge box does not bound planar predicates.
func readGeo(f *format.File) *geoInfo {
	// Its maps are made only for an entry: most files have none.
	g := &geoInfo{}
	var raw *string
	for _, kv := range f.Meta.KeyValueMetadata {
		if kv.Key == "geo" {
			raw = kv.Value
		}
	}
	if raw == nil {
		return g
	}
	var m geoMeta
	if json.Unmarshal([]byte(*raw), &m) != nil {
		return g
	}
	g.boxes, g.covering, g.projected = map[string]Box{}, map[string][4]string{}, map[string]bool{}
	for name, c := range m.Columns {
		if c.Encoding != "WKB" || c.Edges != "" && c.Edges != "planar" {
			continue
		}
		l := f.Schema.LeafByPath(name)
		if l == nil || l.MaxRep > 0 {
			continue
		}
		switch len(c.BBox) {
		case 4:
			g.boxes[name] = Box{XMin: c.BBox[0], YMin: c.BBox[1], XMax: c.BBox[2], YMax: c.BBox[3]}
		case 6: // with z: xmin, ymin, zmin, xmax, ymax, zmax
			g.boxes[name] = Box{XMin: c.BBox[0], YMin: c.BBox[1], XMax: c.BBox[3], YMax: c.BBox[4]}
		}
		if b, ok := g.boxes[name]; ok && !b.IsProper() {
			delete(g.boxes, name)
		}
		if c.Covering == nil {
			continue
		}
		var paths [4]string
		ok := true
		for i, k := range [...]string{"xmin", "ymin", "xmax", "ymax"} {
			p := c.Covering.BBox[k]
			path := joinPath(p)
			leaf := f.Schema.LeafByPath(path)
			if len(p) == 0 || leaf == nil || leaf.MaxRep > 0 {
				ok = false
				break
			}
			if k := format.LogicalOf(leaf).Kind; k != format.KindDouble && k != format.KindFloat {
				ok = false
				break
			}
			paths[i] = path
		}
		if ok {
			g.covering[name] = paths
			g.projected[name] = isProjected(c.CRS)
		}
	}
	return g
}

// isProjected reports whether a GeoParquet crs entry names a CRS that is
// not geographic: an explicit null (unknown, so not a longitude) or a
// PROJJSON ProjectedCRS. An absent crs means OGC:CRS84, which is geographic.
func isProjected(crs json.RawMessage) bool {
	if len(crs) == 0 {
		return false
	}
	if string(crs) == "null" {
		return true
	}
	var p struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(crs, &p) == nil && p.Type == "ProjectedCRS"
}

func joinPath(p []string) string {
	s := ""
	for i, x := range p {
		if i > 0 {
			s += "."
		}
		s += x
	}
	return s
}

// fileBoxes are the GeoParquet file bboxes by geometry column.
func (p *planner) fileBoxes() map[string]Box {
	if p.geo == nil {
		p.geo = readGeo(p.f)
	}
	return p.geo.boxes
}

// withCovering gives every spatial leaf on a column with a GeoParquet
// covering the comparisons its row boxes must pass: a row whose box cannot
// meet the query box cannot satisfy the predicate. A NULL or NaN covering
// value proves nothing, so each comparison admits both. The comparisons are
// judged on the covering columns' statistics and page index only; the
// columns are not read. Leaves under a NOT are left alone (their negation
// never prunes).
func withCovering(g *geoInfo, e Expr) Expr {
	if len(g.covering) == 0 {
		return e
	}
	var walk func(Expr) Expr
	walk = func(e Expr) Expr {
		switch n := e.(type) {
		case *And:
			xs := make([]Expr, len(n.Xs))
			for i, x := range n.Xs {
				xs[i] = walk(x)
			}
			return &And{Xs: xs}
		case *Or:
			xs := make([]Expr, len(n.Xs))
			for i, x := range n.Xs {
				xs[i] = walk(x)
			}
			return &Or{Xs: xs}
		case *Spatial:
			paths, ok := g.covering[n.Col.Path]
			q, ok2 := n.box()
			if !ok || !ok2 {
				return n
			}
			isNaN := func(path string) Expr {
				// NaN sorts above +Inf, so only NaN is greater than +Inf.
				return &Compare{Col: Column{Path: path}, Op: Gt, Lit: FloatLiteral(math.Inf(1))}
			}
			isNull := func(path string) Expr { return &IsNull{Col: Column{Path: path}} }
			le := func(path string, v float64) Expr {
				return &Or{Xs: []Expr{&Compare{Col: Column{Path: path}, Op: Le, Lit: FloatLiteral(v)}, isNaN(path), isNull(path)}}
			}
			ge := func(path string, v float64) Expr {
				// NaN >= v holds already.
				return &Or{Xs: []Expr{&Compare{Col: Column{Path: path}, Op: Ge, Lit: FloatLiteral(v)}, isNull(path)}}
			}
			out := *n
			conds := []Expr{le(paths[1], q.YMax), ge(paths[3], q.YMin)}
			if g.projected[n.Col.Path] {
				// In a geographic CRS a row's box may cross the antimeridian
				// (xmin > xmax) while the planar geometry spans the gap, so
				// only the latitudes bound it.
				conds = append(conds, le(paths[0], q.XMax), ge(paths[2], q.XMin))
			}
			out.covering = &And{Xs: conds}
			return &out
		}
		return e
	}
	return walk(e)
}
