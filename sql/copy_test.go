package sql

import (
	"errors"
	"testing"
)

func TestParseCopy(t *testing.T) {
	valid := []struct {
		in   string
		want Copy
	}{
		{"COPY (SELECT 1) TO 'a.csv'", Copy{Query: "SELECT 1", File: "a.csv", Format: "csv", Header: true, Delimiter: ","}},
		{"copy (select (1)) to 'a.JSON';", Copy{Query: "select (1)", File: "a.JSON", Format: "json", Header: true, Delimiter: ","}},
		{"COPY v TO 'out' (FORMAT json)", Copy{Query: `SELECT * FROM "v"`, File: "out", Format: "json", Header: true, Delimiter: ","}},
		{"COPY (SELECT 1) TO 'a.txt' WITH (HEADER false, DELIMITER '|', NULLSTR 'NA')",
			Copy{Query: "SELECT 1", File: "a.txt", Format: "csv", Header: false, Delimiter: "|", Null: "NA"}},
		{"COPY (SELECT 1) TO 'a.csv' (HEADER, SEP '\t')", Copy{Query: "SELECT 1", File: "a.csv", Format: "csv", Header: true, Delimiter: "\t"}},
	}
	for _, tc := range valid {
		c, ok, err := ParseCopy(tc.in)
		if err != nil || !ok || *c != tc.want {
			t.Errorf("ParseCopy(%q) = %+v, %v, %v; want %+v", tc.in, c, ok, err, tc.want)
		}
	}
	for _, in := range []string{"SELECT 1", "  ", "EXPLAIN SELECT 1", "copying"} {
		if _, ok, err := ParseCopy(in); ok || err != nil {
			t.Errorf("ParseCopy(%q) = %v, %v; want not a COPY", in, ok, err)
		}
	}
	invalid := []struct {
		in   string
		kind error
	}{
		{"COPY (SELECT 1 TO 'a.csv'", ErrSyntax},
		{"COPY () TO 'a.csv'", ErrSyntax},
		{"COPY (SELECT 1) 'a.csv'", ErrSyntax},
		{"COPY (SELECT 1) TO a", ErrSyntax},
		{"COPY t FROM 'a.csv'", ErrUnsupported},
		{"COPY (SELECT 1) TO 'a.parquet'", ErrUnsupported},
		{"COPY (SELECT 1) TO 'a' (FORMAT parquet)", ErrUnsupported},
		{"COPY (SELECT 1) TO 'a' (FORMAT xml)", ErrSyntax},
		{"COPY (SELECT 1) TO 'a' (COMPRESSION gzip)", ErrUnsupported},
		{"COPY (SELECT 1) TO 'a' (HEADER maybe)", ErrSyntax},
		{"COPY (SELECT 1) TO 'a' (DELIMITER)", ErrSyntax},
		{"COPY (SELECT 1) TO 'a' (HEADER", ErrSyntax},
		{"COPY (SELECT 1) TO 'a' extra", ErrSyntax},
	}
	for _, tc := range invalid {
		_, ok, err := ParseCopy(tc.in)
		var se *Error
		if !ok || !errors.Is(err, tc.kind) || !errors.As(err, &se) || se.Line != 1 {
			t.Errorf("ParseCopy(%q) = %v, %v; want a positioned %v", tc.in, ok, err, tc.kind)
		}
	}
}
