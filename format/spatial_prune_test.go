package format_test

import (
	"encoding/binary"
	"flag"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/peterstace/simplefeatures/geom"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/pushdown"
)

// geoStatsFile is fixtures/geo_points.parquet with the two facts arrow-go
// v18.8.0 does not write, added with the project's own encoder: each
// GEOMETRY chunk's geospatial statistics (the box of its points, taken from
// the covering columns' statistics) and a zero nan_count for every covering
// chunk and page (the points are finite). The column indexes are rewritten
// after the data and the footer re-encoded.
func geoStatsFile(t *testing.T) (*format.File, []byte) {
	t.Helper()
	data, err := os.ReadFile("../fixtures/geo_points.parquet")
	if err != nil {
		t.Fatal(err)
	}
	f, err := format.OpenSource(format.BytesSource(data), "geo_points.parquet", format.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	geomLeaf := f.Schema.LeafByPath("geometry").Index
	var cover [4]int // bbox.xmin, ymin, xmax, ymax
	for i, n := range []string{"xmin", "ymin", "xmax", "ymax"} {
		cover[i] = f.Schema.LeafByPath("bbox." + n).Index
	}
	body := append([]byte(nil), data[:int64(len(data))-f.FooterSize]...)
	f64 := func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }
	zero := int64(0)
	for rg := range f.Meta.RowGroups {
		var side [4]float64
		for i, c := range cover {
			cc := f.Chunk(rg, c)
			st := cc.MetaData.Statistics
			st.NanCount = &zero
			if i < 2 {
				side[i] = f64(st.MinValue)
			} else {
				side[i] = f64(st.MaxValue)
			}
			ci, err := f.ReadColumnIndex(rg, c)
			if err != nil || ci == nil {
				t.Fatalf("row group %d, column %d: column index: %v", rg, c, err)
			}
			ci.NanCounts = make([]int64, len(ci.NullPages))
			enc, err := thrift.EncodeColumnIndex(ci)
			if err != nil {
				t.Fatal(err)
			}
			off, n := int64(len(body)), int32(len(enc))
			cc.ColumnIndexOffset, cc.ColumnIndexLength = &off, &n
			body = append(body, enc...)
		}
		f.Chunk(rg, geomLeaf).MetaData.GeospatialStatistics = &meta.GeospatialStatistics{
			BBox:            &meta.BoundingBox{XMin: side[0], YMin: side[1], XMax: side[2], YMax: side[3]},
			GeospatialTypes: []int32{1},
		}
	}
	footer, err := thrift.EncodeFileMetaData(f.Meta)
	if err != nil {
		t.Fatal(err)
	}
	body = append(body, footer...)
	body = binary.LittleEndian.AppendUint32(body, uint32(len(footer)))
	body = append(body, "PAR1"...)
	out, err := format.OpenSource(format.BytesSource(body), "geo_points.parquet", format.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return out, body
}

// intersects is the leaf the planner builds for ST_Intersects(geometry, q).
func intersects(t *testing.T, wkt string) (*pushdown.Spatial, geom.Geometry) {
	q, err := geom.UnmarshalWKT(wkt)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, _ := q.Envelope().MinMaxXYs()
	return &pushdown.Spatial{Col: pushdown.Column{Path: "geometry"}, Func: pushdown.STIntersects,
		Query: pushdown.Box{XMin: lo.X, XMax: hi.X, YMin: lo.Y, YMax: hi.Y}, Text: "ST_Intersects(geometry, q)"}, q
}

// TestSpatialPruningOnCraftedStatistics plans a query box that meets one
// row group's cluster: the geospatial statistics skip the other three, the
// covering columns' page index narrows the fourth to the pages it can
// touch, and every row that satisfies the predicate is in what is read.
func TestSpatialPruningOnCraftedStatistics(t *testing.T) {
	f, _ := geoStatsFile(t)
	leaf, q := intersects(t, "POLYGON((13 52.3, 13 52.7, 13.5 52.7, 13.5 52.3, 13 52.3))")
	p, err := pushdown.Plan(f, leaf, []int{0}, pushdown.AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	geomLeaf := f.Schema.LeafByPath("geometry").Index
	kept, matches := 0, 0
	for rg, r := range p.RowGroups {
		if r.Verdict == pushdown.Skip {
			if r.Mechanism != pushdown.BoundingBox || !strings.HasPrefix(r.Reason, "spatial: bbox x[") ||
				!strings.HasSuffix(r.Reason, "is disjoint from query box x[13, 13.5] y[52.3, 52.7]") {
				t.Errorf("row group %d: skipped by %s: %q", rg, r.Mechanism, r.Reason)
			}
		} else {
			kept++
		}
		cd, err := f.ReadColumn(rg, geomLeaf)
		if err != nil {
			t.Fatal(err)
		}
		for i := range cd.NumEntries {
			g, err := geom.UnmarshalWKB(cd.Values.PlainBytes(i, nil))
			if err != nil {
				t.Fatal(err)
			}
			if !geom.Intersects(g, q) {
				continue
			}
			matches++
			if r.Verdict == pushdown.Skip || !r.Rows.Overlaps(int64(i), int64(i)+1) {
				t.Fatalf("row group %d, row %d (%s) satisfies the predicate but is not read", rg, i, g.AsText())
			}
		}
	}
	if kept != 1 || matches == 0 {
		t.Fatalf("kept %d row groups with %d matching rows, want exactly the one cluster at (13, 52)", kept, matches)
	}
	r := p.RowGroups[1]
	if r.Verdict != pushdown.Select || r.Rows.Count() >= r.NumRows {
		t.Errorf("row group 1: %s, %d of %d rows: the covering's page index should narrow it", r.Verdict, r.Rows.Count(), r.NumRows)
	}
	// Only the covering's page index narrows row group 1: its pages are
	// the spatial mechanism's, in bytes, page counts and marks alike.
	t.Logf("kept %d of %d rows of row group 1; bytes skipped: spatial %d, page index %d of %d", r.Rows.Count(), r.NumRows,
		p.Skipped[pushdown.BoundingBox], p.Skipped[pushdown.PageIndex], p.ChunkBytes)
	if r.Mechanism != pushdown.BoundingBox {
		t.Errorf("row group 1 narrowed by %s, want spatial", r.Mechanism)
	}
	if p.Skipped[pushdown.PageIndex] != 0 || p.Skipped[pushdown.BoundingBox] != p.ChunkBytes-p.ReadBytes {
		t.Errorf("bytes skipped: spatial %d, page index %d; want all %d of the unread bytes spatial", p.Skipped[pushdown.BoundingBox], p.Skipped[pushdown.PageIndex], p.ChunkBytes-p.ReadBytes)
	}
	sum := p.Summarize(f)
	if sum.PagesSkipped[pushdown.PageIndex] != 0 || sum.PagesSkipped[pushdown.BoundingBox] != sum.Pages-sum.PagesKept {
		t.Errorf("pages skipped: %v of %d, %d kept; want every skipped page spatial", sum.PagesSkipped, sum.Pages, sum.PagesKept)
	}
	for _, c := range p.Marks(f, nil)[1].Chunks {
		for i, m := range c.Pages {
			if m != pushdown.MarkRead && m != pushdown.MarkSpatial {
				t.Errorf("row group 1, %s, page %d: mark %s, want read or spatial", c.Path, i, m.Glyph(false))
			}
		}
	}
	var b strings.Builder
	if err := p.Explain(&b, pushdown.ExplainOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); strings.Contains(got, "skipped by page index") || !strings.Contains(got, "skipped by spatial: 3 row groups, ") {
		t.Errorf("EXPLAIN credits the covering elsewhere:\n%s", got)
	}
	checkSpatialGolden(t, p, f)
}

var updateSpatial = flag.Bool("update-spatial", false, "rewrite testdata/spatial_covering.golden")

// checkSpatialGolden holds the EXPLAIN text and MAP of the crafted plan to
// testdata/spatial_covering.golden.
func checkSpatialGolden(t *testing.T, p *pushdown.FilePlan, f *format.File) {
	t.Helper()
	var b strings.Builder
	if err := p.Explain(&b, pushdown.ExplainOptions{File: f}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	if err := pushdown.WriteGrid(&b, p.Marks(f, nil), 60, false); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n" + pushdown.Legend(false, false, 100) + "\n")
	const path = "testdata/spatial_covering.golden"
	if *updateSpatial {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("EXPLAIN differs from %s (run with -update-spatial if intended):\n%s", path, b.String())
	}
}

// TestSpatialPruningWithoutNaNCounts plans the same box on the file as
// arrow-go wrote it: no geospatial statistics and no nan_count, so a NaN
// may hide in any covering value and nothing may be skipped.
func TestSpatialPruningWithoutNaNCounts(t *testing.T) {
	f, err := format.Open("../fixtures/geo_points.parquet")
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := intersects(t, "POLYGON((13 52.3, 13 52.7, 13.5 52.7, 13.5 52.3, 13 52.3))")
	p, err := pushdown.Plan(f, leaf, []int{0}, pushdown.AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	for rg, r := range p.RowGroups {
		if r.Verdict != pushdown.Scan {
			t.Errorf("row group %d: %s (%s), want scan", rg, r.Verdict, r.Reason)
		}
	}
	// A box outside the file bbox skips the whole file.
	leaf, _ = intersects(t, "POINT(0 80)")
	p, err = pushdown.Plan(f, leaf, []int{0}, pushdown.AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	for rg, r := range p.RowGroups {
		if r.Verdict != pushdown.Skip || !strings.HasPrefix(r.Reason, "spatial: file bbox x[-74.99") {
			t.Errorf("row group %d: %s (%s), want skipped by the file bbox", rg, r.Verdict, r.Reason)
		}
	}
}
