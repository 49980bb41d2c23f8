package sql

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/errclass"
	"github.com/xwb1989/sqlparser"
)

// TestExpressionDepth checks the depth limit at DuckDB 1.5.6's boundary
// (read off its errors for the same statements): 994 levels bind, 995 fail.
func TestExpressionDepth(t *testing.T) {
	sum := func(n int) string { return strings.Repeat("1+", n-1) + "1" }
	nots := func(n int) string { return strings.Repeat("NOT ", n) + "true" }
	tests := []struct {
		query string
		ok    bool
	}{
		{"SELECT " + sum(994), true},
		{"SELECT " + sum(995), false},
		{"SELECT " + strings.Repeat("- ", 993) + "x FROM t", true},
		{"SELECT " + strings.Repeat("- ", 994) + "x FROM t", false},
		{"SELECT 1 WHERE " + sum(993) + " = 1", true},
		{"SELECT 1 WHERE " + sum(994) + " = 1", false},
		{"SELECT 1 GROUP BY " + sum(994), true},
		{"SELECT 1 GROUP BY " + sum(995), false},
		{"SELECT 1 ORDER BY " + sum(994), true},
		{"SELECT 1 ORDER BY " + sum(995), false},
		{"SELECT 1 UNION ALL SELECT " + sum(994), true},
		{"SELECT 1 UNION ALL SELECT " + sum(995), false},
		{"SELECT (SELECT " + sum(988) + ")", true},
		{"SELECT (SELECT " + sum(990) + ")", false},
		{"SELECT * FROM (SELECT * FROM (SELECT " + sum(994) + "))", true},
		{"SELECT * FROM (SELECT " + sum(995) + ")", false},
		{"SELECT 1 WHERE " + nots(2000), false},
		// Parentheses add no level; a conjunction is one level however long.
		{"SELECT " + strings.Repeat("(", 150) + sum(900) + strings.Repeat(")", 150), true},
		{"SELECT 1 WHERE " + strings.Repeat("1 = 1 AND ", 5000) + "true", true},
		{"SELECT 1 WHERE " + strings.Repeat("(", 1001) + "1" + strings.Repeat(")", 1001), false},
		{"SELECT " + sum(50_000), false},
	}
	for _, tt := range tests {
		_, err := Parse(tt.query)
		name := tt.query[:min(len(tt.query), 40)] + "... (" + strconv.Itoa(len(tt.query)) + " bytes)"
		switch {
		case tt.ok && err != nil:
			t.Errorf("%s: %v", name, err)
		case !tt.ok && !errors.Is(err, ErrExpressionDepth):
			t.Errorf("%s: err = %v, want ErrExpressionDepth", name, err)
		case !tt.ok && (!errors.Is(err, errclass.Parser) || !strings.Contains(err.Error(), "Max expression depth limit of 1000 exceeded")):
			t.Errorf("%s: err = %v, want a Parser Error naming the limit", name, err)
		}
	}
}

// TestLongConjunctionIsBalanced checks that a long OR chain parses into a
// tree of logarithmic depth with its terms in order.
func TestLongConjunctionIsBalanced(t *testing.T) {
	const n = 20_000
	var b strings.Builder
	b.WriteString("SELECT 1 WHERE ")
	for i := range n {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString("x = " + strconv.Itoa(i))
	}
	st, err := Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	where := st.(*Select).raw.AST.(*sqlparser.Select).Where.Expr
	var terms []string
	var walk func(e sqlparser.Expr, d int) int
	walk = func(e sqlparser.Expr, d int) int {
		if o, ok := e.(*sqlparser.OrExpr); ok {
			return max(walk(o.Left, d+1), walk(o.Right, d+1))
		}
		terms = append(terms, sqlparser.String(e))
		return d
	}
	depth := walk(where, 0)
	if len(terms) != n || terms[0] != "x = 0" || terms[n-1] != "x = "+strconv.Itoa(n-1) || terms[n/2] != "x = "+strconv.Itoa(n/2) {
		t.Fatalf("%d terms, first %q, last %q", len(terms), terms[0], terms[len(terms)-1])
	}
	if depth > 15 {
		t.Fatalf("OR tree of %d terms is %d deep, want at most 15", n, depth)
	}
}

