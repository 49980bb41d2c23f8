package main

import (
	"strings"
	"testing"
)

// TestBinderErrorDisplay checks binder, catalog and conversion errors as
// the shell prints them: the message, then the statement's line with a
// caret under what the error is about. Messages and carets are DuckDB
// 1.5.6's for the same statements (tools/oracle), but for the "Error: line
// N:" prefix, the script's line numbers, and where noted.
func TestBinderErrorDisplay(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const f = "'fixtures/orders_sorted.parquet'"
	tests := []struct{ name, script, stderr string }{
		{"unknown column", "SELECT foo FROM " + f,
			"Error: line 1: Binder Error: Referenced column \"foo\" not found in FROM clause!\n" +
				"Candidate bindings: \"note\", \"amount\"\n\n" +
				"LINE 1: SELECT foo FROM 'fixtures/orders_sorted.parquet'\n" +
				"               ^\n"},
		{"candidates of a typo", "SELECT ordr_id FROM " + f,
			"Error: line 1: Binder Error: Referenced column \"ordr_id\" not found in FROM clause!\n" +
				"Candidate bindings: \"order_id\", \"order_date\", \"customer_id\", \"priority\"\n\n" +
				"LINE 1: SELECT ordr_id FROM 'fixtures/orders_sorted.parquet'\n" +
				"               ^\n"},
		{"the script's line of a WHERE", "SELECT 1;\nSELECT order_id\nFROM " + f + "\nWHERE  custmer = 3;",
			"Error: line 4: Binder Error: Referenced column \"custmer\" not found in FROM clause!\n" +
				"Candidate bindings: \"customer_id\", \"city\", \"note\", \"amount\", \"status\"\n\n" +
				"LINE 4: WHERE  custmer = 3\n" +
				"               ^\n"},
		{"no FROM clause", "SELECT foo",
			"Error: line 1: Binder Error: Referenced column \"foo\" was not found because the FROM clause is missing\n\n" +
				"LINE 1: SELECT foo\n" +
				"               ^\n"},
		{"column of a named table", "SELECT o.order_id, p.foo FROM " + f + " o JOIN " + f + " p USING (order_id)",
			"Error: line 1: Binder Error: Table \"p\" does not have a column named \"foo\"\n\n" +
				"Candidate bindings: : \"amount\", \"note\", \"order_date\", \"order_id\"\n\n" +
				"LINE 1: SELECT o.order_id, p.foo FROM 'fixtures/orders_sorted.parquet' o JOIN 'fixtures...\n" +
				"                           ^\n"},
		{"unknown table", "SELECT x.order_id FROM " + f + " o JOIN " + f + " p USING (order_id)",
			"Error: line 1: Binder Error: Referenced table \"x\" not found!\n" +
				"Candidate tables: \"o\"\n\n" +
				"LINE 1: SELECT x.order_id FROM 'fixtures/orders_sorted.parquet' o JOIN...\n" +
				"               ^\n"},
		{"candidates qualified when two tables share a name", "SELECT amont FROM " + f + " o JOIN " + f + " p USING (order_id)",
			"Error: line 1: Binder Error: Referenced column \"amont\" not found in FROM clause!\n" +
				"Candidate bindings: \"o.amount\", \"p.amount\", \"o.discount\", \"o.quantity\", \"p.discount\"\n\n" +
				"LINE 1: SELECT amont FROM 'fixtures/orders_sorted.parquet' o JOIN 'fixtures...\n" +
				"               ^\n"},
		{"ambiguous column", "SELECT amount FROM " + f + " o JOIN " + f + " p USING (order_id)",
			"Error: line 1: Binder Error: Ambiguous reference to column name \"amount\" (use: \"o.amount\" or \"p.amount\")\n\n" +
				"LINE 1: SELECT amount FROM 'fixtures/orders_sorted.parquet' o JOIN 'fixtures...\n" +
				"               ^\n"},
		{"unknown function", "SELECT lenght('abc')",
			"Error: line 1: Catalog Error: Scalar Function with name lenght does not exist!\n" +
				"Did you mean \"length\"?\n\n" +
				"LINE 1: SELECT lenght('abc')\n" +
				"               ^\n"},
		{"column outside GROUP BY", "SELECT order_id, count(*) FROM " + f,
			"Error: line 1: Binder Error: column \"order_id\" must appear in the GROUP BY clause or must be part of an aggregate function.\n" +
				"Either add it to the GROUP BY list, or use \"ANY_VALUE(order_id)\" if the exact value of \"order_id\" is not important.\n\n" +
				"LINE 1: SELECT order_id, count(*) FROM 'fixtures/orders_sorted.parquet'\n" +
				"               ^\n"},
		{"nested aggregate, at the inner one", "SELECT sum(sum(order_id)) FROM " + f,
			"Error: line 1: Binder Error: aggregate function calls cannot be nested\n\n" +
				"LINE 1: SELECT sum(sum(order_id)) FROM 'fixtures/orders_sorted.parquet'\n" +
				"                   ^\n"},
		{"aggregate in WHERE, the line cut before the caret", "SELECT sum(order_id) FROM " + f + " WHERE sum(order_id) > 1",
			"Error: line 1: Binder Error: WHERE clause cannot contain aggregates!\n\n" +
				"LINE 1: ... sum(order_id) FROM 'fixtures/orders_sorted.parquet' WHERE sum(order_id) > 1\n" +
				"                                                                      ^\n"},
		{"ORDER BY term", "SELECT order_id FROM " + f + " ORDER BY 5",
			"Error: line 1: Binder Error: ORDER term out of range - should be between 1 and 1\n\n" +
				"LINE 1: ... order_id FROM 'fixtures/orders_sorted.parquet' ORDER BY 5\n" +
				"                                                                    ^\n"},
		{"negative LIMIT, at its sign", "SELECT order_id FROM " + f + " LIMIT -1",
			"Error: line 1: Binder Error: LIMIT/OFFSET cannot be negative\n\n" +
				"LINE 1: ...ELECT order_id FROM 'fixtures/orders_sorted.parquet' LIMIT -1\n" +
				"                                                                      ^\n"},
		{"subquery of two columns", "SELECT 1 FROM " + f + " WHERE note IN (SELECT 1, 2)",
			"Error: line 1: Binder Error: Subquery returns 2 columns - expected 1\n\n" +
				"LINE 1: SELECT 1 FROM 'fixtures/orders_sorted.parquet' WHERE note IN (SELECT 1, 2)\n" +
				"                                                                  ^\n"},
		{"CTE column", "WITH c AS (SELECT 1 AS a) SELECT b FROM c",
			"Error: line 1: Binder Error: Referenced column \"b\" not found in FROM clause!\n" +
				"Candidate bindings: \"a\"\n\n" +
				"LINE 1: WITH c AS (SELECT 1 AS a) SELECT b FROM c\n" +
				"                                         ^\n"},
		// The messages below are pqsql's; the carets are where DuckDB puts them.
		{"operator types, at the operator", "SELECT order_id + note FROM " + f,
			"Error: line 1: Binder Error: No function matches the given name and argument types '+(BIGINT, VARCHAR)'. You might need to add explicit type casts.\n\n" +
				"LINE 1: SELECT order_id + note FROM 'fixtures/orders_sorted.parquet'\n" +
				"                        ^\n"},
		{"implicit cast of a literal, at the literal", "SELECT 1 FROM " + f + " WHERE order_id = 'abc'",
			"Error: line 1: Conversion Error: Could not convert string 'abc' to INT64\n\n" +
				"LINE 1: ... 1 FROM 'fixtures/orders_sorted.parquet' WHERE order_id = 'abc'\n" +
				"                                                                     ^\n"},
		{"x::T, at ::", "SELECT 'x'::INTEGER",
			"Error: line 1: Conversion Error: Could not convert string 'x' to INT32\n\n" +
				"LINE 1: SELECT 'x'::INTEGER\n" +
				"                  ^\n"},
		{"unknown view", "SELECT * FROM nosuchview",
			"Error: line 1: Catalog Error: Table with name nosuchview does not exist!\n\n" +
				"LINE 1: SELECT * FROM nosuchview\n" +
				"                      ^\n"},
		{"missing file of read_parquet", "SELECT * FROM read_parquet('nonexist.parquet')",
			"Error: line 1: IO Error: No files found that match the pattern \"nonexist.parquet\"\n\n" +
				"LINE 1: SELECT * FROM read_parquet('nonexist.parquet')\n" +
				"                      ^\n"},
		// As in DuckDB, no excerpt: an overflow while folding constants, and
		// a missing file named by a quoted path.
		{"overflow", "SELECT 2147483647 + 1",
			"Error: line 1: Out of Range Error: Overflow in addition of INT32 (2147483647 + 1)!\n"},
		{"missing quoted file", "SELECT * FROM 'nonexist.parquet'",
			"Error: line 1: IO Error: No files found that match the pattern \"nonexist.parquet\"\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCapture(t, "", "-c", tc.script)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if stderr != tc.stderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, tc.stderr)
			}
		})
	}
}

