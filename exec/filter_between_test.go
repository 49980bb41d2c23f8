package exec

import (
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
