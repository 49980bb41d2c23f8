package format

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// TestNoNullsSpansHoldOnlyValues reads every column of files with and
// without nulls page by page and checks the spans that claim NoNulls: each
// of their entries is defined at the leaf, so entry FirstEntry+i is value
// FirstValue+i. It also checks the claim is made (one RLE run of the
// maximum, as writers encode a page without nulls) and withheld (pages
// with nulls), so the test fails if either way is lost.
func TestNoNullsSpansHoldOnlyValues(t *testing.T) {
	root := testcorpus.ModuleRoot(t)
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	claimed, withheld := 0, 0
	for _, path := range []string{
		filepath.Join(root, "fixtures", "orders_shuffled.parquet"),
		filepath.Join(data, "alltypes_tiny_pages.parquet"),
		filepath.Join(data, "nullable.impala.parquet"),
		filepath.Join(data, "nested_lists.snappy.parquet"),
		filepath.Join(data, "datapage_v2.snappy.parquet"),
		filepath.Join(data, "nulls.snappy.parquet"),
	} {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for rg := range f.Meta.RowGroups {
			for col, leaf := range f.Schema.Leaves {
				r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				for {
					cd, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%s: %v", path, err)
					}
					for _, p := range cd.Pages {
						nulls := false
						for e := p.FirstEntry; e < p.FirstEntry+p.NumEntries; e++ {
							if cd.IsNull(e) || (cd.Def != nil && int(cd.Def[e]) != leaf.MaxDef) {
								nulls = true
							}
						}
						switch {
						case p.NoNulls && nulls:
							t.Fatalf("%s: row group %d, column %s: a span with nulls claims NoNulls", path, rg, leaf.Path)
						case p.NoNulls:
							claimed++
							if cd.Def != nil && p.FirstValue+p.NumEntries > cd.Values.Len()+len(cd.Indices) {
								t.Fatalf("%s: column %s: a NoNulls span's values run past the page's", path, leaf.Path)
							}
						case nulls:
							withheld++
						}
					}
					r.Release()
				}
				r.Close()
			}
		}
		f.Close()
	}
	t.Logf("claimed %d, withheld %d", claimed, withheld)
	if claimed == 0 || withheld == 0 {
		t.Fatalf("NoNulls claimed on %d spans, withheld on %d spans with nulls: want both", claimed, withheld)
	}
}
