package exec

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// Join filters only ever drop probe rows that match nothing: for random
// joins of the fixtures on keys of every filterable type, with random
// filters on both sides, the answer with join filters on equals the answer
// with them off, and the answer of the unoptimized plan.
func TestJoinFiltersKeepAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const sorted, shuffled, stats = "'fixtures/orders_sorted.parquet'", "'fixtures/orders_shuffled.parquet'", "'fixtures/statistics.parquet'"
	// few marks keys with few distinct values, whose left side is cut to
	// a few hundred rows so the join stays small.
	type pair struct {
		l, r, lk, rk string
		few          bool
	}
	pairs := []pair{
		{sorted, shuffled, "order_id", "order_id", false},
		{stats, sorted, "order_id", "order_id", false},
		{sorted, stats, "order_id", "delta", false},
		{sorted, stats, "quantity", "order_id", true},
		{stats, shuffled, "customer_id", "customer_id", false},
		{sorted, shuffled, "city", "city", true},
		{stats, sorted, "city", "city", true},
		{sorted, shuffled, "order_date", "order_date", true},
		{stats, sorted, "amount", "amount", true},
		{sorted, shuffled, "status", "status", true},
		{sorted, shuffled, "shipped_at", "shipped_at", true},
	}
	preds := map[string][]string{
		sorted: {"order_id < $n", "order_id > $n", "quantity = $n % 10", "city = 'Oslo'", "status = 'returned'",
			"order_id % 97 = $n % 97", "customer_id < $n * 50", "amount > $n / 10", "city IS NULL", "order_date < DATE '2024-03-01'"},
		stats: {"order_id < $n % 13", "delta > $n % 100 - 50", "coupon IS NOT NULL", "city <> 'Aarhus'", "amount < $n % 200 - 20"},
	}
	preds[shuffled] = preds[sorted]
	rng := rand.New(rand.NewSource(20261201))
	pred := func(file string) string {
		p := preds[file][rng.Intn(len(preds[file]))]
		return strings.ReplaceAll(p, "$n", strconv.Itoa(rng.Intn(20000)))
	}
	s := NewSession()
	n := 80
	if testing.Short() {
		n = 25
	}
	nonEmpty := 0
	for range n {
		p := pairs[rng.Intn(len(pairs))]
		l, r := p.l, p.r
		switch {
		case p.few && p.l != stats:
			from := rng.Intn(20000)
			l = fmt.Sprintf("(SELECT * FROM %s WHERE order_id BETWEEN %d AND %d AND %s)", l, from, from+rng.Intn(300), pred(p.l))
		case rng.Intn(2) == 0:
			l = "(SELECT * FROM " + l + " WHERE " + pred(p.l) + ")"
		}
		q := fmt.Sprintf("SELECT count(*), min(a.order_id), max(b.order_id), count(DISTINCT b.city) FROM %s a JOIN %s b ON a.%s = b.%s", l, r, p.lk, p.rk)
		if rng.Intn(2) == 0 {
			q += " WHERE b." + pred(p.r)
		}
		s.Settings.JoinFilters, s.Settings.Optimizer = true, true
		on := resultText(t, s, q)
		s.Settings.JoinFilters = false
		off := resultText(t, s, q)
		s.Settings.Optimizer = false
		plain := resultText(t, s, q)
		if on != off || on != plain {
			t.Errorf("%s:\njoin filters on:  %s\njoin filters off: %s\nnot optimized:    %s", q, on, off, plain)
		}
		if !strings.HasPrefix(on, "0\t") {
			nonEmpty++
		}
	}
	// Joins that all come out empty would agree whatever the filters did.
	if nonEmpty < n/3 {
		t.Errorf("only %d of %d joins have rows", nonEmpty, n)
	}
}

// A join whose build side has no rows reads nothing of the probe side:
// its join filter is FALSE, which every row group's statistics judge.
func TestJoinFilterEmptyBuildReadsNoData(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	q := "SELECT count(*) FROM (SELECT * FROM 'fixtures/statistics.parquet' WHERE order_id < 0) a JOIN 'fixtures/orders_sorted.parquet' b ON a.order_id = b.order_id"
	j := explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+q)
	var probeData int64 = -1
	for _, f := range j.Files {
		if f.File == "fixtures/orders_sorted.parquet" {
			probeData = f.ReadBytes
		}
	}
	if probeData != 0 {
		t.Errorf("probe side reads %d data bytes with an empty build side, want 0", probeData)
	}
	s.Settings.JoinFilters = false
	j = explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+q)
	for _, f := range j.Files {
		if f.File == "fixtures/orders_sorted.parquet" && f.ReadBytes == 0 {
			t.Errorf("without join filters the probe side reads nothing: the test proves nothing")
		}
	}
	if got := resultText(t, s, q); got != "0\t\n" {
		t.Errorf("count %q, want 0", got)
	}
}

