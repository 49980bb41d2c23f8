package exec

import (
	"context"
	"strings"
	"testing"
)

// sampleRows runs a query and returns its first column's values.
func sampleRows(t *testing.T, query string) []string {
	t.Helper()
	res, err := NewSession().Execute(context.Background(), query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if err := res.Wait(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	out := make([]string, res.NumRows())
	for i := range out {
		out[i], _ = res.Cell(i, 0)
	}
	return out
}

// TestSampleRepeatable checks that REPEATABLE (and a method's seed) gives
// the same sample on every run, of the size asked for, and that another
// seed gives another sample.
func TestSampleRepeatable(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const from = "SELECT order_id FROM 'fixtures/orders_shuffled.parquet' "
	tests := []struct {
		clause, other string
		size          int // -1: random
	}{
		{"USING SAMPLE 300 ROWS REPEATABLE (42)", "USING SAMPLE 300 ROWS REPEATABLE (43)", 300},
		{"USING SAMPLE reservoir(1%) REPEATABLE (7)", "USING SAMPLE reservoir(1%) REPEATABLE (8)", 200},
		{"USING SAMPLE 2 PERCENT (bernoulli, 11)", "USING SAMPLE 2 PERCENT (bernoulli, 12)", -1},
		{"USING SAMPLE 40% (system) REPEATABLE (5)", "USING SAMPLE 40% (system) REPEATABLE (6)", -1},
	}
	for _, tc := range tests {
		first := sampleRows(t, from+tc.clause)
		again := sampleRows(t, from+tc.clause)
		other := sampleRows(t, from+tc.other)
		if strings.Join(first, ",") != strings.Join(again, ",") {
			t.Errorf("%s: two runs differ: %d and %d rows", tc.clause, len(first), len(again))
		}
		if strings.Join(first, ",") == strings.Join(other, ",") {
			t.Errorf("%s and %s: the same %d rows", tc.clause, tc.other, len(first))
		}
		if tc.size >= 0 && len(first) != tc.size {
			t.Errorf("%s: %d rows, want %d", tc.clause, len(first), tc.size)
		}
		if len(first) == 0 || len(first) == 20000 {
			t.Errorf("%s: %d rows, not a sample", tc.clause, len(first))
		}
		seen := map[string]bool{}
		for _, v := range first {
			if seen[v] {
				t.Errorf("%s: row %s sampled twice", tc.clause, v)
			}
			seen[v] = true
		}
	}
}
