package optimizer

import (
	"errors"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// Materialize puts each subquery's result in its place with SQL's rules:
// a scalar without rows is NULL and with two is an error, EXISTS is
// whether there is a row, and IN over no rows is FALSE (NOT IN TRUE)
// whatever its operand, while an IN list keeps one NULL.
func TestMaterialize(t *testing.T) {
	bigint := planner.Type{ID: planner.TypeBigInt}
	col := &planner.ColRef{Index: 0, Name: "x", T: bigint}
	sub := func() *planner.Plan {
		return &planner.Plan{Limit: -1, Columns: []planner.Column{{Name: "v", Type: bigint}}}
	}
	rows := func(vs ...any) [][]planner.Datum {
		var out [][]planner.Datum
		for _, v := range vs {
			if v == nil {
				out = append(out, []planner.Datum{planner.NullDatum})
				continue
			}
			out = append(out, []planner.Datum{{I: int64(v.(int))}})
		}
		return out
	}
	cases := []struct {
		name string
		e    *planner.Subquery
		rows [][]planner.Datum
		want string
		err  error
	}{
		{"scalar, no row", &planner.Subquery{Kind: planner.ScalarSubquery, Plan: sub(), T: bigint}, nil, "NULL", nil},
		{"scalar, one row", &planner.Subquery{Kind: planner.ScalarSubquery, Plan: sub(), T: bigint}, rows(7), "7", nil},
		{"scalar, two rows", &planner.Subquery{Kind: planner.ScalarSubquery, Plan: sub(), T: bigint}, rows(7, 8), "", ErrSubqueryRows},
		{"exists, no row", &planner.Subquery{Kind: planner.ExistsSubquery, Plan: sub()}, nil, "false", nil},
		{"exists, a row", &planner.Subquery{Kind: planner.ExistsSubquery, Plan: sub()}, rows(nil), "true", nil},
		{"in, no row", &planner.Subquery{Kind: planner.InSubquery, Plan: sub(), X: col}, nil, "false", nil},
		{"not in, no row", &planner.Subquery{Kind: planner.InSubquery, Plan: sub(), X: col, Not: true}, nil, "true", nil},
		{"in, duplicates and NULLs", &planner.Subquery{Kind: planner.InSubquery, Plan: sub(), X: col}, rows(3, nil, 3, 1, nil), "(x IN (3, NULL, 1))", nil},
		{"not in", &planner.Subquery{Kind: planner.InSubquery, Plan: sub(), X: col, Not: true}, rows(2), "(x NOT IN (2))", nil},
	}
	for _, c := range cases {
		p := &planner.Plan{Scan: &planner.Scan{}, Limit: -1, Where: c.e}
		var ran *planner.Plan
		run := func(sp *planner.Plan) ([][]planner.Datum, error) {
			ran = sp
			return c.rows, nil
		}
		got, err := Materialize(p, run, run)
		switch {
		case c.err != nil:
			if !errors.Is(err, c.err) {
				t.Errorf("%s: error %v, want %v", c.name, err, c.err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s := got.Where.String(); s != c.want {
			t.Errorf("%s: %s, want %s", c.name, s, c.want)
		}
		if c.e.Kind == planner.ExistsSubquery && ran.Limit != 1 {
			t.Errorf("%s: the subquery ran with LIMIT %d, want 1", c.name, ran.Limit)
		}
	}
}
