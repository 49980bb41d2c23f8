package pushdown

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// openHostile opens a crafted file of testdata/hostile.
func openHostile(t *testing.T, name string) *format.File {
	t.Helper()
	f, err := format.Open(filepath.Join(testcorpus.ModuleRoot(t), "testdata", "hostile", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// Metadata that contradicts other metadata proves nothing: the row group is
// kept and the plan says why.
func TestContradictingMetadataKeepsTheRowGroup(t *testing.T) {
	for _, tc := range []struct {
		file, col string
		lit       Literal
		note      string
	}{
		// Every row holds 200; the filter's header and footer disagree on
		// its size and its bits say 200 is absent.
		{"bloom_length_contradiction.parquet", "r", IntLiteral(200), "bloom_filter_length is 528"},
		// 8 rows of 1..8, but num_values 0 and null_count 0 would make the
		// chunk "all null".
		{"num_values_zero.parquet", "v", IntLiteral(3), "num_values 0 is fewer than the row group's 8 rows"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f := openHostile(t, tc.file)
			plan, err := Plan(f, eq(tc.col, tc.lit), allLeaves(f), AllMechanisms())
			if err != nil {
				t.Fatal(err)
			}
			if v := plan.RowGroups[0].Verdict; v != Scan {
				t.Fatalf("row group 0: %s (%s); want scan", v, plan.RowGroups[0].Reason)
			}
			said := strings.Join(append(plan.Notes, plan.TrustNotes...), "\n")
			if !strings.Contains(said, tc.note) {
				t.Fatalf("the plan does not say why it kept the row group (want %q):\n%s", tc.note, said)
			}
		})
	}
}
