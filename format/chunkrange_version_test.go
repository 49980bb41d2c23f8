package format

import (
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// TestUndersizedChunksByVersion reads parquet-mr's version from created_by
// as fmt.Sscanf("%d.%d.%d") did, without allocating: only releases before
// 1.2.9 (PARQUET-816) get their chunk ranges padded.
func TestUndersizedChunksByVersion(t *testing.T) {
	for _, tc := range []struct {
		createdBy string
		want      bool
	}{
		{"parquet-mr version 1.2.8 (build abc)", true},
		{"parquet-mr version 1.2.9 (build abc)", false},
		{"parquet-mr version 1.2.10", false},
		{"parquet-mr version 1.2", true},
		{"parquet-mr version 1.1.99-SNAPSHOT", true},
		{"parquet-mr version 1.10.0 (build x)", false},
		{"parquet-mr version 0.9.9", true},
		{"parquet-mr version 2", false},
		{"parquet-mr version x.y.z", true},
		{"parquet-mr version ", true},
		{"parquet-mr", true},
		{"parquet-mr-something", true},
		{"parquet-cpp-arrow version 14.0.0", false},
		{"", false},
	} {
		cb := tc.createdBy
		f := &File{Meta: &meta.FileMetaData{CreatedBy: &cb}}
		if got := f.undersizedChunks(); got != tc.want {
			t.Errorf("created_by %q: undersized %v, want %v", cb, got, tc.want)
		}
		if n := testing.AllocsPerRun(10, func() { f.undersizedChunks() }); n != 0 {
			t.Errorf("created_by %q: %v allocations", cb, n)
		}
	}
	for s, want := range map[string][3]int{
		"1.2.9":           {1, 2, 9},
		"1.12.3-SNAPSHOT": {1, 12, 3},
		"3":               {3, 0, 0},
		"4.":              {4, 0, 0},
		".5":              {0, 0, 0},
		"":                {0, 0, 0},
	} {
		if got := versionNumbers(s); got != want {
			t.Errorf("versionNumbers(%q) = %v, want %v", s, got, want)
		}
	}
}
