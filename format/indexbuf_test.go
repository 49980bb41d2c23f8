package format

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// TestIndexIntoMatchesRead checks that reading every page index of the
// conformance corpus into one pair of buffers, one chunk after another,
// gives what ReadColumnIndex and ReadOffsetIndex give, errors included, and
// that a buffer with room for an offset index reads it without allocating.
func TestIndexIntoMatchesRead(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	var ciBuf ColumnIndexBuf
	var oiBuf OffsetIndexBuf
	checked := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".parquet") {
			continue
		}
		f, err := Open(filepath.Join(data, e.Name()))
		if err != nil {
			continue
		}
		for rg := range f.NumRowGroups() {
			for col := range f.Schema.Leaves {
				want, werr := f.ReadColumnIndex(rg, col)
				got, raw, err := f.ReadColumnIndexInto(rg, col, &ciBuf)
				if !sameError(err, werr) {
					t.Errorf("%s rg %d col %d: column index error %v, want %v", e.Name(), rg, col, err, werr)
				} else if werr == nil && (!reflect.DeepEqual(got, want) || raw == nil) {
					t.Errorf("%s rg %d col %d: column index %+v, want %+v", e.Name(), rg, col, got, want)
				}
				wantOI, werr := f.ReadOffsetIndex(rg, col)
				gotOI, _, err := f.ReadOffsetIndexInto(rg, col, &oiBuf)
				if !sameError(err, werr) {
					t.Errorf("%s rg %d col %d: offset index error %v, want %v", e.Name(), rg, col, err, werr)
				} else if werr == nil && !reflect.DeepEqual(gotOI, wantOI) {
					t.Errorf("%s rg %d col %d: offset index %+v, want %+v", e.Name(), rg, col, gotOI, wantOI)
				}
				if werr == nil {
					checked++
				}
			}
		}
		f.Close()
	}
	if checked == 0 {
		t.Fatal("no offset index checked")
	}

	// A fixture of arrow-go's: a parquet-mr file's chunk ranges cost
	// allocations of their own (its version is parsed for each).
	f, err := Open(filepath.Join(testcorpus.ModuleRoot(t), "fixtures", "orders_sorted.parquet"))
	if err != nil {
		t.Skipf("skipping the allocation check: %v", err)
	}
	defer f.Close()
	if _, _, err := f.ReadOffsetIndexInto(0, 0, &oiBuf); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() {
		if _, _, err := f.ReadOffsetIndexInto(0, 0, &oiBuf); err != nil {
			t.Fatal(err)
		}
	}); n > 0 && !raceEnabled {
		t.Errorf("%v allocations an offset index, want none", n)
	}
}

// sameError reports whether a and b are both nil or say the same.
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
}
