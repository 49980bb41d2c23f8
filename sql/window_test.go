package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"
)

// windowsOf renders the window calls and QUALIFY conditions of a query.
func windowsOf(s *Select) string {
	var parts []string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *sqlparser.FuncExpr:
			w := s.raw.WindowOf(n)
			if w == nil {
				break
			}
			t := n.Name.String() + "(" + sqlparser.String(n.Exprs) + ")"
			for _, e := range w.PartitionBy {
				t += " p:" + sqlparser.String(e)
			}
			for _, o := range w.OrderBy {
				t += " o:" + sqlparser.String(o.Expr)
				if o.Desc {
					t += " desc"
				}
				if o.Nulls != NullsDefault {
					t += " " + o.Nulls.String()
				}
			}
			if f := w.Frame; f != nil {
				t += " f:"
				if f.Rows {
					t += "rows"
				} else {
					t += "range"
				}
				for _, b := range []rawFrameBound{f.Start, f.End} {
					t += " " + b.Kind
					if b.Offset != nil {
						t += "(" + sqlparser.String(b.Offset) + ")"
					}
				}
			}
			parts = append(parts, t+" ["+w.Text+"]")
		case *sqlparser.Select:
			if q := s.raw.QualifyOf(n); q != nil {
				parts = append(parts, "qualify "+sqlparser.String(q))
			}
		}
		return true, nil
	}, s.raw.AST)
	return strings.Join(parts, "; ")
}

func TestWindowParse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT row_number() OVER () FROM 'f.parquet'", "row_number() [OVER ()]"},
		{"SELECT sum(x) OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST, d) FROM t",
			"sum(x) p:a p:b o:c desc NULLS FIRST o:d [OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST, d)]"},
		{"SELECT count(*) OVER (ORDER BY c ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t",
			"count(*) o:c f:rows preceding(2) following(1) [OVER (ORDER BY c ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING)]"},
		{"SELECT avg(x) OVER (ORDER BY c RANGE UNBOUNDED PRECEDING) FROM t",
			"avg(x) o:c f:range unbounded preceding current row [OVER (ORDER BY c RANGE UNBOUNDED PRECEDING)]"},
		{"SELECT lag(x, 1, 0) OVER w FROM t WINDOW w AS (PARTITION BY g ORDER BY y::int)",
			"lag(x, 1, 0) p:g o:convert(y, INTEGER) [OVER w]"},
		{"SELECT rank() OVER (w ORDER BY y) FROM t WINDOW w AS (PARTITION BY g)",
			"rank() p:g o:y [OVER (w ORDER BY y)]"},
		{"SELECT x FROM t WHERE x > 1 QUALIFY row_number() OVER (ORDER BY x) = 1 ORDER BY x",
			"qualify row_number() = 1"},
		{"SELECT sum(x) FILTER (WHERE x > 1) OVER () FROM t", "sum(x) [OVER ()]"},
		{"SELECT sum(range) OVER (PARTITION BY rows ORDER BY range DESC) FROM t",
			"sum(`range`) p:rows o:`range` desc [OVER (PARTITION BY rows ORDER BY range DESC)]"},
	}
	for _, tc := range tests {
		st, err := Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		got := windowsOf(st.(*Select))
		got = strings.ReplaceAll(got, windowQualifier+".", "")
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestWindowParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		kind error
		col  int
	}{
		{"SELECT x OVER () FROM t", ErrSyntax, 10},
		{"SELECT rank() OVER w FROM t", ErrSyntax, 20},
		{"SELECT rank() OVER (ORDER BY x GROUPS 1 PRECEDING) FROM t", ErrUnsupported, 32},
		{"SELECT rank() OVER (ORDER BY x ROWS 1) FROM t", ErrSyntax, 37},
		{"SELECT rank() OVER (foo) FROM t", ErrSyntax, 21},
	}
	for _, tc := range tests {
		_, err := Parse(tc.in)
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, tc.kind) || pe.Column != tc.col {
			t.Errorf("%s: got %v, want %v at column %d", tc.in, err, tc.kind, tc.col)
		}
	}
}
