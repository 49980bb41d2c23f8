package pqsql_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The packages' dependencies run one way: cmd/pqsql -> exec -> optimizer ->
// planner -> sql -> sql/ast, exec -> pushdown -> format, planner -> storage
// -> format. The SQL grammar (sqlparser) stays inside package sql: every
// other package reads pqsql's own tree, sql/ast, which depends on nothing.
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
			if pkg == "sql" && strings.Contains(imp, ".") && !strings.HasPrefix(imp, sqlparser) && imp != module+"errclass" && imp != module+"sql/ast" {
				t.Errorf("sql imports %s; it may import only sqlparser, sql/ast, errclass and the standard library", imp)
			}
			if pkg == "sql/ast" && strings.Contains(imp, ".") {
				t.Errorf("sql/ast imports %s; it may import only the standard library", imp)
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

const sqlparser = "github.com/xwb1989/sqlparser"

// TestSQLParserStaysInSQL checks that no package but sql, tests included,
// imports the MySQL grammar: the planner and the rest read sql/ast.
func TestSQLParserStaysInSQL(t *testing.T) {
	out, err := exec.Command("go", "list", "-e", "-f",
		`{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	sawSQL := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, sqlparser) {
				continue
			}
			if pkg != "sql" {
				t.Errorf("%s imports %s; only package sql may", pkg, imp)
			}
			sawSQL = true
		}
	}
	if !sawSQL {
		t.Fatal("package sql no longer imports sqlparser: update this test")
	}
}
