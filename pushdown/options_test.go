package pushdown

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// totalBytes is everything a plan makes the reader fetch: data and the
// index, filter and dictionary bytes fetched to decide.
func totalBytes(p *FilePlan) int64 {
	return p.ReadBytes + p.IndexBytes + p.FilterBytes + p.DictionaryBytes
}

// execute runs a plan as the executor would, reading only what it lists,
// and returns the matching rows as "row group:row:values" keys.
func execute(t *testing.T, f *format.File, p *FilePlan) []string {
	t.Helper()
	var out []string
	for _, g := range p.RowGroups {
		if g.Verdict == Skip {
			continue
		}
		read := readPlanned(t, f, g.Index, g)
		rd := &rgData{rows: g.NumRows, vals: make([][][]byte, len(f.Schema.Leaves)), null: make([][]bool, len(f.Schema.Leaves))}
		for leaf, cd := range read {
			rd.vals[leaf] = make([][]byte, g.NumRows)
			rd.null[leaf] = make([]bool, g.NumRows)
			for _, span := range cd.Pages {
				v := span.FirstValue
				for e := 0; e < span.NumEntries; e++ {
					row := span.FirstRow + int64(e)
					if cd.IsNull(span.FirstEntry + e) {
						rd.null[leaf][row] = true
						continue
					}
					rd.vals[leaf][row] = cd.Values.PlainBytes(v, []byte{})
					v++
				}
			}
		}
		for _, r := range g.Rows {
			for i := r.First; i < r.End; i++ {
				row := &rowView{d: rd, i: int(i)}
				if Eval(p.Predicate, row) != True {
					continue
				}
				key := fmt.Sprintf("%d:%d", g.Index, i)
				for _, c := range p.Columns {
					v, ok := row.Value(c)
					key += fmt.Sprintf(":%v/%x", ok, v)
				}
				out = append(out, key)
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestMechanismsOff is the third requirement: on a query a
// mechanism helps, switching it off (the others on) reads strictly more
// bytes and returns the same rows.
func TestMechanismsOff(t *testing.T) {
	tests := []struct {
		file string
		pred Expr
		off  Mechanism
	}{
		{"orders_sorted.parquet", eq("order_id", IntLiteral(431)), Statistics},
		{"orders_sorted.parquet", cmpx("order_date", Ge, DateLiteral(20063)), Statistics},
		{"orders_sorted.parquet", eq("order_id", IntLiteral(431)), PageIndex},
		{"orders_sorted.parquet", &IsNull{Col: Column{Path: "note"}, Not: true}, PageIndex},
		{"orders_shuffled.parquet", eq("customer_id", IntLiteral(424242)), BloomFilter},
		{"orders_sorted.parquet", eq("city", StringLiteral("Bergen")), BloomFilter},
		{"orders_shuffled.parquet", eq("status", StringLiteral("lost")), Dictionary},
		{"orders_sorted.parquet", eq("customer_id", IntLiteral(403180)), Dictionary},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s without %s", tt.file, tt.pred, tt.off), func(t *testing.T) {
			f := openFixture(t, tt.file)
			cols := []int{0, 1, 4, 7}
			on, err := Plan(f, tt.pred, cols, AllMechanisms())
			if err != nil {
				t.Fatal(err)
			}
			opt := AllMechanisms()
			switch tt.off {
			case Statistics:
				opt.Statistics = false
			case PageIndex:
				opt.PageIndex = false
			case BloomFilter:
				opt.Bloom = false
			case Dictionary:
				opt.Dictionary = false
			}
			off, err := Plan(f, tt.pred, cols, opt)
			if err != nil {
				t.Fatal(err)
			}
			if totalBytes(off) <= totalBytes(on) {
				t.Errorf("without %s: %d bytes, with it %d\nwith:\n%s\nwithout:\n%s", tt.off, totalBytes(off), totalBytes(on), on, off)
			}
			if on.Skipped[tt.off] == 0 {
				t.Errorf("with every mechanism, %s skipped nothing:\n%s", tt.off, on)
			}
			a, b := execute(t, f, on), execute(t, f, off)
			if strings.Join(a, "\n") != strings.Join(b, "\n") {
				t.Errorf("rows differ: %d with %s, %d without", len(a), tt.off, len(b))
			}
			none, err := Plan(f, tt.pred, cols, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c := execute(t, f, none); strings.Join(a, "\n") != strings.Join(c, "\n") {
				t.Errorf("rows differ: %d with every mechanism, %d with none", len(a), len(c))
			}
		})
	}
}

// corrupted opens a fixture from memory after change rewrites its bytes.
func corrupted(t *testing.T, name string, change func(f *format.File, data []byte)) *format.File {
	t.Helper()
	path := filepath.Join(testcorpus.ModuleRoot(t), "fixtures", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("skipping: fixture %s is not present (%v)", name, err)
	}
	orig, err := format.OpenSource(format.BytesSource(data), name, format.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	change(orig, data)
	f, err := format.OpenSource(format.BytesSource(data), name, format.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestUnreadableIndexesKeep checks that index, filter and dictionary data
// that cannot be read keeps the data and says so.
func TestUnreadableIndexesKeep(t *testing.T) {
	fill := func(data []byte, r format.Range) {
		for i := r.Offset; i < r.End(); i++ {
			data[i] = 0xff
		}
	}
	tests := []struct {
		name   string
		file   string
		pred   Expr
		change func(f *format.File, data []byte)
		opt    Options
		rg0    Verdict
		note   string
	}{
		{"bloom header", "orders_shuffled.parquet", eq("customer_id", IntLiteral(424242)),
			func(f *format.File, data []byte) {
				off := *f.Chunk(0, 1).MetaData.BloomFilterOffset
				fill(data, format.Range{Offset: off, Length: 16})
			}, Options{Statistics: true, Bloom: true}, Scan, "Bloom filter unused, kept"},
		{"column index", "orders_sorted.parquet", eq("order_id", IntLiteral(431)),
			func(f *format.File, data []byte) {
				r, _ := f.ColumnIndexRange(0, 0)
				fill(data, r)
			}, AllMechanisms(), Scan, "page index unused, pages kept"},
		{"offset index", "orders_sorted.parquet", eq("order_id", IntLiteral(431)),
			func(f *format.File, data []byte) {
				r, _ := f.OffsetIndexRange(0, 0)
				fill(data, r)
			}, AllMechanisms(), Scan, "offset index cannot be read"},
		{"dictionary page", "orders_sorted.parquet", eq("status", StringLiteral("lost")),
			func(f *format.File, data []byte) {
				oi, _ := f.ReadOffsetIndex(0, 4)
				fill(data, f.DictionaryRange(0, 4, oi))
			}, AllMechanisms(), Scan, "dictionary unused, kept"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := corrupted(t, tt.file, tt.change)
			p, err := Plan(f, tt.pred, allLeaves(f), tt.opt)
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if g := p.RowGroups[0]; g.Verdict != tt.rg0 {
				t.Errorf("row group 0: %s (%s), want %s", g.Verdict, g.Reason, tt.rg0)
			}
			if !strings.Contains(strings.Join(p.Notes, "\n"), tt.note) {
				t.Errorf("notes %q do not say %q", p.Notes, tt.note)
			}
			for _, g := range p.RowGroups[1:] {
				if g.Verdict != Skip {
					t.Errorf("row group %d: %s (%s), want skipped as before", g.Index, g.Verdict, g.Reason)
				}
			}
		})
	}
}
