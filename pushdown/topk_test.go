package pushdown

import (
	"math"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/stats"
)

// TestTopKSoundnessProperty is the top-k contract, tested: for every flat
// column with an order, random directions, NULL orders and bounds (values of
// the column, NULL, NaN and the true k-th key for a random k), a row group
// TopK skips holds no row that sorts before the bound or ties with it,
// judged on every decoded row.
func TestTopKSoundnessProperty(t *testing.T) {
	files := []string{"orders_sorted.parquet", "orders_shuffled.parquet", "statistics.parquet", "types.parquet"}
	for i, name := range files {
		t.Run(name, func(t *testing.T) {
			topKSoundness(t, decodeFile(t, openFixture(t, name)), 60, *flagSeed+int64(i))
		})
	}
	t.Run("corpus", func(t *testing.T) {
		for i, path := range corpusFiles(t) {
			f, err := format.Open(path)
			if err != nil {
				continue
			}
			d := decodeFile(t, f)
			if len(d.flat) > 0 {
				t.Run(filepath.Base(path), func(t *testing.T) { topKSoundness(t, d, 8, *flagSeed+200+int64(i)) })
			}
			f.Close()
		}
	})
}

// topKKey is one row's key: NULL, or v in physical form.
type topKKey struct {
	null bool
	v    []byte
}

func topKSoundness(t *testing.T, d *fileData, trials int, seed int64) {
	r := rand.New(rand.NewSource(seed))
	var rgs []int
	for rg := range d.rgs {
		rgs = append(rgs, rg)
	}
	skipped, judged := 0, 0
	pagesSkipped, pagesJudged, bounds := 0, 0, 0
	for _, leaf := range d.flat {
		o, ok, _ := stats.OrderOf(d.f.Schema.Leaves[leaf].Element)
		if !ok || !o.Defined() {
			continue
		}
		var keys []topKKey
		for _, rd := range d.rgs {
			for i := range rd.vals[leaf] {
				keys = append(keys, topKKey{rd.null[leaf][i], rd.vals[leaf][i]})
			}
		}
		if len(keys) == 0 {
			continue
		}
		for range trials {
			desc, nullsFirst := r.Intn(2) == 0, r.Intn(2) == 0
			tk, err := NewTopK(d.f, leaf, desc, nullsFirst)
			if err != nil {
				t.Fatal(err)
			}
			// sorts orders two keys as ORDER BY does.
			sorts := func(a, b topKKey) int {
				switch {
				case a.null && b.null:
					return 0
				case a.null == b.null:
					c := o.Compare(a.v, b.v)
					if desc {
						return -c
					}
					return c
				case a.null == nullsFirst:
					return -1
				}
				return 1
			}
			var bound topKKey
			switch pick := r.Intn(4); {
			case pick == 0:
				bound = topKKey{null: true}
			case pick == 1 && o.Kind().IsFloat():
				v, err := o.Float(math.NaN())
				if err != nil {
					t.Fatal(err)
				}
				bound = topKKey{v: v}
			case pick == 2:
				// The true k-th key of the whole file.
				sorted := slices.Clone(keys)
				slices.SortStableFunc(sorted, sorts)
				bound = sorted[r.Intn(min(len(sorted), 50))]
			default:
				bound = keys[r.Intn(len(keys))]
			}
			b := TopKBound{Null: bound.null, Value: bound.v}
			order := tk.Promising(rgs)
			if len(order) != len(rgs) {
				t.Fatalf("%s: Promising returned %d of %d row groups", d.name, len(order), len(rgs))
			}
			for rg, rd := range d.rgs {
				pages, _, _, _ := tk.Pages(rg)
				if pages != nil {
					ps := topKPagesSound(t, tk, pages, rd, leaf, b, r.Intn(2*int(rd.rows)+2), sorts)
					pagesSkipped += ps.skipped
					pagesJudged += ps.judged
					bounds += ps.bounds
				}
				judged++
				if !tk.ExcludesRowGroup(rg, b) {
					continue
				}
				skipped++
				for i := range rd.vals[leaf] {
					k := topKKey{rd.null[leaf][i], rd.vals[leaf][i]}
					if sorts(k, bound) <= 0 {
						t.Fatalf("%s: column %s, desc %v, nulls first %v, bound %s: row group %d skipped but row %d (%s) sorts no later",
							d.name, d.f.Schema.Leaves[leaf].Path, desc, nullsFirst, show(o, bound), rg, i, show(o, k))
					}
				}
			}
		}
	}
	t.Logf("%s: %d of %d row group judgements skipped; %d of %d page judgements; %d bounds from pages", d.name, skipped, judged, pagesSkipped, pagesJudged, bounds)
}

// pageTally counts one row group's page judgements.
type pageTally struct{ skipped, judged, bounds int }

// topKPagesSound checks TopK's page judgements of row group rd against its
// decoded rows: a page skipped under b holds no row that sorts before or
// ties with b, and the bound PagesBound derives for k has at least k rows
// of the row group sorting before or tying with it, so that skipping the
// pages after it is sound too.
func topKPagesSound(t *testing.T, tk *TopK, p *TopKPages, rd *rgData, leaf int, b TopKBound, k int, sorts func(a, b topKKey) int) pageTally {
	t.Helper()
	var tally pageTally
	o := tk.Order()
	path := tk.f.Schema.Leaves[leaf].Path
	check := func(b TopKBound, what string) {
		bound := topKKey{null: b.Null, v: b.Value}
		for i, rows := range p.Rows {
			tally.judged++
			if !tk.ExcludesPage(p, i, b) {
				continue
			}
			tally.skipped++
			for row := rows.First; row < rows.End; row++ {
				key := topKKey{rd.null[leaf][row], rd.vals[leaf][row]}
				if sorts(key, bound) <= 0 {
					t.Fatalf("column %s, desc %v, nulls first %v, %s %s: page %d [%d, %d) skipped but row %d (%s) sorts no later",
						path, tk.desc, tk.nullsFirst, what, show(o, bound), i, rows.First, rows.End, row, show(o, key))
				}
			}
		}
	}
	check(b, "bound")
	pb, ok := tk.PagesBound(p, k)
	if !ok {
		return tally
	}
	tally.bounds++
	bound := topKKey{null: pb.Null, v: pb.Value}
	held := 0
	for row := range rd.vals[leaf] {
		if sorts(topKKey{rd.null[leaf][row], rd.vals[leaf][row]}, bound) <= 0 {
			held++
		}
	}
	if held < k {
		t.Fatalf("column %s, desc %v, nulls first %v: the pages' bound %s for k = %d has only %d rows sorting no later",
			path, tk.desc, tk.nullsFirst, show(o, bound), k, held)
	}
	check(pb, "bound from the pages")
	return tally
}

func show(o stats.Order, k topKKey) string {
	if k.null {
		return "NULL"
	}
	return o.Format(k.v)
}
