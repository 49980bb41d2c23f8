package pushdown

import (
	"encoding/binary"
	"math"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peterstace/simplefeatures/geom"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// geoGroup is one row group of a synthetic file: its rows' geometries (nil
// for NULL) and the geospatial statistics box its footer claims.
type geoGroup struct {
	rows []geom.Geometry
	box  *meta.BoundingBox
}

// exactBox is the box a correct writer records for rows: nil when no row
// has coordinates.
func exactBox(rows []geom.Geometry) *meta.BoundingBox {
	var env geom.Envelope
	for _, g := range rows {
		if isNullGeom(g) {
			continue
		}
		env = env.ExpandToIncludeEnvelope(g.Envelope())
	}
	lo, hi, ok := env.MinMaxXYs()
	if !ok {
		return nil
	}
	return &meta.BoundingBox{XMin: lo.X, XMax: hi.X, YMin: lo.Y, YMax: hi.Y}
}

// geoFile is an in-memory file whose footer describes one optional GEOMETRY
// (or GEOGRAPHY) column "geom" with one row group per group. Plan reads only
// the footer; the rows stay with the caller.
func geoFile(t testing.TB, geography bool, groups []geoGroup) *format.File {
	t.Helper()
	one := int32(1)
	typ, rep := meta.ByteArray, meta.Optional
	lt := &meta.LogicalType{Geometry: &meta.GeometryType{}}
	if geography {
		lt = &meta.LogicalType{Geography: &meta.GeographyType{}}
	}
	md := &meta.FileMetaData{Version: 2, Schema: []meta.SchemaElement{{Name: "schema", NumChildren: &one},
		{Name: "geom", Type: &typ, RepetitionType: &rep, LogicalType: lt}}}
	const chunk = 100
	for i, g := range groups {
		n := int64(len(g.rows))
		cm := &meta.ColumnMetaData{Type: meta.ByteArray, PathInSchema: []string{"geom"}, NumValues: n,
			TotalCompressedSize: chunk, TotalUncompressedSize: chunk, DataPageOffset: 4 + int64(i)*chunk}
		if g.box != nil {
			cm.GeospatialStatistics = &meta.GeospatialStatistics{BBox: g.box}
		}
		md.RowGroups = append(md.RowGroups, meta.RowGroup{NumRows: n, Columns: []meta.ColumnChunk{{MetaData: cm}}})
		md.NumRows += n
	}
	s, err := format.NewSchema(md.Schema)
	if err != nil {
		t.Fatal(err)
	}
	return &format.File{Name: "geo.parquet", Source: format.BytesSource(make([]byte, 4+len(groups)*chunk+8)),
		Meta: md, Schema: s, FooterSize: 8}
}

// spatialLeafOf is the leaf the planner builds for fn(geom, q) (or fn(q,
// geom) when constFirst), with the exact predicate for Eval.
func spatialLeafOf(fn SpatialFunc, q geom.Geometry, dist float64, constFirst bool) *Spatial {
	s := &Spatial{Col: Column{Path: "geom"}, Func: fn, Distance: dist, Text: fn.String() + "(geom, q)"}
	if lo, hi, ok := q.Envelope().MinMaxXYs(); ok {
		s.Query = Box{XMin: lo.X, XMax: hi.X, YMin: lo.Y, YMax: hi.Y}
	} else {
		s.QueryEmpty = true
	}
	s.Row = func(r Row) Truth {
		v, ok := r.Value(0)
		if !ok {
			return Unknown
		}
		g, err := geom.UnmarshalWKB(v, geom.NoValidate{})
		if err != nil {
			return Unknown
		}
		a, b := g, q
		if constFirst {
			a, b = q, g
		}
		var holds bool
		switch fn {
		case STIntersects:
			holds = geom.Intersects(a, b)
		case STIntersectsExtent:
			holds = a.Envelope().Intersects(b.Envelope())
		case STDWithin:
			d, ok := geom.Distance(a, b)
			holds = ok && d <= dist
		default:
			pred := map[SpatialFunc]func(a, b geom.Geometry) (bool, error){STContains: geom.Contains,
				STWithin: geom.Within, STCovers: geom.Covers, STCoveredBy: geom.CoveredBy, STEquals: geom.Equals}[fn]
			ok, err := pred(a, b)
			if err != nil {
				return Unknown
			}
			holds = ok
		}
		return truth(holds)
	}
	return s
}

// isNullGeom reports whether g is the zero Geometry, which these tests use
// for NULL (they never write an empty collection).
func isNullGeom(g geom.Geometry) bool {
	return g.Type() == geom.TypeGeometryCollection && g.IsEmpty()
}

func mustWKT(t testing.TB, s string) geom.Geometry {
	t.Helper()
	g, err := geom.UnmarshalWKT(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestBox(t *testing.T) {
	a := Box{0, 1, 0, 1}
	for _, c := range []struct {
		b        Box
		disjoint bool
	}{
		{Box{1, 2, 1, 2}, false}, // touching corner
		{Box{1.5, 2, 0, 1}, true},
		{Box{0, 1, -3, -0.5}, true},
		{Box{-5, 5, -5, 5}, false},
	} {
		if got := a.Disjoint(c.b); got != c.disjoint {
			t.Errorf("%s disjoint from %s = %v, want %v", a, c.b, got, c.disjoint)
		}
	}
	if (Box{math.NaN(), 1, 0, 1}).IsProper() || (Box{2, 1, 0, 1}).IsProper() || !a.IsProper() {
		t.Error("IsProper: NaN or reversed bounds must not be proper; [0,1]x[0,1] must be")
	}
	g := a.Grow(0.5)
	if !(g.XMin < -0.5 && g.XMax > 1.5 && g.YMin < -0.5 && g.YMax > 1.5) {
		t.Errorf("Grow(0.5) = %s, want strictly wider than x[-0.5, 1.5] y[-0.5, 1.5]", g)
	}
	if s := (Box{10, 11.5, 50, 51.5}).String(); s != "x[10, 11.5] y[50, 51.5]" {
		t.Errorf("String = %q", s)
	}
}

// fourCorners is a file of four row groups of points, one per unit box at
// x, y in {0, 10}.
func fourCorners(t testing.TB, geography bool) ([]geoGroup, *format.File) {
	var groups []geoGroup
	for _, c := range [][2]float64{{0, 0}, {10, 0}, {0, 10}, {10, 10}} {
		var rows []geom.Geometry
		for i := range 5 {
			rows = append(rows, geom.XY{X: c[0] + float64(i)/4, Y: c[1] + float64(i)/4}.AsPoint().AsGeometry())
		}
		groups = append(groups, geoGroup{rows: rows, box: exactBox(rows)})
	}
	return groups, geoFile(t, geography, groups)
}

func verdicts(p *FilePlan) string {
	var b strings.Builder
	for _, rg := range p.RowGroups {
		if rg.Verdict == Skip {
			b.WriteByte('s')
		} else {
			b.WriteByte('k')
		}
	}
	return b.String()
}

func TestSpatialRowGroups(t *testing.T) {
	_, f := fourCorners(t, false)
	q := mustWKT(t, "POLYGON((9 9, 9 12, 12 12, 12 9, 9 9))") // meets only the group at (10, 10)
	far := mustWKT(t, "POINT(5 0.5)")
	leaf := func(fn SpatialFunc) Expr { return spatialLeafOf(fn, q, 0, false) }
	for _, c := range []struct {
		name string
		pred Expr
		want string
	}{
		{"intersects", leaf(STIntersects), "sssk"},
		{"constant first", spatialLeafOf(STContains, q, 0, true), "sssk"},
		{"every function", &Or{Xs: []Expr{leaf(STWithin), leaf(STCovers), leaf(STCoveredBy), leaf(STEquals), leaf(STIntersectsExtent)}}, "sssk"},
		{"not", &Not{X: leaf(STIntersects)}, "kkkk"},
		{"and", &And{Xs: []Expr{leaf(STIntersects), spatialLeafOf(STIntersects, mustWKT(t, "POINT(0.5 0.5)"), 0, false)}}, "ssss"},
		{"or", &Or{Xs: []Expr{leaf(STIntersects), spatialLeafOf(STIntersects, mustWKT(t, "POINT(0.5 0.5)"), 0, false)}}, "kssk"},
		// (5, 0.5) is 4 from the group at (0, 0) and 5 from the one at (10, 0).
		{"dwithin short", spatialLeafOf(STDWithin, far, 3.9, false), "ssss"},
		{"dwithin exact", spatialLeafOf(STDWithin, far, 4, false), "ksss"},
		{"dwithin long", spatialLeafOf(STDWithin, far, 5, true), "kkss"},
		{"empty query", spatialLeafOf(STIntersects, mustWKT(t, "POINT EMPTY"), 0, false), "kkkk"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Plan(f, c.pred, []int{0}, AllMechanisms())
			if err != nil {
				t.Fatal(err)
			}
			if got := verdicts(p); got != c.want {
				t.Errorf("verdicts %s, want %s\n%v", got, c.want, p.RowGroups)
			}
		})
	}
	p, err := Plan(f, leaf(STIntersects), []int{0}, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	rg := p.RowGroups[0]
	if rg.Mechanism != BoundingBox || rg.Reason != "spatial: bbox x[0, 1] y[0, 1] is disjoint from query box x[9, 12] y[9, 12]" {
		t.Errorf("row group 0: %s %q", rg.Mechanism, rg.Reason)
	}
	if p.Skipped[BoundingBox] != 300 {
		t.Errorf("bytes skipped by spatial = %d, want 300", p.Skipped[BoundingBox])
	}
	off := AllMechanisms()
	off.Statistics = false
	if p, _ := Plan(f, leaf(STIntersects), []int{0}, off); verdicts(p) != "kkkk" {
		t.Errorf("with statistics off: %s, want kkkk", verdicts(p))
	}
}

func TestSpatialBoundsThatProveNothing(t *testing.T) {
	pt := func(x, y float64) geom.Geometry { return geom.XY{X: x, Y: y}.AsPoint().AsGeometry() }
	rows := []geom.Geometry{pt(0, 0)}
	nan := math.NaN()
	groups := []geoGroup{
		{rows: rows}, // no statistics
		{rows: rows, box: &meta.BoundingBox{XMin: nan, XMax: 1, YMin: 0, YMax: 1}}, // NaN bound
		{rows: rows, box: &meta.BoundingBox{XMin: 1, XMax: 0, YMin: 0, YMax: 1}},   // reversed
		{rows: rows, box: &meta.BoundingBox{XMin: 0, XMax: 1, YMin: 0, YMax: 1}},   // proper
	}
	q := spatialLeafOf(STIntersects, pt(50, 50), 0, false)
	p, err := Plan(geoFile(t, false, groups), q, []int{0}, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	if got := verdicts(p); got != "kkks" {
		t.Errorf("verdicts %s, want kkks", got)
	}
}

func TestSpatialGeographyAntimeridian(t *testing.T) {
	line := mustWKT(t, "LINESTRING(170 0, -170 0)")
	groups := []geoGroup{
		{rows: []geom.Geometry{line}, box: &meta.BoundingBox{XMin: 170, XMax: -170, YMin: 0, YMax: 0}},
		{rows: []geom.Geometry{mustWKT(t, "POINT(20 20)")}, box: &meta.BoundingBox{XMin: 20, XMax: 20, YMin: 20, YMax: 20}},
	}
	// In the plane the line passes (0, 0), outside the wrapped box: the
	// wrapped row group must be kept.
	q := spatialLeafOf(STIntersects, mustWKT(t, "POINT(0 0)"), 0, false)
	p, err := Plan(geoFile(t, true, groups), q, []int{0}, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	if got := verdicts(p); got != "ks" {
		t.Errorf("verdicts %s, want ks", got)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "crosses the antimeridian") {
		t.Errorf("notes do not say why the wrapped box was kept: %q", p.Notes)
	}
	if r := p.RowGroups[0].Reason; !strings.Contains(r, "spatial: the GEOGRAPHY box x[170, -170] y[0, 0] crosses the antimeridian, so only its latitudes bound planar predicates") {
		t.Errorf("row group 0's reason does not say why it was kept: %q", r)
	}
	// Its latitudes still bound the line: a query box north of them skips it.
	north := spatialLeafOf(STIntersects, mustWKT(t, "POLYGON((-1 5, -1 6, 1 6, 1 5, -1 5))"), 0, false)
	if p, _ := Plan(geoFile(t, true, groups), north, []int{0}, AllMechanisms()); verdicts(p) != "ss" || !strings.Contains(p.RowGroups[0].Reason, "crosses the antimeridian, but its latitudes miss") {
		t.Errorf("query box north of the line: verdicts %s (%q), want ss", verdicts(p), p.RowGroups[0].Reason)
	}
}

// wkbRow is a Row of one geometry column.
type wkbRow struct{ v []byte }

func (r wkbRow) Value(leaf int) ([]byte, bool) { return r.v, r.v != nil }

// TestSpatialSoundnessProperty plans random spatial predicates under AND,
// OR and NOT over clustered random geometries and checks that no skipped
// row group holds a row for which the predicate is true; it also checks
// that pruning happens at all.
func TestSpatialSoundnessProperty(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	var groups []geoGroup
	for range 12 {
		cx, cy := r.Float64()*200-100, r.Float64()*200-100
		var rows []geom.Geometry
		for range 15 {
			x, y := cx+r.Float64()*10, cy+r.Float64()*10
			switch r.Intn(5) {
			case 0:
				rows = append(rows, geom.Geometry{}) // NULL
			case 1:
				rows = append(rows, geom.LineString{}.AsGeometry())
				rows[len(rows)-1] = geom.NewLineString(geom.NewSequence([]float64{x, y, x + r.Float64()*3, y - r.Float64()*3}, geom.DimXY)).AsGeometry()
			case 2:
				rows = append(rows, geom.NewEnvelope(geom.XY{X: x, Y: y}, geom.XY{X: x + 2, Y: y + 1}).AsGeometry())
			default:
				rows = append(rows, geom.XY{X: x, Y: y}.AsPoint().AsGeometry())
			}
		}
		groups = append(groups, geoGroup{rows: rows, box: exactBox(rows)})
	}
	f := geoFile(t, false, groups)
	fns := []SpatialFunc{STIntersects, STContains, STWithin, STCovers, STCoveredBy, STEquals, STIntersectsExtent, STDWithin}
	randLeaf := func() Expr {
		x, y := r.Float64()*240-120, r.Float64()*240-120
		var q geom.Geometry
		switch r.Intn(3) {
		case 0:
			q = geom.XY{X: x, Y: y}.AsPoint().AsGeometry()
		case 1:
			q = geom.NewEnvelope(geom.XY{X: x, Y: y}, geom.XY{X: x + r.Float64()*60, Y: y + r.Float64()*60}).AsGeometry()
		default:
			// a row's own geometry, so that Equals and Covers can be true
			g := groups[r.Intn(len(groups))]
			q = g.rows[r.Intn(len(g.rows))]
			if isNullGeom(q) {
				q = geom.XY{X: x, Y: y}.AsPoint().AsGeometry()
			}
		}
		return spatialLeafOf(fns[r.Intn(len(fns))], q, r.Float64()*30, r.Intn(2) == 0)
	}
	var tree func(depth int) Expr
	tree = func(depth int) Expr {
		if depth == 0 || r.Intn(3) == 0 {
			return randLeaf()
		}
		switch r.Intn(3) {
		case 0:
			return &Not{X: tree(depth - 1)}
		case 1:
			return &And{Xs: []Expr{tree(depth - 1), tree(depth - 1)}}
		}
		return &Or{Xs: []Expr{tree(depth - 1), tree(depth - 1)}}
	}
	trials := 400
	if testing.Short() {
		trials = 100
	}
	skipped, hits := 0, 0
	for range trials {
		e := tree(3)
		p, err := Plan(f, e, []int{0}, AllMechanisms())
		if err != nil {
			t.Fatal(err)
		}
		bound, err := Bind(f.Schema, e)
		if err != nil {
			t.Fatal(err)
		}
		for i, rg := range p.RowGroups {
			for _, g := range groups[i].rows {
				var row wkbRow
				if !isNullGeom(g) {
					row.v = g.AsBinary()
				}
				if Eval(bound, row) != True {
					continue
				}
				hits++
				if rg.Verdict == Skip {
					t.Fatalf("row group %d skipped (%s) but holds %s, which satisfies %s", i, rg.Reason, g.AsText(), e)
				}
			}
			if rg.Verdict == Skip {
				skipped++
			}
		}
	}
	if skipped == 0 || hits == 0 {
		t.Fatalf("the property test proves nothing: %d row groups skipped, %d rows true", skipped, hits)
	}
}

// geoParquetFile is an in-memory GeoParquet 1.1 file: a WKB column "geom",
// a covering struct "bbox" of four DOUBLE leaves whose row-group statistics
// are boxes[i] (with a zero nan_count when nanCounts), and a "geo" entry
// with the file bbox fileBox.
func geoParquetFile(t testing.TB, boxes []Box, fileBox string, nanCounts bool) *format.File {
	t.Helper()
	four := int32(4)
	two := int32(2)
	blob, dbl, opt := meta.ByteArray, meta.Double, meta.Optional
	elems := []meta.SchemaElement{{Name: "schema", NumChildren: &two},
		{Name: "geom", Type: &blob, RepetitionType: &opt},
		{Name: "bbox", RepetitionType: &opt, NumChildren: &four}}
	names := []string{"xmin", "ymin", "xmax", "ymax"}
	for _, n := range names {
		elems = append(elems, meta.SchemaElement{Name: n, Type: &dbl, RepetitionType: &opt})
	}
	geo := `{"version":"1.1.0","primary_column":"geom","columns":{"geom":{"encoding":"WKB","geometry_types":[],` +
		fileBox + `"covering":{"bbox":{"xmin":["bbox","xmin"],"ymin":["bbox","ymin"],"xmax":["bbox","xmax"],"ymax":["bbox","ymax"]}}}}}`
	md := &meta.FileMetaData{Version: 2, Schema: elems, KeyValueMetadata: []meta.KeyValue{{Key: "geo", Value: &geo}}}
	for range 5 {
		md.ColumnOrders = append(md.ColumnOrders, meta.ColumnOrder{Kind: meta.TypeDefinedOrder})
	}
	f64 := func(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }
	const chunk, rows = 100, 10
	off := int64(4)
	for _, b := range boxes {
		rg := meta.RowGroup{NumRows: rows}
		for c := range 5 {
			cm := &meta.ColumnMetaData{NumValues: rows, TotalCompressedSize: chunk, TotalUncompressedSize: chunk, DataPageOffset: off}
			off += chunk
			if c == 0 {
				cm.Type, cm.PathInSchema = meta.ByteArray, []string{"geom"}
			} else {
				// a row's box lies in the row group's: xmin and ymin range
				// over [b.min, b.max], and so do xmax and ymax
				lo, hi := b.XMin, b.XMax
				if c == 2 || c == 4 {
					lo, hi = b.YMin, b.YMax
				}
				zero := int64(0)
				cm.Type, cm.PathInSchema = meta.Double, []string{"bbox", names[c-1]}
				cm.Statistics = &meta.Statistics{MinValue: f64(lo), MaxValue: f64(hi), NullCount: &zero,
					HasMinValue: true, HasMaxValue: true}
				if nanCounts {
					cm.Statistics.NanCount = &zero
				}
			}
			rg.Columns = append(rg.Columns, meta.ColumnChunk{MetaData: cm})
		}
		md.RowGroups = append(md.RowGroups, rg)
		md.NumRows += rows
	}
	s, err := format.NewSchema(md.Schema)
	if err != nil {
		t.Fatal(err)
	}
	return &format.File{Name: "geoparquet.parquet", Source: format.BytesSource(make([]byte, off+8)), Meta: md, Schema: s, FooterSize: 8}
}

func TestSpatialGeoParquet(t *testing.T) {
	boxes := []Box{{0, 1, 0, 1}, {10, 11, 0, 1}, {0, 1, 10, 11}, {10, 11, 10, 11}}
	q := spatialLeafOf(STIntersects, mustWKT(t, "POLYGON((9 9, 9 12, 12 12, 12 9, 9 9))"), 0, false)
	t.Run("geographic covering", func(t *testing.T) {
		// No crs is OGC:CRS84: a row box may wrap around the antimeridian,
		// so only the latitudes prune; row group 2 differs in x alone.
		p, err := Plan(geoParquetFile(t, boxes, "", true), q, []int{0}, AllMechanisms())
		if err != nil {
			t.Fatal(err)
		}
		if got := verdicts(p); got != "sskk" {
			t.Fatalf("verdicts %s, want sskk", got)
		}
	})
	t.Run("projected covering", func(t *testing.T) {
		f := geoParquetFile(t, boxes, `"crs":null,`, true)
		p, err := Plan(f, q, []int{0}, AllMechanisms())
		if err != nil {
			t.Fatal(err)
		}
		if got := verdicts(p); got != "sssk" {
			t.Fatalf("verdicts %s, want sssk\n%q %q", got, p.TrustNotes, p.Notes)
		}
		if !strings.Contains(p.RowGroups[0].Reason, "bbox.ymax max 1 < 9") {
			t.Errorf("row group 0 reason %q does not name the covering column", p.RowGroups[0].Reason)
		}
		// The covering columns' statistics decide, but the skip is the
		// spatial predicate's: credited to the spatial mechanism.
		if m := p.RowGroups[0].Mechanism; m != BoundingBox || p.Skipped[Statistics] != 0 || p.Summary().RowGroupsSkipped[BoundingBox] != 3 {
			t.Errorf("row group 0 skipped by %s; bytes by mechanism %v, want all spatial", m, p.Skipped)
		}
		// Beside a condition the statistics rule out on their own, they
		// keep the credit.
		both := &And{Xs: []Expr{q, &Compare{Col: Column{Path: "bbox.xmin"}, Op: Gt, Lit: FloatLiteral(100)}}}
		if p, _ := Plan(f, both, []int{0}, AllMechanisms()); p.RowGroups[0].Mechanism != Statistics {
			t.Errorf("row group 0 with bbox.xmin > 100: skipped by %s, want statistics", p.RowGroups[0].Mechanism)
		}
		// Without nan_count a NaN may hide in a covering column, and a row
		// whose box is NaN proves nothing: keep.
		if p, _ := Plan(geoParquetFile(t, boxes, `"crs":null,`, false), q, []int{0}, AllMechanisms()); verdicts(p) != "kkkk" {
			t.Errorf("without nan_count: verdicts %s, want kkkk", verdicts(p))
		}
		// NOT of the predicate is never judged on the covering.
		if p, _ := Plan(f, &Not{X: q}, []int{0}, AllMechanisms()); verdicts(p) != "kkkk" {
			t.Errorf("NOT: verdicts %s, want kkkk", verdicts(p))
		}
	})
	t.Run("file bbox", func(t *testing.T) {
		f := geoParquetFile(t, boxes, `"bbox":[100,100,101,101],`, false)
		p, err := Plan(f, q, []int{0}, AllMechanisms())
		if err != nil {
			t.Fatal(err)
		}
		if got := verdicts(p); got != "ssss" {
			t.Fatalf("verdicts %s, want ssss", got)
		}
		if r := p.RowGroups[3]; r.Mechanism != BoundingBox || r.Reason != "spatial: file bbox x[100, 101] y[100, 101] is disjoint from query box x[9, 12] y[9, 12]" {
			t.Errorf("row group 3: %s %q", r.Mechanism, r.Reason)
		}
	})
	t.Run("spherical edges", func(t *testing.T) {
		f := geoParquetFile(t, boxes, `"edges":"spherical","bbox":[100,100,101,101],`, true)
		p, err := Plan(f, q, []int{0}, AllMechanisms())
		if err != nil {
			t.Fatal(err)
		}
		if got := verdicts(p); got != "kkkk" {
			t.Fatalf("verdicts %s, want kkkk: spherical boxes do not bound planar predicates", got)
		}
	})
}

// TestSpatialNaNRowGroupSkipped: geospatial-with-nan.parquet's one row
// group has the box x[10, 130] y[20, 140], which leaves out the NaN
// coordinate of its line; a query box missing it skips the row group. That
// the answer is the same without the skip (the function compares the rows'
// boxes without NaN first) is testdata/queries/spatial_nan.test's part.
func TestSpatialNaNRowGroupSkipped(t *testing.T) {
	path := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "geospatial", "geospatial-with-nan.parquet")
	f, err := format.Open(path)
	if err != nil {
		t.Skipf("corpus file: %v", err)
	}
	defer f.Close()
	leaf := spatialLeafOf(STWithin, mustWKT(t, "POLYGON((0 0, 0 1, 1 1, 1 0, 0 0))"), 0, false)
	leaf.Col.Path = "geometry"
	p, err := Plan(f, leaf, nil, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	r := p.RowGroups[0]
	if r.Verdict != Skip || r.Mechanism != BoundingBox || r.Reason != "spatial: bbox x[10, 130] y[20, 140] is disjoint from query box x[0, 1] y[0, 1]" {
		t.Errorf("row group 0: %s by %s (%q), want skipped by the statistics box", r.Verdict, r.Mechanism, r.Reason)
	}
}
