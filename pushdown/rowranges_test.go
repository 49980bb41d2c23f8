package pushdown

import "testing"

func rr(pairs ...int64) RowRanges {
	var out RowRanges
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, RowRange{pairs[i], pairs[i+1]})
	}
	return out
}

func TestNewRowRanges(t *testing.T) {
	tests := []struct {
		name string
		in   []RowRange
		want RowRanges
	}{
		{"empty", nil, nil},
		{"drops empty intervals", []RowRange{{5, 5}, {7, 3}}, nil},
		{"sorts", []RowRange{{10, 20}, {0, 5}}, rr(0, 5, 10, 20)},
		{"merges overlapping", []RowRange{{0, 10}, {5, 15}}, rr(0, 15)},
		{"merges adjacent", []RowRange{{0, 10}, {10, 20}}, rr(0, 20)},
		{"swallows contained", []RowRange{{0, 100}, {10, 20}, {30, 40}}, rr(0, 100)},
		{"keeps gaps", []RowRange{{0, 1}, {2, 3}}, rr(0, 1, 2, 3)},
	}
	for _, tt := range tests {
		if got := NewRowRanges(tt.in...); !got.Equal(tt.want) {
			t.Errorf("%s: NewRowRanges(%v) = %v, want %v", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestRowRangesSetOps(t *testing.T) {
	tests := []struct {
		a, b         RowRanges
		and, or      RowRanges
		name         string
		countA       int64
		containsA    []int64
		notContainsA []int64
	}{
		{name: "disjoint", a: rr(0, 10), b: rr(20, 30), and: nil, or: rr(0, 10, 20, 30), countA: 10,
			containsA: []int64{0, 9}, notContainsA: []int64{10, 20, -1}},
		{name: "overlap", a: rr(0, 10), b: rr(5, 15), and: rr(5, 10), or: rr(0, 15), countA: 10},
		{name: "adjacent unite", a: rr(0, 10), b: rr(10, 20), and: nil, or: rr(0, 20), countA: 10},
		{name: "many", a: rr(0, 250, 500, 750, 1000, 1250), b: rr(200, 600, 1200, 1300),
			and: rr(200, 250, 500, 600, 1200, 1250), or: rr(0, 750, 1000, 1300), countA: 750,
			containsA: []int64{0, 249, 500, 1249}, notContainsA: []int64{250, 499, 750, 999, 1250}},
		{name: "empty side", a: nil, b: rr(3, 4), and: nil, or: rr(3, 4), countA: 0, notContainsA: []int64{3}},
	}
	for _, tt := range tests {
		if got := tt.a.Intersect(tt.b); !got.Equal(tt.and) {
			t.Errorf("%s: %v AND %v = %v, want %v", tt.name, tt.a, tt.b, got, tt.and)
		}
		if got := tt.b.Intersect(tt.a); !got.Equal(tt.and) {
			t.Errorf("%s: %v AND %v = %v, want %v", tt.name, tt.b, tt.a, got, tt.and)
		}
		if got := tt.a.Union(tt.b); !got.Equal(tt.or) {
			t.Errorf("%s: %v OR %v = %v, want %v", tt.name, tt.a, tt.b, got, tt.or)
		}
		if got := tt.a.Count(); got != tt.countA {
			t.Errorf("%s: Count(%v) = %d, want %d", tt.name, tt.a, got, tt.countA)
		}
		for _, r := range tt.containsA {
			if !tt.a.Contains(r) {
				t.Errorf("%s: %v does not contain %d", tt.name, tt.a, r)
			}
		}
		for _, r := range tt.notContainsA {
			if tt.a.Contains(r) {
				t.Errorf("%s: %v contains %d", tt.name, tt.a, r)
			}
		}
	}
}

func TestRowRangesOverlapsCovers(t *testing.T) {
	a := rr(10, 20, 30, 40)
	for _, tt := range []struct {
		first, end int64
		want       bool
	}{{0, 10, false}, {0, 11, true}, {19, 30, true}, {20, 30, false}, {39, 50, true}, {40, 50, false}, {15, 16, true}} {
		if got := a.Overlaps(tt.first, tt.end); got != tt.want {
			t.Errorf("%v.Overlaps(%d, %d) = %v, want %v", a, tt.first, tt.end, got, tt.want)
		}
	}
	if !AllRows(100).Covers(100) || rr(0, 99).Covers(100) || a.Covers(40) || !RowRanges(nil).Covers(0) {
		t.Errorf("Covers is wrong")
	}
	if AllRows(0) != nil || AllRows(5).String() != "[0, 5)" || RowRanges(nil).String() != "none" {
		t.Errorf("AllRows/String: %v %q", AllRows(0), AllRows(5).String())
	}
}
