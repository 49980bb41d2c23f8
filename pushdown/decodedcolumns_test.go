package pushdown

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/pqsql/pqsql/format"
)

// A file opened with the chunk metadata of the leaves Columns lists alone,
// as a scan opens a glob's files, plans as the file opened whole: the same
// verdicts, ranges and report, for random predicates, projections and
// options. A leaf Columns leaves out has no metadata, and a read of it is
// refused rather than misread.
func TestPlanOfDecodedColumns(t *testing.T) {
	ds, gens := fixtureGens(t, 31)
	r := rand.New(rand.NewSource(5))
	partial, left := 0, 0
	for k := range 300 {
		i := r.Intn(len(ds))
		d := ds[i]
		var tree Expr
		if k%5 != 0 {
			tree = gens[i].tree(0)
		}
		opt := randomOptions(r)
		var leaves []int
		for l := range d.f.Schema.Leaves {
			if r.Intn(3) == 0 {
				leaves = append(leaves, l)
			}
		}
		what := d.name + ": no predicate"
		if tree != nil {
			what = d.name + ": " + describe(tree)
		}
		want, werr := Plan(d.f, tree, leaves, opt)
		var cols []int
		f, err := format.OpenSourceColumns(d.f.Source, d.f.Name, d.f.Limits, func(f *format.File) ([]bool, error) {
			if f.Meta.RowGroups != nil {
				t.Fatalf("%s: the columns are chosen with the row groups decoded", what)
			}
			var err error
			if cols, err = Columns(f, tree, leaves); err != nil {
				return nil, err
			}
			keep := make([]bool, len(f.Schema.Leaves))
			for _, c := range cols {
				keep[c] = true
			}
			return keep, nil
		})
		if werr != nil {
			if err == nil {
				if _, perr := Plan(f, tree, leaves, opt); perr == nil || perr.Error() != werr.Error() {
					t.Fatalf("%s: planned whole: %v; with its columns: %v", what, werr, perr)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: opening with its columns: %v", what, err)
		}
		got, gerr := Plan(f, tree, leaves, opt)
		if gerr != nil {
			t.Fatalf("%s (options %s): with its columns: %v", what, opt, gerr)
		}
		if !samePlan(unjudged(got), unjudged(want)) || explainText(got) != explainText(want) {
			t.Fatalf("%s (options %s): the plan with its columns' metadata differs:\n%s\nwant\n%s", what, opt, explainText(got), explainText(want))
		}
		if len(cols) < len(d.f.Schema.Leaves) {
			partial++
		}
		for c := range f.Schema.Leaves {
			in := false
			for _, x := range cols {
				in = in || x == c
			}
			if f.Decoded(c) != in {
				t.Fatalf("%s: leaf %d decoded %v, listed %v", what, c, f.Decoded(c), in)
			}
			if in || f.NumRowGroups() == 0 {
				continue
			}
			left++
			if f.Chunk(0, c).MetaData != nil {
				t.Fatalf("%s: leaf %d left out has metadata", what, c)
			}
			if _, err := f.ChunkRange(0, c); !errors.Is(err, format.ErrNotDecoded) {
				t.Fatalf("%s: the range of leaf %d left out: %v", what, c, err)
			}
			if _, err := f.ReadColumn(0, c); !errors.Is(err, format.ErrNotDecoded) {
				t.Fatalf("%s: reading leaf %d left out: %v", what, c, err)
			}
		}
	}
	if partial < 100 || left < 100 {
		t.Errorf("%d plans of files opened in part, %d leaves left out: too few to tell", partial, left)
	}
}

// unjudged is p without the page judgements its row groups keep for
// explaining, which point into the file they were made of.
func unjudged(p *FilePlan) *FilePlan {
	q := *p
	q.RowGroups = append([]RowGroupPlan(nil), p.RowGroups...)
	for i := range q.RowGroups {
		q.RowGroups[i].judged = nil
	}
	return &q
}

// decodedOnly opens f again with the chunk metadata of the leaves Columns
// lists for pred and columns alone.
func decodedOnly(t *testing.T, f *format.File, pred Expr, columns []int) *format.File {
	t.Helper()
	g, err := format.OpenSourceColumns(f.Source, f.Name, f.Limits, func(g *format.File) ([]bool, error) {
		cols, err := Columns(g, pred, columns)
		if err != nil {
			return nil, err
		}
		keep := make([]bool, len(g.Schema.Leaves))
		for _, c := range cols {
			keep[c] = true
		}
		return keep, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A spatial predicate judges the GeoParquet covering columns on their
// metadata though it reads none of them: a file opened with the metadata
// of the columns Columns lists plans as the file opened whole.
func TestPlanOfDecodedColumnsCovering(t *testing.T) {
	f := openFixture(t, "geo_points.parquet")
	for _, wkt := range []string{"POLYGON((13 52, 13 53, 14 53, 14 52, 13 52))", "POLYGON((-76 39, -76 41, -74 41, -74 39, -76 39))", "POINT(0 0)"} {
		for _, fn := range []SpatialFunc{STIntersects, STWithin, STDWithin} {
			q := spatialLeafOf(fn, mustWKT(t, wkt), 60, false)
			q.Col = Column{Path: "geometry"}
			for _, pred := range []Expr{q, &Or{Xs: []Expr{q, &Compare{Col: Column{Path: "id"}, Op: Eq, Lit: IntLiteral(7)}}}} {
				cols := []int{f.Schema.LeafByPath("id").Index}
				want, err := Plan(f, pred, cols, AllMechanisms())
				if err != nil {
					t.Fatal(err)
				}
				g := decodedOnly(t, f, pred, cols)
				for _, c := range []string{"bbox.ymin", "bbox.ymax", "geometry"} {
					if !g.Decoded(g.Schema.LeafByPath(c).Index) {
						t.Fatalf("%s: %s left out", describe(pred), c)
					}
				}
				got, err := Plan(g, pred, cols, AllMechanisms())
				if err != nil {
					t.Fatalf("%s: %v", describe(pred), err)
				}
				if !samePlan(unjudged(got), unjudged(want)) || explainText(got) != explainText(want) {
					t.Fatalf("%s: the plan with its columns' metadata differs:\n%s\nwant\n%s", describe(pred), explainText(got), explainText(want))
				}
			}
		}
	}
}
