package sql

import (
	"errors"
	"testing"

	"github.com/xwb1989/sqlparser"
)

func TestNaturalJoinKinds(t *testing.T) {
	tests := []struct {
		in    string
		joins []string // the JoinTableExpr.Join values, outermost first
	}{
		{"SELECT * FROM a NATURAL FULL JOIN b", []string{NaturalFullJoinStr}},
		{"SELECT * FROM a NATURAL FULL OUTER JOIN b AS x WHERE k > 1", []string{NaturalFullJoinStr}},
		{"SELECT * FROM a natural full join (SELECT * FROM c) x JOIN d ON x.k = d.k", []string{sqlparser.JoinStr, NaturalFullJoinStr}},
		{"SELECT * FROM a NATURAL FULL JOIN b NATURAL FULL JOIN c", []string{NaturalFullJoinStr, NaturalFullJoinStr}},
		{"SELECT * FROM a JOIN (b NATURAL FULL JOIN c) ON a.k = b.k", []string{sqlparser.JoinStr, NaturalFullJoinStr}},
		{"SELECT * FROM a NATURAL FULL JOIN b, c", []string{NaturalFullJoinStr}},
		{"SELECT * FROM a NATURAL INNER JOIN b", []string{sqlparser.NaturalJoinStr}},
		{"SELECT * FROM a NATURAL LEFT OUTER JOIN b", []string{sqlparser.NaturalLeftJoinStr}},
		{"SELECT * FROM a FULL JOIN b USING (k) NATURAL FULL JOIN c", []string{NaturalFullJoinStr, FullJoinStr}},
	}
	for _, tc := range tests {
		st, err := Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		var got []string
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if j, ok := n.(*sqlparser.JoinTableExpr); ok {
				got = append(got, j.Join)
				if j.Join == NaturalFullJoinStr && (j.Condition.On != nil || len(j.Condition.Using) > 0) {
					t.Errorf("%s: NATURAL FULL JOIN with a condition", tc.in)
				}
			}
			return true, nil
		}, st.(*Select).raw.AST)
		if len(got) != len(tc.joins) {
			t.Errorf("%s: joins %q, want %q", tc.in, got, tc.joins)
			continue
		}
		for i := range got {
			if got[i] != tc.joins[i] {
				t.Errorf("%s: joins %q, want %q", tc.in, got, tc.joins)
			}
		}
	}
}

// A NATURAL join takes no condition, and its right side is required.
func TestNaturalFullJoinInvalid(t *testing.T) {
	for _, in := range []string{
		"SELECT * FROM a NATURAL FULL JOIN b ON a.k = b.k",
		"SELECT * FROM a NATURAL FULL JOIN b USING (k)",
		"SELECT * FROM a NATURAL FULL JOIN",
		"SELECT * FROM a NATURAL FULL b",
	} {
		if _, err := Parse(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: %v, want a syntax error", in, err)
		}
	}
}
