package exec

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// structPred draws random WHERE clauses over the struct fields of
// structs.parquet: comparisons, IN lists (with NULL), BETWEEN, LIKE and
// IS [NOT] NULL on fields at depths one and two, IS [NOT] NULL on the
// structs themselves, under AND, OR and NOT.
type structPred struct{ r *rand.Rand }

type structLeaf struct {
	exprs []string // ways of writing the same field
	vals  []string // literals: inside, at and outside the data, and NULL
}

var structLeaves = []structLeaf{
	{[]string{"address.city", "address['city']", "struct_extract(address, 'city')"},
		[]string{"'Amsterdam'", "'Berlin'", "'Hanoi'", "'Oslo'", "'Paris'", "'A'", "'Zzz'", "'Lima'", "''", "NULL"}},
	{[]string{"address.zip", "address['zip']"},
		[]string{"10000", "10003", "11500", "11501", "12997", "13000", "15997", "9999", "16000", "-1", "NULL", "11000.5"}},
	{[]string{"meta.inner.score", "meta['inner']['score']", "struct_extract(meta.inner, 'score')"},
		[]string{"-100", "0", "-0.0", "150.25", "399.75", "1e308", "'NaN'::DOUBLE", "'inf'::DOUBLE", "-1e9", "NULL"}},
	{[]string{"meta.inner.day"},
		[]string{"DATE '2022-01-08'", "DATE '2022-06-01'", "DATE '2022-10-20'", "DATE '2021-12-31'", "DATE '2023-01-01'", "NULL"}},
	{[]string{"pt.x", "pt['x']"}, []string{"0", "7", "250", "499", "500", "-1", "NULL"}},
	{[]string{"pt.y"}, []string{"-500", "-10", "0", "10", "499", "500", "NULL"}},
}

var structWholes = []string{"address", "meta", "meta.inner", "pt"}

var structOps = []string{"=", "!=", "<", "<=", ">", ">="}

func (g structPred) pick(xs []string) string { return xs[g.r.Intn(len(xs))] }

func (g structPred) leaf() string {
	if g.r.Intn(8) == 0 {
		not := ""
		if g.r.Intn(2) == 0 {
			not = " NOT"
		}
		return fmt.Sprintf("%s IS%s NULL", g.pick(structWholes), not)
	}
	l := structLeaves[g.r.Intn(len(structLeaves))]
	x := g.pick(l.exprs)
	switch g.r.Intn(7) {
	case 0:
		not := ""
		if g.r.Intn(2) == 0 {
			not = " NOT"
		}
		return fmt.Sprintf("%s IS%s NULL", x, not)
	case 1:
		n := 1 + g.r.Intn(4)
		vs := make([]string, n)
		for i := range vs {
			vs[i] = g.pick(l.vals)
		}
		not := ""
		if g.r.Intn(3) == 0 {
			not = " NOT"
		}
		return fmt.Sprintf("%s%s IN (%s)", x, not, strings.Join(vs, ", "))
	case 2:
		not := ""
		if g.r.Intn(3) == 0 {
			not = " NOT"
		}
		return fmt.Sprintf("%s%s BETWEEN %s AND %s", x, not, g.pick(l.vals), g.pick(l.vals))
	case 3:
		if l.exprs[0] == "address.city" {
			not := ""
			if g.r.Intn(3) == 0 {
				not = " NOT"
			}
			return fmt.Sprintf("%s%s LIKE '%s'", x, not, g.pick([]string{"O%", "Ma%", "%o", "Par_s", "Oslo", "%", "B%n"}))
		}
	}
	if g.r.Intn(4) == 0 {
		return fmt.Sprintf("%s %s %s", g.pick(l.vals), g.pick(structOps), x)
	}
	return fmt.Sprintf("%s %s %s", x, g.pick(structOps), g.pick(l.vals))
}

func (g structPred) tree(depth int) string {
	if depth >= 3 || g.r.Intn(10) < 4 {
		return g.leaf()
	}
	switch g.r.Intn(5) {
	case 0, 1:
		return "(" + g.tree(depth+1) + " AND " + g.tree(depth+1) + ")"
	case 2, 3:
		return "(" + g.tree(depth+1) + " OR " + g.tree(depth+1) + ")"
	}
	return "NOT (" + g.tree(depth+1) + ")"
}

// TestStructFieldPruningKeepsAnswers is pruning on struct leaves, tested
// through SQL: for random predicates on struct fields and on the structs
// themselves, NULL structs and NULL fields among the rows, every pushdown
// mechanism on gives the answer all of them off give. It also checks that
// pruning did happen, so that the comparison is not between two full scans.
func TestStructFieldPruningKeepsAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	g := structPred{r: rand.New(rand.NewSource(20261201))}
	all := NewSession().Settings
	all.Threads = 2
	noPage := all
	noPage.PageIndex = false
	none := Settings{Threads: 1}
	queries := 200
	if testing.Short() {
		queries = 50
	}
	var unread, skippedRG int64
	for i := 0; i < queries; i++ {
		q := "SELECT id, address.city, meta.inner.score, pt FROM 'fixtures/structs.parquet' WHERE " + g.tree(0) + " ORDER BY id"
		want, ref := newAnswer(q, none)
		if strings.HasPrefix(want, "error: ") {
			t.Fatalf("%s: %s", q, want)
		}
		for _, s := range []Settings{all, noPage} {
			got, x := newAnswer(q, s)
			if got != want {
				t.Fatalf("%s (page index %v):\n got: %.1500s\nwant: %.1500s", q, s.PageIndex, got, want)
			}
			unread += ref.stats.RowsDecoded - x.stats.RowsDecoded
			skippedRG += int64(x.stats.RowGroupsSkipped)
		}
	}
	if unread <= 0 || skippedRG == 0 {
		t.Fatalf("%d queries on struct fields: pruning left %d rows and %d row groups unread", queries, unread, skippedRG)
	}
	t.Logf("%d queries: pruning left %d rows and %d row groups unread", queries, unread, skippedRG)
}
