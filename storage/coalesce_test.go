package storage

import (
	"fmt"
	"testing"

	"github.com/pqsql/pqsql/format"
)

func TestCoalesce(t *testing.T) {
	r := func(off, n int64) format.Range { return format.Range{Offset: off, Length: n} }
	cases := []struct {
		name string
		in   []format.Range
		gap  int64
		want []format.Range
	}{
		{"touching and overlapping always merge", []format.Range{r(0, 10), r(10, 10), r(15, 10), r(100, 5)}, 0, []format.Range{r(0, 25), r(100, 5)}},
		{"large ranges, small gap", []format.Range{r(0, 1000), r(1050, 1000)}, 100, []format.Range{r(0, 2050)}},
		{"a gap beyond the setting", []format.Range{r(0, 1000), r(1200, 1000)}, 100, []format.Range{r(0, 1000), r(1200, 1000)}},
		// Small pages far apart: the gaps would read more than a tenth
		// of the pages' bytes.
		{"small pages, wide gaps", []format.Range{r(0, 100), r(5000, 100), r(10000, 100)}, 32 << 10, []format.Range{r(0, 100), r(5000, 100), r(10000, 100)}},
		// The budget (300 bytes of 3000) takes the smallest gap, 150
		// bytes, then has too little left for the other, 200.
		{"smallest gaps first", []format.Range{r(0, 1000), r(1200, 1000), r(2350, 1000)}, 1 << 10, []format.Range{r(0, 1000), r(1200, 2150)}},
		{"unsorted input", []format.Range{r(1050, 1000), r(0, 1000)}, 100, []format.Range{r(0, 2050)}},
	}
	for _, c := range cases {
		if got := Coalesce(c.in, c.gap); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: Coalesce(%v, %d) = %v, want %v", c.name, c.in, c.gap, got, c.want)
		}
	}
}
