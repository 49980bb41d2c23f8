package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/errclass"
)

func TestInvalidUTF8IsRefused(t *testing.T) {
	tests := []struct {
		text      string
		line, col int
	}{
		{"SELECT 'a\xffb' AS x", 1, 10},
		{"SELECT 1 AS \xc3", 1, 13},
		{"SELECT 'é',\n  \xed\xa0\x80 AS surrogate", 2, 3}, // a UTF-16 surrogate is not UTF-8
		{"SELECT 1 -- \xfe in a comment", 1, 13},
	}
	for _, tt := range tests {
		_, err := Parse(tt.text)
		var pe *Error
		if !errors.Is(err, ErrInvalidUTF8) || !errors.Is(err, errclass.InvalidInput) || !errors.As(err, &pe) {
			t.Errorf("%q: err = %v, want ErrInvalidUTF8", tt.text, err)
			continue
		}
		if pe.Line != tt.line || pe.Column != tt.col || !strings.Contains(pe.Error(), "invalid UTF-8") {
			t.Errorf("%q: %v at %d:%d, want %d:%d", tt.text, err, pe.Line, pe.Column, tt.line, tt.col)
		}
	}
	if _, err := Parse("SELECT 'Łódź' AS \"Zürich\""); err != nil {
		t.Errorf("valid UTF-8 refused: %v", err)
	}
	pieces, err := SplitScript("SELECT 1;\nSELECT '\xff';")
	if err != nil || len(pieces) != 2 {
		t.Fatalf("SplitScript: %d pieces, %v", len(pieces), err)
	}
	if _, err := pieces[1].Parse(); !errors.Is(err, ErrInvalidUTF8) || err.(*Error).Line != 2 || err.(*Error).Column != 9 {
		t.Errorf("second statement: %v, want ErrInvalidUTF8 at line 2, column 9", err)
	}
}