// TestExcerptCut checks where a long line is cut, against DuckDB 1.5.6's
// excerpts of the same lines: about 60 columns either side of the caret,
// moved to a space or punctuation mark within 4 characters.
func TestExcerptCut(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		line   string
		column int
		want   string // the excerpt's two lines
	}{
		{"SELECT 1 AS " + a(50) + ", foo FROM (SELECT 1 AS b) t", 65,
			"LINE 1: ... 1 AS " + a(50) + ", foo FROM (SELECT 1 AS b) t\n" + strings.Repeat(" ", 69) + "^"},
		{"SELECT 1 AS " + a(70) + ", foo FROM (SELECT 1 AS b) t", 85,
			"LINE 1: ..." + a(57) + ", foo FROM (SELECT 1 AS b) t\n" + strings.Repeat(" ", 70) + "^"},
		{"SELECT foo, 1 AS " + a(40) + ", 2 as " + a(40) + "b FROM t", 8,
			"LINE 1: SELECT foo, 1 AS " + a(40) + ", 2 as...\n" + strings.Repeat(" ", 15) + "^"},
		{"SELECT foo, 1 AS " + a(45) + ", 2 as " + a(45) + "b FROM t", 8,
			"LINE 1: SELECT foo, 1 AS " + a(45) + "...\n" + strings.Repeat(" ", 15) + "^"},
		{"SELECT foo, 1 AS " + a(90) + ", 2 as b FROM t", 8,
			"LINE 1: SELECT foo, 1 AS " + a(49) + "...\n" + strings.Repeat(" ", 15) + "^"},
	}
	for _, tc := range tests {
		ex := &excerpt{line: 1, text: tc.line, column: tc.column}
		if got := strings.TrimSpace(ex.render()); got != tc.want {
			t.Errorf("%s at %d:\n%s\nwant:\n%s", tc.line, tc.column, got, tc.want)
		}
	}
}
