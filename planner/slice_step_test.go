package planner

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/pqsql/pqsql/format"
)

func TestStepSlice(t *testing.T) {
	l := format.List{int64(1), int64(2), int64(3), int64(4), int64(5)}
	tests := []struct {
		begin, end, step int64
		want             string
	}{
		{1, 4, 2, "[1 3]"},
		{5, 1, -1, "[5 4 3 2 1]"},
		{2, -1, 3, "[2 5]"},
		{-1, -5, -2, "[5 3 1]"},
		{1, 5, -1, "[]"},
		{0, 2, 1, "[1 2]"},
		{-9, -7, 1, "[]"},
		{9, 1, -1, "[5 4 3 2 1]"},
		{5, -10, -3, "[5 2]"},
		{1, 5, math.MaxInt64, "[1]"},
		{5, 1, math.MinInt64, "[5]"},
		{math.MinInt64, math.MaxInt64, 2, "[1 3 5]"},
		{math.MaxInt64, math.MinInt64, -2, "[5 3 1]"},
	}
	for _, tc := range tests {
		got, err := stepSlice(l, tc.begin, tc.end, tc.step)
		if err != nil {
			t.Fatalf("[%d:%d:%d]: %v", tc.begin, tc.end, tc.step, err)
		}
		if s := fmt.Sprint([]format.Value(got)); s != tc.want {
			t.Errorf("[%d:%d:%d] = %s, want %s", tc.begin, tc.end, tc.step, s, tc.want)
		}
	}
	if _, err := stepSlice(l, 1, 2, 0); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("step 0: %v, want an Invalid Input error", err)
	}
}
