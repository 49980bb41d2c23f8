package planner

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/sql"
)

// TestHiveType checks the type inferred for a partition key against what
// DuckDB 1.5.6 inferred for the same directory names.
func TestHiveType(t *testing.T) {
	tests := []struct {
		vals []string
		want TypeID
	}{
		{[]string{""}, TypeVarchar},
		{[]string{"-5"}, TypeBigInt},
		{[]string{"0"}, TypeBigInt},
		{[]string{"007"}, TypeVarchar},
		{[]string{"+5"}, TypeVarchar},
		{[]string{"1e3"}, TypeVarchar},
		{[]string{"1_000"}, TypeVarchar},
		{[]string{" 5"}, TypeBigInt},
		{[]string{"5 "}, TypeBigInt},
		{[]string{"0x10"}, TypeBigInt},
		{[]string{"1.0"}, TypeVarchar},
		{[]string{"9223372036854775808"}, TypeVarchar},
		{[]string{"true"}, TypeVarchar},
		{[]string{"2024-1-5"}, TypeDate},
		{[]string{"2024-13-01"}, TypeVarchar},
		{[]string{"2024-01-05T10:00:00"}, TypeTimestamp},
		{[]string{"2024-01-05 10:00"}, TypeTimestamp},
		{[]string{"2024-01-05 10:00:00.123"}, TypeTimestamp},
		{[]string{"2024-01-05 10:00:00+02"}, TypeTimestamp},
		{[]string{"2024-01-05 10%3A00%3A00"}, TypeVarchar},
		{[]string{"NULL"}, TypeVarchar},
		{[]string{"null"}, TypeVarchar},
		{[]string{"NULL", "3"}, TypeBigInt},
		{[]string{"", "2"}, TypeVarchar},
		{[]string{"1", "abc"}, TypeVarchar},
		{[]string{"1.5", "2"}, TypeVarchar},
		{[]string{"2024-01-05", "2024-02-01"}, TypeDate},
		{[]string{"2024-01-05", "7"}, TypeVarchar},
	}
	for _, tc := range tests {
		if got := hiveType(tc.vals); got.ID != tc.want {
			t.Errorf("hiveType(%q) = %s, want %s", tc.vals, got, Type{ID: tc.want})
		}
	}
}

func TestHiveValue(t *testing.T) {
	tests := []struct {
		v    string
		t    TypeID
		want string // AppendText, or NULL
	}{
		{"a%20b", TypeVarchar, "a b"},
		{"", TypeVarchar, ""},
		{"NULL", TypeVarchar, "NULL"},
		{"Null", TypeBigInt, "NULL"},
		{"", TypeBigInt, "NULL"},
		{"0x10", TypeBigInt, "16"},
		{" -5 ", TypeBigInt, "-5"},
		{"2024-1-5", TypeDate, "2024-01-05"},
		{"2024-01-05 10:00:00.123", TypeTimestamp, "2024-01-05 10:00:00.123"},
		{"2024-01-05T10:00", TypeTimestamp, "2024-01-05 10:00:00"},
	}
	for _, tc := range tests {
		typ := Type{ID: tc.t}
		d, err := hiveValue("k", tc.v, typ)
		if err != nil {
			t.Errorf("hiveValue(%q, %s): %v", tc.v, typ, err)
			continue
		}
		got := "NULL"
		if !d.Null {
			got = string(AppendText(nil, d, typ))
		}
		if got != tc.want {
			t.Errorf("hiveValue(%q, %s) = %s, want %s", tc.v, typ, got, tc.want)
		}
	}
	if _, err := hiveValue("k", "abc", Type{ID: TypeBigInt}); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("bad value: %v, want ErrInvalidInput", err)
	}
}

