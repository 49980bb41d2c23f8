package exec

import (
	"cmp"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// TestRowGroupCutKeepsContenders feeds random row groups to a sorted
// limit's row-group cut, batch by batch as the scan does (rows with gaps,
// a WHERE's selection), and checks that every row that can still be among
// the k first survives: every selected row that does not sort after the
// heap's bound and that fewer than k selected rows sort before (before in
// row order too, among ties, when the key is the only one). Keys come from
// small domains, so that the bound and the k-th row tie with many rows,
// with NULLs, NaN, infinities and both zeros.
func TestRowGroupCutKeepsContenders(t *testing.T) {
	r := rand.New(rand.NewSource(20261202))
	trials := 3000
	if testing.Short() {
		trials = 500
	}
	var kept, required, selected int
	for trial := range trials {
		kind := []cmpKind{cmpInt, cmpFloat, cmpString}[r.Intn(3)]
		typ := map[cmpKind]Type{cmpInt: {ID: TypeBigInt}, cmpFloat: {ID: TypeDouble}, cmpString: {ID: TypeVarchar}}[kind]
		key := planner.SortKey{Index: 0, Desc: r.Intn(2) == 0, NullsFirst: r.Intn(2) == 0}
		s := &topKScan{key: key, col: 0, typ: typ, k: r.Intn(300), onlyKey: r.Intn(2) == 0}
		g := cutGen{r: r, kind: kind, domain: []int{1, 3, 20, 1000, 1 << 20}[r.Intn(5)], nullPct: []int{0, 5, 50, 100}[r.Intn(4)]}
		numRows := int64(1 + r.Intn(6000))
		keys := make([]cutKey, numRows)
		for i := range keys {
			keys[i] = g.key()
		}
		var lb loggedBound
		if r.Intn(3) > 0 {
			b := g.key()
			lb = loggedBound{d: b.datum(kind), has: true}
		}
		runs := g.runs(numRows)
		where := r.Intn(2) == 0
		c := s.newRowGroupCut(lb, typ)
		sel := make([]bool, numRows) // the rows offered: kept and selected
		batch := 1 + r.Intn(2*BatchSize)
		for cur := (runCursor{rs: runs}); ; {
			rs := cur.next(batch)
			if rs == nil {
				break
			}
			b, rows := g.batch(keys, rs, typ)
			var pick []int32
			for i, row := range rows {
				if !where || r.Intn(3) > 0 {
					pick = append(pick, int32(i))
					sel[row] = true
				}
			}
			c.add(b, rs, pick)
		}
		survived := make([]bool, numRows)
		last := int64(-1)
		for _, rr := range c.survivors() {
			if rr.First <= last || rr.End <= rr.First {
				t.Fatalf("trial %d: survivors out of order or empty at [%d, %d)", trial, rr.First, rr.End)
			}
			last = rr.End - 1
			for row := rr.First; row < rr.End; row++ {
				if row >= numRows || !sel[row] {
					t.Fatalf("trial %d: row %d survives but was not offered", trial, row)
				}
				survived[row] = true
				kept++
			}
		}
		s.recycle(c)
		// The rows that may still be among the k first, by brute force.
		var contenders []int64
		for row := range numRows {
			if !sel[row] {
				continue
			}
			selected++
			if lb.has && keys[row].compare(cutKeyOf(lb.d, kind), key) > 0 {
				continue
			}
			contenders = append(contenders, row)
		}
		// In key order, ties in row order: a row's position counts the rows
		// before it, its tie group's first position those with a smaller key.
		slices.SortStableFunc(contenders, func(a, b int64) int { return keys[a].compare(keys[b], key) })
		group := 0
		for p, row := range contenders {
			if p > 0 && keys[contenders[p-1]].compare(keys[row], key) != 0 {
				group = p
			}
			before := group
			if s.onlyKey {
				before = p
			}
			if before >= s.k {
				continue
			}
			required++
			if !survived[row] {
				t.Fatalf("trial %d (%v key %+v, k %d, only key %v, bound %+v, where %v): row %d (key %s) can be among the k first but was dropped",
					trial, typ, key, s.k, s.onlyKey, lb, where, row, keys[row])
			}
		}
	}
	t.Logf("%d rows offered, %d could be among the k first, %d survived", selected, required, kept)
}

// A cutKey is one row's sort key in a cut test.
type cutKey struct {
	null bool
	i    int64
	f    float64
	s    string
}

func (k cutKey) String() string {
	switch {
	case k.null:
		return "NULL"
	case k.s != "":
		return fmt.Sprintf("%q", k.s)
	}
	return fmt.Sprintf("%d/%g", k.i, k.f)
}

func (k cutKey) datum(kind cmpKind) planner.Datum {
	switch {
	case k.null:
		return planner.Datum{Null: true}
	case kind == cmpFloat:
		return planner.Datum{F: k.f}
	case kind == cmpString:
		return planner.Datum{S: k.s}
	}
	return planner.Datum{I: k.i}
}

func cutKeyOf(d planner.Datum, kind cmpKind) cutKey {
	return cutKey{null: d.Null, i: d.I, f: d.F, s: d.S}
}

// compare orders a before b as a sorted limit on key does (DuckDB's
// order: NaN above every number, -0 equal to +0, NULLs where key puts
// them whatever the direction).
func (a cutKey) compare(b cutKey, key planner.SortKey) int {
	switch {
	case a.null && b.null:
		return 0
	case a.null:
		if key.NullsFirst {
			return -1
		}
		return 1
	case b.null:
		if key.NullsFirst {
			return 1
		}
		return -1
	}
	c := cmp.Compare(a.i, b.i)
	if c == 0 {
		c = cmp.Compare(a.s, b.s)
	}
	if c == 0 {
		c = compareFloats(a.f, b.f)
	}
	if key.Desc {
		return -c
	}
	return c
}

// compareFloats is DuckDB's order of doubles, written out on its own.
func compareFloats(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cutGen draws keys and row layouts for cut tests.
type cutGen struct {
	r       *rand.Rand
	kind    cmpKind
	domain  int
	nullPct int
}

func (g cutGen) key() cutKey {
	if g.r.Intn(100) < g.nullPct {
		return cutKey{null: true}
	}
	x := g.r.Intn(g.domain) - g.domain/2
	switch g.kind {
	case cmpFloat:
		special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, math.MaxFloat64}
		if g.r.Intn(8) == 0 {
			return cutKey{f: special[g.r.Intn(len(special))]}
		}
		return cutKey{f: float64(x) / 4}
	case cmpString:
		return cutKey{s: fmt.Sprintf("s%07d", x+g.domain)}
	}
	if g.r.Intn(16) == 0 {
		return cutKey{i: []int64{math.MinInt64, math.MaxInt64, -1, 0}[g.r.Intn(4)]}
	}
	return cutKey{i: int64(x)}
}

// runs are the rows of a row group of n rows the scan reads: all, or
// ranges with gaps (rows a page index or a LIMIT left out).
func (g cutGen) runs(n int64) []rowRange {
	if g.r.Intn(2) == 0 {
		return []rowRange{{First: 0, End: n}}
	}
	var out []rowRange
	for at := int64(0); at < n; {
		end := min(n, at+1+g.r.Int63n(700))
		if g.r.Intn(3) > 0 {
			out = append(out, rowRange{First: at, End: end})
		}
		at = end + g.r.Int63n(300)
	}
	return out
}

// batch is the keys of the rows rs as the scan's first column, and those
// rows' numbers.
func (g cutGen) batch(keys []cutKey, rs []rowRange, typ Type) (*batch, []int64) {
	v := &Vector{Type: typ}
	var rows []int64
	for _, rr := range rs {
		for row := rr.First; row < rr.End; row++ {
			rows = append(rows, row)
		}
	}
	nulls := make([]bool, len(rows))
	anyNull := false
	for i, row := range rows {
		k := keys[row]
		nulls[i] = k.null
		anyNull = anyNull || k.null
		switch g.kind {
		case cmpFloat:
			v.Float = append(v.Float, k.f)
		case cmpString:
			v.Str = append(v.Str, k.s)
		default:
			v.Int = append(v.Int, k.i)
		}
	}
	if anyNull {
		v.Nulls = nulls
	}
	return &batch{cols: []*Vector{v}, n: len(rows)}, rows
}

// TestTopKWould checks the rows a row group's other columns would be read
// for without its cut: the WHERE's, and those the key's page cut took out
// of the rows planned.
func TestTopKWould(t *testing.T) {
	rr := func(xs ...int64) []rowRange {
		var out []rowRange
		for i := 0; i < len(xs); i += 2 {
			out = append(out, rowRange{First: xs[i], End: xs[i+1]})
		}
		return out
	}
	for _, tt := range []struct {
		passing, kept0, kept, want []rowRange
	}{
		{nil, rr(0, 100), rr(0, 100), nil},
		{rr(5, 6), rr(0, 100), rr(0, 100), rr(5, 6)},
		{rr(5, 6), rr(0, 100), rr(0, 10, 50, 60), rr(5, 6, 10, 50, 60, 100)},
		{rr(50, 52), rr(0, 100), rr(40, 60), rr(0, 40, 50, 52, 60, 100)},
		{nil, rr(0, 10, 20, 30), rr(0, 10, 25, 30), rr(20, 25)},
		{nil, rr(0, 10, 20, 30), nil, rr(0, 10, 20, 30)},
		{rr(3, 4), rr(0, 10, 20, 30), rr(2, 5, 20, 30), rr(0, 2, 3, 4, 5, 10)},
	} {
		got := topKWould(tt.passing, tt.kept0, tt.kept)
		if !pushdown.RowRanges(got).Equal(tt.want) {
			t.Errorf("topKWould(%v, %v, %v) = %v, want %v", tt.passing, tt.kept0, tt.kept, got, tt.want)
		}
	}
}

// TestTopKPagesAccount checks EXPLAIN ANALYZE's account of a sorted limit
// without WHERE that reads every row group: each page of the columns read
// was decoded, or was a page of the key its page index skipped, or a page
// of another column the cut left unread; none is counted twice.
func TestTopKPagesAccount(t *testing.T) {
	t.Chdir(moduleRoot(t))
	for _, order := range []string{
		"quantity LIMIT 20", "note NULLS FIRST LIMIT 5", "discount DESC LIMIT 50",
		"city DESC LIMIT 7", "customer_id LIMIT 40", "amount DESC LIMIT 300",
	} {
		for threads := 1; threads <= 2; threads++ {
			q := "SELECT * FROM " + shuffled + " ORDER BY " + order
			sess := NewSession()
			sess.Settings.Threads = threads
			j := explainJSON(t, sess, "EXPLAIN (FORMAT JSON, ANALYZE) "+q)
			a := j.Analyze
			if a.RowGroupsSkippedByTopK != 0 || len(j.Files) != 1 {
				t.Fatalf("%s: %d row groups skipped by top-k, %d files: the account below needs every row group read", q, a.RowGroupsSkippedByTopK, len(j.Files))
			}
			total := int64(j.Files[0].PagesKept)
			if got := a.PagesDecoded + a.PagesSkippedByTopK + a.OtherPagesLeftByTopK; got != total {
				t.Errorf("%s, %d threads: %d pages decoded + %d of the key skipped + %d of the other columns left = %d, want the %d pages of the columns read",
					q, threads, a.PagesDecoded, a.PagesSkippedByTopK, a.OtherPagesLeftByTopK, got, total)
			}
			if a.OtherPagesLeftByTopK == 0 && order != "amount DESC LIMIT 300" {
				t.Errorf("%s: no page of the other columns left unread", q)
			}
		}
	}
}

// TestTopKLimitZero checks that a sorted limit of no row reads no data:
// every row group is skipped, as LIMIT 0 without ORDER BY reads none.
func TestTopKLimitZero(t *testing.T) {
	t.Chdir(moduleRoot(t))
	for _, q := range []string{
		"SELECT * FROM " + shuffled + " ORDER BY amount DESC LIMIT 0",
		"SELECT * FROM " + shuffled + " WHERE status = 'returned' ORDER BY note NULLS FIRST, order_id LIMIT 0",
	} {
		got, st := runWithStats(t, q, NewSession().Settings)
		if strings.Count(got, "\n") != 1 {
			t.Errorf("%s: rows returned:\n%s", q, got)
		}
		if st.RowsDecoded != 0 || st.RowGroupsSkippedByTopK != 5 {
			t.Errorf("%s: %d rows decoded, %d of 5 row groups skipped by top-k", q, st.RowsDecoded, st.RowGroupsSkippedByTopK)
		}
	}
}
