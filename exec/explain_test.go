package exec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
	"github.com/pqsql/pqsql/planner"
)

func TestExplain(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	q := "SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990"
	r, err := s.Execute(context.Background(), "EXPLAIN "+q)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PARQUET_SCAN", "pushdown: order_id > 19990", "row group 0 (4000 rows): skip", "row group 4 (4000 rows): select rows [3750, 4000)"} {
		if !strings.Contains(r.Explain, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, r.Explain)
		}
	}
	if strings.Contains(r.Explain, "rows decoded") {
		t.Errorf("plain EXPLAIN ran the query:\n%s", r.Explain)
	}
	r, err = s.Execute(context.Background(), "EXPLAIN ANALYZE "+q)
	if err != nil {
		t.Fatal(err)
	}
	// One 250-row page of row group 4 is decoded; ten rows pass the filter.
	for _, want := range []string{"row groups read: 1, skipped: 4", "rows decoded: 250, rows returned: 10", "bytes read: "} {
		if !strings.Contains(r.Explain, want) {
			t.Errorf("EXPLAIN ANALYZE lacks %q:\n%s", want, r.Explain)
		}
	}
}

func TestLimitStopsEarly(t *testing.T) {
	t.Chdir(moduleRoot(t))
	st, err := planner.Parse("SELECT order_id FROM 'fixtures/orders_sorted.parquet' LIMIT 3")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	x := &executor{settings: NewSession().Settings}
	res, err := x.result(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if res.NumRows() != 3 || x.stats.RowGroups != 1 {
		t.Errorf("rows %d, row groups read %d; want 3 rows from 1 row group", res.NumRows(), x.stats.RowGroups)
	}
}

func TestStatementErrors(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	tests := []struct {
		q    string
		kind error
	}{
		{"SET threads = 'many'", ErrBadSetting},
		{"SET nope = true", ErrUnknownSetting},
		{"DROP VIEW missing", ErrCatalog},
		{"SELECT ordr_id FROM 'fixtures/orders_sorted.parquet'", planner.ErrBinder},
	}
	for _, tc := range tests {
		if _, err := s.Execute(context.Background(), tc.q); !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", tc.q, err, tc.kind)
		}
	}
	if _, err := s.Execute(context.Background(), "SET statistics = false"); err != nil || s.Settings.Statistics {
		t.Errorf("SET statistics = false: err %v, setting %v", err, s.Settings.Statistics)
	}
}

// TestExplainAnalyzeMatchesPlan runs EXPLAIN ANALYZE for every query of the
// sqllogictest suite that reads a file and checks, purpose by purpose, that
// the bytes measured at the reader equal the plan's: footer, page index,
// bloom and dictionary exactly; data read plus what the scan declared not
// read (after filtering, after LIMIT, answered from statistics) equal to
// the plan's ranges; offset indexes read by the scan equal to what it
// declared. It also runs plain EXPLAIN and checks it reads no data page.
func TestExplainAnalyzeMatchesPlan(t *testing.T) {
	root := moduleRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "testdata", "queries", "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files: %v", err)
	}
	t.Chdir(root)
	checked, planned := 0, 0
	total := make([]IOJSON, numPurposes)
	for _, path := range files {
		s := NewSession()
		for _, r := range parseRecords(t, path) {
			if r.kind == "statement" || r.wantErr {
				s.Execute(context.Background(), r.sql)
				continue
			}
			where := fmt.Sprintf("%s:%d: %s", filepath.Base(path), r.line, r.sql)
			res, err := s.Execute(context.Background(), "EXPLAIN (FORMAT JSON, ANALYZE) "+r.sql)
			if err != nil {
				// EXPLAIN takes queries only, not DESCRIBE.
				st, perr := planner.Parse(r.sql)
				if _, isQuery := st.(*planner.Select); perr == nil && isQuery {
					if _, qerr := s.Execute(context.Background(), r.sql); qerr == nil {
						t.Errorf("%s: EXPLAIN ANALYZE fails where the query runs: %v", where, err)
					}
				}
				continue
			}
			var j ExplainJSON
			if err := json.Unmarshal([]byte(res.Explain), &j); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			a := j.Analyze
			if a == nil {
				t.Fatalf("%s: no analysis", where)
			}
			if a.Files == 0 {
				continue // reads no file
			}
			checked++
			if int(a.RowsReturned) != len(r.expected) {
				t.Errorf("%s: %d rows returned, the suite expects %d", where, a.RowsReturned, len(r.expected))
			}
			var sum int64
			for i, c := range a.IO {
				sum += c.Read
				total[i].Planned += c.Planned
				total[i].Read += c.Read
				total[i].NotReadAfterFilter += c.NotReadAfterFilter
				total[i].NotReadAfterLimit += c.NotReadAfterLimit
				total[i].AnsweredFromStatistics += c.AnsweredFromStatistics
				total[i].Reread += c.Reread
				if !c.Matches {
					t.Errorf("%s: %s: planned %d + re-read %d, read %d, not read: filter %d, limit %d, statistics %d",
						where, c.Purpose, c.Planned, c.Reread, c.Read, c.NotReadAfterFilter, c.NotReadAfterLimit, c.AnsweredFromStatistics)
				}
			}
			if !a.MatchesPlan {
				t.Errorf("%s: matches_plan is false", where)
			}
			if d := a.IO[ioData]; d.PlannedMerged > d.Planned {
				t.Errorf("%s: the plan's merged ranges hold %d bytes, more than its %d of column reads", where, d.PlannedMerged, d.Planned)
			}
			if sum+a.Unmetered != a.BytesRead {
				t.Errorf("%s: purposes sum to %d bytes and %d are unmetered, but %d were read", where, sum, a.Unmetered, a.BytesRead)
			}
			planned += explainReadsNoData(t, s, where, r.sql)
		}
	}
	t.Logf("EXPLAIN ANALYZE checked for %d queries that read files; plain EXPLAIN planned %d files", checked, planned)
	for i, c := range total {
		t.Logf("%s: planned %d, read %d, not read: filter %d, limit %d, statistics %d; re-read %d", ioPurpose(i),
			c.Planned, c.Read, c.NotReadAfterFilter, c.NotReadAfterLimit, c.AnsweredFromStatistics, c.Reread)
	}
	if checked < 200 {
		t.Errorf("only %d queries read files; the suite has more", checked)
	}
}

