package stats

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden statistics-trust reports in testdata/")

// trustReport is the statistics-trust report EXPLAIN prints for a file:
// per row group and column, the accepted bounds or why they were refused,
// then the column index's order and pages.
func trustReport(t *testing.T, f *parquetFile) string {
	t.Helper()
	cols, err := Columns(f.md)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "created_by: %s\n", ParseCreatedBy(deref(f.md.CreatedBy)))
	for g, rg := range f.md.RowGroups {
		fmt.Fprintf(&sb, "row group %d\n", g)
		for i, c := range cols {
			cm := rg.Columns[i].MetaData
			for _, l := range ChunkBounds(c, cm.Statistics, cm.NumValues).Report() {
				fmt.Fprintf(&sb, "  %s\n", l)
			}
			ci := f.columnIndex(t, g, i)
			if ci == nil {
				continue
			}
			order, why := IndexOrder(c, ci)
			if why != "" {
				fmt.Fprintf(&sb, "    %s: boundary order %v: %s\n", c.Path, order, why)
			} else {
				fmt.Fprintf(&sb, "    %s: boundary order %v\n", c.Path, order)
			}
			for p := range ci.NullPages {
				for _, l := range PageBounds(c, ci, p).Report() {
					fmt.Fprintf(&sb, "    %s\n", l)
				}
			}
		}
	}
	return sb.String()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestTrustReportGolden pins the report's wording for the statistics fixture
// and the IEEE 754 corpus file. Run with -update to rewrite the golden files.
func TestTrustReportGolden(t *testing.T) {
	tests := []struct {
		name string
		file func(t *testing.T) *parquetFile
	}{
		{"statistics", statisticsFixture},
		{"floating_orders_nan_count", func(t *testing.T) *parquetFile {
			return readParquet(t, filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "floating_orders_nan_count.parquet"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := trustReport(t, tt.file(t))
			golden := filepath.Join("testdata", tt.name+".report.golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("report differs from %s (run go test -update after checking):\n%s", golden, got)
			}
		})
	}
}
