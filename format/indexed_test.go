package format

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// indexedFiles lists the fixtures and the conformance corpus files.
func indexedFiles(t *testing.T) []string {
	root := testcorpus.ModuleRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "fixtures", "*.parquet"))
	quirks, _ := filepath.Glob(filepath.Join(root, "fixtures", "quirks", "*.parquet"))
	files = append(files, quirks...)
	if _, err := os.Stat(filepath.Join(root, "..", "shared", "parquet-testing", "data")); err == nil {
		corpus, _ := filepath.Glob(filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "*.parquet"))
		for _, c := range corpus {
			// Its one value decompresses to gigabytes and has no dictionary.
			if !strings.Contains(c, "large_string_map") {
				files = append(files, c)
			}
		}
	}
	return files
}

// indexedValues reads a chunk page by page with KeepIndices (and the
// dictionary given, when dict is not nil), looking each index up, and
// returns its levels and values as pagesOf does, with the number of pages
// that came as indices and the dictionary met.
func indexedValues(t *testing.T, r *PageReader, dict *Values) (def []int32, vals [][]byte, indexed int, seen *Values, err error) {
	t.Helper()
	r.KeepIndices()
	r.UseDictionary(dict)
	for {
		cd, err := r.Next()
		if err == io.EOF {
			return def, vals, indexed, r.Dictionary(), nil
		}
		if err != nil {
			return nil, nil, 0, nil, err
		}
		def = append(def, cd.Def[:min(len(cd.Def), cd.NumEntries)]...)
		if cd.Dict != nil {
			indexed++
			if cd.Values.Len() != 0 {
				t.Fatalf("an indexed page holds %d values", cd.Values.Len())
			}
			for _, i := range cd.Indices {
				vals = append(vals, cd.Dict.PlainBytes(int(i), nil))
			}
		} else {
			if len(cd.Indices) != 0 {
				t.Fatalf("a page without a dictionary holds %d indices", len(cd.Indices))
			}
			for i := range cd.Values.Len() {
				vals = append(vals, cd.Values.PlainBytes(i, nil))
			}
		}
		r.Release()
	}
}

// TestPageReaderKeepIndices checks that the dictionary indices of every
// dictionary-encoded page, looked up, are the values the materializing
// reader gives, on every fixture and corpus file, and that a reader given
// the dictionary an earlier one decoded reads the same.
func TestPageReaderKeepIndices(t *testing.T) {
	total, given := 0, 0
	for _, path := range indexedFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := Open(path)
			if err != nil {
				t.Skipf("does not open: %v", err)
			}
			defer f.Close()
			for rg := range f.Meta.RowGroups {
				for col := range f.Schema.Leaves {
					want, err := f.ReadColumn(rg, col)
					if err != nil {
						// A file the reader refuses is refused alike.
						r, _ := f.NewPageReader(rg, col, Range{}, nil, nil)
						if r != nil {
							if _, _, _, _, ierr := indexedValues(t, r, nil); ierr == nil {
								t.Fatalf("row group %d, column %d: ReadColumn fails (%v), indexed reading does not", rg, col, err)
							}
						}
						continue
					}
					wd, _, wv := wholeOf(want)
					var dict *Values
					for pass := range 2 {
						r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
						if err != nil {
							t.Fatal(err)
						}
						d, v, n, seen, err := indexedValues(t, r, dict)
						if err != nil {
							t.Fatalf("row group %d, column %d, pass %d: %v", rg, col, pass, err)
						}
						if pass == 1 && seen != dict {
							t.Fatalf("row group %d, column %d: the given dictionary was not used", rg, col)
						}
						if !equalInts(d, wd) || len(v) != len(wv) {
							t.Fatalf("row group %d, column %d, pass %d: %d def, %d values; want %d, %d", rg, col, pass, len(d), len(v), len(wd), len(wv))
						}
						for i := range v {
							if !bytes.Equal(v[i], wv[i]) {
								t.Fatalf("row group %d, column %d, pass %d: value %d is %x, want %x", rg, col, pass, i, v[i], wv[i])
							}
						}
						total += n
						dict = seen
					}
					// Given the dictionary ReadDictionary decoded, the chunk
					// is read from the end of its dictionary page on, with
					// no byte before it fetched.
					vals, at, err := f.ReadDictionary(rg, col, nil)
					chunk, cerr := f.ChunkRange(rg, col)
					if err != nil || vals == nil || cerr != nil || at.Offset != chunk.Offset {
						continue
					}
					tail := Range{at.End(), chunk.End() - at.End()}
					fetched, err := Fetch(f.Source, []Range{tail}, 0)
					if err != nil {
						t.Fatal(err)
					}
					got, err := f.ReadPagesGiven(rg, col, vals, at.End(), nil, fetched)
					if err != nil {
						t.Fatalf("row group %d, column %d, past the dictionary: %v", rg, col, err)
					}
					gd, _, gv := wholeOf(got)
					sameEntries(t, "past the dictionary", gd, nil, gv, wd, nil, wv)
					given++
				}
			}
		})
	}
	if total == 0 || given == 0 {
		t.Fatalf("%d pages came as dictionary indices, %d chunks were read past a dictionary given", total, given)
	}
}

// TestKeptIndicesNeedNoScratch: a page's dictionary indices kept are
// decoded straight into the indices handed out, not into a scratch buffer
// first and copied (a point lookup reading one row of each of a row's
// columns decodes a page of each).
func TestKeptIndicesNeedNoScratch(t *testing.T) {
	f, err := OpenSource(BytesSource(bigDictFile(t, 3000, meta.Snappy, nil)), "dict.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.NewPageReader(0, 0, Range{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.KeepIndices()
	d := r.d
	rows := 0
	for {
		cd, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(cd.Indices) != cd.NumEntries || cd.Dict == nil {
			t.Fatalf("a page of %d entries came as %d indices", cd.NumEntries, len(cd.Indices))
		}
		for i, x := range cd.Indices {
			if want := int32(3000 - 1 - rows - i); x != want {
				t.Fatalf("row %d: index %d, want %d", rows+i, x, want)
			}
		}
		rows += cd.NumEntries
		r.Release()
	}
	if rows != 3000 || d.idx != nil {
		t.Fatalf("%d rows read; the decoder's index scratch holds %d", rows, cap(d.idx))
	}
}