// explainReadsNoData plans q as plain EXPLAIN does and checks that it read
// the footer, indexes, filters and dictionaries the plans count, and no data
// page. It returns the number of files planned.
func explainReadsNoData(t *testing.T, s *Session, where, q string) int {
	t.Helper()
	st, err := planner.Parse(q)
	if err != nil {
		return 0
	}
	sel, ok := st.(*planner.Select)
	if !ok {
		return 0
	}
	p, err := planner.Build(sel, catalog{s: s})
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return 0
	}
	x := &executor{settings: s.Settings}
	if err := x.planScans(p); err != nil {
		t.Errorf("%s: EXPLAIN: %v", where, err)
		return 0
	}
	n := 0
	for _, m := range x.stats.Meters {
		var read [numPurposes]int64
		for i := range m.counts {
			read[i] = m.counts[i].Stats().Bytes
		}
		want := [numPurposes]int64{ioFooter: int64(len("PAR1")) + m.f.FooterSize}
		if m.plan != nil {
			n++
			want[ioIndex], want[ioBloom], want[ioDictionary] = m.plan.IndexBytes, m.plan.FilterBytes, m.plan.DictionaryBytes
		}
		if read != want {
			t.Errorf("%s: EXPLAIN of %s read %v by purpose, want %v", where, m.path, read, want)
		}
	}
	return n
}

