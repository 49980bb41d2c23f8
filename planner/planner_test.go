package planner

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
	"github.com/pqsql/pqsql/pushdown"
)

// chdirRoot moves to the repository root, where fixture paths resolve.
func chdirRoot(t *testing.T) {
	t.Helper()
	t.Chdir(testcorpus.ModuleRoot(t))
}

func plan(t *testing.T, q string) (*Plan, error) {
	t.Helper()
	return planWith(t, q, nil)
}

func TestTypes(t *testing.T) {
	chdirRoot(t)
	tests := []struct {
		expr, typ, value string
	}{
		{"1 + 1", "INTEGER", "2"},
		{"7 / 2", "DOUBLE", "3.5"},
		{"7 // 2", "INTEGER", "3"},
		{"3000000000", "BIGINT", "3000000000"},
		{"1.5", "DECIMAL(2,1)", "1.5"},
		{"1.5 + 2.25", "DECIMAL(4,2)", "3.75"},
		{"1.5 * 2.25", "DECIMAL(5,3)", "3.375"},
		{"1e3", "DOUBLE", "1000.0"},
		{"'a' || 1", "VARCHAR", "a1"},
		{"CAST('2024-02-29' AS DATE)", "DATE", "2024-02-29"},
		{"round(2.345, 1)", "DECIMAL(4,1)", "2.3"},
		{"NULL AND FALSE", "BOOLEAN", "false"},
		{"-1 / 0", "DOUBLE", "-inf"},
		{"1.5 / 0", "DOUBLE", "inf"},
		{"3 // 0", "INTEGER", ""},
		{"typeof(1.50 * 2)", "VARCHAR", "DECIMAL(13,2)"},
		{"typeof(99999999.99 * 99999999.99)", "VARCHAR", "DECIMAL(18,4)"},
		{"typeof(CAST(1 AS FLOAT) / 2)", "VARCHAR", "FLOAT"},
		{"typeof(CAST(1 AS FLOAT) + 1.5)", "VARCHAR", "FLOAT"},
		{"typeof(NULL)", "VARCHAR", `"NULL"`},
		{"-2147483648", "BIGINT", "-2147483648"},
		{"-2147483647", "INTEGER", "-2147483647"},
		{"- -2147483648", "BIGINT", "2147483648"},
		{"-(2147483648)", "BIGINT", "-2147483648"},
		{"-9223372036854775808", "BIGINT", "-9223372036854775808"},
		{"-9223372036854775809", "HUGEINT", "-9223372036854775809"},
		{"typeof(-2147483648)", "VARCHAR", "BIGINT"},
		{"typeof(-1)", "VARCHAR", "INTEGER"},
		{"typeof(2147483648 + 1)", "VARCHAR", "BIGINT"},
		{"round(1234.5678, -2)", "DECIMAL(8,0)", "1200"},
		{"round(-1250.0, -2)", "DECIMAL(5,0)", "-1300"},
		{"date_trunc('month', DATE '2024-05-06')", "TIMESTAMP", "2024-05-01 00:00:00"},
		{"TIMESTAMPTZ '2024-03-10 12:00:00-08:30'", "TIMESTAMP WITH TIME ZONE", "2024-03-10 20:30:00+00"},
		{"TIMESTAMPTZ '2024-03-10 02:00:00+05'", "TIMESTAMP WITH TIME ZONE", "2024-03-09 21:00:00+00"},
	}
	for _, tc := range tests {
		p, err := plan(t, "SELECT "+tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		c, ok := p.Project[0].(*Const)
		if !ok {
			t.Errorf("%s: not folded: %s", tc.expr, p.Project[0])
			continue
		}
		if got := c.T.String(); got != tc.typ {
			t.Errorf("%s: type %s, want %s", tc.expr, got, tc.typ)
		}
		if got := string(AppendText(nil, c.Value, c.T)); got != tc.value {
			t.Errorf("%s: value %s, want %s", tc.expr, got, tc.value)
		}
	}
}

func TestBindErrors(t *testing.T) {
	chdirRoot(t)
	tests := []struct {
		q    string
		kind error
		text string
	}{
		{"SELECT ordr_id FROM 'fixtures/orders_sorted.parquet'", ErrBinder, `Candidate bindings: "order_id", "order_date"`},
		{"SELECT city FROM 'fixtures/orders_sorted.parquet' GROUP BY status", ErrBinder, "GROUP BY"},
		{"SELECT sum(city) FROM 'fixtures/orders_sorted.parquet'", ErrBinder, "sum(VARCHAR)"},
		{"SELECT * FROM 'fixtures/nope.parquet'", ErrIO, "No files found"},
		{"SELECT CAST('x' AS INTEGER)", ErrConversion, "Could not convert"},
		{"SELECT CAST(3000000000 AS INTEGER)", ErrConversion, "out of range for the destination type INT32"},
		{"SELECT CAST(1e10 AS INTEGER)", ErrConversion, "out of range"},
		{"SELECT 2147483647 + 1", ErrOutOfRange, "Overflow in addition of INT32 (2147483647 + 1)!"},
		{"SELECT * FROM v", ErrCatalog, "does not exist"},
	}
	for _, tc := range tests {
		_, err := plan(t, tc.q)
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: error %v, want %v containing %q", tc.q, err, tc.kind, tc.text)
		}
	}
}

