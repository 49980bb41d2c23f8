package exec

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// TestTopKPruningProperty runs random sorted limits (random column, k,
// OFFSET, direction, NULL order, second key and thread count, with and
// without a WHERE) over the fixtures (several row groups of many pages)
// with top-k pruning (statistics on), with every pruning mechanism off,
// and as a full sort whose rows are then counted off. The answers must be
// identical, ties included (the rows earlier in the files first), and over
// the sorted file some row groups, and over the shuffled one some pages of
// the key and of the other columns, must be left unread.
func TestTopKPruningProperty(t *testing.T) {
	t.Chdir(moduleRoot(t))
	r := rand.New(rand.NewSource(20241201))
	off := NewSession().Settings
	off.Statistics, off.PageIndex, off.Bloom, off.Dictionary = false, false, false, false
	trials := 30
	if testing.Short() {
		trials = 10
	}
	skipped, pages, others := map[string]int{}, map[string]int64{}, map[string]int64{}
	for _, file := range []string{sorted, shuffled, statsF, typesF, both} {
		cols := sortableColumns(t, file)
		for range trials {
			col := cols[r.Intn(len(cols))]
			dir := []string{"", " ASC", " DESC"}[r.Intn(3)]
			nulls := []string{"", " NULLS FIRST", " NULLS LAST"}[r.Intn(3)]
			q := fmt.Sprintf("SELECT * FROM %s", file)
			if r.Intn(3) == 0 {
				q += " WHERE " + randomWhere(r, cols)
			}
			q += fmt.Sprintf(" ORDER BY %q%s%s", col, dir, nulls)
			if r.Intn(3) == 0 {
				// A second key orders the rows that tie on the first.
				q += fmt.Sprintf(", %q%s", cols[r.Intn(len(cols))], []string{" ASC", " DESC"}[r.Intn(2)])
			}
			sortQ := q
			limit, offset := r.Intn(40), 0
			if r.Intn(4) == 0 {
				// Past a page, or a row group, of rows.
				limit = r.Intn(3000)
			}
			q += fmt.Sprintf(" LIMIT %d", limit)
			if r.Intn(4) == 0 {
				offset = r.Intn(20)
				q += fmt.Sprintf(" OFFSET %d", offset)
			}
			on := NewSession().Settings
			on.Threads = 1 + r.Intn(3)
			got, st := runWithStats(t, q, on)
			want, _ := runWithStats(t, q, off)
			if got != want {
				t.Fatalf("%s\nwith top-k pruning:\n%s\nwithout pruning:\n%s", q, got, want)
			}
			all, _ := runWithStats(t, sortQ, on)
			if sorted := countOff(all, offset, limit); got != sorted {
				t.Fatalf("%s\nwith top-k pruning:\n%s\nfull sort, rows %d to %d:\n%s", q, got, offset, offset+limit, sorted)
			}
			skipped[file] += st.RowGroupsSkippedByTopK
			pages[file] += st.PagesSkippedByTopK
			others[file] += st.OtherPagesLeftByTopK
		}
	}
	if skipped[sorted] == 0 {
		t.Errorf("no row group of %s was skipped by top-k in %d sorted limits", sorted, trials)
	}
	if pages[shuffled] == 0 {
		t.Errorf("no page of %s was skipped by top-k in %d sorted limits", shuffled, trials)
	}
	if others[shuffled] == 0 {
		t.Errorf("no page of the other columns of %s was left unread by top-k in %d sorted limits", shuffled, trials)
	}
	t.Logf("row groups skipped by top-k: %v; pages of the key: %v; of the other columns: %v", skipped, pages, others)
}

// randomWhere is a WHERE over some of cols: on NULLs, or, on the orders
// columns, one that keeps rows scattered through every page.
func randomWhere(r *rand.Rand, cols []string) string {
	where := []string{
		fmt.Sprintf("%q IS NOT NULL", cols[r.Intn(len(cols))]),
		fmt.Sprintf("%q IS NULL OR %q IS NOT NULL", cols[r.Intn(len(cols))], cols[r.Intn(len(cols))]),
	}
	if slices.Contains(cols, "order_id") {
		where = append(where, fmt.Sprintf("order_id %% %d = 1", 2+r.Intn(60)))
	}
	if slices.Contains(cols, "status") {
		where = append(where, "status <> 'delivered'", "status = 'returned'")
	}
	return where[r.Intn(len(where))]
}

// countOff is the rows offset to offset+limit of a rendered answer (answer),
// its header kept.
func countOff(all string, offset, limit int) string {
	lines := strings.SplitAfter(all, "\n")
	if len(lines) == 0 || strings.HasPrefix(all, "error: ") {
		return all
	}
	rows := lines[1 : len(lines)-1] // the text ends with a newline
	rows = rows[min(offset, len(rows)):]
	rows = rows[:min(limit, len(rows))]
	return lines[0] + strings.Join(rows, "")
}

// sortableColumns are the columns of file a sort key may be.
func sortableColumns(t *testing.T, file string) []string {
	t.Helper()
	res, err := NewSession().Execute(context.Background(), "SELECT * FROM "+file+" LIMIT 0")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, c := range res.Columns {
		if res.Types[i].ID != TypeNested {
			out = append(out, c)
		}
	}
	return out
}

// runWithStats runs q with s and returns its answer and what the run
// measured.
func runWithStats(t *testing.T, q string, s Settings) (string, runStats) {
	t.Helper()
	st, err := planner.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	x := &executor{settings: s}
	res, err := x.result(context.Background(), p)
	return answer(res, err), x.stats
}
