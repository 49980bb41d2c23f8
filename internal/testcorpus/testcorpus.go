// Package testcorpus locates, for tests, the module root and the shared
// conformance corpus (../shared beside the checkout: the parquet-testing
// files and DuckDB's answers for them). Tests that need the corpus skip,
// saying why, when it is absent, as it is in a user's clone.
package testcorpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ModuleRoot walks up from the test's directory to the one holding go.mod.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root not found above " + dir)
		}
		dir = parent
	}
}

// Shared returns ../shared beside the module root, or skips the test when
// its parquet-testing corpus is not there.
func Shared(t testing.TB) string {
	t.Helper()
	shared := filepath.Join(ModuleRoot(t), "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "parquet-testing", "data")); err != nil {
		t.Skipf("skipping: the conformance corpus ../shared/parquet-testing is not present (%v)", err)
	}
	return shared
}

// BenchOrdersFile returns a 1M-row orders file made by the fixture
// generator (fixtures/gen, a nested module using arrow-go), writing it once
// into the temp directory; benchmarks skip when it cannot be made.
func BenchOrdersFile(b *testing.B) string {
	b.Helper()
	path := filepath.Join(os.TempDir(), "pqsql-bench-orders-1m.parquet")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	cmd := exec.Command("go", "run", ".", "-big", "1000000", "-big-out", path)
	cmd.Dir = filepath.Join(ModuleRoot(b), "fixtures", "gen")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Skipf("cannot generate the benchmark file with fixtures/gen: %v\n%s", err, out)
	}
	return path
}
