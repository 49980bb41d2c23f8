package exec

import (
	"math/rand"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
)

// Judging a WHERE by dictionary keeps every answer: random predicates over
// the dictionary-encoded columns of the orders fixtures (city and note hold
// NULLs), alone, combined and beside conditions on other columns, answer as
// the row-at-a-time executor does.
func TestDictionaryJudgingKeepsAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	checkDictionaryJudging(t, 88)
}

// Carried out of the judging, the values of a judged column the query
// reads after keep every answer: with every such column carried, through
// a stream window smaller than most pages, NULLs and all, and the carry
// dropped and the column read again when it outgrows the column's pages.
func TestCarriedJudgedColumnsKeepAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	rows, density := rowsPerPickedValue, judgedCarryDensity
	rowsPerPickedValue, judgedCarryDensity = 0, 1<<30
	defer func() { rowsPerPickedValue, judgedCarryDensity = rows, density }()
	carried, dropped := judgedCarried.Load(), judgedCarryDropped.Load()
	withStreamWindow(t, 256, func() { checkDictionaryJudging(t, 94) })
	carried, dropped = judgedCarried.Load()-carried, judgedCarryDropped.Load()-dropped
	if dropped == 0 || carried == dropped {
		t.Errorf("%d row groups carried a judged column, %d of them dropped it: want some of each", carried, dropped)
	}
}

// checkDictionaryJudging checks random WHEREs judged by dictionary against
// the row-at-a-time executor's answers.
func checkDictionaryJudging(t *testing.T, seed int64) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	cities := []string{"'Oslo'", "'Paris'", "'Łódź'", "'Nowhere'", "''"}
	city := func() string { return cities[rng.Intn(len(cities))] }
	num := func(n int) string { return strconv.Itoa(rng.Intn(n)) }
	preds := []func() string{
		func() string { return "city = " + city() },
		func() string { return "city <> " + city() },
		func() string { return "city IN (" + city() + ", " + city() + ")" },
		func() string { return "city NOT IN (" + city() + ", " + city() + ")" },
		func() string { return "city IS NULL" },
		func() string { return "city IS NOT NULL" },
		func() string { return "city LIKE '" + []string{"O%", "%is", "_ar%", "%ó%"}[rng.Intn(4)] + "'" },
		func() string { return "city NOT LIKE '%o%'" },
		func() string { return "city < " + city() },
		func() string { return "city >= " + city() },
		func() string { return "starts_with(city, 'P')" },
		func() string {
			return "status = '" + []string{"shipped", "pending", "returned", "lost"}[rng.Intn(4)] + "'"
		},
		func() string { return "status <> 'pending'" },
		func() string { return "quantity = " + num(12) },
		func() string { return "quantity BETWEEN " + num(6) + " AND " + num(12) },
		func() string { return "quantity IN (1, " + num(12) + ")" },
		func() string { return "customer_id = " + num(400) },
		func() string { return "customer_id > " + num(400) },
		func() string { return "order_date < DATE '2024-0" + strconv.Itoa(1+rng.Intn(6)) + "-15'" },
		func() string { return "note IS NULL" },
		func() string { return "note IS NOT NULL" },
		func() string { return "note = 'gift'" },
		func() string { return "NOT (city = " + city() + ")" },
		func() string { return "(city = " + city() + " OR city IS NULL)" },
		func() string { return "(quantity < " + num(12) + " OR city = " + city() + ")" },
		func() string { return "order_id < " + num(20000) },
		func() string { return "order_id % 5 = 1" },
	}
	where := func() string {
		var xs []string
		for range 1 + rng.Intn(3) {
			xs = append(xs, preds[rng.Intn(len(preds))]())
		}
		return strings.Join(xs, " AND ")
	}
	files := []string{shuffled, sorted}
	n := 80
	if testing.Short() {
		n = 30
	}
	s := NewSession().Settings
	judged, nonEmpty := 0, 0
	for i := range n {
		from := files[i%2]
		var q string
		switch i % 4 {
		case 0:
			q = "SELECT count(*) FROM " + from + " WHERE " + where()
		case 1:
			q = "SELECT order_id, city, note FROM " + from + " WHERE " + where() + " ORDER BY order_id"
		case 2:
			q = "SELECT city, count(*), sum(quantity) FROM " + from + " WHERE " + where() + " GROUP BY city ORDER BY city NULLS FIRST"
		default:
			q = "SELECT count(*), sum(amount), min(customer_id) FROM " + from + " WHERE " + where()
		}
		got, st := runStatsOf(t, q, s)
		if want := refAnswer(q, s); got != want {
			t.Errorf("%s:\n got: %s\nwant: %s", q, got, want)
		}
		if st.RowGroupsJudged > 0 {
			judged++
		}
		if got != "" && !strings.HasPrefix(got, "0") {
			nonEmpty++
		}
	}
	if judged < n/2 || nonEmpty < n/3 {
		t.Errorf("%d of %d queries judged by dictionary, %d with rows", judged, n, nonEmpty)
	}
}

