package exec

import (
	"fmt"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// BETWEEN of an integer column and two constants is judged in one pass, and
// agrees with the two comparisons it stands for, negated or not, on every
// value around and between the bounds; a column with NULL takes the general
// path and gets NULL for its NULL rows.
func TestBetweenOfIntsInOnePass(t *testing.T) {
	bigint := Type{ID: TypeBigInt}
	col := &planner.ColRef{Index: 0, Name: "a", T: bigint}
	k := func(i int64) planner.Expr { return &planner.Const{Value: planner.Datum{I: i}, T: bigint} }
	for _, not := range []bool{false, true} {
		for _, bounds := range [][2]int64{{-3, 4}, {5, 5}, {6, 2}} {
			n, ok := compile(&planner.Between{X: col, Lo: k(bounds[0]), Hi: k(bounds[1]), Not: not}, 1).(*betweenNode)
			if !ok || n.ints == nil {
				t.Fatalf("BETWEEN %v compiled to %T without its one-pass kernel", bounds, n)
			}
			general := &betweenNode{lo: n.lo, hi: n.hi, not: not}
			for _, nulls := range []bool{false, true} {
				v := newVector(bigint, 16)
				for x := int64(-8); x < 8; x++ {
					if nulls && x%3 == 0 {
						v.appendNull()
						continue
					}
					v.Int = append(v.Int, x)
					v.markNotNull()
				}
				b := &batch{cols: []*Vector{v}, n: v.Len()}
				sel := allRows(b.n)
				got, want := make([]uint8, b.n), make([]uint8, b.n)
				if err := n.eval(b, sel, got); err != nil {
					t.Fatal(err)
				}
				if err := general.eval(b, sel, want); err != nil {
					t.Fatal(err)
				}
				for i := range got {
					x := int64(i) - 8
					in := x >= bounds[0] && x <= bounds[1]
					w := b2t(in != not)
					if v.IsNull(i) {
						w = tNull
					}
					if got[i] != w || want[i] != w {
						t.Errorf("NOT=%v %v, nulls %v, row %d: one pass %d, general %d, want %d", not, bounds, nulls, x, got[i], want[i], w)
					}
				}
			}
		}
	}
}

// A comparison or BETWEEN of an integer column without NULL and constants
// picks a batch's rows in one pass, the same rows the truths of the general
// evaluation keep, for every operator; a column with NULL, or a constant
// NULL, is left to the general evaluation.
func TestIntSelectorsPickWhatTruthsKeep(t *testing.T) {
	bigint := Type{ID: TypeBigInt}
	col := &planner.ColRef{Index: 0, Name: "a", T: bigint}
	k := func(i int64) planner.Expr { return &planner.Const{Value: planner.Datum{I: i}, T: bigint} }
	null := &planner.Const{Value: planner.Datum{Null: true}, T: bigint}
	var exprs []planner.Expr
	for _, op := range []string{"=", "!=", "<", "<=", ">", ">="} {
		exprs = append(exprs, &planner.Binary{Op: op, L: col, R: k(0), T: Type{ID: TypeBoolean}},
			&planner.Binary{Op: op, L: k(-1), R: col, T: Type{ID: TypeBoolean}})
	}
	for _, not := range []bool{false, true} {
		exprs = append(exprs, &planner.Between{X: col, Lo: k(-3), Hi: k(4), Not: not})
	}
	for _, e := range exprs {
		f := newFilter(e, 1)
		s, ok := f.root.(selector)
		if !ok {
			t.Fatalf("%s compiled to %T, not a selector", e, f.root)
		}
		for _, nulls := range []bool{false, true} {
			v := newVector(bigint, 16)
			for x := int64(-8); x < 8; x++ {
				if nulls && x%3 == 0 {
					v.appendNull()
					continue
				}
				v.Int = append(v.Int, x*x%11-5)
				v.markNotNull()
			}
			b := &batch{cols: []*Vector{v}, n: v.Len()}
			got, picked := s.selectAll(b, make([]int32, b.n))
			if picked == nulls {
				t.Errorf("%s, NULLs %v: picked in one pass %v", e, nulls, picked)
			}
			want := rowsEvalCallsTrue(t, f, b)
			if all, err := f.apply(b); err != nil || fmt.Sprint(all) != fmt.Sprint(want) {
				t.Errorf("%s, NULLs %v: apply kept %v (%v), want %v", e, nulls, all, err, want)
			}
			if picked && fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: one pass kept %v, want %v", e, got, want)
			}
		}
	}
	nullCmp := newFilter(&planner.Binary{Op: "=", L: col, R: null, T: Type{ID: TypeBoolean}}, 1)
	if s, ok := nullCmp.root.(selector); ok {
		v := &Vector{Type: bigint, Int: []int64{1, 2}}
		if _, picked := s.selectAll(&batch{cols: []*Vector{v}, n: 2}, make([]int32, 2)); picked {
			t.Errorf("a = NULL picked rows in one pass")
		}
	}
}

// rowsEvalCallsTrue is the rows of b the row-at-a-time evaluation of f's
// condition finds TRUE: what a one-pass selection must pick.
func rowsEvalCallsTrue(t *testing.T, f *filter, b *batch) []int32 {
	t.Helper()
	truths := make([]uint8, b.n)
	if err := f.root.eval(b, allRows(b.n), truths); err != nil {
		t.Fatal(err)
	}
	var want []int32
	for i, r := range truths {
		if r == tTrue {
			want = append(want, int32(i))
		}
	}
	return want
}
