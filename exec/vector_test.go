package exec

import (
	"math/big"
	"reflect"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// repeat makes the vector a selection of n zeros makes, for NULL and
// non-NULL constants of every storage kind.
func TestRepeatEqualsTake(t *testing.T) {
	cases := []struct {
		t Type
		d planner.Datum
	}{
		{Type{ID: TypeBigInt}, planner.Datum{I: 7}},
		{Type{ID: TypeBigInt}, planner.Datum{I: 0}},
		{Type{ID: TypeDouble}, planner.Datum{F: -0.5}},
		{Type{ID: TypeBoolean}, planner.Datum{B: true}},
		{Type{ID: TypeVarchar}, planner.Datum{S: "x"}},
		{Type{ID: TypeVarchar}, planner.Datum{S: ""}},
		{Type{ID: TypeBlob}, planner.Datum{S: "ab"}},
		{Type{ID: TypeHugeInt}, planner.Datum{Big: big.NewInt(12)}},
	}
	for _, c := range cases {
		for _, d := range []planner.Datum{c.d, planner.NullDatum} {
			one := newResultVector(c.t, 1)
			one.appendDatum(d)
			for _, n := range []int{0, 1, 5} {
				want := one.take(make([]int32, n))
				got := one.repeat(n)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%v %+v n=%d: repeat %+v, take %+v", c.t.ID, d, n, got, want)
				}
			}
		}
	}
}

// appendNulls leaves a vector as that many appendNull calls do, on fresh
// vectors and on ones grown over old values.
func TestAppendNulls(t *testing.T) {
	for _, typ := range []Type{{ID: TypeBigInt}, {ID: TypeDouble}, {ID: TypeBoolean}, {ID: TypeVarchar}, {ID: TypeBlob}, {ID: TypeHugeInt}} {
		for _, k := range []int{0, 1, 2, 7} {
			want, got := newResultVector(typ, 1), newResultVector(typ, 1)
			for _, v := range []*Vector{want, got} {
				v.appendDatum(planner.Datum{I: 3, F: 3, B: true, S: "s", Big: big.NewInt(3)})
			}
			for range k {
				want.appendNull()
			}
			got.appendNulls(k)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%v k=%d: appendNulls %+v, appendNull %+v", typ.ID, k, got, want)
			}
		}
	}
}
