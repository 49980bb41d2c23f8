package planner

import (
	"math"
	"testing"
)

func TestSeriesLen(t *testing.T) {
	tests := []struct {
		s    Series
		want int64
	}{
		{Series{0, 3, 1, false}, 3},
		{Series{0, 3, 1, true}, 4},
		{Series{0, 0, 1, false}, 0},
		{Series{0, 0, 1, true}, 1},
		{Series{-10, 10, 3, false}, 7},
		{Series{-10, 11, 3, true}, 8},
		{Series{5, 1, -2, true}, 3},
		{Series{5, 1, -2, false}, 2},
		{Series{1, 5, -1, false}, 0},
		{Series{math.MinInt64, math.MaxInt64, math.MaxInt64, true}, 3},
		{Series{math.MaxInt64, math.MinInt64, math.MinInt64, false}, 2},
	}
	for _, tc := range tests {
		if got := tc.s.Len(); got != tc.want {
			t.Errorf("%+v: Len() = %d, want %d", tc.s, got, tc.want)
		}
	}
}
