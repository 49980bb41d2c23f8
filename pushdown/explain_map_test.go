package pushdown

import (
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
)

// Marks mark every page of the columns read: the page the page index keeps
// as read, the others of its row group as page index, and all pages of the
// row groups the statistics skip, counted from the footer.
func TestMarks(t *testing.T) {
	f := openFixture(t, "orders_sorted.parquet")
	p, err := Plan(f, eq("order_id", IntLiteral(431)), []int{0}, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	groups := p.Marks(f, nil)
	if len(groups) != 5 {
		t.Fatalf("%d row groups, want 5", len(groups))
	}
	g0 := groups[0].Chunks[0]
	if g0.Path != "order_id" || len(g0.Pages) != 16 || g0.Pages[1] != MarkRead || g0.Pages[0] != MarkPageIndex || g0.Pages[15] != MarkPageIndex {
		t.Errorf("row group 0: %+v", g0)
	}
	for _, g := range groups[1:] {
		c := g.Chunks[0]
		if len(c.Pages) != 16 || c.Pages[0] != MarkStatistics || c.Pages[15] != MarkStatistics || g.Summary() != MarkStatistics {
			t.Errorf("row group %d: %+v", g.Index, c)
		}
	}
	if groups[0].Summary() != MarkPartial {
		t.Errorf("row group 0 summary %v, want read in part", groups[0].Summary())
	}
	// With what the run read: nothing, so the kept page is planned, not read.
	none := p.Marks(f, func(format.Range) bool { return false })
	if none[0].Chunks[0].Pages[1] != MarkUnread {
		t.Errorf("unread page marked %v", none[0].Chunks[0].Pages[1])
	}

	var b strings.Builder
	if err := WriteGrid(&b, groups, 21, false); err != nil {
		t.Fatal(err)
	}
	// 21 columns leave 8 cells for 16 pages: two pages a cell, the cell of
	// pages 0-1 read because page 1 is.
	want := "             order_id\n" +
		"row group 0  █ppppppp\n" +
		"row group 1  ssssssss\n" +
		"row group 2  ssssssss\n" +
		"row group 3  ssssssss\n" +
		"row group 4  ssssssss\n"
	if b.String() != want {
		t.Errorf("grid:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestLegend(t *testing.T) {
	l := Legend(false, false, 40)
	for _, line := range strings.Split(l, "\n") {
		if n := len([]rune(line)); n > 40 {
			t.Errorf("legend line %q is %d columns, over 40", line, n)
		}
	}
	for _, want := range []string{"█ read", "s statistics", "p page index", "b bloom", "d dictionary", "h hive path", "k top-k", "j join filter"} {
		if !strings.Contains(l, want) {
			t.Errorf("legend lacks %q:\n%s", want, l)
		}
	}
	if strings.Contains(l, "read in part") || !strings.Contains(Legend(false, true, 100), "▒ read in part") {
		t.Errorf("read in part belongs to glob maps only")
	}
	if c := Legend(true, false, 100); !strings.Contains(c, "\x1b[32m█\x1b[0m read") {
		t.Errorf("coloured legend %q", c)
	}
}
