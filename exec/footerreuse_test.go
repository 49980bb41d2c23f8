package exec

import (
	"reflect"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
)

// A scan opening a file whose footer binding kept neither reads nor
// decodes it again, and counts binding's reads as its footer reads: the
// same bytes and requests as opening it anew. A footer of a file that has
// since changed size is not trusted: the file is opened again.
func TestOpenReusesBindingFooter(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const path = "fixtures/orders_sorted.parquet"
	x := &executor{}
	fresh, fm, closer, err := x.openCounted(path)
	if err != nil {
		t.Fatal(err)
	}
	closer.Close()
	want := fm.counts[ioFooter].Stats()

	st, err := planner.Parse("SELECT order_id FROM '" + path + "' WHERE order_id = 7")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), catalog{s: NewSession()})
	if err != nil {
		t.Fatal(err)
	}
	kept := p.Scan.TakeFooter(path)
	if kept == nil {
		t.Fatal("binding kept no footer")
	}
	f, m, closer, err := x.openCountedFooter(path, kept, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	// Binding kept the footer's bytes, decoded but for the row groups,
	// which the scan decodes from them.
	if kept.File.Meta.RowGroups != nil || f.Meta.Schema == nil || &f.Meta.Schema[0] != &kept.File.Meta.Schema[0] || f.Source != format.Source(m) || f.Name != path {
		t.Errorf("the footer was not reused over the meter: %s, %p %p", f.Name, f.Meta, kept.File.Meta)
	}
	for i := range m.counts {
		got := m.counts[i].Stats()
		if ioPurpose(i) == ioFooter && got != want {
			t.Errorf("footer reads %+v, want %+v as opening reads", got, want)
		}
		if ioPurpose(i) != ioFooter && got != (format.IOStats{}) {
			t.Errorf("%s: %+v read while opening", ioPurpose(i), got)
		}
	}
	if f.Meta.NumRows != fresh.Meta.NumRows || !reflect.DeepEqual(f.Meta.RowGroups, fresh.Meta.RowGroups) {
		t.Errorf("reused footer: %d rows in %d row groups, want %d in %d", f.Meta.NumRows, len(f.Meta.RowGroups), fresh.Meta.NumRows, len(fresh.Meta.RowGroups))
	}

	changed := &planner.Footer{File: &format.File{Name: path, Source: sized(1), Meta: kept.File.Meta, FooterSize: kept.File.FooterSize}, Read: kept.Read}
	g, _, closer2, err := x.openCountedFooter(path, changed, nil)
	if err != nil {
		t.Fatal(err)
	}
	closer2.Close()
	if g.Meta == kept.File.Meta || len(g.Meta.RowGroups) == 0 {
		t.Error("the footer of a file of another size was reused")
	}
}

type sized int64

func (s sized) ReadAt(p []byte, off int64) (int, error) { return 0, nil }
func (s sized) Size() int64                             { return int64(s) }
