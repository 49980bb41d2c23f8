package pushdown

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"

	"github.com/pqsql/pqsql/format"
)

// openFixture opens one of the committed fixtures.
func openFixture(t testing.TB, name string) *format.File {
	t.Helper()
	path := filepath.Join(testcorpus.ModuleRoot(t), "fixtures", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skipping: fixture %s is not present (%v); run fixtures/gen", name, err)
	}
	f, err := format.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// corpusFiles lists the conformance corpus's readable files that have a
// page index or Bloom filters, from its CATALOG.tsv; it skips the test when
// ../shared is absent.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, err := corpusPaths(t)
	if err != nil {
		t.Skipf("skipping: the conformance corpus ../shared/parquet-testing is not present (%v)", err)
	}
	return files
}

// corpusPaths is corpusFiles without the skip.
func corpusPaths(t testing.TB) ([]string, error) {
	shared := filepath.Join(testcorpus.ModuleRoot(t), "..", "shared", "parquet-testing")
	fh, err := os.Open(filepath.Join(shared, "CATALOG.tsv"))
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var header []string
	var out []string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = fields
			continue
		}
		get := func(name string) string {
			for i, h := range header {
				if h == name && i < len(fields) {
					return fields[i]
				}
			}
			return ""
		}
		path := get("path")
		if get("bad_data") == "yes" || get("encryption") != "" || strings.HasSuffix(path, ".encrypted") ||
			strings.HasPrefix(path, "shredded_variant/") {
			continue
		}
		if strings.HasPrefix(get("page_index"), "yes") || strings.HasPrefix(get("bloom"), "yes") {
			out = append(out, filepath.Join(shared, path))
		}
	}
	sort.Strings(out)
	return out, sc.Err()
}

// fileData is a whole file decoded: per row group, every flat leaf's
// values by row, and every chunk's page starts from its offset index.
type fileData struct {
	name string
	f    *format.File
	// flat lists the leaves whose values are rows (not repeated) and that
	// decoded in every row group.
	flat []int
	rgs  []*rgData
	// contradicted says f's metadata was altered after decoding, so that
	// its pages no longer read back as planned.
	contradicted bool
}

type rgData struct {
	rows int64
	vals [][][]byte // [leaf][row]; nil for leaves not decoded
	null [][]bool
	// pageStarts holds each leaf's offset-index first rows (nil without one).
	pageStarts [][]int64
}

// rowView is one row of a decoded row group, as a Row.
type rowView struct {
	d *rgData
	i int
}

func (r *rowView) Value(leaf int) ([]byte, bool) {
	if leaf < 0 || leaf >= len(r.d.vals) || r.d.vals[leaf] == nil {
		return nil, false
	}
	if r.d.null[leaf][r.i] {
		return nil, false
	}
	return r.d.vals[leaf][r.i], true
}

// decodeFile reads every chunk of f whole, as the ground truth.
func decodeFile(t testing.TB, f *format.File) *fileData {
	t.Helper()
	d := &fileData{name: f.Name, f: f}
	nl := len(f.Schema.Leaves)
	ok := make([]bool, nl)
	for i, l := range f.Schema.Leaves {
		ok[i] = l.MaxRep == 0
	}
	for rg := range f.Meta.RowGroups {
		rd := &rgData{rows: f.Meta.RowGroups[rg].NumRows, vals: make([][][]byte, nl), null: make([][]bool, nl), pageStarts: make([][]int64, nl)}
		d.rgs = append(d.rgs, rd)
		for c := range f.Schema.Leaves {
			if oi, err := f.ReadOffsetIndex(rg, c); err == nil && oi != nil {
				for _, p := range oi.PageLocations {
					rd.pageStarts[c] = append(rd.pageStarts[c], p.FirstRowIndex)
				}
			}
			if !ok[c] {
				continue
			}
			cd, err := f.ReadColumn(rg, c)
			if err != nil || int64(cd.NumEntries) != rd.rows {
				t.Logf("%s: row group %d, column %s not decoded (%v), left out of predicates", f.Name, rg, f.Schema.Leaves[c].Path, err)
				ok[c] = false
				continue
			}
			vals := make([][]byte, rd.rows)
			nulls := make([]bool, rd.rows)
			k := 0
			for i := range vals {
				if cd.IsNull(i) {
					nulls[i] = true
					continue
				}
				v := cd.Values.PlainBytes(k, nil)
				if v == nil {
					v = []byte{}
				}
				vals[i] = v
				k++
			}
			rd.vals[c], rd.null[c] = vals, nulls
		}
	}
	for c := range ok {
		if ok[c] {
			d.flat = append(d.flat, c)
		}
	}
	for _, rd := range d.rgs {
		for c := range ok {
			if !ok[c] {
				rd.vals[c], rd.null[c] = nil, nil
			}
		}
	}
	return d
}

// pageOf is the offset-index page holding row, or -1 without an offset index.
func (rd *rgData) pageOf(leaf int, row int64) int {
	starts := rd.pageStarts[leaf]
	if len(starts) == 0 {
		return -1
	}
	return sort.Search(len(starts), func(i int) bool { return starts[i] > row }) - 1
}
