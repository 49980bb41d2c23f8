package exec

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the EXPLAIN golden files in testdata/explain/")

// TestExplainGolden runs every testdata/explain/*.sql and compares what its
// EXPLAIN statements print with the .golden file beside it. Run with
// -update after an intended change and review the diff.
func TestExplainGolden(t *testing.T) {
	root := moduleRoot(t)
	cases, err := filepath.Glob(filepath.Join(root, "testdata", "explain", "*.sql"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no EXPLAIN cases in testdata/explain: %v", err)
	}
	t.Chdir(explainTree(t, root))
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".sql")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSession()
			s.Settings.Threads = 1 // a LIMIT's early stop does not depend on timing
			var out bytes.Buffer
			for _, stmt := range splitStatements(string(text)) {
				res, err := s.Execute(context.Background(), stmt)
				if err != nil {
					t.Fatalf("%s: %v", stmt, err)
				}
				if res.Explain != "" {
					fmt.Fprintf(&out, "> %s\n%s\n", stmt, maskTimes(res.Explain))
				}
			}
			golden := strings.TrimSuffix(path, ".sql") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("EXPLAIN differs from %s (run with -update if intended):\n%s", golden, out.String())
			}
		})
	}
}

// explainTree makes the directory the golden cases run in: fixtures/, and
// a hive tree of two years over the orders fixtures, linked to the files.
func explainTree(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	links := map[string]string{
		"hive/year=2023/orders.parquet": filepath.Join(root, "fixtures", "orders_sorted.parquet"),
		"hive/year=2024/orders.parquet": filepath.Join(root, "fixtures", "orders_shuffled.parquet"),
	}
	fixtures, err := filepath.Glob(filepath.Join(root, "fixtures", "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixtures {
		links[filepath.Join("fixtures", filepath.Base(f))] = f
	}
	for name, target := range links {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("skipping: cannot make symbolic links here (%v)", err)
		}
	}
	return dir
}

// splitStatements splits a case file into statements ending with ";" at
// the end of a line, leaving out "--" comment lines.
func splitStatements(text string) []string {
	var out, cur []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "--") {
			continue
		}
		cur = append(cur, line)
		if strings.HasSuffix(line, ";") {
			out = append(out, strings.TrimSuffix(strings.Join(cur, " "), ";"))
			cur = nil
		}
	}
	return out
}

// durations are what Go's time.Duration prints: "0s", "1.5ms", "1m2.5s".
var durations = regexp.MustCompile(`\b(\d+(\.\d+)?(h|ms|µs|ns|m|s))+\b`)

// maskTimes replaces the durations of "time:" lines with <t>, the one part
// of EXPLAIN ANALYZE that depends on the machine.
func maskTimes(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "time:") {
			lines[i] = durations.ReplaceAllString(l, "<t>")
		}
	}
	return strings.Join(lines, "\n")
}
