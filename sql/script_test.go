package sql

import (
	"errors"
	"reflect"
	"testing"
)

func TestSplitScript(t *testing.T) {
	type piece struct {
		Text         string
		Line, Column int
	}
	for _, tc := range []struct {
		name, src string
		want      []piece
	}{
		{"empty", "", nil},
		{"only blanks, comments and semicolons", " ;; -- c\n/* d */ ;\n", nil},
		{"one without semicolon", "SELECT 1", []piece{{"SELECT 1", 1, 1}}},
		{"two on one line", "SELECT 1; SELECT 2;", []piece{{"SELECT 1", 1, 1}, {"SELECT 2", 1, 11}}},
		{"semicolon in string", "SELECT 'a;b' FROM t; SELECT 2", []piece{{"SELECT 'a;b' FROM t", 1, 1}, {"SELECT 2", 1, 22}}},
		{"doubled quote in string", "SELECT 'it''s;' ; SELECT 2", []piece{{"SELECT 'it''s;'", 1, 1}, {"SELECT 2", 1, 19}}},
		{"semicolon in quoted identifier", `SELECT "a;b" FROM t;`, []piece{{`SELECT "a;b" FROM t`, 1, 1}}},
		{"semicolon in line comment", "SELECT 1 -- not; here\n;SELECT 2", []piece{{"SELECT 1", 1, 1}, {"SELECT 2", 2, 2}}},
		{"semicolon in block comment", "SELECT /* a; b */ 1; SELECT 2", []piece{{"SELECT   1", 1, 1}, {"SELECT 2", 1, 22}}},
		{"nested block comment", "SELECT /* a /* b; */ c; */ 1;", []piece{{"SELECT   1", 1, 1}}},
		{"comment glued between tokens", "SELECT 1/**/FROM t", []piece{{"SELECT 1 FROM t", 1, 1}}},
		{"comment lines dropped", "-- header\nSELECT a,\n  -- the b column\n  b\nFROM t;\n\n-- next\nDROP VIEW v;",
			[]piece{{"SELECT a,\n  b\nFROM t", 2, 1}, {"DROP VIEW v", 8, 1}}},
		{"multi-line statement keeps layout", "  SELECT a\n    FROM t\n;", []piece{{"SELECT a\n    FROM t", 1, 3}}},
		{"dash in expression is not a comment", "SELECT 3-1; SELECT 2", []piece{{"SELECT 3-1", 1, 1}, {"SELECT 2", 1, 13}}},
		{"non-ASCII columns", "SELECT 'é';\tSELECT 2", []piece{{"SELECT 'é'", 1, 1}, {"SELECT 2", 1, 13}}},
	} {
		pieces, err := SplitScript(tc.src)
		if err != nil {
			t.Errorf("%s: SplitScript(%q): %v", tc.name, tc.src, err)
			continue
		}
		var got []piece
		for _, p := range pieces {
			got = append(got, piece{p.Text, p.Line, p.Column})
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: SplitScript(%q)\n got: %+v\nwant: %+v", tc.name, tc.src, got, tc.want)
		}
	}
}

func TestSplitScriptErrors(t *testing.T) {
	for _, tc := range []struct {
		src          string
		line, column int
		token, msg   string
	}{
		{"SELECT 1;\nSELECT 'abc;\nSELECT 3;", 2, 8, "'abc;", "unterminated string: expected closing '"},
		{"SELECT 1; /* open", 1, 11, "/* open", "unterminated /* comment: expected */"},
		{"SELECT \"x;", 1, 8, `"x;`, `unterminated quoted identifier: expected closing "`},
	} {
		_, err := SplitScript(tc.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("SplitScript(%q): error %v is not an *Error", tc.src, err)
			continue
		}
		if e.Line != tc.line || e.Column != tc.column || e.Token != tc.token || e.Msg != tc.msg || !errors.Is(err, ErrSyntax) {
			t.Errorf("SplitScript(%q):\n got: %d:%d %q %q (%v)\nwant: %d:%d %q %q",
				tc.src, e.Line, e.Column, e.Token, e.Msg, e.Err, tc.line, tc.column, tc.token, tc.msg)
		}
	}
}

// TestPieceParse checks that statements parsed from a script report
// positions in the script, not in the piece.
func TestPieceParse(t *testing.T) {
	script := "-- setup\nSET threads = 2;\n\n  SELECT a\n  FORM 'x.parquet';\n   SELECT * FROM /* c */ 'y.parquet' WHERE\n"
	pieces, err := SplitScript(script)
	if err != nil {
		t.Fatal(err)
	}
	if len(pieces) != 3 {
		t.Fatalf("got %d pieces, want 3", len(pieces))
	}
	if st, err := pieces[0].Parse(); err != nil || dump(st) != `SET threads = "2" (number)` {
		t.Errorf("piece 0: %v, %v", st, err)
	}
	for _, tc := range []struct {
		piece        int
		line, column int
		offset       int
		token        string
	}{
		{1, 5, 8, 45, `'x.parquet'`}, // "a FORM" is a column alias; 'x.parquet' is where it breaks
		{2, 6, 43, 100, ``},
	} {
		_, err := pieces[tc.piece].Parse()
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("piece %d: error %v is not an *Error", tc.piece, err)
			continue
		}
		if e.Line != tc.line || e.Column != tc.column || e.Offset != tc.offset || e.Token != tc.token {
			t.Errorf("piece %d: got %d:%d @%d %q, want %d:%d @%d %q", tc.piece,
				e.Line, e.Column, e.Offset, e.Token, tc.line, tc.column, tc.offset, tc.token)
		}
	}

	// Positions inside a parsed piece are script positions too.
	pieces, err = SplitScript("SELECT 1;\n  SELECT * FROM 'z.parquet'")
	if err != nil {
		t.Fatal(err)
	}
	st, err := pieces[1].Parse()
	if err != nil {
		t.Fatal(err)
	}
	src := st.(*Select).SourceList()[0]
	if want := (Position{Offset: 26, Line: 2, Column: 17}); src.Pos != want {
		t.Errorf("source position = %v (offset %d), want %v (offset %d)", src.Pos, src.Pos.Offset, want, want.Offset)
	}
}

func TestIsComplete(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"", false},
		{"   \n", false},
		{";", true},
		{"SELECT 1", false},
		{"SELECT 1;", true},
		{"SELECT 1;  \n", true},
		{"SELECT 1; -- done", true},
		{"SELECT 1; /* done */", true},
		{"SELECT 1 -- ;", false},
		{"SELECT 1 /* ; */", false},
		{"SELECT ';'", false},
		{"SELECT ';", false},
		{"SELECT 'a''", false},
		{"SELECT 'a'';'", false},
		{"SELECT 'a'';';", true},
		{`SELECT "x;`, false},
		{`SELECT "x;";`, true},
		{"SELECT 1 /* ;", false},
		{"SELECT 1; SELECT 2", false},
		{"SELECT 1;\nSELECT 2;", true},
		{"SELECT\n  a\nFROM t\n;", true},
	} {
		if got := IsComplete(tc.src); got != tc.want {
			t.Errorf("IsComplete(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
