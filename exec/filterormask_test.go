package exec

import (
	"fmt"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// An OR of one-pass conditions picks from its mask the rows its three-valued
// truths keep: comparisons and BETWEEN of integer columns, conditions judged
// by dictionary (whose truths hold NULL as well), an OR nested in it. An
// OR with an AND in it, or over a column with NULL, is left to the general
// evaluation, which apply then uses.
func TestOrMaskPicksWhatTruthsKeep(t *testing.T) {
	bigint := Type{ID: TypeBigInt}
	boolean := Type{ID: TypeBoolean}
	a := &planner.ColRef{Index: 0, Name: "a", T: bigint}
	c := &planner.ColRef{Index: 1, Name: "c", T: bigint}
	k := func(i int64) planner.Expr { return &planner.Const{Value: planner.Datum{I: i}, T: bigint} }
	cmp := func(op string, x planner.Expr, i int64) planner.Expr {
		return &planner.Binary{Op: op, L: x, R: k(i), T: boolean}
	}
	or := func(xs ...planner.Expr) planner.Expr { return &planner.Logic{And: false, Xs: xs} }
	and := func(xs ...planner.Expr) planner.Expr { return &planner.Logic{And: true, Xs: xs} }
	judged := &judgedExpr{slot: 0, x: cmp("=", &planner.ColRef{Index: 2, Name: "j", T: bigint}, 0)}
	cases := []struct {
		e      planner.Expr
		masked bool
	}{
		{or(cmp("<", a, -2), judged), true},
		{or(judged, cmp(">=", c, 3)), true},
		{or(cmp("=", a, 0), &planner.Between{X: c, Lo: k(-1), Hi: k(2), Not: true}), true},
		{or(cmp("!=", a, 1), or(cmp("<=", c, -4), judged)), true},
		{or(cmp(">", a, 2), cmp("<", c, -3), judged), true},
		{or(cmp("<", a, 0), and(cmp(">", c, 0), judged)), false},
		{and(cmp("<", a, 0), judged), false},
	}
	for _, tc := range cases {
		f := newFilter(tc.e, 2)
		for _, nulls := range []bool{false, true} {
			x, y := newVector(bigint, 32), newVector(bigint, 32)
			truth := make([]uint8, 0, 32)
			for i := int64(0); i < 32; i++ {
				if nulls && i%5 == 0 {
					x.appendNull()
				} else {
					x.Int = append(x.Int, i*i%13-6)
					x.markNotNull()
				}
				if nulls && i%7 == 3 {
					y.appendNull()
				} else {
					y.Int = append(y.Int, i*7%11-5)
					y.markNotNull()
				}
				truth = append(truth, []uint8{tFalse, tTrue, tNull}[i%3])
			}
			b := &batch{cols: []*Vector{x, y}, n: x.Len(), truths: [][]uint8{truth}}
			want := rowsEvalCallsTrue(t, f, b)
			s, isSelector := f.root.(selector)
			var got []int32
			picked := false
			if isSelector {
				got, picked = s.selectAll(b, make([]int32, b.n))
			}
			if picked != (tc.masked && !nulls) {
				t.Errorf("%s, NULLs %v: picked from a mask %v", tc.e, nulls, picked)
			}
			if picked && fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, NULLs %v: the mask kept %v, want %v", tc.e, nulls, got, want)
			}
			if all, err := f.apply(b); err != nil || fmt.Sprint(all) != fmt.Sprint(want) {
				t.Errorf("%s, NULLs %v: apply kept %v (%v), want %v", tc.e, nulls, all, err, want)
			}
		}
	}
}
