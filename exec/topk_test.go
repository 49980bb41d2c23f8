package exec

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
)

// TestTopKPruningProperty runs random sorted limits (random column, k,
// OFFSET, direction, NULL order, second key and thread count, with and
// without a WHERE) over the fixtures (several row groups of many pages)
// with top-k pruning (statistics on), with every pruning mechanism off,
// and as a full sort whose rows are then counted off. The answers must be
// identical, ties included (the rows earlier in the files first), and over
// the sorted file some row groups, and over the shuffled one some pages of
// the key and of the other columns, must be left unread. Half the trials
// read the other columns after the scan whatever the LIMIT (deferAlways).
func TestTopKPruningProperty(t *testing.T) {
	t.Chdir(moduleRoot(t))
	r := rand.New(rand.NewSource(20241201))
	off := NewSession().Settings
	off.Statistics, off.PageIndex, off.Bloom, off.Dictionary = false, false, false, false
	trials := 30
	if testing.Short() {
		trials = 10
	}
	skipped, pages, others, late := map[string]int{}, map[string]int64{}, map[string]int64{}, map[string]int64{}
	defer func(old bool) { deferAlways = old }(deferAlways)
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
			// The other columns read after the scan, whatever the LIMIT,
			// or as the result's size and the pages decide.
			deferAlways = r.Intn(2) == 0
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
			late[file] += st.RowsReadLateByTopK
		}
	}
	for _, file := range []string{shuffled, typesF, both} {
		if late[file] == 0 {
			t.Errorf("no row of %s had its other columns read after the scan in %d sorted limits", file, trials)
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
	t.Logf("row groups skipped by top-k: %v; pages of the key: %v; of the other columns: %v; rows read late: %v", skipped, pages, others, late)
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

// TestTopKLateColumns runs sorted limits whose other columns are read
// after the scan, for the result's rows only (topklate.go): SELECT * and
// column lists with constants, a WHERE, OFFSET, several sort keys, NULLS
// FIRST and LAST, NaN, nested columns and a glob of two files whose rows
// tie across them. Each answer must be the one without pruning and the
// full sort's, counted off, on one thread and on three; and the late read
// must be taken, reading no more rows than the result holds, where the
// result has fewer rows than the files have pages of a column (tiny files
// take it with deferAlways).
func TestTopKLateColumns(t *testing.T) {
	for _, always := range []bool{false, true} {
		t.Run(fmt.Sprintf("always=%v", always), func(t *testing.T) {
			defer func(old bool) { deferAlways = old }(deferAlways)
			deferAlways = always
			testTopKLateColumns(t, always)
		})
	}
}

func testTopKLateColumns(t *testing.T, always bool) {
	t.Chdir(moduleRoot(t))
	off := NewSession().Settings
	off.Statistics, off.PageIndex, off.Bloom, off.Dictionary = false, false, false, false
	// late: the late read is taken without deferAlways; the orders files
	// have 20,000 rows in row groups of 16 pages a column, the others one
	// page.
	for _, tt := range []struct {
		sel, order    string
		limit, offset int
		late          bool
	}{
		{"SELECT * FROM " + shuffled, "amount DESC", 10, 0, true},
		{"SELECT note, order_id, 42 AS k, city FROM " + shuffled, "quantity, order_id DESC", 25, 5, true},
		{"SELECT * FROM " + shuffled + " WHERE status <> 'delivered'", "note NULLS FIRST, amount", 30, 7, true},
		{"SELECT * FROM " + shuffled + " WHERE order_id % 7 = 1", "discount DESC NULLS FIRST", 12, 3, true},
		{"SELECT * FROM " + both, "discount DESC NULLS LAST, city", 40, 3, true},
		{"SELECT * FROM " + both, "city", 15, 0, true},
		{"SELECT city, order_id FROM " + both, "priority DESC", 2500, 600, false},
		{"SELECT * FROM " + statsF, "temp_c DESC", 5, 1, false},
		{"SELECT * FROM " + statsF, "ratio NULLS FIRST, temp_c DESC", 7, 0, false},
		{"SELECT * FROM " + typesF, "double_col DESC NULLS FIRST", 9, 2, false},
		{"SELECT * FROM 'fixtures/nested.parquet'", "id DESC", 3, 1, false},
		{"SELECT * FROM " + shuffled, "amount", 5, 100000, true},
	} {
		for _, threads := range []int{1, 3} {
			q := fmt.Sprintf("%s ORDER BY %s LIMIT %d OFFSET %d", tt.sel, tt.order, tt.limit, tt.offset)
			on := NewSession().Settings
			on.Threads = threads
			got, st := runWithStats(t, q, on)
			want, _ := runWithStats(t, q, off)
			if got != want {
				t.Fatalf("%s, %d threads\nwith top-k pruning:\n%s\nwithout pruning:\n%s", q, threads, got, want)
			}
			all, _ := runWithStats(t, tt.sel+" ORDER BY "+tt.order, on)
			if sorted := countOff(all, tt.offset, tt.limit); got != sorted {
				t.Fatalf("%s, %d threads\nwith top-k pruning:\n%s\nfull sort, rows %d to %d:\n%s", q, threads, got, tt.offset, tt.offset+tt.limit, sorted)
			}
			rows := int64(strings.Count(got, "\n") - 1)
			if !tt.late && !always {
				rows = 0
			}
			if st.RowsReadLateByTopK != rows || (rows > 0) != (st.RowGroupsReadLateByTopK > 0) {
				t.Errorf("%s, %d threads: other columns read late for %d rows in %d row groups, want the %d rows of the result",
					q, threads, st.RowsReadLateByTopK, st.RowGroupsReadLateByTopK, rows)
			}
		}
	}
}

// TestTopKLateDamagedPages damages every data page of a column a sorted
// limit reads after the scan (city): the query must fail with the file's
// decoding error, placed in the file, whether the column is read late or
// with its row groups.
func TestTopKLateDamagedPages(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const src = "fixtures/orders_shuffled.parquet"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := format.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	leaf := slices.IndexFunc(f.Schema.Leaves, func(l *format.Leaf) bool { return l.Path == "city" })
	for rg := range f.Meta.RowGroups {
		md := f.Chunk(rg, leaf).MetaData
		end := md.DataPageOffset + md.TotalCompressedSize
		if md.DictionaryPageOffset != nil {
			end = *md.DictionaryPageOffset + md.TotalCompressedSize
		}
		for i := md.DataPageOffset; i < end; i++ {
			data[i] = 0xff
		}
	}
	path := filepath.Join(t.TempDir(), "damaged.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// LIMIT 10 reads the column after the scan, LIMIT 300 (more rows than
	// the file's 80 pages a column) with the row groups.
	for _, limit := range []int{10, 300} {
		q := fmt.Sprintf("SELECT * FROM '%s' ORDER BY amount DESC LIMIT %d", path, limit)
		_, st := runWithStats(t, q, NewSession().Settings)
		if late := st.RowsReadLateByTopK > 0; late != (limit == 10) {
			t.Errorf("%s: %d rows read late", q, st.RowsReadLateByTopK)
		}
		res, err := NewSession().Execute(context.Background(), q)
		if err == nil {
			t.Fatalf("%s: no error, %d batches", q, len(res.Batches))
		}
		if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "damaged.parquet: row group") {
			t.Errorf("%s: %v, want a corrupt-file error placing the page in the file", q, err)
		}
	}
}
