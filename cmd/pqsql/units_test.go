package main

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/exec"
	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

func TestReadableNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"12345", ""},
		{"994999", ""},
		{"995000", "1.00 million"},
		{"1000000", "1.00 million"},
		{"12345678", "12.35 million"},
		{"-12345678", "-12.35 million"},
		{"12345678.5", "12.35 million"},
		{"1234567890", "1.23 billion"},
		{"999999999999999999", "1.00 quintillion"},
		{"9223372036854775807", "9.22 quintillion"},
		{"123456789012345678901234", ""},
		{"1.5e+20", ""},
		{"nan", ""},
	}
	for _, tc := range tests {
		if got := readableNumber(tc.in); got != tc.want {
			t.Errorf("readableNumber(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDisplayWidth(t *testing.T) {
	tests := []struct {
		in    string
		width int
	}{
		{"", 0}, {"abc", 3}, {"Zürich", 6}, {"東京", 4}, {"e\u0301", 1}, {"🙂", 2}, {"a\tb", 2},
		{"🚀", 2}, {"🚀 go", 5}, {"🇨🇭", 2}, {"👩‍💻", 2},
	}
	for _, tc := range tests {
		if got := displayWidth(tc.in); got != tc.width {
			t.Errorf("displayWidth(%q) = %d, want %d", tc.in, got, tc.width)
		}
	}
}

func TestTruncateWidth(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
		wantW int
	}{
		{"abc", 3, "abc", 3},
		{"abcd", 3, "ab…", 3},
		{"東京都", 4, "東…", 3},
		{"abc", 0, "", 0},
		{"abc", 1, "…", 1},
		{"🚀🚀🚀", 5, "🚀🚀…", 5},
		{"a🚀b", 3, "a…", 2},
	}
	for _, tc := range tests {
		got, w := truncateWidth(tc.in, tc.width)
		if got != tc.want || w != tc.wantW {
			t.Errorf("truncateWidth(%q, %d) = %q, %d; want %q, %d", tc.in, tc.width, got, w, tc.want, tc.wantW)
		}
	}
}

func TestEscapeControl(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"}, {"a\nb", `a\nb`}, {"\t\r\x07\x1b", `\t\r\a\e`}, {"x\x01", `x\1`},
	}
	for _, tc := range tests {
		if got := escapeControl(tc.in); got != tc.want {
			t.Errorf("escapeControl(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBoxTypeName(t *testing.T) {
	tests := []struct {
		typ  exec.Type
		want string
	}{
		{exec.Type{ID: exec.TypeTinyInt}, "int8"},
		{exec.Type{ID: exec.TypeInteger}, "int32"},
		{exec.Type{ID: exec.TypeUBigInt}, "uint64"},
		{exec.Type{ID: exec.TypeHugeInt}, "int128"},
		{exec.Type{ID: exec.TypeVarchar}, "varchar"},
		{exec.Type{ID: exec.TypeVarchar, Name: "JSON"}, "json"},
		{exec.Type{ID: exec.TypeDecimal, Precision: 12, Scale: 2}, "decimal(12,2)"},
		{exec.Type{ID: exec.TypeTimestampTZ}, "timestamp with time zone"},
		{exec.Type{ID: exec.TypeNested, Name: "INTEGER[]"}, "int32[]"},
		{exec.Type{ID: exec.TypeNested, Name: "BIGINT[][]"}, "int64[][]"},
		{exec.Type{ID: exec.TypeNested, Name: "STRUCT(a INTEGER, b VARCHAR)"}, "struct(a integer, b varchar)"},
	}
	for _, tc := range tests {
		if got := boxTypeName(tc.typ); got != tc.want {
			t.Errorf("boxTypeName(%v) = %q, want %q", tc.typ, got, tc.want)
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range modeNames {
		got, err := parseMode(strings.ToUpper(m.name))
		if err != nil || got != m.mode {
			t.Errorf("parseMode(%q) = %v, %v", m.name, got, err)
		}
		if got.String() != m.name {
			t.Errorf("mode %d String() = %q, want %q", m.mode, got.String(), m.name)
		}
	}
	if _, err := parseMode("xml"); !errors.Is(err, errUnknownMode) {
		t.Errorf("parseMode(xml) error %v, want %v", err, errUnknownMode)
	}
}

// TestJSONNested checks that nested values become JSON, not DuckDB's text.
func TestJSONNested(t *testing.T) {
	ints := &format.Values{Type: meta.Int32, Int32: []int32{1, 2}}
	strs := &format.Values{Type: meta.ByteArray, Bytes: [][]byte{[]byte(`q"x`), []byte("k")}}
	i32 := format.Logical{Kind: format.KindInt32}
	str := format.Logical{Kind: format.KindString}
	value := &format.Struct{
		Fields: []*format.Field{{Name: "a"}, {Name: "b"}, {Name: "m"}},
		Values: []format.Value{
			format.List{format.Scalar{Logical: i32, Values: ints, Index: 0}, nil, format.Scalar{Logical: i32, Values: ints, Index: 1}},
			format.Scalar{Logical: str, Values: strs, Index: 0},
			&format.Map{Keys: []format.Value{format.Scalar{Logical: str, Values: strs, Index: 1}},
				Values: []format.Value{format.Scalar{Logical: i32, Values: ints, Index: 1}}},
		},
	}
	typ := exec.Type{ID: exec.TypeNested, Name: "STRUCT(a INTEGER[], b VARCHAR, m MAP(VARCHAR, INTEGER))"}
	res := &exec.Result{
		Columns: []string{"s"},
		Types:   []exec.Type{typ},
		Batches: []*exec.Batch{{Len: 2, Vectors: []*exec.Vector{{
			Type: typ, Nested: []format.Value{value, nil}, Nulls: []bool{false, true},
		}}}},
	}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	render(w, res, renderOptions{mode: modeJSONLines})
	w.Flush()
	want := `{"s":{"a":[1,null,2],"b":"q\"x","m":{"k":2}}}` + "\n" + `{"s":null}` + "\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestComplete(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"orders_a.parquet", "orders_b.parquet", "other.csv", ".hidden"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "ordersdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	sh := &shell{session: exec.NewSession(), columns: newNameCache()}
	sh.columns.add("order_id", "customer_id")
	c := &completer{sh: sh}
	tests := []struct {
		line    string
		want    []string
		wantLen int
	}{
		{"SEL", []string{"ECT"}, 3},
		{"sel", []string{"ect"}, 3},
		{"SELECT ord", []string{"er_id", "er"}, 3},
		{"SELECT cust", []string{"omer_id"}, 4},
		{"SELECT count(*) FROM read_p", []string{"arquet"}, 6},
		{".mo", []string{"de"}, 3},
		{"SELECT ", nil, 0},
		{"SELECT * FROM '" + dir + "/ord", []string{"ers_a.parquet", "ers_b.parquet", "ersdir/"}, 3},
		{"SELECT * FROM '" + dir + "/oth", []string{"er.csv"}, 3},
		{"SELECT * FROM '" + dir + "/", []string{"orders_a.parquet", "orders_b.parquet", "ordersdir/", "other.csv"}, 0},
		{"SELECT * FROM '" + dir + "/.h", []string{"idden"}, 2},
		{"SELECT 'done' AS ord", []string{"er_id", "er"}, 3},
	}
	for _, tc := range tests {
		got, n := c.Do([]rune(tc.line), len([]rune(tc.line)))
		var gotS []string
		for _, r := range got {
			gotS = append(gotS, string(r))
		}
		slices.Sort(gotS)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(gotS, want) || n != tc.wantLen {
			t.Errorf("complete %q = %q, %d; want %q, %d", tc.line, gotS, n, want, tc.wantLen)
		}
	}
}

func TestProgressLine(t *testing.T) {
	tests := []struct {
		read, total int64
		elapsed     time.Duration
		want        string
	}{
		{0, 0, 1600 * time.Millisecond, "running · 1.6s"},
		{25270681, 68157440, 1600 * time.Millisecond, "▕███████████░░░░░░░░░░░░░░░░░░░▏ 37% · 24.1 of 65.0 MiB · 1.6s"},
		{500, 1000, time.Second, "▕███████████████░░░░░░░░░░░░░░░▏ 50% · 500 of 1000 bytes · 1.0s"},
		{2048, 1024, time.Second, "▕██████████████████████████████▏ 100% · 2.0 of 1.0 KiB · 1.0s"},
	}
	for _, tc := range tests {
		if got := progressLine(tc.read, tc.total, tc.elapsed); got != tc.want {
			t.Errorf("progressLine(%d, %d) = %q, want %q", tc.read, tc.total, got, tc.want)
		}
	}
}

func TestHighlightKeywords(t *testing.T) {
	k := func(s string) string { return keywordColor + s + ansiReset }
	tests := []struct{ in, want string }{
		{"select a from t", k("select") + " a " + k("from") + " t"},
		{"SELECT 'select' AS \"from\" -- where", k("SELECT") + " 'select' " + k("AS") + " \"from\" -- where"},
		{"SELECT selected, 'open", k("SELECT") + " selected, 'open"},
	}
	for _, tc := range tests {
		if got := highlightKeywords(tc.in); got != tc.want {
			t.Errorf("highlightKeywords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := string(keywordPainter{}.Paint([]rune(".mode csv"), 0)); got != ".mode csv" {
		t.Errorf("a dot command was painted: %q", got)
	}
}