// EXPLAIN ANALYZE shows the join filter the build side's keys gave, and
// the probe side reads less for it: two order_ids of the sorted fixture
// leave two pages of one row group.
func TestJoinFilterInExplainAnalyze(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	q := "EXPLAIN (FORMAT JSON, ANALYZE) SELECT count(*) FROM (SELECT * FROM 'fixtures/statistics.parquet' WHERE delta > 50) a JOIN 'fixtures/orders_sorted.parquet' b ON a.order_id = b.order_id"
	probeBytes := func(j ExplainJSON) (n int64, kept int) {
		for _, f := range j.Files {
			if f.File == "fixtures/orders_sorted.parquet" {
				return f.ReadBytes, f.RowGroupsKept
			}
		}
		t.Fatalf("no plan for the probe side in %+v", j.Files)
		return 0, 0
	}
	on := explainJSON(t, s, q)
	if !strings.Contains(planLines(on.Plan), "JOIN_FILTER (order_id IN (4, 7))") {
		t.Errorf("plan without the join filter:\n%s", planLines(on.Plan))
	}
	withBytes, withKept := probeBytes(on)
	s.Settings.JoinFilters = false
	off := explainJSON(t, s, q)
	withoutBytes, withoutKept := probeBytes(off)
	if strings.Contains(planLines(off.Plan), "JOIN_FILTER") || withKept != 1 || withoutKept != 5 || withBytes >= withoutBytes {
		t.Errorf("probe side: %d bytes in %d row groups with join filters, %d in %d without", withBytes, withKept, withoutBytes, withoutKept)
	}
}

// planLines flattens a plan tree into "OPERATOR detail" lines, for
// searching.
func planLines(n *PlanNodeJSON) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(n.Operator + " " + n.Detail + "\n")
	for _, p := range n.Properties {
		b.WriteString(p + "\n")
	}
	for _, c := range n.Children {
		b.WriteString(planLines(c))
	}
	return b.String()
}

