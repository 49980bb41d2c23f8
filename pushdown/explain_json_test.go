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
	if j.Pages != 16 || j.PagesKept != 1 {
		t.Errorf("pages %d kept %d, want 16 and 1", j.Pages, j.PagesKept)
	}
	if j.ReadBytes != p.ReadBytes || j.ReadBytes >= j.ChunkBytes || j.SkippedBytes["statistics"] == 0 {
		t.Errorf("bytes: read %d of %d, skipped %v", j.ReadBytes, j.ChunkBytes, j.SkippedBytes)
	}
	if len(j.Groups) != 5 || j.Groups[0].Verdict != "select" || len(j.Groups[0].Keep) != 1 ||
		j.Groups[0].Keep[0] != [2]int64{250, 500} || j.Groups[1].Verdict != "skip" {
		t.Errorf("groups: %+v", j.Groups)
	}
}
