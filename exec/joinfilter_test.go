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
