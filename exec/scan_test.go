package exec

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/planner"
)

// runStatsOf runs q and returns its answer and statistics.
func runStatsOf(t *testing.T, q string, s Settings) (string, runStats) {
	t.Helper()
	got, x := newAnswer(q, s)
	if x == nil {
		t.Fatalf("%s: %s", q, got)
	}
	return got, x.stats
}

// The sorted fixture has 5 row groups of 4,000 rows, 16 pages of 250 rows
// per column, 11 columns, and a page index.
func TestScanReadsOnlyWhatItNeeds(t *testing.T) {
	t.Chdir(moduleRoot(t))
	tests := []struct {
		name, q string
		// rowsDecoded sums the rows of the pages decoded, column by column.
		rowsDecoded int64
		read        int // row groups read
		fromStats   int // row groups answered by statistics
	}{
		// The discount column is read whole (statistics leave NaN out), the
		// ten others only in the one page per row group that holds a NaN.
		{"late materialization", "SELECT * FROM " + sorted + " WHERE discount = 'NaN'::DOUBLE", 5*4000 + 5*10*250, 5, 0},
		// Only row group 0 keeps a row, so the others read no other column.
		{"empty row groups read nothing more", "SELECT * FROM " + sorted + " WHERE discount = 'NaN'::DOUBLE AND order_id % 4000 = 777",
			5*2*4000 + 9*250, 5, 0},
		// A LIMIT without WHERE decodes the first page of each column.
		{"limit", "SELECT * FROM " + sorted + " LIMIT 10", 11 * 250, 1, 0},
		// OFFSET rows are still projected, as a row-at-a-time loop does.
		{"limit across row groups", "SELECT order_id FROM " + sorted + " LIMIT 10 OFFSET 3995", 4000 + 250, 2, 0},
		// Row groups 1-4 lie above 500 by their statistics; row group 0
		// is narrowed by the page index to pages 2-15 (order_id 501-4000).
		{"count from statistics", "SELECT count(*) FROM " + sorted + " WHERE order_id > 500", 3500, 1, 4},
		{"min and max from statistics", "SELECT min(order_id), max(amount), count(*), count(city) FROM " + sorted, 0, 0, 5},
		// NaN sorts above every number and the bounds leave it out.
		{"max of a float is read", "SELECT max(discount) FROM " + sorted, 5 * 4000, 5, 0},
	}
	s := NewSession().Settings
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, st := runStatsOf(t, tc.q, s)
			if want := refAnswer(tc.q, s); got != want {
				t.Fatalf("answer differs from the row-at-a-time executor:\n got: %s\nwant: %s", got, want)
			}
			if st.RowsDecoded != tc.rowsDecoded || st.RowGroups != tc.read || st.RowGroupsFromMetadata != tc.fromStats {
				t.Errorf("rows decoded %d, row groups read %d, from statistics %d; want %d, %d, %d",
					st.RowsDecoded, st.RowGroups, st.RowGroupsFromMetadata, tc.rowsDecoded, tc.read, tc.fromStats)
			}
		})
	}
}

func TestLateMaterializationReadsFewerBytes(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession().Settings
	q := "SELECT * FROM " + sorted + " WHERE discount = 'NaN'::DOUBLE"
	_, st := runStatsOf(t, q, s)
	stmt, _ := planner.Parse(q)
	p, err := planner.Build(stmt.(*planner.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := &refExecutor{settings: s}
	if _, err := ref.refRun(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if st.IO.Bytes*3 > ref.stats.IO.Bytes {
		t.Errorf("read %d bytes, the row-at-a-time executor %d: want at most a third", st.IO.Bytes, ref.stats.IO.Bytes)
	}
}

func TestExplainAnalyzeStatistics(t *testing.T) {
	t.Chdir(moduleRoot(t))
	r, err := NewSession().Execute(context.Background(), "EXPLAIN ANALYZE SELECT count(*) FROM "+sorted+" WHERE order_id > 500")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"row groups read: 1, skipped: 0", "row groups answered from statistics, unread: 4", "rows returned: 1"} {
		if !strings.Contains(r.Explain, want) {
			t.Errorf("EXPLAIN ANALYZE lacks %q:\n%s", want, r.Explain)
		}
	}
}

func TestStatisticsSwitchedOff(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession().Settings
	s.Statistics = false
	for _, q := range []string{"SELECT min(order_id) FROM " + sorted, "SELECT count(*) FROM " + sorted + " WHERE order_id > 500"} {
		_, st := runStatsOf(t, q, s)
		if st.RowGroupsFromMetadata != 0 || st.RowGroups == 0 {
			t.Errorf("%s with statistics off: %d row groups from statistics, %d read", q, st.RowGroupsFromMetadata, st.RowGroups)
		}
	}
}

func TestScanCancel(t *testing.T) {
	t.Chdir(moduleRoot(t))
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := NewSession()
	s.Settings.Threads = 4
	_, err := s.Execute(ctx, "SELECT order_id, city FROM "+both+" WHERE city LIKE '%o%'")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled query: %v, want context.Canceled", err)
	}
	// Stopping early (a LIMIT) and failing midway leave no goroutine behind.
	if _, err := s.Execute(context.Background(), "SELECT order_id FROM "+both+" WHERE city LIKE '%o%' LIMIT 5"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), "SELECT CAST(city AS INTEGER) FROM "+both); err == nil {
		t.Fatal("a failing cast did not fail")
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the queries, %d before", n, before)
	}
}

