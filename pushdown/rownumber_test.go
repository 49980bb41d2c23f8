package pushdown

import (
	"math"
	"testing"
)

func TestRowNumberRows(t *testing.T) {
	// A row group of 100 rows at positions [1000, 1100).
	const start, n = 1000, 100
	tests := []struct {
		op   Op
		v    int64
		want RowRanges
	}{
		{Eq, 1000, RowRanges{{0, 1}}},
		{Eq, 1099, RowRanges{{99, 100}}},
		{Eq, 1100, nil},
		{Eq, 999, nil},
		{Ne, 1050, RowRanges{{0, 50}, {51, 100}}},
		{Ne, 5, RowRanges{{0, 100}}},
		{Lt, 1000, nil},
		{Lt, 1001, RowRanges{{0, 1}}},
		{Le, 1099, RowRanges{{0, 100}}},
		{Le, 999, nil},
		{Gt, 1098, RowRanges{{99, 100}}},
		{Gt, 1099, nil},
		{Ge, 1100, nil},
		{Ge, 1010, RowRanges{{10, 100}}},
		// Bounds at the ends of BIGINT must not wrap.
		{Gt, math.MinInt64, RowRanges{{0, 100}}},
		{Ge, math.MinInt64, RowRanges{{0, 100}}},
		{Lt, math.MinInt64, nil},
		{Le, math.MaxInt64, RowRanges{{0, 100}}},
		{Lt, math.MaxInt64, RowRanges{{0, 100}}},
		{Gt, math.MaxInt64, nil},
		{Eq, math.MaxInt64, nil},
		{Ne, math.MaxInt64, RowRanges{{0, 100}}},
		{Ne, math.MinInt64, RowRanges{{0, 100}}},
	}
	for _, tc := range tests {
		r := &RowNumber{Op: tc.op, Value: tc.v}
		if got := r.rows(start, n); !got.Equal(tc.want) {
			t.Errorf("%s: rows %v, want %v", r, got, tc.want)
		}
	}
}

func TestRowNumberTruthAndNegation(t *testing.T) {
	// Every position of the row group against every bound near it: the
	// leaf's rows are exactly the positions that satisfy it, and its
	// negation (as Resolve builds it) the others.
	const start, n = 40, 10
	for _, op := range []Op{Eq, Ne, Lt, Le, Gt, Ge} {
		for v := int64(35); v <= 55; v++ {
			r := &RowNumber{Op: op, Value: v}
			neg, _, err := resolve(nil, &Not{X: r})
			if err != nil {
				t.Fatalf("%s: %v", r, err)
			}
			rows, negRows := r.rows(start, n), neg.(*RowNumber).rows(start, n)
			for i := int64(0); i < n; i++ {
				pos := start + i
				var holds bool
				switch op {
				case Eq:
					holds = pos == v
				case Ne:
					holds = pos != v
				case Lt:
					holds = pos < v
				case Le:
					holds = pos <= v
				case Gt:
					holds = pos > v
				case Ge:
					holds = pos >= v
				}
				if rows.Contains(i) != holds || negRows.Contains(i) == holds {
					t.Errorf("%s at position %d: rows %v, negated %v", r, pos, rows, negRows)
				}
			}
			want := Unknown
			switch rows.Count() {
			case 0:
				want = False
			case n:
				want = True
			}
			if got := r.truth(start, n); got != want {
				t.Errorf("%s: truth %s, want %s", r, got, want)
			}
		}
	}
}
