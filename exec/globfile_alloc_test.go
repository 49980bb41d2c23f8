package exec

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/internal/testcorpus"
	"github.com/pqsql/pqsql/planner"
)

// The files of a glob repeat one schema, which they share (format): the
// dispatcher maps the plan's fields to a file's once for all of them, and
// again for a file of another schema.
func TestFieldsMappedOncePerSchema(t *testing.T) {
	root := testcorpus.ModuleRoot(t)
	path := filepath.Join(root, "fixtures", "statistics.parquet")
	st, err := planner.Parse("SELECT sum(order_id) FROM '" + path + "'")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	open := func(path string) *format.File {
		f, err := format.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	s := &scanner{q: &scanQuery{p: p}}
	first, second := open(path), open(path)
	if first.Schema != second.Schema {
		t.Fatal("two opens of one file do not share its schema")
	}
	fields, _, err := s.fileFields(first)
	if err != nil {
		t.Fatal(err)
	}
	var again []*format.Field
	if allocs := testing.AllocsPerRun(10, func() {
		if again, _, err = s.fileFields(second); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 || &again[0] != &fields[0] {
		t.Errorf("a file sharing the schema of the one before: fields mapped again, %.0f allocations", allocs)
	}
	other := open(filepath.Join(root, "fixtures", "orders_sorted.parquet"))
	if other.Schema == first.Schema {
		t.Fatal("the orders fixture shares the statistics fixture's schema")
	}
	mapped, leaves, err := s.fileFields(other)
	if err != nil {
		t.Fatal(err)
	}
	for i, fl := range mapped {
		if fl != nil && (fl.Leaf != other.Schema.LeafByPath("order_id") || len(leaves) != 1 || leaves[0] != fl.Leaf.Index) {
			t.Errorf("field %d of a file of another schema maps to leaf %s, not its own order_id", i, fl.Leaf.Path)
		}
	}
}

// A glob's files cost their footers' values, plans and reads each, not a
// schema, a field map or statistics' columns each: a scan of a glob of
// copies of one file allocates at most perFile objects for each file
// beyond the first four (375 when each file decoded and built its own).
func TestGlobAllocationsPerFile(t *testing.T) {
	const perFile = 250
	s := NewSession()
	ctx := context.Background()
	run := func(files int) float64 {
		q := "SELECT count(*), sum(order_id) FROM " + manyFiles(t, files)
		return testing.AllocsPerRun(10, func() {
			res, err := s.Execute(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Batches) != 1 || res.Batches[0].Len != 1 || res.Batches[0].Vectors[0].Int[0] != int64(12*files) {
				t.Fatalf("the count over %d files is not %d", files, 12*files)
			}
		})
	}
	few, many := run(4), run(12)
	if got := (many - few) / 8; got > perFile {
		t.Errorf("%.1f allocations for each file beyond the first four, want at most %d", got, perFile)
	}
}
