package pushdown

import (
	"flag"
	"math/rand"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

var (
	flagTrees = flag.Int("pushdown.trees", 0, "random predicate trees per orders fixture in the soundness property (default 1000; the other files get a fifth)")
	flagSeed  = flag.Int64("pushdown.seed", 20240101, "seed of the soundness property")
)

func treesPerFixture() int {
	if *flagTrees > 0 {
		return *flagTrees
	}
	return 1000
}

// TestSoundnessProperty is the contract, tested: for random predicate trees
// and random mechanism switches, every row that satisfies the predicate
// (decoding everything and evaluating directly) lies in a kept row range
// and in a kept page of every column the plan reads. It also checks that
// the resolved predicate agrees with the planner's on sampled rows, and,
// for some trees, that reading only the planned pages yields the same
// values for every matching row.
func TestSoundnessProperty(t *testing.T) {
	n := treesPerFixture()
	files := []struct {
		name  string
		open  func(t *testing.T) *format.File
		trees int
	}{
		{"orders_sorted", func(t *testing.T) *format.File { return openFixture(t, "orders_sorted.parquet") }, n},
		{"orders_shuffled", func(t *testing.T) *format.File { return openFixture(t, "orders_shuffled.parquet") }, n},
		{"statistics", func(t *testing.T) *format.File { return openFixture(t, "statistics.parquet") }, n / 5},
		{"types", func(t *testing.T) *format.File { return openFixture(t, "types.parquet") }, n / 5},
		{"nested", func(t *testing.T) *format.File { return openFixture(t, "nested.parquet") }, n / 5},
		{"structs", func(t *testing.T) *format.File { return openFixture(t, "structs.parquet") }, n / 2},
	}
	for i, f := range files {
		t.Run(f.name, func(t *testing.T) { soundness(t, decodeFile(t, f.open(t)), f.trees, *flagSeed+int64(i)) })
	}
	t.Run("corpus", func(t *testing.T) {
		for i, path := range corpusFiles(t) {
			f, err := format.Open(path)
			if err != nil {
				t.Logf("%s: not opened (%v)", filepath.Base(path), err)
				continue
			}
			d := decodeFile(t, f)
			if len(d.flat) > 0 {
				t.Run(filepath.Base(path), func(t *testing.T) { soundness(t, d, max(n/20, 20), *flagSeed+100+int64(i)) })
			}
			f.Close()
		}
	})
}

func soundness(t *testing.T, d *fileData, trees int, seed int64) {
	g := newTreeGen(d, seed)
	r := rand.New(rand.NewSource(seed + 1))
	var all []int
	for i := range d.f.Schema.Leaves {
		all = append(all, i)
	}
	start := time.Now()
	matched, skippedRG, narrowed := 0, 0, 0
	for k := 0; k < trees; k++ {
		tree := g.tree(0)
		opt := randomOptions(r)
		bound, err := Bind(d.f.Schema, tree)
		if err != nil {
			t.Fatalf("Bind(%s): %v", describe(tree), err)
		}
		plan, err := Plan(d.f, tree, all, opt)
		if err != nil {
			t.Fatalf("Plan(%s): %v", describe(tree), err)
		}
		resolved := plan.Predicate
		exec := k%25 == 0 && !d.contradicted
		for rg, rd := range d.rgs {
			rp := plan.RowGroups[rg]
			if rp.Verdict == Skip {
				skippedRG++
			} else if rp.Verdict == Select {
				narrowed++
			}
			var read map[int]*format.ColumnData
			row := &rowView{d: rd}
			for i := int64(0); i < rd.rows; i++ {
				row.i = int(i)
				got := Eval(resolved, row)
				if r.Intn(200) == 0 {
					if want := Eval(bound, row); want != got {
						t.Fatalf("%s: row group %d, row %d: %s is %v, resolved %s is %v", d.name, rg, i, describe(tree), want, resolved, got)
					}
				}
				if got != True {
					continue
				}
				matched++
				if rp.Verdict == Skip {
					t.Fatalf("%s: %s (options %s): row group %d skipped (%s: %s) but row %d matches",
						d.name, describe(tree), opt, rg, rp.Mechanism, rp.Reason, i)
				}
				if !rp.Rows.Contains(i) {
					t.Fatalf("%s: %s (options %s): row group %d keeps rows %s (%s) but row %d matches",
						d.name, describe(tree), opt, rg, rp.Rows, rp.Reason, i)
				}
				for _, cr := range rp.Columns {
					if cr.Whole {
						continue
					}
					p := rd.pageOf(cr.Leaf, i)
					j := sort.SearchInts(cr.PageIndexes, p)
					if j == len(cr.PageIndexes) || cr.PageIndexes[j] != p || cr.Pages[j].FirstRow > i {
						t.Fatalf("%s: %s (options %s): row group %d, column %s reads pages %v, but row %d (page %d) matches",
							d.name, describe(tree), opt, rg, cr.Path, cr.PageIndexes, i, p)
					}
				}
				if exec {
					if read == nil {
						read = readPlanned(t, d.f, rg, rp)
					}
					checkPlannedValues(t, d, rg, i, read)
				}
			}
		}
	}
	t.Logf("%s: %d trees in %v: %d matching rows checked, %d row groups skipped, %d narrowed",
		d.name, trees, time.Since(start).Round(time.Millisecond), matched, skippedRG, narrowed)
}

// readPlanned reads a kept row group as an executor would: only what the
// plan lists.
func readPlanned(t *testing.T, f *format.File, rg int, rp RowGroupPlan) map[int]*format.ColumnData {
	out := map[int]*format.ColumnData{}
	for _, cr := range rp.Columns {
		if f.Schema.Leaves[cr.Leaf].MaxRep > 0 {
			continue
		}
		var cd *format.ColumnData
		var err error
		switch {
		case cr.Whole && cr.Dictionary != nil:
			cd, err = f.ReadPagesGiven(rg, cr.Leaf, cr.Dictionary, cr.Tail.Offset, nil, nil)
		case cr.Whole:
			cd, err = f.ReadColumn(rg, cr.Leaf)
		case cr.Dictionary != nil:
			cd, err = f.ReadPagesGiven(rg, cr.Leaf, cr.Dictionary, 0, cr.Pages, nil)
		default:
			cd, err = f.ReadPages(rg, cr.Leaf, cr.Dict, cr.Pages, nil)
		}
		if err != nil {
			t.Fatalf("%s: row group %d, column %s: reading the planned pages: %v", f.Name, rg, cr.Path, err)
		}
		out[cr.Leaf] = cd
	}
	return out
}

// checkPlannedValues checks that the planned pages give row i the values
// the whole decode gave it.
func checkPlannedValues(t *testing.T, d *fileData, rg int, i int64, read map[int]*format.ColumnData) {
	rd := d.rgs[rg]
	for leaf, cd := range read {
		if rd.vals[leaf] == nil {
			continue
		}
		var span *format.PageSpan
		for k := range cd.Pages {
			p := &cd.Pages[k]
			if p.FirstRow <= i && i < p.FirstRow+p.NumRows {
				span = p
				break
			}
		}
		if span == nil {
			t.Fatalf("%s: row group %d, column %s: row %d is in no planned page", d.name, rg, d.f.Schema.Leaves[leaf].Path, i)
		}
		entry := span.FirstEntry + int(i-span.FirstRow)
		null := cd.IsNull(entry)
		if null != rd.null[leaf][i] {
			t.Fatalf("%s: row group %d, column %s, row %d: planned read says null=%v, whole read %v", d.name, rg, d.f.Schema.Leaves[leaf].Path, i, null, rd.null[leaf][i])
		}
		if null {
			continue
		}
		v := span.FirstValue
		for e := span.FirstEntry; e < entry; e++ {
			if !cd.IsNull(e) {
				v++
			}
		}
		got := cd.Values.PlainBytes(v, nil)
		if string(got) != string(rd.vals[leaf][i]) {
			t.Fatalf("%s: row group %d, column %s, row %d: planned read gives %x, whole read %x", d.name, rg, d.f.Schema.Leaves[leaf].Path, i, got, rd.vals[leaf][i])
		}
	}
}

// TestSoundnessUnderContradictingMetadata is the contract when metadata
// contradicts other metadata: the footer of a fixture is altered so that
// each proof's inputs disagree (num_values against the row count, a null
// count that would prove "only nulls" from a short num_values, a Bloom
// filter length against its header), and every row that matches in the
// data, decoded before the alteration, must still be kept.
func TestSoundnessUnderContradictingMetadata(t *testing.T) {
	n := max(treesPerFixture()/5, 20)
	mutations := []struct {
		name string
		edit func(rows int64, md *meta.ColumnMetaData, r *rand.Rand)
	}{
		{"num_values 0, null_count 0", func(rows int64, md *meta.ColumnMetaData, r *rand.Rand) {
			md.NumValues = 0
			if md.Statistics != nil {
				md.Statistics.NullCount = ptrInt64(0)
			}
		}},
		{"num_values short, all of them null", func(rows int64, md *meta.ColumnMetaData, r *rand.Rand) {
			md.NumValues = r.Int63n(max(rows, 1))
			if md.Statistics != nil {
				md.Statistics.NullCount = ptrInt64(md.NumValues)
			}
		}},
		{"num_values long", func(rows int64, md *meta.ColumnMetaData, r *rand.Rand) {
			md.NumValues = rows + 1 + r.Int63n(100)
			if md.Statistics != nil {
				md.Statistics.NullCount = ptrInt64(md.NumValues)
			}
		}},
		{"bloom_filter_length against the header", func(rows int64, md *meta.ColumnMetaData, r *rand.Rand) {
			if md.BloomFilterOffset != nil {
				l := int32(32 * (1 + r.Intn(16)))
				if md.BloomFilterLength != nil {
					l += *md.BloomFilterLength
				}
				md.BloomFilterLength = &l
			}
		}},
	}
	for _, name := range []string{"orders_sorted.parquet", "orders_shuffled.parquet", "statistics.parquet", "types.parquet"} {
		truth := decodeFile(t, openFixture(t, name))
		for i, m := range mutations {
			t.Run(name+"/"+m.name, func(t *testing.T) {
				f := openFixture(t, name)
				r := rand.New(rand.NewSource(*flagSeed + int64(i)))
				for rg := range f.Meta.RowGroups {
					rows := f.Meta.RowGroups[rg].NumRows
					if rows == 0 {
						continue
					}
					for c := range f.Meta.RowGroups[rg].Columns {
						md := f.Chunk(rg, c).MetaData
						if md.Statistics != nil {
							st := *md.Statistics
							md.Statistics = &st
						}
						m.edit(rows, md, r)
					}
				}
				d := *truth
				d.f, d.contradicted = f, true
				soundness(t, &d, n, *flagSeed+int64(i))
			})
		}
	}
}

func ptrInt64(v int64) *int64 { return &v }
