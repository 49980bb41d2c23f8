package format

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// pagesOf reads r to the end, copying each page's entries out so that
// Release (when release is set) may reuse the reader's storage.
func pagesOf(t *testing.T, r *PageReader, release bool) (def, rep []int32, vals [][]byte, spans []PageSpan, err error) {
	t.Helper()
	var prev *ColumnData
	for {
		cd, err := r.Next()
		if err == io.EOF {
			return def, rep, vals, spans, nil
		}
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if len(cd.Pages) != 1 || cd.Pages[0].FirstEntry != 0 || cd.Pages[0].FirstValue != 0 || cd.Pages[0].NumEntries != cd.NumEntries {
			t.Fatalf("page spans %+v for %d entries", cd.Pages, cd.NumEntries)
		}
		if prev != nil && !release && prev == cd {
			t.Fatal("Next reused storage that was not released")
		}
		prev = cd
		def = append(def, cd.Def[:min(len(cd.Def), cd.NumEntries)]...)
		rep = append(rep, cd.Rep[:min(len(cd.Rep), cd.NumEntries)]...)
		for i := range cd.Values.Len() {
			vals = append(vals, cd.Values.PlainBytes(i, nil))
		}
		spans = append(spans, cd.Pages[0])
		if release {
			r.Release()
		}
	}
}

// wholeOf flattens a ColumnData as pagesOf does.
func wholeOf(cd *ColumnData) (def, rep []int32, vals [][]byte) {
	def = append(def, cd.Def[:min(len(cd.Def), cd.NumEntries)]...)
	rep = append(rep, cd.Rep[:min(len(cd.Rep), cd.NumEntries)]...)
	for i := range cd.Values.Len() {
		vals = append(vals, cd.Values.PlainBytes(i, nil))
	}
	return def, rep, vals
}

func sameEntries(t *testing.T, what string, d1, r1 []int32, v1 [][]byte, d2, r2 []int32, v2 [][]byte) {
	t.Helper()
	if !equalInts(d1, d2) || !equalInts(r1, r2) || len(v1) != len(v2) {
		t.Fatalf("%s: %d def, %d rep, %d values; want %d, %d, %d", what, len(d1), len(r1), len(v1), len(d2), len(r2), len(v2))
	}
	for i := range v1 {
		if !bytes.Equal(v1[i], v2[i]) {
			t.Fatalf("%s: value %d is %x, want %x", what, i, v1[i], v2[i])
		}
	}
}

