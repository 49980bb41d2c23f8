package optimizer

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
	"github.com/pqsql/pqsql/planner"
)

var update = flag.Bool("update", false, "rewrite testdata/optimizer/*.golden")

// views is a catalog of the views a test file creates.
type views map[string]string

func (v views) View(name string) (string, bool) {
	t, ok := v[strings.ToLower(name)]
	return t, ok
}

// planFile plans the last statement of a testdata/optimizer/*.sql file
// after its CREATE VIEW statements; lines starting with -- are comments.
func planFile(t *testing.T, path string) (*planner.Plan, string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines, comments []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, "--") {
			comments = append(comments, l)
			continue
		}
		lines = append(lines, l)
	}
	var stmts []string
	for _, s := range strings.Split(strings.Join(lines, "\n"), ";\n") {
		if s = strings.TrimSpace(s); s != "" {
			stmts = append(stmts, s)
		}
	}
	cat := views{}
	var p *planner.Plan
	for i, text := range stmts {
		st, err := planner.Parse(text)
		if err != nil {
			t.Fatalf("%s: %s: %v", path, text, err)
		}
		switch st := st.(type) {
		case *planner.CreateView:
			cat[strings.ToLower(st.Name)] = st.Text
		case *planner.Select:
			if i != len(stmts)-1 {
				t.Fatalf("%s: a query before the last statement", path)
			}
			if p, err = planner.Build(st, cat); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		default:
			t.Fatalf("%s: statement %T", path, st)
		}
	}
	if p == nil {
		t.Fatalf("%s: no query", path)
	}
	return p, strings.Join(comments, "\n") + "\n" + strings.Join(stmts, ";\n") + "\n"
}

// TestGoldens plans each testdata/optimizer/*.sql query and checks its plan
// before the rules and after each one against the file's .golden; run with
// -update to rewrite them after reading the differences.
func TestGoldens(t *testing.T) {
	t.Chdir(testcorpus.ModuleRoot(t))
	files, err := filepath.Glob("testdata/optimizer/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test queries (%v)", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sql"), func(t *testing.T) {
			p, text := planFile(t, path)
			var b strings.Builder
			b.WriteString(text)
			b.WriteString("\n== before\n")
			b.WriteString(p.Explain())
			prev := p.Explain()
			for _, r := range Rules {
				p = r.Apply(p)
				now := p.Explain()
				b.WriteString("\n== after " + r.Name)
				if now == prev {
					b.WriteString(" (unchanged)\n")
					continue
				}
				b.WriteString("\n" + now)
				prev = now
			}
			golden := strings.TrimSuffix(path, ".sql") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("plans differ from %s (run with -update after checking them):\n%s", golden, got)
			}
		})
	}
}
