package pushdown

import (
	"math/big"
	"testing"
)

// The Prover's verdicts on the statistics fixture, whose three row groups
// hold order_id 1-4, 5-8 and 9-12 with no NULLs: TRUE for every row, FALSE
// for every row, or unknown, and AND/OR combine them in three-valued logic.
func TestProverRowGroups(t *testing.T) {
	f := openFixture(t, "statistics.parquet")
	id := Column{Path: "order_id"}
	n := func(v int64) Literal { return BigIntLiteral(big.NewInt(v)) }
	cases := []struct {
		name string
		e    Expr
		want [3]Truth
	}{
		{"order_id <= 4", &Compare{Col: id, Op: Le, Lit: n(4)}, [3]Truth{True, False, False}},
		{"order_id < 3", &Compare{Col: id, Op: Lt, Lit: n(3)}, [3]Truth{Unknown, False, False}},
		{"order_id > 4", &Compare{Col: id, Op: Gt, Lit: n(4)}, [3]Truth{False, True, True}},
		{"order_id <> 6", &Compare{Col: id, Op: Ne, Lit: n(6)}, [3]Truth{True, Unknown, True}},
		{"order_id = 6", &Compare{Col: id, Op: Eq, Lit: n(6)}, [3]Truth{False, Unknown, False}},
		{"order_id IS NOT NULL", &IsNull{Col: id, Not: true}, [3]Truth{True, True, True}},
		{"order_id IS NULL", &IsNull{Col: id}, [3]Truth{False, False, False}},
		{"order_id NOT IN (20, 30)", &InList{Col: id, List: []Literal{n(20), n(30)}, Not: true}, [3]Truth{True, True, True}},
		{"order_id NOT IN (2, NULL)", &InList{Col: id, List: []Literal{n(2), NullLiteral()}, Not: true}, [3]Truth{False, False, False}},
		{"order_id BETWEEN 5 AND 12", &Between{Col: id, Low: n(5), High: n(12)}, [3]Truth{False, True, True}},
		{"order_id <= 4 OR order_id = 6", &Or{Xs: []Expr{&Compare{Col: id, Op: Le, Lit: n(4)}, &Compare{Col: id, Op: Eq, Lit: n(6)}}}, [3]Truth{True, Unknown, False}},
		{"order_id > 4 AND order_id < 7", &And{Xs: []Expr{&Compare{Col: id, Op: Gt, Lit: n(4)}, &Compare{Col: id, Op: Lt, Lit: n(7)}}}, [3]Truth{False, Unknown, False}},
	}
	p := NewProver(f)
	for _, c := range cases {
		r, _, err := Resolve(f.Schema, c.e)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for rg, want := range c.want {
			if got := p.RowGroup(r, rg); got != want {
				t.Errorf("%s, row group %d: %v, want %v", c.name, rg, got, want)
			}
		}
	}
}
