package sql

import (
	"testing"

	"github.com/xwb1989/sqlparser"
)

func TestFullJoinUsing(t *testing.T) {
	tests := []struct {
		in    string
		using []string // the FULL join's USING list; nil when it has ON
	}{
		{"SELECT * FROM a FULL JOIN b USING (k)", []string{"k"}},
		{"SELECT * FROM a FULL OUTER JOIN b USING (k1, \"K 2\") WHERE k1 > 1", []string{"k1", "K 2"}},
		{"SELECT * FROM a FULL JOIN b ON a.k = b.k JOIN c USING (k)", nil},
		{"SELECT * FROM (SELECT * FROM a FULL JOIN b USING (x)) s JOIN c USING (y)", []string{"x"}},
	}
	for _, tc := range tests {
		st, err := Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		var got []string
		found := false
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if j, ok := n.(*sqlparser.JoinTableExpr); ok && j.Join == FullJoinStr {
				found = true
				if j.Condition.On != nil && len(j.Condition.Using) > 0 {
					t.Errorf("%s: both ON and USING", tc.in)
				}
				for _, c := range j.Condition.Using {
					got = append(got, c.String())
				}
			}
			return true, nil
		}, st.(*Select).raw.AST)
		if !found || len(got) != len(tc.using) {
			t.Errorf("%s: USING %v, want %v", tc.in, got, tc.using)
			continue
		}
		for i := range got {
			if got[i] != tc.using[i] {
				t.Errorf("%s: USING %v, want %v", tc.in, got, tc.using)
			}
		}
	}
}
