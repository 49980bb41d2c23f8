package exec

import (
	"slices"
	"testing"
)

// A VARCHAR join table pairs a probe key with every build row holding it,
// in build order, and never with a NULL; an absent key pairs with nothing.
func TestStrJoinTableMatches(t *testing.T) {
	v := &Vector{Type: Type{ID: TypeVarchar}, Str: []string{"Oslo", "", "Oslo", "Paris", "", "Oslo"}, Nulls: []bool{false, false, false, false, true, false}}
	tab := newStrJoinTable(v)
	for _, c := range []struct {
		key  string
		want []int32
	}{
		{"Oslo", []int32{0, 2, 5}},
		{"", []int32{1}},
		{"Paris", []int32{3}},
		{"Łódź", nil},
	} {
		probe, build := tab.appendMatches(nil, nil, 7, c.key)
		if !slices.Equal(build, c.want) || len(probe) != len(build) {
			t.Errorf("%q: build rows %v (probe rows %v), want %v", c.key, build, probe, c.want)
		}
		for _, p := range probe {
			if p != 7 {
				t.Errorf("%q: probe row %d, want 7", c.key, p)
			}
		}
	}
}
