package exec

import (
	"strings"
	"testing"
)

// A plan needing only a column's distinct values reads one row per
// dictionary entry and keeps every answer: DISTINCT, count(DISTINCT), min
// and max of the fixtures' dictionary-encoded columns (city and note hold
// NULLs) answer as the row-at-a-time executor does, in the same order
// where the query has none.
func TestDistinctByDictionaryKeepsAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	cols := []string{"city", "status", "note", "quantity", "customer_id", "order_date"}
	forms := []string{
		"SELECT DISTINCT $c FROM $f",
		"SELECT DISTINCT $c AS x FROM $f ORDER BY x DESC NULLS FIRST",
		"SELECT count(DISTINCT $c) FROM $f",
		"SELECT min($c), max($c), count(DISTINCT $c) FROM $f",
		"SELECT $c, max($c) FROM $f GROUP BY $c ORDER BY 1 NULLS LAST",
		"SELECT $c FROM $f GROUP BY $c HAVING count(DISTINCT $c) > 0",
	}
	s := NewSession().Settings
	taken, n := 0, 0
	for i, form := range forms {
		for k, c := range cols {
			q := strings.ReplaceAll(form, "$c", c)
			q = strings.ReplaceAll(q, "$f", []string{sorted, shuffled}[(i+k)%2])
			got, st := runStatsOf(t, q, s)
			want := refAnswer(q, s)
			if !strings.Contains(q, "ORDER BY") {
				// The reference executor keeps no order without ORDER BY.
				got, want = sortedLines(got), sortedLines(want)
			}
			if got != want {
				t.Errorf("%s:\n got: %s\nwant: %s", q, got, want)
			}
			if st.RowGroupsDistinct > 0 {
				taken++
			}
			n++
		}
	}
	if taken < n/2 {
		t.Errorf("%d of %d queries read one row per dictionary entry", taken, n)
	}
	// Unsorted, the order is that of the first rows holding each value,
	// as when every row is read.
	q := "SELECT DISTINCT city FROM " + shuffled
	got, st := runStatsOf(t, q, s)
	want, _ := runStatsOf(t, q+" WHERE city IS NULL OR city IS NOT NULL", s)
	if got != want || st.RowGroupsDistinct == 0 {
		t.Errorf("%s: %q (%d row groups by dictionary), every row read: %q", q, got, st.RowGroupsDistinct, want)
	}
}

// Plans that need every row, or that a repeated value changes, read every
// row.
func TestDistinctByDictionaryOnlyWhereRepeatsDoNotCount(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession().Settings
	for _, q := range []string{
		"SELECT count(city) FROM " + shuffled,
		"SELECT city, count(*) FROM " + shuffled + " GROUP BY city",
		"SELECT count(DISTINCT city), count(*) FROM " + shuffled,
		"SELECT sum(DISTINCT quantity) FROM " + shuffled,
		"SELECT string_agg(DISTINCT city, ',') FROM " + shuffled,
		"SELECT DISTINCT city FROM " + shuffled + " LIMIT 3",
		"SELECT DISTINCT city FROM " + shuffled + " WHERE city <> 'Oslo'",
		"SELECT DISTINCT city, status FROM " + shuffled,
		"SELECT city FROM " + shuffled,
	} {
		if _, st := runStatsOf(t, q, s); st.RowGroupsDistinct != 0 {
			t.Errorf("%s: %d row groups read one row per dictionary entry", q, st.RowGroupsDistinct)
		}
	}
}