// TestDeepArithmeticBeforeParsing checks the pre-pass that refuses a run of
// arithmetic past the limit before any token is made, and that it leaves
// long flat lists, conjunctions and quoted text alone.
func TestDeepArithmeticBeforeParsing(t *testing.T) {
	sum := func(n int) string { return strings.Repeat("1+", n-1) + "1" }
	list := func(n int, item string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = item
		}
		return strings.Join(items, ", ")
	}
	tests := []struct {
		query string
		deep  bool
	}{
		{"SELECT " + sum(1002), true},
		{"SELECT " + strings.Repeat("x * ", 1001) + "x FROM t", true},
		// Prefix minuses are left to the parser, which folds some.
		{"SELECT " + strings.Repeat("- ", 1003) + "1", false},
		{"SELECT 1 WHERE x = " + strings.Repeat("(1 + ", 10) + sum(1002) + strings.Repeat(")", 10), true},
		{"SELECT " + strings.Repeat("a.b - ", 1001) + "c FROM t", true},
		// Within the limit, or parted by what binds less tightly.
		{"SELECT " + sum(1001), false},
		{"SELECT " + list(100_000, "1 + 1"), false},
		{"SELECT 1 WHERE x IN (" + list(100_000, "1") + ")", false},
		{"SELECT 1 WHERE " + strings.Repeat("x + 1 = 2 AND ", 5000) + "true", false},
		{"SELECT 1 WHERE " + strings.Repeat("x + 1 < 2 OR ", 5000) + "true", false},
		{"SELECT " + strings.Repeat("x || 1 + 1 || ", 5000) + "x FROM t", false},
		{"SELECT '" + strings.Repeat("1+", 5000) + "', \"" + strings.Repeat("+", 5000) + "\"", false},
		{"SELECT 1 -- " + strings.Repeat("+1", 5000) + "\n", false},
		{"SELECT 1 /* " + strings.Repeat("+1", 5000) + " */", false},
		{"SELECT [" + list(5000, "1 + 1") + "]", false},
		{"SELECT " + strings.Repeat("(1 + ", 900) + "1" + strings.Repeat(")", 900), false},
		{"SELECT 1e+5 + " + strings.Repeat("x::INT + ", 400) + "1 FROM t", false},
	}
	for _, tt := range tests {
		name := tt.query[:min(len(tt.query), 40)] + "... (" + strconv.Itoa(len(tt.query)) + " bytes)"
		if got := deepArithmetic(tt.query); got != tt.deep {
			t.Errorf("%s: deepArithmetic = %v, want %v", name, got, tt.deep)
		}
		// What the pre-pass refuses, the depth check after parsing refuses.
		if tt.deep && len(tt.query) < 100_000 {
			if _, err := parseAfterLexing(tt.query); !errors.Is(err, ErrExpressionDepth) {
				t.Errorf("%s: refused before parsing, but parsing gives %v", name, err)
			}
		}
	}
}

// parseAfterLexing parses text with the pre-pass off, as Parse did before
// it: the depth check after parsing judges alone.
func parseAfterLexing(text string) (Statement, error) {
	skipDeepArithmetic = true
	defer func() { skipDeepArithmetic = false }()
	return Parse(text)
}

// TestRejectedSumAllocatesLittle checks that a statement refused for a
// million-term sum is refused before the parser builds anything: it took
// 1.5 GB when the tree was built first.
func TestRejectedSumAllocatesLittle(t *testing.T) {
	q := "SELECT " + strings.Repeat("1+", 1_000_000) + "1"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse(q)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes allocated refusing a %d-byte statement: %v", allocated, len(q), err)
	if !errors.Is(err, ErrExpressionDepth) || !strings.Contains(err.Error(), depthMessage) || !strings.Contains(err.Error(), `"SELECT"`) {
		t.Fatalf("err = %v, want the depth error at SELECT", err)
	}
	if allocated > 1<<20 {
		t.Fatalf("refusing allocated %d bytes, want under 1 MiB", allocated)
	}
}
