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
	pages := j.Groups[0].Pages
	if len(pages) != 16 {
		t.Fatalf("row group 0 lists %d pages, want 16", len(pages))
	}
	p1, p2 := pages[1], pages[2]
	if p1.Column != "order_id" || p1.Page != 1 || p1.FirstRow == nil || *p1.FirstRow != 250 || *p1.Rows != 250 ||
		p1.Verdict != "keep" || p1.Mechanism != "none" || p1.Min == nil || *p1.Min != "251" || *p1.Max != "500" ||
		p1.Bytes != 1033 || p1.Reason != "keep; order_id = 431: keep, its bounds cannot rule it out" {
		t.Errorf("page 1: %+v", p1)
	}
	if p2.Verdict != "skip" || p2.Mechanism != "page index" || *p2.Min != "501" || *p2.FirstRow != 500 {
		t.Errorf("page 2: %+v", p2)
	}
	if j.Groups[0].Why != "statistics: order_id in [1, 4000] may hold 431" {
		t.Errorf("row group 0 kept because %q", j.Groups[0].Why)
	}
	if j.Groups[1].Pages != nil {
		t.Errorf("row group 1, skipped by statistics, lists pages: %+v", j.Groups[1].Pages)
	}
}