// EXPLAIN ANALYZE counts what the join filter skipped as its own
// mechanism: only what the probe scan's own predicate would have read.
// The sorted fixture holds order_ids 1-4000, 4001-8000, ... in its five
// row groups.
func TestJoinFilterCountedAsMechanism(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const probe = "fixtures/orders_sorted.parquet"
	skipped := func(j ExplainJSON) map[string]int {
		for _, f := range j.Files {
			if f.File == probe {
				return f.RowGroupsSkipped
			}
		}
		t.Fatalf("no plan for the probe side in %+v", j.Files)
		return nil
	}
	tests := []struct {
		name, q string
		want    map[string]int // row groups of the probe side skipped, by mechanism
	}{
		{"no predicate of its own",
			"SELECT count(*) FROM (SELECT * FROM 'fixtures/statistics.parquet' WHERE delta > 50) a JOIN '" + probe + "' b ON a.order_id = b.order_id",
			map[string]int{"join filter": 4}},
		{"its own predicate skips two row groups, the join filter two more",
			"SELECT count(*) FROM (SELECT order_id FROM 'fixtures/orders_shuffled.parquet' WHERE order_id BETWEEN 15000 AND 15100) a JOIN '" + probe + "' b ON a.order_id = b.order_id WHERE b.order_id > 8000",
			map[string]int{"statistics": 2, "join filter": 2}},
		{"the join filter rules out nothing the predicate keeps",
			"SELECT count(*) FROM (SELECT order_id FROM 'fixtures/orders_shuffled.parquet' WHERE order_id BETWEEN 100 AND 7000) a JOIN '" + probe + "' b ON a.order_id = b.order_id WHERE b.order_id < 6000",
			map[string]int{"statistics": 3}},
	}
	for _, tc := range tests {
		s := NewSession()
		got := skipped(explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+tc.q))
		for m, n := range tc.want {
			if got[m] != n {
				t.Errorf("%s: probe row groups skipped %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		for m, n := range got {
			if n > 0 && tc.want[m] == 0 {
				t.Errorf("%s: probe row groups skipped %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		s.Settings.JoinFilters = false
		if off := skipped(explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+tc.q)); off["join filter"] != 0 {
			t.Errorf("%s: with join filters off the join filter skipped %v", tc.name, off)
		}
		// The credit changes the report only: the answer is the same.
		if on, off := resultText(t, NewSession(), tc.q), resultText(t, s, tc.q); on != off {
			t.Errorf("%s: %q with join filters, %q without", tc.name, on, off)
		}
	}
}

// The join filter is credited with what the probe scan would have read
// without it less what it read, wherever the footer tells the first: in a
// row group whose statistics prove every row satisfies the scan's own
// predicate, the pages the join filter's conditions left out are its own;
// where the own predicate may have narrowed the row group by itself, they
// stay the page index's.
func TestJoinFilterCreditsPagesOfWholeRowGroups(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const probe = "fixtures/orders_sorted.parquet"
	build := "(SELECT order_id FROM 'fixtures/orders_shuffled.parquet' WHERE order_id BETWEEN 15000 AND 15100) a"
	tests := []struct {
		name, where string
		// pages of the probe side skipped, by mechanism
		want map[string]int
	}{
		// Row groups 2-4 (8001-20000) all satisfy order_id > 8000: without
		// the join filter the scan reads their 48 pages, with it 2.
		{"own predicate true in every row group it keeps", "b.order_id > 8000",
			map[string]int{"statistics": 32, "join filter": 46}},
		// order_id > 14000 may narrow row group 3 (12001-16000) by itself.
		{"own predicate narrows the row group too", "b.order_id > 14000",
			map[string]int{"statistics": 48, "page index": 14, "join filter": 16}},
	}
	for _, tc := range tests {
		q := "SELECT count(*) FROM " + build + " JOIN '" + probe + "' b ON a.order_id = b.order_id WHERE " + tc.where
		s := NewSession()
		j := explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+q)
		var got map[string]int
		for _, f := range j.Files {
			if f.File == probe {
				got = f.PagesSkipped
			}
		}
		for m, n := range tc.want {
			if got[m] != n {
				t.Errorf("%s: probe pages skipped %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		for m, n := range got {
			if n > 0 && tc.want[m] == 0 {
				t.Errorf("%s: probe pages skipped %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		if a := j.Analyze; a == nil || !a.MatchesPlan {
			t.Errorf("%s: the credit changed what was read: %+v", tc.name, a)
		}
	}
}

// More build keys than an IN list holds for pushdown still filter the
// probe scan: its range prunes as BETWEEN would, and the scan tests each
// row's key against the set, so the probe side's other columns are not
// read where no key matched. The build side holds order_ids 100-179 and
// 15001-15040 of the sorted fixture (4,000 order_ids a row group): the
// range rules out the last row group, the set leaves the second and third
// without a row, and the answer is that of the join without the filter.
func TestJoinFilterKeySetDropsProbeRows(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	q := "SELECT count(*), sum(b.amount), min(b.note) FROM (SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id BETWEEN 100 AND 179 OR order_id BETWEEN 15001 AND 15040) a JOIN 'fixtures/orders_sorted.parquet' b ON a.order_id = b.order_id"
	on := explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+q)
	if !strings.Contains(planLines(on.Plan), "JOIN_FILTER (order_id IN (120 values))") {
		t.Errorf("plan without the join filter of 120 keys:\n%s", planLines(on.Plan))
	}
	notRead := func(j ExplainJSON) int64 {
		for _, io := range j.Analyze.IO {
			if io.Purpose == "data" {
				return io.NotReadAfterFilter
			}
		}
		return 0
	}
	// Both sides read the fixture; the build side keeps two row groups.
	kept := func(j ExplainJSON) int {
		n := 0
		for _, f := range j.Files {
			n = max(n, f.RowGroupsKept)
		}
		return n
	}
	if got := kept(on); got != 4 {
		t.Errorf("the probe side keeps %d row groups, want 4 (the range skips the last)", got)
	}
	if notRead(on) == 0 {
		t.Errorf("the probe side read every page of its other columns: the key set dropped no row before them")
	}
	want := resultText(t, s, q)
	s.Settings.JoinFilters = false
	if got := resultText(t, s, q); got != want || !strings.HasPrefix(want, "120\t") {
		t.Errorf("with the join filter %q, without %q, want 120 rows", want, got)
	}
}
