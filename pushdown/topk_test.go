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
	t.Logf("%s: %d of %d row group judgements skipped", d.name, skipped, judged)
}

func show(o stats.Order, k topKKey) string {
	if k.null {
		return "NULL"
	}
	return o.Format(k.v)
}
