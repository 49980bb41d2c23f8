package sql

import (
	"errors"
	"fmt"
	"testing"

	"github.com/xwb1989/sqlparser"
)

func TestGroupingSets(t *testing.T) {
	tests := []struct{ in, keys, sets string }{
		{"SELECT 1 FROM t GROUP BY a, b", "a, b", "[]"},
		{"SELECT 1 FROM t GROUP BY ROLLUP(a, b)", "a, b", "[[] [0] [0 1]]"},
		{"SELECT 1 FROM t GROUP BY CUBE(a, b)", "a, b", "[[] [0] [0 1] [1]]"},
		{"SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), (a), ())", "a, b", "[[0 1] [0] []]"},
		{"SELECT 1 FROM t GROUP BY GROUPING SETS (a, b)", "a, b", "[[0] [1]]"},
		{"SELECT 1 FROM t GROUP BY a, ROLLUP(b, c)", "a, b, c", "[[0] [0 1] [0 1 2]]"},
		{"SELECT 1 FROM t GROUP BY a, ROLLUP(a, b)", "a, b", "[[0] [0] [0 1]]"},
		{"SELECT 1 FROM t GROUP BY ROLLUP((a, b), c)", "a, b, c", "[[] [0 1] [0 1 2]]"},
		{"SELECT 1 FROM t GROUP BY GROUPING SETS (ROLLUP(a), (a, b)), CUBE(b)", "a, b", "[[] [1] [0] [0 1] [0 1] [0 1]]"},
		{"SELECT 1 FROM t GROUP BY ()", "", "[[]]"},
		{"SELECT 1 FROM t GROUP BY ROLLUP(a),", "a", "[[] [0]]"},
		{"SELECT 1 FROM t GROUP BY ROLLUP(((a)), (SELECT 1))", "a, (select 1 from dual)", "[[] [0] [0 1]]"},
		{"SELECT 1 FROM t GROUP BY (a, b)", "a, b", "[[0 1]]"},
		{"SELECT 1 FROM t GROUP BY rollup", "rollup", "[]"},
		{"SELECT 1 FROM (SELECT a FROM t GROUP BY CUBE(a)) GROUP BY ROLLUP(a)", "a", "[[] [0]]"},
	}
	for _, tt := range tests {
		st, err := Parse(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		s := st.(*Select)
		n := s.raw.AST.(*sqlparser.Select)
		keys := sqlparser.String(n.GroupBy)
		if len(keys) > 0 {
			keys = keys[len(" group by "):]
		}
		if sets := fmt.Sprint(s.raw.GroupingSetsOf(n)); keys != tt.keys || sets != tt.sets {
			t.Errorf("%s: keys %q sets %s, want %q %s", tt.in, keys, sets, tt.keys, tt.sets)
		}
	}
}

func TestGroupingSetsInvalid(t *testing.T) {
	tests := []struct {
		in   string
		kind error
		col  int
	}{
		{"SELECT 1 FROM t GROUP BY ROLLUP()", ErrSyntax, 33},
		{"SELECT 1 FROM t GROUP BY CUBE(a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p)", ErrSyntax, 26},
		{"SELECT 1 FROM t GROUP BY GROUPING SETS a", ErrSyntax, 40},
		{"SELECT 1 FROM t GROUP BY ROLLUP(a), , b", ErrSyntax, 37},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, tt.kind) || pe.Column != tt.col {
			t.Errorf("%s: error %v, want %v at column %d", tt.in, err, tt.kind, tt.col)
		}
	}
}
