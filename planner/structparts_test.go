package planner

import (
	"fmt"
	"strings"
	"testing"
)

// TestStructParts checks which struct fields a files scan reads: only the
// fields reached through field access, and the whole column as soon as
// anything reads it whole.
func TestStructParts(t *testing.T) {
	chdirRoot(t)
	const from = " FROM 'fixtures/structs.parquet'"
	tests := []struct {
		q    string
		cols string // the scan's columns as EXPLAIN lists them
	}{
		{"SELECT address.city" + from, "address.city"},
		{"SELECT address['city'], struct_extract(address, 'zip')" + from, "address.city, address.zip"},
		{"SELECT id" + from + " WHERE address.zip > 3", "id, address.zip"},
		{"SELECT address.city" + from + " WHERE address.city = 'x'", "address.city"},
		{"SELECT meta.inner.day, meta.inner" + from, "meta.inner"},
		{"SELECT meta.inner.day, meta.flag" + from, "meta.inner.day, meta.flag"},
		{"SELECT count(*)" + from + " WHERE pt.x + pt.y > 3", "pt"},
		{"SELECT count(pt.y)" + from + " WHERE pt.x > 3", "pt"}, // both its leaves
		{"SELECT count(pt.y)" + from + " WHERE meta.flag", "meta.flag, pt.y"},
		{"SELECT address.city, address" + from, "address"},
		{"SELECT address.city" + from + " WHERE address IS NULL", "address"},
		{"SELECT address.city, address.zip, address.street" + from, "address"},
		{"SELECT s.city FROM (SELECT address AS s" + from + ")", "address"},
	}
	for _, tc := range tests {
		p, err := plan(t, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		text := p.Explain()
		want := fmt.Sprintf("columns [%s]", tc.cols)
		if !strings.Contains(text, want) {
			t.Errorf("%s: the scan does not read %s:\n%s", tc.q, want, text)
		}
	}
}