func TestHiveParse(t *testing.T) {
	tests := []struct {
		path string
		want string // sorted key=value, comma separated
	}{
		{"t/year=2024/month=6/a.parquet", "month=6,year=2024"},
		{"/abs/p=1/f.parquet", "p=1"},
		{"a=1/a=2/f.parquet", "a=1"},
		{"x/k=v=w/f.parquet", ""},
		{"k=v/f=1.parquet", "k=v"},
		{"x/=v/f.parquet", ""},
		{"x/k=/f.parquet", "k="},
		{"a?b=1/f.parquet", ""},
		{`dir\k=v\f.parquet`, "k=v"},
	}
	for _, tc := range tests {
		m := hiveParse(tc.path)
		var parts []string
		for _, k := range sortedKeys(m) {
			parts = append(parts, k+"="+m[k])
		}
		if got := strings.Join(parts, ","); got != tc.want {
			t.Errorf("hiveParse(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestHiveDetect(t *testing.T) {
	tests := []struct {
		files []string
		want  bool
	}{
		{[]string{"t/x=1/f.parquet", "t/x=2/f.parquet"}, true},
		{[]string{"t/year=2024/month=6/a.parquet"}, true},
		{[]string{"t/a=1/f.parquet", "t/b=2/f.parquet"}, false},
		{[]string{"t/x=1/y=2/f.parquet", "t/x=3/g.parquet"}, false},
		{[]string{"t/x=1/f.parquet", "t/x=2/y=3/f.parquet"}, false},
		{[]string{"f.parquet"}, false},
		{[]string{"fixtures/orders_sorted.parquet"}, false},
	}
	for _, tc := range tests {
		if got := hiveDetect(tc.files); got != tc.want {
			t.Errorf("hiveDetect(%q) = %v, want %v", tc.files, got, tc.want)
		}
	}
}

func TestHiveSetting(t *testing.T) {
	tests := []struct {
		from    string
		on, off bool
	}{
		{"'x/*.parquet'", false, false},
		{"read_parquet('x/hive_partitioning/*.parquet')", false, false},
		{"read_parquet('x', hive_partitioning = false)", false, true},
		{"read_parquet('x', HIVE_PARTITIONING = 0)", false, true},
		{"read_parquet('x', hive_partitioning = true)", true, false},
		{"read_parquet('x', hive_partitioning = 1)", true, false},
	}
	for _, tc := range tests {
		st, err := sql.Parse("SELECT * FROM " + tc.from)
		if err != nil {
			t.Fatalf("%s: %v", tc.from, err)
		}
		srcs := st.(*sql.Select).SourceList()
		if len(srcs) != 1 {
			t.Fatalf("%s: %d sources", tc.from, len(srcs))
		}
		on, off := hiveSetting(srcs[0])
		if on != tc.on || off != tc.off {
			t.Errorf("hiveSetting(%s) = %v, %v, want %v, %v", tc.from, on, off, tc.on, tc.off)
		}
	}
}

// TestExpandPathsTwice checks that a file named twice is read twice, as
// DuckDB reads it.
func TestExpandPathsTwice(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.parquet")
	if err := os.WriteFile(a, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ExpandPaths([]string{a, a, filepath.Join(dir, "*.parquet")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != a || got[1] != a || got[2] != a {
		t.Errorf("got %v, want a three times", got)
	}
}

// TestTableFunctionPlan checks the columns parquet_metadata and
// parquet_schema bind to, and that their files are matched at plan time.
func TestTableFunctionPlan(t *testing.T) {
	chdirRoot(t)
	p, err := plan(t, "SELECT * FROM parquet_metadata('fixtures/stat*.parquet')")
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Scan.Function
	if fn == nil || fn.Name != "parquet_metadata" || len(fn.Files) != 1 || fn.Files[0] != "fixtures/statistics.parquet" {
		t.Fatalf("function %+v", fn)
	}
	if len(p.Columns) != 31 || p.Columns[23].Name != "key_value_metadata" || p.Columns[23].Type.String() != "MAP(BLOB, BLOB)" ||
		p.Columns[30].Type.String() != "VARCHAR[]" || p.Columns[26].Type.ID != TypeBoolean {
		t.Errorf("columns %v", p.Columns)
	}
	p, err = plan(t, "SELECT name FROM parquet_schema(['fixtures/nested.parquet', 'fixtures/nested.parquet']) WHERE column_id > 0")
	if err != nil {
		t.Fatal(err)
	}
	if fn := p.Scan.Function; fn == nil || len(fn.Files) != 2 || len(fn.Columns) != 13 || p.Scan.Pushdown != nil {
		t.Errorf("parquet_schema scan %+v", p.Scan)
	}
	if _, err := plan(t, "SELECT * FROM parquet_schema('fixtures/none*.parquet')"); !errors.Is(err, ErrIO) {
		t.Errorf("no match: %v, want ErrIO", err)
	}
}