func equalInts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPageReaderMatchesReadColumn checks that reading a chunk page by page,
// with and without Release, gives ReadColumn's entries, and that reading
// every other page by the offset index gives ReadPages'.
func TestPageReaderMatchesReadColumn(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	for _, name := range []string{"alltypes_tiny_pages.parquet", "nested_lists.snappy.parquet", "datapage_v2.snappy.parquet",
		"delta_byte_array.parquet", "rle_boolean_encoding.parquet", "data_index_bloom_encoding_stats.parquet", "alltypes_dictionary.parquet"} {
		t.Run(name, func(t *testing.T) {
			f, err := Open(filepath.Join(data, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for rg := range f.Meta.RowGroups {
				for col := range f.Schema.Leaves {
					want, err := f.ReadColumn(rg, col)
					if err != nil {
						t.Fatal(err)
					}
					wd, wr, wv := wholeOf(want)
					for _, release := range []bool{false, true} {
						r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
						if err != nil {
							t.Fatal(err)
						}
						d, rp, v, spans, err := pagesOf(t, r, release)
						if err != nil {
							t.Fatal(err)
						}
						sameEntries(t, "whole chunk", d, rp, v, wd, wr, wv)
						if len(spans) != len(want.Pages) {
							t.Fatalf("%d pages, want %d", len(spans), len(want.Pages))
						}
						for i, s := range spans {
							if w := want.Pages[i]; s.FirstRow != w.FirstRow || s.NumRows != w.NumRows || s.NumEntries != w.NumEntries {
								t.Fatalf("page %d: %+v, want %+v", i, s, w)
							}
						}
						if _, err := r.Next(); err != io.EOF {
							t.Fatalf("Next after the end: %v, want io.EOF", err)
						}
					}
					oi, err := f.ReadOffsetIndex(rg, col)
					if err != nil || oi == nil {
						continue
					}
					var pages []PageRef
					var ranges []Range
					dict := f.DictionaryRange(rg, col, oi)
					if dict.Length > 0 {
						ranges = append(ranges, dict)
					}
					for i, loc := range oi.PageLocations {
						if i%2 == 0 {
							first, _ := PageRows(oi, i, f.Meta.RowGroups[rg].NumRows)
							pages = append(pages, PageRef{Range: Range{loc.Offset, int64(loc.CompressedPageSize)}, FirstRow: first})
							ranges = append(ranges, pages[len(pages)-1].Range)
						}
					}
					fetched, err := Fetch(f.Source, ranges, 0)
					if err != nil {
						t.Fatal(err)
					}
					want, err = f.ReadPages(rg, col, dict, pages, fetched)
					if err != nil {
						t.Fatal(err)
					}
					wd, wr, wv = wholeOf(want)
					r, err := f.NewPageReader(rg, col, dict, pages, fetched)
					if err != nil {
						t.Fatal(err)
					}
					d, rp, v, spans, err := pagesOf(t, r, true)
					if err != nil {
						t.Fatal(err)
					}
					sameEntries(t, "every other page", d, rp, v, wd, wr, wv)
					if len(spans) != len(pages) {
						t.Fatalf("%d pages, want %d", len(spans), len(pages))
					}
					for i, s := range spans {
						if s.FirstRow != pages[i].FirstRow {
							t.Fatalf("page %d starts at row %d, want %d", i, s.FirstRow, pages[i].FirstRow)
						}
						if n, err := f.DataPageEntries(rg, col, pages[i], fetched); err != nil || n != int64(s.NumEntries) {
							t.Fatalf("page %d: header declares %d entries (%v), decoded %d", i, n, err, s.NumEntries)
						}
					}
				}
			}
		})
	}
}

// TestPageReaderDictionaryOnce checks that the dictionary is decoded once
// per reader, not once per page, and that released storage is reused.
func TestPageReaderDictionaryOnce(t *testing.T) {
	f, err := Open(filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "alltypes_tiny_pages.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	col := -1
	for i, l := range f.Schema.Leaves {
		if l.Path == "string_col" {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("no string_col")
	}
	r, err := f.NewPageReader(0, col, Range{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	dict := r.d.dict
	if dict == nil {
		t.Fatal("string_col has no dictionary")
	}
	r.Release()
	pages := 1
	for {
		cd, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if cd != first {
			t.Fatal("released storage was not reused")
		}
		if r.d.dict != dict {
			t.Fatal("dictionary decoded again")
		}
		pages++
		r.Release()
	}
	if pages < 2 {
		t.Fatalf("%d pages; the test needs several", pages)
	}
}

// TestPageReaderErrors checks which errors the reader returns, and that it
// returns them again.
func TestPageReaderErrors(t *testing.T) {
	shared := testcorpus.Shared(t)
	f, err := Open(filepath.Join(shared, "parquet-testing", "data", "datapage_v1-corrupt-checksum.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.NewPageReader(len(f.Meta.RowGroups), 0, Range{}, nil, nil); err == nil {
		t.Fatal("no error for a row group past the end")
	}
	r, err := f.NewPageReader(0, 0, Range{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err1 := r.Next()
	_, err2 := r.Next()
	if !errors.Is(err1, ErrChecksum) || err2 != err1 {
		t.Fatalf("errors %v, then %v; want a checksum error twice", err1, err2)
	}
	chunk, err := f.ChunkRange(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	fetched, err := Fetch(f.Source, []Range{{chunk.Offset, 1}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err = f.NewPageReader(0, 0, Range{}, []PageRef{{Range: chunk}}, fetched)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("page outside the fetched bytes: %v", err)
	}
	r, err = f.NewPageReader(0, 0, Range{}, []PageRef{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("no pages: %v, want io.EOF", err)
	}
}

// TestPageReaderNextFrom checks that NextFrom passes over the pages before
// a row and returns the page holding it, as Next would.
func TestPageReaderNextFrom(t *testing.T) {
	f, err := Open(filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "alltypes_tiny_pages.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := f.ReadColumn(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Pages) < 3 {
		t.Fatalf("%d pages; the test needs several", len(want.Pages))
	}
	for _, tc := range []struct {
		name string
		row  int64
		page int // the page NextFrom returns
	}{
		{"first row", 0, 0},
		{"inside page 1", want.Pages[1].FirstRow + 1, 1},
		{"start of the last page", want.Pages[len(want.Pages)-1].FirstRow, len(want.Pages) - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := f.NewPageReader(0, 0, Range{}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			cd, err := r.NextFrom(tc.row)
			if err != nil {
				t.Fatal(err)
			}
			w := want.Pages[tc.page]
			if p := cd.Pages[0]; p.FirstRow != w.FirstRow || p.NumRows != w.NumRows {
				t.Fatalf("page at rows [%d, +%d), want [%d, +%d)", p.FirstRow, p.NumRows, w.FirstRow, w.NumRows)
			}
			for i := range cd.Values.Len() {
				if got, exp := cd.Values.PlainBytes(i, nil), want.Values.PlainBytes(w.FirstValue+i, nil); !bytes.Equal(got, exp) {
					t.Fatalf("value %d is %x, want %x", i, got, exp)
				}
			}
			// The pages after it follow, and the chunk's value count checks out.
			n := 1
			for {
				if _, err := r.Next(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				n++
			}
			if n != len(want.Pages)-tc.page {
				t.Fatalf("%d pages from page %d, want %d", n, tc.page, len(want.Pages)-tc.page)
			}
		})
	}
}