// explainJSON runs an EXPLAIN (FORMAT JSON ...) statement and decodes it.
func explainJSON(t *testing.T, s *Session, q string) ExplainJSON {
	t.Helper()
	res, err := s.Execute(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var j ExplainJSON
	if err := json.Unmarshal([]byte(res.Explain), &j); err != nil {
		t.Fatalf("%s: %v\n%s", q, err, res.Explain)
	}
	return j
}

// The JSON form says what the text form says: for order_id > 19990 on the
// sorted fixture, four row groups skipped by statistics, fifteen pages of
// the fifth by the page index, one 1030-byte range read.
func TestExplainJSON(t *testing.T) {
	t.Chdir(explainTree(t, moduleRoot(t)))
	s := NewSession()
	q := "SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990"

	j := explainJSON(t, s, "EXPLAIN (FORMAT JSON) "+q)
	// PROJECTION -> FILTER -> PARQUET_SCAN, the pushdown a property of the scan.
	if pl := j.Plan; pl == nil || pl.Operator != "PROJECTION" || pl.Detail != "order_id" || len(pl.Children) != 1 ||
		pl.Children[0].Operator != "FILTER" || len(pl.Children[0].Children) != 1 || j.Analyze != nil || j.Verify != nil {
		t.Errorf("plan %+v, analyze %v, verify %v", j.Plan, j.Analyze, j.Verify)
	} else if scan := pl.Children[0].Children[0]; scan.Operator != "PARQUET_SCAN" ||
		!strings.HasPrefix(scan.Detail, "'fixtures/orders_sorted.parquet'") ||
		len(scan.Properties) != 1 || scan.Properties[0] != "pushdown: order_id > 19990" || len(scan.Children) != 0 {
		t.Errorf("scan %+v", scan)
	}
	if len(j.Files) != 1 {
		t.Fatalf("%d files, want 1", len(j.Files))
	}
	f := j.Files[0]
	if f.RowGroups != 5 || f.RowGroupsKept != 1 || f.RowGroupsSkipped["statistics"] != 4 {
		t.Errorf("row groups %d, kept %d, skipped %v", f.RowGroups, f.RowGroupsKept, f.RowGroupsSkipped)
	}
	if f.Pages != 80 || f.PagesKept != 1 || !f.PagesInSkipped || f.PagesSkipped["statistics"] != 64 || f.PagesSkipped["page index"] != 15 {
		t.Errorf("pages %d, kept %d, skipped %v", f.Pages, f.PagesKept, f.PagesSkipped)
	}
	if f.ChunkBytes != 82647 || f.ReadBytes != 1030 || f.ReadRanges != 1 || f.SkippedPercent != 98.8 || f.IndexBytes != 514 {
		t.Errorf("bytes %d -> %d in %d ranges, %v%% skipped, index %d", f.ChunkBytes, f.ReadBytes, f.ReadRanges, f.SkippedPercent, f.IndexBytes)
	}
	if len(f.Groups) != 5 || f.Groups[4].Verdict != "select" || f.Groups[4].Keep[0] != [2]int64{3750, 4000} || f.Groups[4].Pages != nil {
		t.Errorf("groups %+v", f.Groups)
	}
	if j.Totals.Files != 1 || j.Totals.ReadBytes != 1030 || j.Totals.Skipped["statistics"].RowGroups != 4 || len(j.HivePath) != 0 {
		t.Errorf("totals %+v, hive path %v", j.Totals, j.HivePath)
	}

	j = explainJSON(t, s, "EXPLAIN (FORMAT JSON, VERBOSE) "+q)
	if pages := j.Files[0].Groups[4].Pages; len(pages) != 16 || pages[15].Page != 15 || pages[15].Column != "order_id" ||
		*pages[15].FirstRow != 3750 || *pages[15].Rows != 250 || pages[15].Verdict != "keep" || pages[14].Mechanism != "page index" {
		t.Errorf("verbose pages of row group 4: %+v", pages)
	}

	j = explainJSON(t, s, "EXPLAIN (FORMAT JSON, ANALYZE) "+q)
	a := j.Analyze
	if a == nil {
		t.Fatal("no analysis")
	}
	if a.Files != 1 || a.RowGroupsRead != 1 || a.RowGroupsSkipped != 4 || a.PagesDecoded != 1 || a.RowsDecoded != 250 || a.RowsReturned != 10 || !a.MatchesPlan {
		t.Errorf("analysis %+v", a)
	}
	want := map[string][2]int64{"footer": {6206, 6206}, "page index": {514, 514}, "data": {1030, 1030}, "bloom": {0, 0}}
	for _, c := range a.IO {
		if w, ok := want[c.Purpose]; ok && (c.Planned != w[0] || c.Read != w[1] || !c.Matches) {
			t.Errorf("%s: planned %d, read %d, matches %v; want %d, %d", c.Purpose, c.Planned, c.Read, c.Matches, w[0], w[1])
		}
	}
	if a.BytesRead != 6206+514+1030 || a.Time.Total <= 0 || a.Time.Total < a.Time.Metadata {
		t.Errorf("bytes read %d, times %+v", a.BytesRead, a.Time)
	}

	j = explainJSON(t, s, "EXPLAIN (FORMAT JSON, VERIFY) "+q+" ORDER BY order_id DESC")
	if v := j.Verify; v == nil || !v.Identical || v.Rows != 10 || v.RowsWithoutPruning != 10 || !v.Ordered || v.FirstDifference != -1 ||
		v.BytesWithPruning >= v.BytesWithoutPruning {
		t.Errorf("verify %+v", j.Verify)
	}

	j = explainJSON(t, s, "EXPLAIN (FORMAT JSON) SELECT count(*) FROM 'hive/*/*.parquet' WHERE year = 2024 AND order_id < 100")
	if len(j.HivePath) != 1 || j.HivePath[0].File != "hive/year=2023/orders.parquet" || !strings.Contains(j.HivePath[0].Reason, "year=2023") ||
		j.Totals.Skipped["hive path"].Files != 1 || j.Totals.Skipped["hive path"].Bytes != j.HivePath[0].Bytes || len(j.Files) != 1 {
		t.Errorf("hive path %+v, totals %+v", j.HivePath, j.Totals.Skipped)
	}

	j = explainJSON(t, s, "EXPLAIN (FORMAT JSON) SELECT count(*) FROM 'fixtures/orders_sorted.parquet'")
	if len(j.Files) != 0 || len(j.FromMetadata) != 1 {
		t.Errorf("count(*): files %v, from metadata %v", j.Files, j.FromMetadata)
	}
}

func TestCompareRows(t *testing.T) {
	rows := func(keys ...string) []resultRow {
		out := make([]resultRow, len(keys))
		for i, k := range keys {
			out[i] = resultRow{key: k, text: k}
		}
		return out
	}
	tests := []struct {
		name                string
		with, without       []resultRow
		ordered             bool
		identical           bool
		first, onlyW, onlyO int
	}{
		{"equal in order", rows("a", "b"), rows("a", "b"), true, true, -1, 0, 0},
		{"same multiset, ordered", rows("a", "b"), rows("b", "a"), true, false, 0, 0, 0},
		{"same multiset, unordered", rows("a", "b", "a"), rows("a", "a", "b"), false, true, 1, 0, 0},
		{"a row missing with pruning", rows("a"), rows("a", "b"), false, false, 1, 0, 1},
		{"a duplicate too many", rows("a", "a", "b"), rows("a", "b"), false, false, 1, 1, 0},
		{"both empty", nil, nil, true, true, -1, 0, 0},
	}
	for _, tc := range tests {
		v := compareRows(tc.with, tc.without, tc.ordered)
		if v.Identical != tc.identical || v.FirstDifference != tc.first || v.OnlyWithPruning != tc.onlyW || v.OnlyWithoutPruning != tc.onlyO {
			t.Errorf("%s: %+v", tc.name, v)
		}
	}
	var b strings.Builder
	compareRows(rows("a", "c"), rows("a", "b"), true).writeText(&b)
	for _, want := range []string{"identical: no (compared in order; first difference at row 1; 1 row only with pruning, 1 only without)",
		"only with pruning: c", "only without pruning: b"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("VERIFY text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestExplainAnalyzeMatchesPlanCorpus checks the same balance over the
// conformance corpus: every readable file scanned whole, under a LIMIT,
// and filtered by IS NULL, = and > on its first columns (values taken from
// the file). Old parquet-mr files pad their chunk ranges, which then overlap:
// the scan reads the overlap once and says so.
func TestExplainAnalyzeMatchesPlanCorpus(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	files, err := filepath.Glob(filepath.Join(data, "*.parquet"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	if testing.Short() && len(files) > 20 {
		files = files[:20]
	}
	ctx := context.Background()
	checked, overlap := 0, int64(0)
	for _, path := range files {
		if strings.HasPrefix(filepath.Base(path), "large_string_map") {
			continue // two 1 GiB strings: a test of format, slow here
		}
		s := NewSession()
		qs := []string{"SELECT * FROM '%s'", "SELECT * FROM '%s' LIMIT 3"}
		if desc, err := s.Execute(ctx, fmt.Sprintf("DESCRIBE '%s'", path)); err == nil {
			for i := 0; i < desc.NumRows() && i < 4; i++ {
				name, _ := desc.Cell(i, 0)
				typ, _ := desc.Cell(i, 1)
				col := `"` + name + `"`
				qs = append(qs, "SELECT * FROM '%s' WHERE "+col+" IS NULL")
				v, err := s.Execute(ctx, fmt.Sprintf("SELECT %s FROM '%s' WHERE %s IS NOT NULL LIMIT 1 OFFSET 7", col, path, col))
				if err != nil || v.NumRows() == 0 {
					continue
				}
				text, _ := v.Cell(0, 0)
				switch {
				case typ == "VARCHAR":
					text = "'" + strings.ReplaceAll(text, "'", "''") + "'"
				case !strings.Contains(typ, "INT") && typ != "DOUBLE" && typ != "FLOAT":
					continue
				}
				qs = append(qs, "SELECT * FROM '%s' WHERE "+col+" = "+text, "SELECT * FROM '%s' WHERE "+col+" > "+text)
			}
		}
		for _, q := range qs {
			q = strings.ReplaceAll(q, "%s", path)
			res, err := s.Execute(ctx, "EXPLAIN (FORMAT JSON, ANALYZE) "+q)
			if err != nil {
				continue // a file or type pqsql does not read; other tests cover it
			}
			var j ExplainJSON
			if err := json.Unmarshal([]byte(res.Explain), &j); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			checked++
			for _, c := range j.Analyze.IO {
				if !c.Matches {
					t.Errorf("%s: %s: %+v", q, c.Purpose, c)
				}
				overlap += c.OverlapReadOnce
			}
		}
	}
	t.Logf("%d queries over %d files balance; %d bytes of overlapping ranges read once", checked, len(files), overlap)
}
