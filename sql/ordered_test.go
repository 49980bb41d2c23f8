package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"
)

// argOrdersOf renders the ORDER BY keys written inside the calls of a query.
func argOrdersOf(s *Select) string {
	var parts []string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		f, ok := n.(*sqlparser.FuncExpr)
		if !ok {
			return true, nil
		}
		for _, k := range s.raw.ArgOrderOf(f) {
			t := f.Name.String() + ":" + sqlparser.String(k.Expr)
			switch {
			case k.Desc:
				t += " desc"
			case k.Asc:
				t += " asc"
			}
			if k.Nulls != NullsDefault {
				t += " " + k.Nulls.String()
			}
			parts = append(parts, t)
		}
		return true, nil
	}, s.raw.AST)
	return strings.Join(parts, "; ")
}

func TestArgOrders(t *testing.T) {
	tests := []struct{ in, ast, orders string }{
		{"SELECT string_agg(b, ',' ORDER BY a DESC, c NULLS FIRST) FROM t",
			"select string_agg(b, ',') from __pqsql_src_0", "string_agg:a desc; string_agg:c NULLS FIRST"},
		{"SELECT list(DISTINCT x ORDER BY x::INT ASC NULLS LAST) FILTER (WHERE y > 1) FROM t",
			"select list(distinct x) from __pqsql_src_0", "list:convert(x, INTEGER) asc NULLS LAST"},
		{"SELECT sum(a ORDER BY b) OVER (ORDER BY c) FROM t",
			"select __pqsql_window.sum(a) from __pqsql_src_0", "sum:b"},
		{"SELECT f((SELECT a FROM t ORDER BY a)) FROM t",
			"select f((select a from __pqsql_src_0 order by a asc)) from __pqsql_src_1", ""},
		{"SELECT group_concat(a ORDER BY b) FROM t",
			"select group_concat(a) from __pqsql_src_0", "group_concat:b"},
	}
	for _, tt := range tests {
		st, err := Parse(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		s := st.(*Select)
		if ast, orders := sqlparser.String(s.raw.AST), argOrdersOf(s); ast != tt.ast || orders != tt.orders {
			t.Errorf("%s:\n got %s | %s\nwant %s | %s", tt.in, ast, orders, tt.ast, tt.orders)
		}
	}
}

func TestArgOrdersInvalid(t *testing.T) {
	tests := []struct {
		in  string
		col int
	}{
		{"SELECT f(ORDER BY a) FROM t", 10},
		{"SELECT f(a ORDER BY ) FROM t", 21},
		{"SELECT f(a ORDER BY DESC) FROM t", 21},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) || pe.Column != tt.col {
			t.Errorf("%s: error %v, want a syntax error at column %d", tt.in, err, tt.col)
		}
	}
}
