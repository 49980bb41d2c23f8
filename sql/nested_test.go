package sql

import (
	"errors"
	"testing"

	"github.com/xwb1989/sqlparser"
)

// TestNestedSyntax checks how subscripts, slices, nested literals, lambdas
// and && reach the AST.
func TestNestedSyntax(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`SELECT l[1], l[-1], l[2:3], l[:2], l[2:] FROM t`, `select __pqsql_extract(l, 1), __pqsql_extract(l, -1), __pqsql_slice(l, 2, 3), __pqsql_slice(l, __pqsql_open, 2), __pqsql_slice(l, 2, __pqsql_open) from __pqsql_src_0`},
		{`SELECT s['f'], s.f, x[1]['f'], l[1].f, (s).f FROM t`, `select __pqsql_extract(s, 'f'), s.f, __pqsql_extract(__pqsql_extract(x, 1), 'f'), __pqsql_extract(__pqsql_extract(l, 1), 'f'), __pqsql_extract((s), 'f') from __pqsql_src_0`},
		{`SELECT [1, 2], [], ARRAY[1], [[1], [2, 3]][2][1]`, `select list_value(1, 2), list_value(), list_value(1), __pqsql_extract(__pqsql_extract(list_value(list_value(1), list_value(2, 3)), 2), 1) from dual`},
		{`SELECT {'a': 1, "b": 'x', c: [1]}, MAP {'k': 1, 2: 3}, struct_pack(a := 1), {}`, `select __pqsql_struct('a', 1, 'b', 'x', 'c', list_value(1)), __pqsql_map('k', 1, 2, 3), __pqsql_struct('a', 1), __pqsql_struct() from dual`},
		{`SELECT list_transform(l, x -> x + 1), list_reduce(l, (a, b) -> a + b), list_filter(l, lambda x: x > 1) FROM t`, `select list_transform(l, __pqsql_lambda(x, x + 1)), list_reduce(l, __pqsql_lambda(a, b, a + b)), list_filter(l, __pqsql_lambda(x, x > 1)) from __pqsql_src_0`},
		{`SELECT * FROM t WHERE g && ST_Point(0, 0) AND v['a']::INTEGER > 5`, `select * from __pqsql_src_0 where g && ST_Point(0, 0) and convert(__pqsql_extract(v, 'a'), INTEGER) > 5`},
		{`SELECT [1, 2][1]::VARCHAR, f(x)[2], 'abc'[1]`, `select convert(__pqsql_extract(list_value(1, 2), 1), VARCHAR), __pqsql_extract(f(x), 2), __pqsql_extract('abc', 1) from dual`},
	} {
		s, err := Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		if got := sqlparser.String(s.(*Select).raw.AST); got != tc.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
	for _, tc := range []struct {
		src  string
		col  int
		kind error
	}{
		{`SELECT l[1 FROM t`, 9, ErrSyntax},
		{`SELECT {'a' 1}`, 13, ErrSyntax},
		{`SELECT {a + 1: 2}`, 9, ErrSyntax},
		{`SELECT x -> x + 1`, 10, ErrSyntax},
		{`SELECT 1 -> 2 FROM t`, 10, ErrSyntax},
		{`SELECT l[] FROM t`, 9, ErrUnsupported},
	} {
		_, err := Parse(tc.src)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tc.kind) || e.Column != tc.col {
			t.Errorf("Parse(%q) = %v, want %v at column %d", tc.src, err, tc.kind, tc.col)
		}
	}
}
