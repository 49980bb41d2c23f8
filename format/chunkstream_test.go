package format

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// TestStreamChunkMatchesReadColumn reads every chunk a window at a time,
// windows smaller than a page header included, and checks the entries
// against ReadColumn's. The byte-array values of every page are kept, not
// copied, until the chunk is read: a buffer reused while values still
// point into it (an uncompressed chunk, a v2 page stored uncompressed)
// would show here as changed bytes.
func TestStreamChunkMatchesReadColumn(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	for _, name := range []string{"alltypes_tiny_pages.parquet", "alltypes_plain.parquet", "nested_lists.snappy.parquet",
		"datapage_v2.snappy.parquet", "delta_byte_array.parquet", "delta_length_byte_array.parquet",
		"rle_boolean_encoding.parquet", "data_index_bloom_encoding_stats.parquet", "alltypes_dictionary.parquet"} {
		t.Run(name, func(t *testing.T) {
			f, err := Open(filepath.Join(data, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			counted := NewCountingSource(f.Source)
			streamed := *f
			streamed.Source = counted
			for rg := range f.Meta.RowGroups {
				for col := range f.Schema.Leaves {
					want, err := f.ReadColumn(rg, col)
					if err != nil {
						t.Fatal(err)
					}
					wd, wr, wv := wholeOf(want)
					chunk, err := f.ChunkRange(rg, col)
					if err != nil {
						t.Fatal(err)
					}
					for _, window := range []int{1, 13, 256, 4096, 1 << 20} {
						before := counted.Stats()
						r, err := streamed.NewPageReader(rg, col, Range{}, nil, nil)
						if err != nil {
							t.Fatal(err)
						}
						r.StreamChunk(window)
						var def, rep []int32
						var kept [][]byte
						var nums [][]byte
						for {
							cd, err := r.Next()
							if err == io.EOF {
								break
							}
							if err != nil {
								t.Fatalf("window %d: %v", window, err)
							}
							def = append(def, cd.Def[:min(len(cd.Def), cd.NumEntries)]...)
							rep = append(rep, cd.Rep[:min(len(cd.Rep), cd.NumEntries)]...)
							if byteValues(cd.Values.Type) {
								kept = append(kept, cd.Values.Bytes...)
							} else {
								for i := range cd.Values.Len() {
									nums = append(nums, cd.Values.PlainBytes(i, nil))
								}
							}
							r.Release()
						}
						vals := nums
						if byteValues(want.Values.Type) {
							vals = kept
						}
						sameEntries(t, "streamed", def, rep, vals, wd, wr, wv)
						got := counted.Stats()
						if read := got.Bytes - before.Bytes; chunk.Length > 0 && read != chunk.Length {
							t.Errorf("window %d: read %d bytes of a chunk of %d", window, read, chunk.Length)
						}
						if reqs := got.Requests - before.Requests; chunk.Length > int64(4*window) && reqs < 2 {
							t.Errorf("window %d: a chunk of %d bytes read in %d requests", window, chunk.Length, reqs)
						}
					}
				}
			}
		})
	}
}

// TestStreamChunkCorruptPage checks that a page running past its chunk, or
// a header cut short, fails as the whole-chunk read fails.
func TestStreamChunkCorruptPage(t *testing.T) {
	path := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "alltypes_plain.parquet")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw := make([]byte, f.Source.Size())
	if err := readFull(f.Source, raw, 0); err != nil {
		t.Fatal(err)
	}
	chunk, err := f.ChunkRange(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int64{1, 5, chunk.Length / 2} {
		bad := bytes.Clone(raw)
		// Garbage from the cut on: the page there, or the one after it,
		// no longer parses or no longer fits.
		for i := chunk.Offset + cut; i < chunk.End(); i++ {
			bad[i] = 0xff
		}
		g := *f
		g.Source = BytesSource(bad)
		whole, wantErr := g.ReadColumn(0, 0)
		if wantErr == nil {
			t.Fatalf("cut %d: whole read of a damaged chunk gave %d entries", cut, whole.NumEntries)
		}
		for _, window := range []int{1, 16, 4096} {
			r, err := g.NewPageReader(0, 0, Range{}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			r.StreamChunk(window)
			var serr error
			for serr == nil {
				_, serr = r.Next()
			}
			if !errors.Is(serr, ErrCorrupt) || serr.Error() != wantErr.Error() {
				t.Errorf("cut %d, window %d: streamed read failed with %v, whole read with %v", cut, window, serr, wantErr)
			}
		}
	}
}

// TestPageReaderCloseRecyclesDictionary reads every chunk twice over with
// Close after each read, so that later readers decode their dictionaries
// into the storage earlier ones handed back, and checks their entries
// against ReadColumn's, made before any storage was recycled.
func TestPageReaderCloseRecyclesDictionary(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	for _, name := range []string{"alltypes_dictionary.parquet", "alltypes_tiny_pages.parquet"} {
		t.Run(name, func(t *testing.T) {
			f, err := Open(filepath.Join(data, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			type entries struct {
				def, rep []int32
				vals     [][]byte
			}
			want := map[[2]int]entries{}
			for rg := range f.Meta.RowGroups {
				for col := range f.Schema.Leaves {
					cd, err := f.ReadColumn(rg, col)
					if err != nil {
						t.Fatal(err)
					}
					d, r, v := wholeOf(cd)
					want[[2]int{rg, col}] = entries{d, r, v}
				}
			}
			dictionaries := 0
			for range 2 {
				for rg := range f.Meta.RowGroups {
					for col := range f.Schema.Leaves {
						r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
						if err != nil {
							t.Fatal(err)
						}
						d, rp, v, _, err := pagesOf(t, r, true)
						if err != nil {
							t.Fatal(err)
						}
						if r.Dictionary() != nil {
							dictionaries++
						}
						w := want[[2]int{rg, col}]
						sameEntries(t, "after recycling", d, rp, v, w.def, w.rep, w.vals)
						r.Close()
						if r.Dictionary() != nil {
							t.Fatal("Close kept the reader's dictionary")
						}
						if _, err := r.Next(); err != io.EOF {
							t.Fatalf("Next after Close: %v, want io.EOF", err)
						}
					}
				}
			}
			if dictionaries == 0 {
				t.Fatal("no chunk had a dictionary")
			}
		})
	}
}

// TestReuseByteArraysCopiedPerPage reads every chunk with byte-array pages
// decompressed into one reused buffer, copying each page's values before
// the next, and checks them against ReadColumn's; it also checks that the
// buffer is reused at all.
func TestReuseByteArraysCopiedPerPage(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	reused := 0
	for _, name := range []string{"datapage_v2.snappy.parquet", "nested_lists.snappy.parquet", "alltypes_plain.snappy.parquet",
		"alltypes_tiny_pages_plain.parquet", "delta_encoding_required_column.parquet", "data_index_bloom_encoding_stats.parquet",
		"../fixtures/orders_shuffled.parquet"} {
		path := filepath.Join(data, name)
		if strings.HasPrefix(name, "../") {
			path = filepath.Join("..", "fixtures", filepath.Base(name))
		}
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for rg := range f.Meta.RowGroups {
			for col := range f.Schema.Leaves {
				want, err := f.ReadColumn(rg, col)
				if err != nil {
					t.Fatal(err)
				}
				wd, wr, wv := wholeOf(want)
				r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				r.ReuseByteArrays()
				var def, rep []int32
				var vals [][]byte
				var last *byte
				for {
					cd, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					def = append(def, cd.Def[:min(len(cd.Def), cd.NumEntries)]...)
					rep = append(rep, cd.Rep[:min(len(cd.Rep), cd.NumEntries)]...)
					for i := range cd.Values.Len() {
						vals = append(vals, cd.Values.PlainBytes(i, nil))
					}
					if byteValues(cd.Values.Type) && len(cd.Values.Bytes) > 0 && len(r.d.scratch) > 0 {
						p := &r.d.scratch[0]
						if p == last {
							reused++
						}
						last = p
					}
					r.Release()
				}
				r.Close()
				sameEntries(t, name, def, rep, vals, wd, wr, wv)
			}
		}
		f.Close()
	}
	if reused == 0 {
		t.Error("no byte-array page was decompressed into the buffer of the page before it")
	}
}
