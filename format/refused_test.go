package format

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// renderPath opens and renders a corpus file, failing the test on error.
func renderPath(t *testing.T, path string) ([][]*string, *File) {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", filepath.Base(path), err)
	}
	t.Cleanup(func() { f.Close() })
	rows, err := renderFile(f)
	if err != nil {
		t.Fatalf("read %s: %v", filepath.Base(path), err)
	}
	return rows, f
}

// Legacy LZ4 files hold the same rows as their LZ4_RAW twins, which DuckDB reads.
func TestLegacyLZ4MatchesRawTwin(t *testing.T) {
	shared := testcorpus.Shared(t)
	data := filepath.Join(shared, "parquet-testing", "data")
	for _, tc := range []struct{ legacy, twin string }{
		{"hadoop_lz4_compressed.parquet", "lz4_raw_compressed.parquet"},
		{"non_hadoop_lz4_compressed.parquet", "lz4_raw_compressed.parquet"},
		{"hadoop_lz4_compressed_larger.parquet", "lz4_raw_compressed_larger.parquet"},
	} {
		t.Run(tc.legacy, func(t *testing.T) {
			got, _ := renderPath(t, filepath.Join(data, tc.legacy))
			exp, err := readExpected(filepath.Join(shared, "expected", "data", tc.twin+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != exp.Rows {
				t.Fatalf("got %d rows, twin has %d", len(got), exp.Rows)
			}
			for r := range got {
				for c := range got[r] {
					if deref(got[r][c]) != deref(exp.Values[r][c]) {
						t.Fatalf("row %d column %d: got %s, twin %s", r, c, show(got[r][c]), show(exp.Values[r][c]))
					}
				}
			}
		})
	}
}

// Every BYTE_STREAM_SPLIT column of byte_stream_split_extended decodes to
// the values of its PLAIN twin, the column before it.
func TestByteStreamSplitExtended(t *testing.T) {
	shared := testcorpus.Shared(t)
	rows, f := renderPath(t, filepath.Join(shared, "parquet-testing", "data", "byte_stream_split_extended.gzip.parquet"))
	fields := f.Schema.Fields
	pairs := 0
	for c := 1; c < len(fields); c += 2 {
		plain, bss := fields[c-1].Name, fields[c].Name
		if !strings.HasSuffix(plain, "_plain") || !strings.HasSuffix(bss, "_byte_stream_split") {
			t.Fatalf("columns %s, %s are not a plain/split pair", plain, bss)
		}
		nonNull := 0
		for r := range rows {
			if deref(rows[r][c-1]) != deref(rows[r][c]) || (rows[r][c-1] == nil) != (rows[r][c] == nil) {
				t.Fatalf("row %d: %s = %s but %s = %s", r, plain, show(rows[r][c-1]), bss, show(rows[r][c]))
			}
			if rows[r][c] != nil {
				nonNull++
			}
		}
		if nonNull == 0 {
			t.Fatalf("%s has no values", bss)
		}
		pairs++
	}
	if pairs != 7 || len(rows) == 0 {
		t.Fatalf("compared %d pairs over %d rows, want 7 pairs", pairs, len(rows))
	}
}

// map_no_value.md: a map of null values, a map with no value field (read
// as the list of its keys) and the equivalent list.
func TestMapNoValue(t *testing.T) {
	shared := testcorpus.Shared(t)
	rows, f := renderPath(t, filepath.Join(shared, "parquet-testing", "data", "map_no_value.parquet"))
	want := [][]string{
		{"{1=NULL, 2=NULL, 3=NULL}", "[1, 2, 3]", "[1, 2, 3]"},
		{"{4=NULL, 5=NULL, 6=NULL}", "[4, 5, 6]", "[4, 5, 6]"},
		{"{7=NULL, 8=NULL, 9=NULL}", "[7, 8, 9]", "[7, 8, 9]"},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows, want 3", len(rows))
	}
	for r := range want {
		for c := range want[r] {
			if deref(rows[r][c]) != want[r][c] {
				t.Errorf("row %d column %s: got %s, want %q", r, f.Schema.Fields[c].Name, show(rows[r][c]), want[r][c])
			}
		}
	}
	if got := f.Schema.Fields[1].TypeName(); got != "INTEGER[]" {
		t.Errorf("my_map_no_v type %s, want INTEGER[]", got)
	}
}

// Every malformed or encrypted file gives an error naming the file and the
// problem; none panics.
func TestBadFilesFailClearly(t *testing.T) {
	shared := testcorpus.Shared(t)
	bad, _ := filepath.Glob(filepath.Join(shared, "parquet-testing", "bad_data", "*.parquet"))
	enc, _ := filepath.Glob(filepath.Join(shared, "parquet-testing", "data", "*.parquet.encrypted"))
	if len(bad) == 0 || len(enc) == 0 {
		t.Fatal("no bad or encrypted files found")
	}
	for _, path := range append(bad, enc...) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			f, err := Open(path)
			if err == nil {
				_, err = renderFile(f)
				f.Close()
			}
			if name == "ARROW-GH-43605.parquet" && err == nil {
				// Dictionary indices of bit width 0 are all 0: DuckDB's values are acceptable.
				return
			}
			if err == nil {
				t.Fatal("read without error")
			}
			if !strings.Contains(err.Error(), name) {
				t.Errorf("error does not name the file: %v", err)
			}
			if strings.HasSuffix(name, ".encrypted") && !errors.Is(err, ErrEncrypted) {
				t.Errorf("want ErrEncrypted, got %v", err)
			}
			if !strings.HasSuffix(name, ".encrypted") && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrUnsupported) {
				t.Errorf("error is not ErrCorrupt, ErrLimit or ErrUnsupported: %v", err)
			}
			t.Logf("%v", err)
		})
	}
}