func TestScanCancelMidway(t *testing.T) {
	t.Chdir(moduleRoot(t))
	ctx, cancel := context.WithCancel(context.Background())
	x := &executor{settings: NewSession().Settings}
	x.settings.Threads = 2
	stmt, _ := planner.Parse("SELECT order_id FROM " + both)
	p, err := planner.Build(stmt.(*planner.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = x.input(ctx, p, func(m scanMsg) (bool, error) {
		if n++; n == 2 {
			cancel()
		}
		return false, m.err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("scan cancelled midway: %v, want context.Canceled", err)
	}
}

func TestVectorHelpers(t *testing.T) {
	v := newVector(Type{ID: TypeBigInt}, 4)
	v.Int = append(v.Int, 1, 2)
	v.appendNull()
	v.Int = append(v.Int, 4)
	v.markNotNull()
	got := v.take([]int32{3, 2, 0})
	if len(got.Int) != 3 || got.Int[0] != 4 || !got.IsNull(1) || got.Int[2] != 1 {
		t.Errorf("take: %+v", got)
	}
	if h := v.head(2); h.Len() != 2 || h.IsNull(1) {
		t.Errorf("head: %+v", h)
	}
	runs := []rowRange{{First: 10, End: 13}, {First: 20, End: 22}}
	if got := appendSelected(nil, runs, []int32{0, 1, 3, 4}); len(got) != 2 || got[0] != (rowRange{First: 10, End: 12}) || got[1] != (rowRange{First: 20, End: 22}) {
		t.Errorf("appendSelected: %v", got)
	}
	// The cursor reuses its runs, so each call's are copied before the next.
	c := runCursor{rs: runs}
	a := slices.Clone(c.next(2))
	b := slices.Clone(c.next(2))
	end := slices.Clone(c.next(5))
	if len(a) != 1 || a[0] != (rowRange{First: 10, End: 12}) ||
		len(b) != 2 || b[0] != (rowRange{First: 12, End: 13}) || b[1] != (rowRange{First: 20, End: 21}) ||
		len(end) != 1 || end[0] != (rowRange{First: 21, End: 22}) || c.next(1) != nil {
		t.Errorf("runCursor: %v %v %v", a, b, end)
	}
	if got := firstRows(runs, 4); len(got) != 2 || got[1] != (rowRange{First: 20, End: 21}) {
		t.Errorf("firstRows: %v", got)
	}
}

func TestPackBatches(t *testing.T) {
	mk := func(first, n int) *batch {
		v := newVector(Type{ID: TypeVarchar}, n)
		for i := range n {
			if i%3 == 1 {
				v.appendNull()
				continue
			}
			v.Str = append(v.Str, string(rune('a'+(first+i)%26)))
			v.markNotNull()
		}
		return &batch{cols: []*Vector{v}, n: n}
	}
	in := []*batch{mk(0, 1), mk(1, 0), mk(1, 3), mk(4, BatchSize), mk(4+BatchSize, 2)}
	out := packBatches(in)
	var sizes []int
	for _, b := range out {
		sizes = append(sizes, b.n)
	}
	if len(sizes) != 3 || sizes[0] != 4 || sizes[1] != BatchSize || sizes[2] != 2 {
		t.Fatalf("packed sizes %v, want [4 %d 2]", sizes, BatchSize)
	}
	var got, want []string
	for _, bs := range [][]*batch{in, out} {
		var texts []string
		for _, b := range bs {
			for i := range b.n {
				if b.cols[0].IsNull(i) {
					texts = append(texts, "NULL")
				} else {
					texts = append(texts, b.cols[0].Str[i])
				}
			}
		}
		if want == nil {
			want = texts
		} else {
			got = texts
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("packing changed the rows:\n got %v\nwant %v", got[:10], want[:10])
	}
}

// A small batch with no other to join is kept as it is, and a run of small
// ones is copied into storage for its rows rather than a whole batch's.
func TestPackBatchesSizesTheRun(t *testing.T) {
	mk := func(n int) *batch {
		v := newVector(Type{ID: TypeBigInt}, n)
		for i := range n {
			v.Int = append(v.Int, int64(i))
		}
		return &batch{cols: []*Vector{v, nil}, n: n}
	}
	lone := mk(1)
	if out := packBatches([]*batch{lone, mk(0)}); len(out) != 1 || out[0] != lone {
		t.Fatalf("a lone small batch was copied: %v", out)
	}
	out := packBatches([]*batch{mk(2), mk(3), mk(BatchSize), mk(5)})
	if len(out) != 3 || out[0].n != 5 || out[1].n != BatchSize || out[2].n != 5 {
		t.Fatalf("packed %d batches", len(out))
	}
	if c := cap(out[0].cols[0].Int); c != 5 {
		t.Errorf("a run of 5 rows has room for %d", c)
	}
	if got := out[0].cols[0].Int; got[1] != 1 || got[2] != 0 || got[4] != 2 || out[0].cols[1] != nil {
		t.Errorf("packed rows %v", got)
	}
}

func TestLikeShapes(t *testing.T) {
	tests := []struct {
		pat   string
		shape likeShape
		lit   string
	}{
		{"abc", likeExact, "abc"}, {"ab%", likePrefix, "ab"}, {"%ab", likeSuffix, "ab"}, {"%ab%%", likeContains, "ab"},
		{"%", likeAny, ""}, {"%%", likeAny, ""}, {"", likeExact, ""}, {"a_c", likeGeneral, ""}, {"a%c", likeGeneral, ""},
		{"\xffa%", likeGeneral, ""},
	}
	for _, tc := range tests {
		if s, lit := shapeOfLike(tc.pat); s != tc.shape || lit != tc.lit {
			t.Errorf("shapeOfLike(%q) = %v %q, want %v %q", tc.pat, s, lit, tc.shape, tc.lit)
		}
	}
	// The shortcuts agree with planner.LikeMatch.
	strs := []string{"", "a", "ab", "abc", "xabc", "abcab", "Zürich", "\xffab", "ab\xff", "é", "aé"}
	pats := []string{"abc", "ab%", "%ab", "%ab%", "%", "", "%é", "é%", "%ü%"}
	for _, p := range pats {
		n := &likeNode{pat: p}
		n.shape, n.lit = shapeOfLike(p)
		v := &Vector{Type: Type{ID: TypeVarchar}, Str: strs}
		b := &batch{cols: []*Vector{v}, n: len(strs)}
		n.x = scalar{vx: colVec{0}, t: v.Type}
		sel := make([]int32, len(strs))
		for i := range sel {
			sel[i] = int32(i)
		}
		res := make([]uint8, len(strs))
		if err := n.eval(b, sel, res); err != nil {
			t.Fatal(err)
		}
		for i, s := range strs {
			if want := b2t(planner.LikeMatch(s, p)); res[i] != want {
				t.Errorf("%q LIKE %q: %d, want %d", s, p, res[i], want)
			}
		}
	}
}

func TestFloatKeyOrder(t *testing.T) {
	nan := func() float64 { z := 0.0; return z / z }()
	negZero := func() float64 { z := 0.0; return -z }()
	vals := []float64{-1e308, -1, negZero, 0, 1e-300, 1, 1e308, nan}
	for _, a := range vals {
		for _, b := range vals {
			want := planner.CompareFloat(a, b)
			got := cmp3(floatKey(a), floatKey(b))
			if got != want {
				t.Errorf("floatKey order of %v, %v: %d, want %d", a, b, got, want)
			}
		}
	}
}
