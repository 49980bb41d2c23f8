package planner

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// TestExtensionFunctionsHaveRecords: a function of a DuckDB extension the
// oracle may not load needs at least a record with a hand-derived answer,
// under the marker tools/oracle/README.md defines for such records.
func TestExtensionFunctionsHaveRecords(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testcorpus.ModuleRoot(t), "testdata", "queries", "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files: %v", err)
	}
	var text strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(b)
	}
	all := text.String()
	var missing []string
	for n, f := range scalarFuncs {
		if f.Extension == "" {
			continue
		}
		if !regexp.MustCompile(`(?i)(^|[^a-z0-9_.])` + regexp.QuoteMeta(n) + `\s*\(`).MatchString(all) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Errorf("extension functions without any record in testdata/queries: %s", strings.Join(missing, ", "))
	}
}
