package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseText(t *testing.T) {
	text := `# header

# oracle: differs DuckDB is wrong here
# oracle: verify SELECT 5
query I rowsort
SELECT 1
----
1
(empty)

statement error
SELECT x
----
Binder Error

# a comment, not a marker
# oracle: skip pqsql-only setting
statement ok
SET statistics = false

query II
SELECT 1, 2
`
	f, err := ParseText("x.test", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 4 {
		t.Fatalf("%d records, want 4", len(f.Records))
	}
	r := f.Records[0]
	if r.Line != 5 || r.Kind != "query" || r.Types != "I" || !r.Rowsort || r.SQL != "SELECT 1" ||
		!slices.Equal(r.Expected, []string{"1", "(empty)"}) || r.Marker != MarkDiffers ||
		r.Reason != "DuckDB is wrong here" || r.Verify != "SELECT 5" {
		t.Errorf("record 0: %+v", r)
	}
	if r := f.Records[1]; !r.WantErr || r.ErrText != "Binder Error" || r.Expected != nil || r.Marker != NoMarker {
		t.Errorf("record 1: %+v", r)
	}
	if r := f.Records[2]; r.Marker != MarkSkip || r.Reason != "pqsql-only setting" || r.WantErr {
		t.Errorf("record 2: %+v", r)
	}
	if r := f.Records[3]; r.sep != -1 || r.Expected != nil {
		t.Errorf("record 3: %+v", r)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       error
	}{
		{"unknown record", "querry I\nSELECT 1\n", ErrSyntax},
		{"bad statement", "statement maybe\nSELECT 1\n", ErrSyntax},
		{"no SQL", "query I\n----\n1\n", ErrSyntax},
		{"unknown verb", "# oracle: ignore because\nquery I\nSELECT 1\n", ErrMarker},
		{"no reason", "# oracle: skip\nquery I\nSELECT 1\n", ErrMarker},
		{"detached marker", "# oracle: skip why\n\nquery I\nSELECT 1\n", ErrMarker},
		{"marker at end", "query I\nSELECT 1\n\n# oracle: skip why\n", ErrMarker},
		{"two markers", "# oracle: skip a\n# oracle: differs b\nquery I\nSELECT 1\n", ErrMarker},
		{"verify alone", "# oracle: verify SELECT 1\nquery I\nSELECT 1\n", ErrMarker},
	}
	for _, tc := range tests {
		if _, err := ParseText("x.test", tc.text); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestRender(t *testing.T) {
	text := "# c\nquery T rowsort\nSELECT 1\n----\nold\nrows\n\nquery T\nSELECT 2\n\nstatement ok\nSELECT 3\n"
	f, err := ParseText("x.test", text)
	if err != nil {
		t.Fatal(err)
	}
	got := f.Render(map[int]Rewrite{
		0: {Types: "I", Rows: []string{"1"}},
		1: {Types: "T", Rows: []string{"a", "b"}},
	})
	want := "# c\nquery I rowsort\nSELECT 1\n----\n1\n\nquery T\nSELECT 2\n----\na\nb\n\nstatement ok\nSELECT 3\n"
	if got != want {
		t.Errorf("render:\n%s\nwant:\n%s", got, want)
	}
	if got := f.Render(nil); got != text {
		t.Errorf("render without rewrites changed the file:\n%s", got)
	}
}

func TestDiffLines(t *testing.T) {
	got := diffLines([]string{"a", "b", "c"}, []string{"a", "x", "c", "d"})
	want := []string{"  a", "- b", "+ x", "  c", "+ d"}
	if !slices.Equal(got, want) {
		t.Errorf("diff %q, want %q", got, want)
	}
}

// TestDuckDB runs a small file through DuckDB: rendering (NaN, -0.0,
// (empty), NULL, decimals, TIMESTAMPTZ in UTC), type letters, markers,
// statement errors, and -write.
func TestDuckDB(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.test")
	text := `query T
SELECT 'NaN'::DOUBLE, -0.0::DOUBLE, '', NULL, 1.50, TIMESTAMPTZ '2024-01-01 12:00:00+02', 3::UTINYINT
----
nan	-0.0	(empty)	NULL	1.50	2024-01-01 10:00:00+00	3

query I rowsort
SELECT * FROM (VALUES (2), (1)) AS t(x)
----
1
2

statement error
SELECT CAST('x' AS INTEGER)
----
Conversion Error

# oracle: differs a made-up disagreement
# oracle: verify SELECT 41 + 1
query I
SELECT 41
----
42

# oracle: skip DuckDB has no such setting
statement ok
SET no_such_setting = 1

query I
SELECT 7
----
8
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	f, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rn := &Runner{Out: &out}
	if _, changed, err := rn.RunFile(ctx, f); err != nil || changed {
		t.Fatalf("check: changed %v, err %v", changed, err)
	}
	// The first record's type letters are wrong (T for 7 columns) and the
	// last record's value is wrong: two failures, nothing else.
	want := Stats{Records: 6, Agree: 2, Differs: 1, Skipped: 1, Failed: 2}
	if rn.Stats != want {
		t.Errorf("check stats %+v, want %+v\n%s", rn.Stats, want, out.String())
	}
	if !strings.Contains(out.String(), "types: file says T, DuckDB's columns are RRTITTI") ||
		!strings.Contains(out.String(), "  - 8\n  + 7\n") {
		t.Errorf("check output:\n%s", out.String())
	}

	out.Reset()
	rn = &Runner{Out: &out, Write: true}
	newText, changed, err := rn.RunFile(ctx, f)
	if err != nil || !changed {
		t.Fatalf("write: changed %v, err %v", changed, err)
	}
	if !strings.Contains(newText, "query RRTITTI\n") || !strings.Contains(newText, "SELECT 7\n----\n7\n") ||
		!strings.Contains(newText, "SELECT 41\n----\n42\n") {
		t.Errorf("rewritten file:\n%s", newText)
	}
	if rn.Stats.Rewritten != 2 || rn.Stats.Failed != 0 {
		t.Errorf("write stats %+v", rn.Stats)
	}
}
