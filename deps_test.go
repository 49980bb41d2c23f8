package pqsql_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The packages' dependencies run one way: cmd/pqsql -> exec -> optimizer ->
// planner -> sql, exec -> pushdown -> format, planner -> storage -> format.
// allowed lists what each layer may import from the project; thrift stays
// inside format/internal/thrift. errclass, the error classes, is a leaf
// every layer may use.
var allowed = map[string][]string{
	"errclass":  {},
	"format":    {"format", "errclass"},
	"sql":       {"errclass"},
	"pushdown":  {"format", "errclass"},
	"storage":   {"format", "errclass"},
	"planner":   {"sql", "pushdown", "storage", "format", "errclass"},
	"optimizer": {"planner", "sql", "pushdown", "storage", "format", "errclass"},
	"exec":      {"optimizer", "planner", "sql", "pushdown", "storage", "format", "errclass"},
	"cmd":       {"exec", "optimizer", "sql", "planner", "pushdown", "storage", "format", "errclass"},
}

const module = "github.com/pqsql/pqsql/"

func TestDependencyDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-e", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := strings.TrimPrefix(fields[0], module), fields[1:]
		layer := strings.Split(pkg, "/")[0]
		rules, ok := allowed[layer]
		if !ok {
			continue
		}
		checked++
		for _, imp := range imports {
			if strings.HasPrefix(imp, "github.com/apache/thrift") && pkg != "format/internal/thrift" {
				t.Errorf("%s imports thrift; only format/internal/thrift may", pkg)
			}
			if layer == "sql" && strings.Contains(imp, ".") && !strings.HasPrefix(imp, "github.com/xwb1989/sqlparser") && imp != module+"errclass" {
				t.Errorf("sql imports %s; it may import only sqlparser, errclass and the standard library", imp)
			}
			if !strings.HasPrefix(imp, module) {
				continue
			}
			target := strings.Split(strings.TrimPrefix(imp, module), "/")[0]
			if target == layer {
				continue
			}
			ok := false
			for _, r := range rules {
				ok = ok || r == target
			}
			if !ok {
				t.Errorf("%s imports %s: %s may not depend on %s", pkg, imp, layer, target)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked only %d packages", checked)
	}
}
