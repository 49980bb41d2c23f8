package pushdown

import (
	"encoding/json"
	"testing"
)

// The JSON form carries the same counts as the text: for order_id = 431 on
// the sorted fixture, one row group of five kept, four skipped by
// statistics, one page of order_id's sixteen read.
func TestExplainJSON(t *testing.T) {
	f := openFixture(t, "orders_sorted.parquet")
	p, err := Plan(f, eq("order_id", IntLiteral(431)), []int{0}, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var j PlanJSON
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if j.RowGroups != 5 || j.RowGroupsKept != 1 || j.RowGroupsSkipped["statistics"] != 4 {
		t.Errorf("row groups %d kept %d skipped %v", j.RowGroups, j.RowGroupsKept, j.RowGroupsSkipped)
	}
	if j.Pages != 16 || j.PagesKept != 1 || j.PagesInSkipped || j.PagesSkipped["page index"] != 15 {
		t.Errorf("pages %d kept %d, skipped %v; want 16, 1 and 15 by the page index", j.Pages, j.PagesKept, j.PagesSkipped)
	}
	if want := float64(int64(1000*float64(j.ChunkBytes-j.ReadBytes)/float64(j.ChunkBytes)+0.5)) / 10; j.SkippedPercent != want {
		t.Errorf("skipped percent %v, want %v", j.SkippedPercent, want)
	}
	if j.ReadBytes != p.ReadBytes || j.ReadBytes >= j.ChunkBytes || j.SkippedBytes["statistics"] == 0 {
		t.Errorf("bytes: read %d of %d, skipped %v", j.ReadBytes, j.ChunkBytes, j.SkippedBytes)
	}
	if len(j.Groups) != 5 || j.Groups[0].Verdict != "select" || len(j.Groups[0].Keep) != 1 ||
		j.Groups[0].Keep[0] != [2]int64{250, 500} || j.Groups[1].Verdict != "skip" {
		t.Errorf("groups: %+v", j.Groups)
	}
}

// With the file at hand the pages of skipped row groups are counted too,
// by the mechanism that skipped them; with Verbose every row group kept
// lists its predicate column's pages.
func TestExplainJSONWithFile(t *testing.T) {
	f := openFixture(t, "orders_sorted.parquet")
	p, err := Plan(f, eq("order_id", IntLiteral(431)), []int{0}, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	j := p.ExplainJSON(ExplainOptions{File: f, Verbose: true})
	if j.Pages != 80 || j.PagesKept != 1 || !j.PagesInSkipped || j.PagesSkipped["statistics"] != 64 || j.PagesSkipped["page index"] != 15 || j.PagesUncounted != 0 {
		t.Errorf("pages %d kept %d, skipped %v, uncounted %d", j.Pages, j.PagesKept, j.PagesSkipped, j.PagesUncounted)
	}
	if pages := j.Groups[0].Pages; len(pages) != 16 || pages[1] != "page 1 of order_id, rows [250, 500): keep; order_id = 431: keep, its bounds cannot rule it out" {
		t.Errorf("pages of row group 0: %q", pages)
	}
	if j.Groups[1].Pages != nil {
		t.Errorf("row group 1, skipped by statistics, lists pages: %q", j.Groups[1].Pages)
	}
}
