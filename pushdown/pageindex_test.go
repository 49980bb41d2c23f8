package pushdown

import (
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// readLog is a Source that records the ranges read through it.
type readLog struct {
	format.Source
	mu    sync.Mutex
	reads []format.Range
}

func (l *readLog) ReadAt(b []byte, off int64) (int, error) {
	l.mu.Lock()
	l.reads = append(l.reads, format.Range{Offset: off, Length: int64(len(b))})
	l.mu.Unlock()
	return l.Source.ReadAt(b, off)
}

// touched reports whether any read overlapped r.
func (l *readLog) touched(r format.Range) bool {
	for _, x := range l.reads {
		if x.Offset < r.End() && r.Offset < x.End() {
			return true
		}
	}
	return false
}

// logged is f reading through a readLog.
func logged(f *format.File) (*format.File, *readLog) {
	g := *f
	l := &readLog{Source: f.Source}
	g.Source = l
	return &g, l
}

// TestOffsetIndexReadOnlyToSkip checks that the page index reads a chunk's
// offset index only when its column index rules a page out: when every
// page is kept the chunk is read whole, and where pages lie is not needed.
func TestOffsetIndexReadOnlyToSkip(t *testing.T) {
	opt := Options{Statistics: true, PageIndex: true, Threads: 1}
	t.Run("nothing ruled out", func(t *testing.T) {
		f, l := logged(openFixture(t, "orders_shuffled.parquet"))
		city := leafIndex(t, f, "city")
		// 'Lima' lies between every page's bounds but is in no row.
		p, err := Plan(f, eq("city", StringLiteral("Lima")), allLeaves(f), opt)
		if err != nil {
			t.Fatal(err)
		}
		var ci int64
		for _, rg := range p.RowGroups {
			if rg.Verdict != Scan {
				t.Fatalf("row group %d: %s (%s), want scan", rg.Index, rg.Verdict, rg.Reason)
			}
			cr, _ := f.ColumnIndexRange(rg.Index, city)
			or, _ := f.OffsetIndexRange(rg.Index, city)
			ci += cr.Length
			if !l.touched(cr) {
				t.Errorf("row group %d: column index of city not read", rg.Index)
			}
			if l.touched(or) {
				t.Errorf("row group %d: offset index of city read, though no page can be skipped", rg.Index)
			}
			if len(rg.PageDecisions()) == 0 {
				t.Errorf("row group %d: no page decisions", rg.Index)
			}
			for _, d := range rg.PageDecisions() {
				if !d.Keep || d.Located {
					t.Errorf("row group %d, page %d: keep %v, located %v; want kept and not located", rg.Index, d.Page, d.Keep, d.Located)
				}
			}
		}
		if p.IndexBytes != ci {
			t.Errorf("index bytes %d, want the column indexes' %d", p.IndexBytes, ci)
		}
	})
	t.Run("pages ruled out", func(t *testing.T) {
		f, l := logged(openFixture(t, "orders_sorted.parquet"))
		id := leafIndex(t, f, "order_id")
		p, err := Plan(f, eq("order_id", IntLiteral(431)), allLeaves(f), opt)
		if err != nil {
			t.Fatal(err)
		}
		rg := p.RowGroups[0]
		if rg.Verdict != Select {
			t.Fatalf("row group 0: %s (%s), want select", rg.Verdict, rg.Reason)
		}
		or, _ := f.OffsetIndexRange(0, id)
		if !l.touched(or) {
			t.Errorf("offset index of order_id not read, though pages are skipped")
		}
		skipped := 0
		for _, d := range rg.PageDecisions() {
			if !d.Located {
				t.Errorf("page %d not located", d.Page)
			}
			if !d.Keep {
				skipped++
			}
		}
		if skipped == 0 {
			t.Errorf("no page skipped: %+v", rg.PageDecisions())
		}
		for _, c := range rg.Columns {
			if c.Leaf == id && (c.Whole || len(c.Pages) >= c.NumPages) {
				t.Errorf("order_id read whole or every page: %d of %d pages", len(c.Pages), c.NumPages)
			}
		}
	})
}

// TestPageIndexIsPageBounds checks that the bounds a PageIndex gives, which
// the plan judges, are each page's PageBounds, and its boundary order
// IndexOrder's, on every column index of the fixtures and the conformance
// corpus, decoded into one buffer after another.
func TestPageIndexIsPageBounds(t *testing.T) {
	paths := []string{}
	for _, name := range []string{"orders_sorted.parquet", "orders_shuffled.parquet", "types.parquet", "statistics.parquet", "nested.parquet"} {
		paths = append(paths, filepath.Join(testcorpus.ModuleRoot(t), "fixtures", name))
	}
	if corpus, err := corpusPaths(t); err == nil {
		paths = append(paths, corpus...)
	}
	checked := 0
	var buf format.ColumnIndexBuf
	for _, path := range paths {
		f, err := format.Open(path)
		if err != nil {
			continue
		}
		cols, err := stats.Columns(f.Meta)
		if err != nil {
			f.Close()
			continue
		}
		for rg := range f.NumRowGroups() {
			for c := range f.Schema.Leaves {
				ci, err := f.ReadColumnIndex(rg, c)
				if err != nil {
					continue
				}
				into, _, err := f.ReadColumnIndexInto(rg, c, &buf)
				if err != nil {
					t.Fatalf("%s rg %d col %d: %v", path, rg, c, err)
				}
				pages := stats.NewPageIndex(&cols[c], into)
				if pages.Len() != len(ci.NullPages) {
					t.Fatalf("%s rg %d col %d: %d pages, want %d", path, rg, c, pages.Len(), len(ci.NullPages))
				}
				for i := range ci.NullPages {
					if got, want := pages.Bounds(i), stats.PageBounds(cols[c], ci, i); !reflect.DeepEqual(got, want) {
						t.Errorf("%s rg %d col %d page %d: %+v, want %+v", path, rg, c, i, got, want)
					}
				}
				o1, why1 := pages.Order()
				o2, why2 := stats.IndexOrder(cols[c], ci)
				if o1 != o2 || why1 != why2 {
					t.Errorf("%s rg %d col %d: order %v (%s), want %v (%s)", path, rg, c, o1, why1, o2, why2)
				}
				o3, searched := pages.SearchOrder(nil)
				if o3 != o2 {
					t.Errorf("%s rg %d col %d: search order %v, want %v", path, rg, c, o3, o2)
				}
				if o3 == meta.Ascending || o3 == meta.Descending {
					var want []int
					for i := range ci.NullPages {
						if b := stats.PageBounds(cols[c], ci, i); !b.AllNull && !b.AllNaN {
							want = append(want, i)
						}
					}
					if !reflect.DeepEqual(searched, want) {
						t.Errorf("%s rg %d col %d: pages searched %v, want %v", path, rg, c, searched, want)
					}
				}
				checked++
			}
		}
		f.Close()
	}
	if checked == 0 {
		t.Fatal("no column index checked")
	}
	t.Logf("%d column indexes", checked)
}

// TestPageIndexScratchHandedOn checks that row groups judged one after
// another decode their column indexes into one scratch, which each hands
// to the next once judged, and that what a plan keeps of its page index
// outlives the scratch: its page decisions, spelled out after later row
// groups reused it, still give each page's own bounds.
func TestPageIndexScratchHandedOn(t *testing.T) {
	f := openFixture(t, "orders_shuffled.parquet")
	if f.NumRowGroups() < 2 {
		t.Skipf("the fixture has %d row group", f.NumRowGroups())
	}
	city := leafIndex(t, f, "city")
	// 'Lima' lies between every page's bounds: each row group's column
	// index of city is read and judged.
	p, err := newPlanner(f, eq("city", StringLiteral("Lima")), allLeaves(f), Options{Statistics: true, PageIndex: true, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	var sc *indexScratch
	var plans []RowGroupPlan
	for rg := range f.NumRowGroups() {
		plan, err := p.rowGroup(rg, &rgTally{rg: rg})
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, plan)
		if len(p.freeScratch) != 1 {
			t.Fatalf("after row group %d: %d scratches given back, want 1", rg, len(p.freeScratch))
		}
		if sc != nil && p.freeScratch[0] != sc {
			t.Errorf("row group %d judged its page index in new scratch", rg)
		}
		sc = p.freeScratch[0]
	}
	for _, plan := range plans {
		ci, err := f.ReadColumnIndex(plan.Index, city)
		if err != nil {
			t.Fatal(err)
		}
		ds := plan.PageDecisions()
		if len(ds) != len(ci.NullPages) {
			t.Fatalf("row group %d: %d page decisions, want %d", plan.Index, len(ds), len(ci.NullPages))
		}
		for _, d := range ds {
			b := stats.PageBounds(p.cols[city], ci, d.Page)
			if !d.Keep || !reflect.DeepEqual(d.min, b.Min) || !reflect.DeepEqual(d.max, b.Max) {
				t.Errorf("row group %d, page %d: keep %v, bounds [%q, %q]; want kept, [%q, %q]", plan.Index, d.Page, d.Keep, d.min, d.max, b.Min, b.Max)
			}
		}
	}
}

// TestOffsetIndexBufferServesEveryChunk checks that the offset indexes read
// only to choose a narrowed row group's pages, one for each column read,
// share one buffer, beside the one of the column the page index judged,
// whose decisions still place its pages once the buffers are given back.
func TestOffsetIndexBufferServesEveryChunk(t *testing.T) {
	f := openFixture(t, "orders_sorted.parquet")
	if len(f.Schema.Leaves) < 4 {
		t.Skipf("the fixture has %d columns", len(f.Schema.Leaves))
	}
	p, err := newPlanner(f, eq("order_id", IntLiteral(431)), allLeaves(f), Options{Statistics: true, PageIndex: true, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := p.rowGroup(0, &rgTally{rg: 0})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Verdict != Select {
		t.Fatalf("row group 0: %s (%s), want select", plan.Verdict, plan.Reason)
	}
	for _, c := range plan.Columns {
		if c.Whole || len(c.Pages) == 0 || len(c.Pages) >= c.NumPages {
			t.Errorf("column %s: whole %v, %d of %d pages; want some pages chosen", c.Path, c.Whole, len(c.Pages), c.NumPages)
		}
	}
	if len(p.freeOI) != 2 {
		t.Errorf("%d offset index buffers for %d columns, want 2", len(p.freeOI), len(plan.Columns))
	}
	oi, err := f.ReadOffsetIndex(0, leafIndex(t, f, "order_id"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range plan.PageDecisions() {
		first, end := format.PageRows(oi, d.Page, plan.NumRows)
		if !d.Located || d.Rows != (RowRange{first, end}) || d.Bytes != int64(oi.PageLocations[d.Page].CompressedPageSize) {
			t.Errorf("page %d: located %v, rows %v, %d bytes; want rows [%d, %d), %d bytes", d.Page, d.Located, d.Rows, d.Bytes, first, end, oi.PageLocations[d.Page].CompressedPageSize)
		}
	}
}
