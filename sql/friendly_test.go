package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"
)

func TestFriendlyParse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT a, b, FROM t", "select a, b from __pqsql_src_0"},
		{"SELECT a, FROM t WHERE x = 1", "select a from __pqsql_src_0 where x = 1"},
		{"SELECT (SELECT 1,), 2,", "select (select 1 from dual), 2 from dual"},
		{"SELECT a, count(*) FROM t GROUP BY ALL ORDER BY ALL DESC", "select a, count(*) from __pqsql_src_0 group by __pqsql_all order by __pqsql_all desc"},
		{"SELECT a IS DISTINCT FROM b + 1 AND c IS NOT DISTINCT FROM NULL FROM t",
			"select a is distinct from b + 1 and c is not distinct from null from __pqsql_src_0"},
		{"SELECT * EXCLUDE (a, \"B\") FROM t", "select * from __pqsql_src_0 [exclude a B]"},
		{"SELECT * EXCLUDE (a) REPLACE (b::INT AS b) FROM t", "select * from __pqsql_src_0 [exclude a] [replace convert(b, INTEGER) as b]"},
		{"SELECT x * replace(s, 'a', 'b') FROM t", "select x * replace(s, 'a', 'b') from __pqsql_src_0"},
	}
	for _, tc := range tests {
		st, err := Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		s := st.(*Select)
		got := sqlparser.String(s.raw.AST)
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if x, ok := n.(*sqlparser.StarExpr); ok {
				if o := s.raw.StarOptionsOf(x); o != nil {
					if len(o.Exclude) > 0 {
						got += " [exclude " + strings.Join(o.Exclude, " ") + "]"
					}
					for _, r := range o.Replace {
						got += " [replace " + sqlparser.String(r) + "]"
					}
				}
			}
			return true, nil
		}, s.raw.AST)
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestValuesParse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"VALUES (1, 'a'), (2, 'b')", "select 1 as col0, 'a' as col1 from dual union all select 2, 'b' from dual"},
		{"SELECT * FROM (VALUES (1), (2)) t(x)", "select * from (select 1 as x from dual union all select 2 from dual) as t"},
	}
	for _, tc := range tests {
		st, err := Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := sqlparser.String(st.(*Select).raw.AST); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
	if _, err := Parse("VALUES (1, 2), (3)"); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "same length") {
		t.Errorf("VALUES rows of different lengths: got %v", err)
	}
}