// Judging the parts of a WHERE on one dictionary-encoded column by
// dictionary, under OR and NOT and beside conditions on other columns or
// conditions that fail, keeps every answer and every error.
func TestDictionaryPartsKeepAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	rng := rand.New(rand.NewSource(89))
	cities := []string{"'Oslo'", "'Paris'", "'Łódź'", "'Nowhere'", "NULL"}
	city := func() string { return cities[rng.Intn(len(cities))] }
	num := func(n int) string { return strconv.Itoa(rng.Intn(n)) }
	leaves := []func() string{
		func() string { return "city = " + city() },
		func() string { return "city <> " + city() },
		func() string { return "city IN (" + city() + ", " + city() + ")" },
		func() string { return "city IS NULL" },
		func() string { return "city LIKE '%o%'" },
		func() string { return "(city = " + city() + " AND city > 'M')" },
		func() string { return "status = 'shipped'" },
		func() string { return "status <> 'pending'" },
		func() string { return "note IS NOT NULL" },
		func() string { return "note = 'gift'" },
		func() string { return "quantity = " + num(12) },
		func() string { return "order_id < " + num(20000) },
		func() string { return "amount > " + num(500) },
		func() string { return "customer_id % 7 = " + num(7) },
		// Fails for a note that is not a number, where it is reached.
		func() string { return "CAST(note AS INTEGER) > 1" },
	}
	var tree func(depth int) string
	tree = func(depth int) string {
		if depth == 0 || rng.Intn(3) == 0 {
			return leaves[rng.Intn(len(leaves))]()
		}
		switch rng.Intn(4) {
		case 0:
			return "NOT (" + tree(depth-1) + ")"
		case 1:
			return "(" + tree(depth-1) + " AND " + tree(depth-1) + ")"
		}
		return "(" + tree(depth-1) + " OR " + tree(depth-1) + ")"
	}
	files := []string{shuffled, sorted}
	n := 80
	if testing.Short() {
		n = 30
	}
	s := NewSession().Settings
	judged, nonEmpty := 0, 0
	for i := range n {
		from := files[i%2]
		where := tree(3)
		var q string
		switch i % 4 {
		case 0, 2:
			q = "SELECT count(*) FROM " + from + " WHERE " + where
		case 1:
			q = "SELECT order_id, quantity FROM " + from + " WHERE " + where + " ORDER BY order_id"
		default:
			q = "SELECT count(*), sum(amount), min(customer_id) FROM " + from + " WHERE " + where
		}
		got, x := newAnswer(q, s)
		// Conditions that cannot fail run first, so the row-at-a-time
		// executor may fail where the columnar one does not: errors are
		// compared with the columnar executor judging nothing.
		judgingParts = false
		whole, _ := newAnswer(q, s)
		judgingParts = true
		if got != whole {
			t.Errorf("%s:\n  got: %s\nwhole: %s", q, got, whole)
		}
		if want := refAnswer(q, s); !strings.HasPrefix(want, "error") && got != want {
			t.Errorf("%s:\n got: %s\nwant: %s", q, got, want)
		}
		if x != nil && x.stats.RowGroupsPartsJudged > 0 {
			judged++
		}
		if got != "" && !strings.HasPrefix(got, "0") && !strings.HasPrefix(got, "error") {
			nonEmpty++
		}
	}
	if judged < n/3 || nonEmpty < n/3 {
		t.Errorf("%d of %d queries judged parts by dictionary, %d with rows", judged, n, nonEmpty)
	}
}

// A dictionary judged a few entries at a time gives every entry the
// verdict it gets judged whole: the windows' ends fall inside the orders
// fixtures' dictionaries.
func TestDictionaryJudgedInWindows(t *testing.T) {
	t.Chdir(moduleRoot(t))
	defer func(w int) { judgeWindow = w }(judgeWindow)
	judgeWindow = 5
	s := NewSession().Settings
	judged := 0
	for _, from := range []string{shuffled, sorted} {
		for _, where := range []string{
			"customer_id = 17 OR city = 'Oslo'",
			"customer_id IN (3, 250, 399) AND status <> 'pending'",
			"customer_id > 200 AND city <> 'Oslo'",
			"city LIKE '%o%' OR city IS NULL",
			"NOT (city = 'Paris') AND quantity BETWEEN 3 AND 9",
			"note IS NULL",
		} {
			q := "SELECT count(*), sum(amount), min(order_id), max(order_id) FROM " + from + " WHERE " + where
			got, st := runStatsOf(t, q, s)
			if want := refAnswer(q, s); got != want {
				t.Errorf("%s:\n got: %s\nwant: %s", q, got, want)
			}
			if st.RowGroupsJudged > 0 {
				judged++
			}
		}
	}
	if judged < 8 {
		t.Errorf("%d of 12 queries judged by dictionary", judged)
	}
}

