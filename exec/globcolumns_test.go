package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
)

// The scan decodes a glob's files with the chunk metadata of the columns
// it reads or its WHERE judges alone, and a count of rows with none: the
// first file from the footer's bytes binding kept, the later ones, whose
// schemas binding checked, opened again. A later file's footer is read
// twice, at binding and by the scan, and both reads are counted.
// The answers are those of the files opened whole (the query suites).
func TestGlobFilesDecodeTheirColumns(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const glob = "'fixtures/orders_s*.parquet'"
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"SELECT sum(amount) FROM " + glob, []string{"amount"}},
		{"SELECT sum(amount) FROM " + glob + " WHERE city = 'Łódź'", []string{"amount", "city"}},
		{"SELECT count(*) FROM " + glob + " WHERE lower(status) = 'shipped' OR order_id < 10", []string{"order_id", "status"}},
		{"SELECT order_id, note FROM " + glob + " ORDER BY order_id DESC LIMIT 3", []string{"note", "order_id"}},
		{"SELECT count(*) FROM " + glob, nil},
	} {
		st, err := planner.Parse(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSession()
		p, err := planner.Build(st.(*planner.Select), catalog{s: s})
		if err != nil {
			t.Fatal(err)
		}
		x := &executor{settings: s.Settings, keepMeters: true}
		if _, err := x.result(context.Background(), p); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if tc.want == nil && len(x.stats.Meters) == 0 {
			continue // counted from the row counts binding read
		}
		if len(x.stats.Meters) != 2 {
			t.Fatalf("%s: %d files opened, want 2", tc.q, len(x.stats.Meters))
		}
		for i, m := range x.stats.Meters {
			var got []string
			for c, l := range m.f.Schema.Leaves {
				if m.f.Decoded(c) {
					got = append(got, l.Path)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: file %d has the metadata of %v, want %v", tc.q, i, got, tc.want)
			}
			// Its tail, leading magic and footer, read once by binding and,
			// for a later file, once more by the scan: both count.
			once := format.IOStats{Bytes: 4 + m.f.FooterSize, Requests: 3}
			if i > 0 {
				once.Bytes, once.Requests = 2*once.Bytes, 2*once.Requests
			}
			if got := m.counts[ioFooter].Stats(); got != once {
				t.Errorf("%s: file %d: footer reads %+v, want %+v", tc.q, i, got, once)
			}
		}
	}
}