// TestIsTrueFalse checks IS [NOT] TRUE/FALSE, which never yield NULL.
func TestIsTrueFalse(t *testing.T) {
	tests := []struct {
		expr string
		want bool
	}{
		{"true IS TRUE", true}, {"NULL IS TRUE", false}, {"false IS TRUE", false},
		{"true IS NOT TRUE", false}, {"NULL IS NOT TRUE", true}, {"false IS NOT TRUE", true},
		{"false IS FALSE", true}, {"NULL IS FALSE", false}, {"true IS FALSE", false},
		{"false IS NOT FALSE", false}, {"NULL IS NOT FALSE", true}, {"true IS NOT FALSE", true},
	}
	for _, tc := range tests {
		p, err := plan(t, "SELECT "+tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		d, err := Eval(p.Project[0], nil)
		if err != nil || d.Null || d.B != tc.want {
			t.Errorf("%s = %+v (%v), want %v", tc.expr, d, err, tc.want)
		}
	}
}

// TestColumnArithmeticTypes checks DuckDB's result types where a column
// meets a literal: an integer literal takes the column's integer type when
// it fits, a CAST one does not, and FLOAT wins over everything but DOUBLE.
func TestColumnArithmeticTypes(t *testing.T) {
	chdirRoot(t)
	tests := []struct {
		file, expr, typ string
	}{
		{"orders_sorted", "priority - 200", "UTINYINT"},
		{"orders_sorted", "priority - 300", "INTEGER"},
		{"orders_sorted", "quantity * 2", "SMALLINT"},
		{"orders_sorted", "quantity // 2", "SMALLINT"},
		{"orders_sorted", "amount * 2", "DECIMAL(18,2)"},
		{"orders_sorted", "amount * quantity", "DECIMAL(17,2)"},
		{"orders_sorted", "date_trunc('day', order_date)", "TIMESTAMP"},
		{"orders_sorted", "date_trunc('day', shipped_at)", "TIMESTAMP WITH TIME ZONE"},
		{"statistics", "customer_id + 1", "UINTEGER"},
		{"statistics", "customer_id + -1", "BIGINT"},
		{"statistics", "CAST(1 AS INTEGER) + customer_id", "BIGINT"},
		{"statistics", "coalesce(customer_id, 1)", "UINTEGER"},
		{"statistics", "CASE WHEN delta > 0 THEN 1 ELSE customer_id END", "UINTEGER"},
		{"statistics", "delta + 1000", "INTEGER"},
		{"statistics", "ratio * 2", "FLOAT"},
		{"statistics", "ratio / 2", "FLOAT"},
		{"statistics", "ratio + temp_c", "DOUBLE"},
		{"statistics", "ratio + 1.5", "FLOAT"},
	}
	for _, tc := range tests {
		p, err := plan(t, "SELECT "+tc.expr+" FROM 'fixtures/"+tc.file+".parquet'")
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		if got := p.Project[0].Type().String(); got != tc.typ {
			t.Errorf("%s: type %s, want %s", tc.expr, got, tc.typ)
		}
	}
}

func TestPushdownTree(t *testing.T) {
	chdirRoot(t)
	tests := []struct {
		where, want string
	}{
		{"order_id <= 431", "order_id <= 431"},
		{"5 < order_id", "5 < order_id"},
		{"quantity = 5", "quantity = 5"},
		{"city IN ('Oslo', 'Paris')", "city IN ('Oslo', 'Paris')"},
		{"order_date >= '2024-06-01'", "order_date >= DATE '2024-06-01'"},
		{"amount < 1.5", "amount < 1.50"},
		{"city LIKE 'Z%' AND discount IS NULL", "city LIKE 'Z%' AND discount IS NULL"},
		{"lower(city) = 'oslo' OR order_id BETWEEN 1 AND 3", "lower(city) = 'oslo' OR order_id BETWEEN 1 AND 3"},
		{"NOT starts_with(city, 'B')", "NOT (starts_with(city, 'B'))"},
	}
	for _, tc := range tests {
		p, err := plan(t, "SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE "+tc.where)
		if err != nil {
			t.Errorf("%s: %v", tc.where, err)
			continue
		}
		got := p.Scan.Pushdown.String()
		got = strings.ReplaceAll(strings.ReplaceAll(got, "(lower(city) = 'oslo')", "lower(city) = 'oslo'"), "((", "(")
		if got != tc.want {
			t.Errorf("%s: pushdown %s, want %s", tc.where, got, tc.want)
		}
	}
	// A residual keeps the columns it reads, so the scan reads them.
	p, err := plan(t, "SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE lower(city) = 'oslo'")
	if err != nil {
		t.Fatal(err)
	}
	r, ok := p.Scan.Pushdown.(*pushdown.Residual)
	if !ok || len(r.Columns) != 1 || r.Columns[0] != "city" {
		t.Errorf("residual %#v, want one over city", p.Scan.Pushdown)
	}
}

func TestCountOnlyAndNeeded(t *testing.T) {
	chdirRoot(t)
	p, err := plan(t, "SELECT count(*) FROM 'fixtures/orders_sorted.parquet'")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Scan.CountOnly || len(p.Scan.NeededLeaves()) != 0 {
		t.Errorf("count(*): CountOnly %v, leaves %v", p.Scan.CountOnly, p.Scan.NeededLeaves())
	}
	p, err = plan(t, "SELECT city FROM 'fixtures/orders_sorted.parquet' WHERE order_id < 3 ORDER BY quantity")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Scan.NeededLeaves(); len(got) != 3 || got[0] != 0 || got[1] != 5 || got[2] != 6 {
		t.Errorf("needed leaves %v, want [0 5 6]", got)
	}
	if len(p.Project) != 2 || len(p.Columns) != 1 {
		t.Errorf("hidden sort key: project %d, columns %d", len(p.Project), len(p.Columns))
	}
}

func TestGlob(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/x.parquet", "a/b/y.parquet", "a/b/c/z.parquet", "a/b/w.txt"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, nil, 0o644)
	}
	got, err := ExpandPaths([]string{filepath.Join(dir, "a/**/*.parquet")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/b/c/z.parquet", "a/b/y.parquet", "a/x.parquet"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != filepath.Join(dir, want[i]) {
			t.Errorf("match %d: %s, want %s", i, got[i], want[i])
		}
	}
	if _, err := ExpandPaths([]string{filepath.Join(dir, "*.csv")}); !errors.Is(err, ErrIO) {
		t.Errorf("no match: %v, want ErrIO", err)
	}
}

func TestLikeMatch(t *testing.T) {
	tests := []struct {
		s, p string
		want bool
	}{
		{"abc", "a%", true}, {"abc", "%c", true}, {"abc", "_b_", true}, {"abc", "a_", false},
		{"Zoë", "Zo_", true}, {"", "%", true}, {"", "_", false}, {"a%b", "a%b", true},
	}
	for _, tc := range tests {
		if got := LikeMatch(tc.s, tc.p); got != tc.want {
			t.Errorf("LikeMatch(%q, %q) = %v", tc.s, tc.p, got)
		}
	}
}