// Judging row group after row group reuses its buffers: a dictionary's
// verdicts serve the next dictionary a few entries larger, after garbage
// collections too, the cursor over the many ranges of a row each that a
// selective judge keeps makes its runs in one allocation, and a carry of a
// judged column grows into the storage of the last one.
func TestJudgingReusesItsBuffers(t *testing.T) {
	p := borrowDictTruth(120_000)
	first := &(*p)[0]
	putDictTruth(p)
	runtime.GC()
	runtime.GC()
	q := borrowDictTruth(120_400)
	if &(*q)[0] != first {
		t.Error("a dictionary a few entries larger got a verdict buffer of its own")
	}
	putDictTruth(q)
	ranges := make([]rowRange, 1500)
	for i := range ranges {
		ranges[i] = rowRange{First: int64(2 * i), End: int64(2*i + 1)}
	}
	allocs := testing.AllocsPerRun(10, func() {
		c := runCursor{rs: ranges}
		for c.next(BatchSize) != nil {
		}
	})
	if allocs > 1 {
		t.Errorf("the cursor over %d ranges made %v allocations, want 1", len(ranges), allocs)
	}
	// A judged column's carry grows into the integers the last one gave
	// back (the race detector drops pooled items at random).
	bigint := Type{ID: TypeBigInt}
	c := &carry{cols: []int{3}, vecs: make([]*Vector, 1)}
	v := c.target(3, bigint)
	v.Int = append(v.Int, make([]int64, 5000)...)
	c.release()
	next := (&carry{cols: []int{3}, vecs: make([]*Vector, 1)}).target(3, bigint)
	if !raceEnabled && cap(next.Int) < 5000 {
		t.Errorf("the next carry starts with room for %d integers, want 5000", cap(next.Int))
	}
}

// A WHERE on one column alone is judged by the node its filter compiled:
// an IN list's set of a join filter's keys is made once, not twice.
func TestJudgeSharesTheCompiledWhere(t *testing.T) {
	bigint := Type{ID: TypeBigInt}
	var list []planner.Expr
	for k := range 100 {
		list = append(list, &planner.Const{Value: planner.Datum{I: int64(100_000 + 9_000*k)}, T: bigint})
	}
	where := &planner.InList{X: &planner.ColRef{Index: 1, T: bigint}, List: list}
	f := newFilter(where, 2)
	judges, residual, ok := judgedWhere(where, f, 2, map[int]bool{1: true})
	if !ok || residual != nil || len(judges) != 1 || judges[0].picks != 100 {
		t.Fatalf("judges %+v, residual %v", judges, residual)
	}
	if n, ok := judges[0].node.(*inNode); !ok || n != f.root {
		t.Error("the judge compiled the WHERE again")
	}
}

// A dictionary of numbers converted for a row group goes back once its
// reader drops it, and the next row group's converts into it: a scan
// converts one a column and row group.
func TestDictionaryConversionReused(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled vectors at random")
	}
	ints := &format.Values{Type: meta.Int32, Int32: make([]int32, 300)}
	doubles := &format.Values{Type: meta.Double, Double: make([]float64, 300)}
	for i := range 300 {
		ints.Int32[i], doubles.Double[i] = int32(i), float64(i)/2
	}
	cases := []struct {
		lg   format.Logical
		d    *format.Values
		t    Type
		want func(v *Vector, i int) bool
	}{
		{format.Logical{Kind: format.KindInt32}, ints, Type{ID: TypeInteger}, func(v *Vector, i int) bool { return v.Int[i] == int64(i) && v.Float == nil }},
		{format.Logical{Kind: format.KindDouble}, doubles, Type{ID: TypeDouble}, func(v *Vector, i int) bool { return v.Float[i] == float64(i)/2 && v.Int == nil }},
	}
	for _, c := range cases {
		r := &flatReader{lg: c.lg}
		convert := func() {
			dv := r.dictFor(c.d, c.t)
			for i := range c.d.Len() {
				if !c.want(dv.vec, i) {
					t.Fatalf("%v: entry %d converted wrong", c.t.ID, i)
				}
			}
			r.dv.drop()
			r.dv = nil
		}
		convert()
		// The dictVector itself is made each time; its values are not.
		if allocs := testing.AllocsPerRun(20, convert); allocs > 1 {
			t.Errorf("%v: converting a dictionary of %d entries again allocates %v objects, want 1", c.t.ID, c.d.Len(), allocs)
		}
	}
}
