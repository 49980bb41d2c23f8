package planner

import (
	"errors"
	"fmt"
	"testing"
)

// TestErrorPositions checks where planner errors point, as line:column of
// the statement, against the carets DuckDB 1.5.6 draws for the same
// statements; "-" means DuckDB shows none. The class must survive the
// wrapping.
func TestErrorPositions(t *testing.T) {
	chdirRoot(t)
	const f = "'fixtures/orders_sorted.parquet'"
	cat := viewCatalog{"bad": "SELECT nosuch FROM " + f}
	tests := []struct {
		q    string
		kind error
		at   string
	}{
		{"SELECT foo FROM " + f, ErrBinder, "1:8"},
		{"SELECT order_id, foo + 1 FROM " + f, ErrBinder, "1:18"},
		{"SELECT order_id\nFROM " + f + "\nWHERE  custmer = 3", ErrBinder, "3:8"},
		{"SELECT o.foo FROM " + f + " o", ErrBinder, "1:8"},
		{"SELECT x.order_id FROM " + f + " o JOIN " + f + " p USING (order_id)", ErrBinder, "1:8"},
		{"SELECT amount FROM " + f + " o JOIN " + f + " p USING (order_id)", ErrBinder, "1:8"},
		{"SELECT lenght(note) FROM " + f, ErrCatalog, "1:8"},
		{"SELECT lower(1, 2)", ErrBinder, "1:8"},
		{"SELECT 1 + 'a'", ErrBinder, "1:10"},
		{"SELECT order_id + note FROM " + f, ErrBinder, "1:17"},
		{"SELECT -'a'", ErrBinder, "1:8"},
		{"SELECT order_id, count(*) FROM " + f, ErrBinder, "1:8"},
		{"SELECT sum(sum(order_id)) FROM " + f, ErrBinder, "1:12"},
		{"SELECT sum(order_id) FROM " + f + " WHERE sum(order_id) > 1", ErrBinder, "1:66"},
		{"SELECT order_id FROM " + f + " GROUP BY sum(order_id)", ErrBinder, "1:64"},
		{"SELECT order_id FROM " + f + " ORDER BY 5", ErrBinder, "1:64"},
		{"SELECT order_id FROM " + f + " LIMIT -1", ErrBinder, "1:61"},
		{"SELECT (SELECT 1, 2)", ErrBinder, "1:8"},
		{"SELECT CAST('x' AS INTEGER)", ErrConversion, "1:8"},
		{"SELECT 'x'::INTEGER", ErrConversion, "1:11"},
		{"SELECT 1 WHERE 'a' = 1", ErrConversion, "1:16"},
		{"SELECT 1 WHERE 1 IN ('a', 'b')", ErrConversion, "1:22"},
		{"SELECT 1 BETWEEN 'a' AND 2", ErrConversion, "1:18"},
		{"WITH c AS (SELECT 1 AS a) SELECT b FROM c", ErrBinder, "1:34"},
		{"WITH c AS (SELECT zz FROM " + f + ") SELECT * FROM c", ErrBinder, "1:19"},
		{"SELECT * FROM nosuchview", ErrCatalog, "1:15"},
		{"SELECT * FROM read_parquet('nonexist.parquet')", ErrIO, "1:15"},
		{"SELECT * FROM 'nonexist.parquet'", ErrIO, "-"},
		{"SELECT 2147483647 + 1", ErrOutOfRange, "-"},
		{"SELECT DATE 'x'", ErrConversion, "-"},
		// An error in a view's body is in the view's text, not this one's.
		{"SELECT * FROM bad", ErrBinder, "-"},
	}
	for _, tc := range tests {
		_, err := planWith(t, tc.q, cat)
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: error %v, want %v", tc.q, err, tc.kind)
			continue
		}
		at := "-"
		var pe *Error
		if errors.As(err, &pe) {
			if pos, ok := pe.Position(); ok {
				at = fmt.Sprintf("%d:%d", pos.Line, pos.Column)
			}
		}
		if at != tc.at {
			t.Errorf("%s: error %v at %s, want %s", tc.q, err, at, tc.at)
		}
	}
}
