package sql

import (
	"testing"

	"github.com/xwb1989/sqlparser"
)

func TestQuantifiedParse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT 1 FROM t WHERE x > ANY (SELECT y FROM u)", "select 1 from __pqsql_src_0 where x > any (select y from __pqsql_src_1)"},
		{"SELECT x <= SOME (SELECT y FROM u) FROM t", "select x <= any (select y from __pqsql_src_0) from __pqsql_src_1"},
		{"SELECT 1 FROM t WHERE x <> ALL (SELECT y FROM u WHERE z = 1) AND x = any(select 2)", "select 1 from __pqsql_src_0 where x != all (select y from __pqsql_src_1 where z = 1) and x = any (select 2 from dual)"},
		{"SELECT 1 FROM t WHERE NOT (x == ALL (SELECT y FROM u))", "select 1 from __pqsql_src_0 where not (x = all (select y from __pqsql_src_1))"},
		// Not a quantifier: UNION ALL, SELECT ALL, any() as a function name.
		{"SELECT a FROM t UNION ALL SELECT b FROM u", "select a from __pqsql_src_0 union all select b from __pqsql_src_1"},
		{"SELECT any_value(a) FROM t", "select any_value(a) from __pqsql_src_0"},
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
}

func TestQuantifiedOperator(t *testing.T) {
	tests := []struct {
		op, cmp string
		all, ok bool
	}{
		{"> any", ">", false, true},
		{"!= all", "!=", true, true},
		{"<= any", "<=", false, true},
		{"in", "", false, false},
		{"=", "", false, false},
	}
	for _, tc := range tests {
		cmp, all, ok := Quantified(tc.op)
		if cmp != tc.cmp || all != tc.all || ok != tc.ok {
			t.Errorf("Quantified(%q) = %q, %v, %v; want %q, %v, %v", tc.op, cmp, all, ok, tc.cmp, tc.all, tc.ok)
		}
	}
}
