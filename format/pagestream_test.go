package format

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// TestStreamListedPages reads chosen pages of every chunk with an offset
// index a window at a time and checks them against the same pages fetched
// at once: the same entries, byte arrays kept uncopied until the end (a
// buffer reused while values point into it shows as changed bytes), exactly
// the listed ranges' bytes read (nothing between two runs of adjacent
// pages), and at least a request a run.
func TestStreamListedPages(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	for _, name := range []string{"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet",
		"data_index_bloom_encoding_stats.parquet"} {
		t.Run(name, func(t *testing.T) {
			f, err := Open(filepath.Join(data, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			counted := NewCountingSource(f.Source)
			streamed := *f
			streamed.Source = counted
			chunks := 0
			for rg := range f.Meta.RowGroups {
				for col, leaf := range f.Schema.Leaves {
					if leaf.MaxRep > 0 {
						continue
					}
					oi, err := f.ReadOffsetIndex(rg, col)
					if err != nil {
						continue
					}
					chunks++
					dict := f.DictionaryRange(rg, col, oi)
					var all []PageRef
					for i, loc := range oi.PageLocations {
						end := f.Meta.RowGroups[rg].NumRows
						if i+1 < len(oi.PageLocations) {
							end = oi.PageLocations[i+1].FirstRowIndex
						}
						all = append(all, PageRef{Range: Range{loc.Offset, int64(loc.CompressedPageSize)}, FirstRow: loc.FirstRowIndex, NumRows: end - loc.FirstRowIndex})
					}
					choices := map[string][]PageRef{"all": all, "first": all[:1]}
					var odd, head []PageRef
					for i, p := range all {
						if i%2 == 1 {
							odd = append(odd, p)
						}
						if i < len(all)/2 || i == len(all)-1 {
							head = append(head, p)
						}
					}
					choices["every other"], choices["first half and last"] = odd, head
					for what, pages := range choices {
						if len(pages) == 0 {
							continue
						}
						ranges := []Range{}
						if dict.Length > 0 {
							ranges = append(ranges, dict)
						}
						for _, p := range pages {
							ranges = append(ranges, p.Range)
						}
						fetched, err := Fetch(f.Source, ranges, 0)
						if err != nil {
							t.Fatal(err)
						}
						want, err := f.ReadPages(rg, col, dict, pages, fetched)
						if err != nil {
							t.Fatalf("row group %d column %d %s: %v", rg, col, what, err)
						}
						wd, wr, wv := wholeOf(want)
						var planned int64
						for _, r := range ranges {
							planned += r.Length
						}
						runs := len(Coalesce(ranges, 0))
						for _, window := range []int{1, 100, 4096, 1 << 20} {
							before := counted.Stats()
							r, err := streamed.NewPageReader(rg, col, dict, pages, nil)
							if err != nil {
								t.Fatal(err)
							}
							r.StreamChunk(window)
							var def, rep []int32
							var vals [][]byte
							for {
								cd, err := r.Next()
								if err == io.EOF {
									break
								}
								if err != nil {
									t.Fatalf("row group %d column %d %s, window %d: %v", rg, col, what, window, err)
								}
								def = append(def, cd.Def[:min(len(cd.Def), cd.NumEntries)]...)
								rep = append(rep, cd.Rep[:min(len(cd.Rep), cd.NumEntries)]...)
								for i := range cd.Values.Len() {
									if byteValues(cd.Values.Type) {
										vals = append(vals, cd.Values.Bytes[i])
									} else {
										vals = append(vals, cd.Values.PlainBytes(i, nil))
									}
								}
								r.Release()
							}
							r.Close()
							sameEntries(t, name+" "+what, def, rep, vals, wd, wr, wv)
							got := counted.Stats()
							if read := got.Bytes - before.Bytes; read != planned {
								t.Errorf("row group %d column %d %s, window %d: read %d bytes, the listed ranges hold %d", rg, col, what, window, read, planned)
							}
							if reqs := got.Requests - before.Requests; reqs < int64(runs) {
								t.Errorf("row group %d column %d %s, window %d: %d requests for %d runs", rg, col, what, window, reqs, runs)
							}
						}
					}
				}
			}
			if chunks == 0 {
				t.Fatalf("%s: no chunk with an offset index", name)
			}
		})
	}
}
