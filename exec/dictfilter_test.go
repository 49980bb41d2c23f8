package exec

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// Judging a WHERE by dictionary keeps every answer: random predicates over
// the dictionary-encoded columns of the orders fixtures (city and note hold
// NULLs), alone, combined and beside conditions on other columns, answer as
// the row-at-a-time executor does.
func TestDictionaryJudgingKeepsAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	rng := rand.New(rand.NewSource(88))
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
