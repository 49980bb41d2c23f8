package format

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadFile opens arbitrary bytes as a Parquet file and decodes every
// column chunk, page index and Bloom filter header: errors are fine, panics
// and unbounded allocations are not.
func FuzzReadFile(f *testing.F) {
	for _, p := range []string{"alltypes_tiny_pages.parquet", "nested_lists.snappy.parquet", "datapage_v2.snappy.parquet",
		"delta_byte_array.parquet", "rle_boolean_encoding.parquet", "data_index_bloom_encoding_stats.parquet"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "shared", "parquet-testing", "data", p)); err == nil {
			f.Add(b)
		}
	}
	// The crafted files of testdata/hostile, each a class of attack.
	hostile, _ := filepath.Glob(filepath.Join("..", "testdata", "hostile", "*.parquet"))
	for _, p := range hostile {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	limits := Limits{MaxFooterSize: 1 << 20, MaxPageSize: 4 << 20, MaxPageHeaderSize: 1 << 16, MaxDictionaryValues: 1 << 16, MaxPageValues: 1 << 20, MaxDecodedBytes: 64 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := OpenSource(BytesSource(data), "fuzz.parquet", limits)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotParquet) && !errors.Is(err, ErrLimit) &&
				!errors.Is(err, ErrEncrypted) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("unclassified open error: %v", err)
			}
			return
		}
		classified := func(what string, err error) {
			if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrUnsupported) &&
				!errors.Is(err, ErrChecksum) && !errors.Is(err, ErrInvalidString) && !errors.Is(err, ErrAbsent) {
				t.Fatalf("%s: unclassified error: %v", what, err)
			}
		}
		for rg := range file.Meta.RowGroups {
			rows := file.Meta.RowGroups[rg].NumRows
			for col := range file.Schema.Leaves {
				whole, err := file.ReadColumn(rg, col)
				classified("ReadColumn", err)
				// Slices of a few entries, each resuming its page's
				// decoders, give the entries the whole chunk holds.
				size := 1 + len(data)%7
				def, rep, vals, serr := readSliced(file, rg, col, size)
				if !errors.Is(serr, errSliceCap) {
					classified("PageReader", serr)
					if err == nil && serr != nil {
						t.Fatalf("slices of %d: %v; the whole chunk reads", size, serr)
					}
					if err == nil {
						wd, wr, wv := wholeOf(whole)
						sameEntries(t, "slices", def, rep, vals, wd, wr, wv)
					}
				}
				_, err = file.ReadColumnIndex(rg, col)
				classified("ReadColumnIndex", err)
				oi, err := file.ReadOffsetIndex(rg, col)
				classified("ReadOffsetIndex", err)
				if err == nil {
					// Pages read as pushdown plans them, each checked
					// against the rows the index gives it.
					var pages []PageRef
					for i, loc := range oi.PageLocations {
						first, end := PageRows(oi, i, rows)
						pages = append(pages, PageRef{Range: Range{loc.Offset, int64(loc.CompressedPageSize)}, FirstRow: first, NumRows: end - first})
					}
					_, err = file.ReadPages(rg, col, file.DictionaryRange(rg, col, oi), pages, nil)
					classified("ReadPages", err)
				}
				_, _, err = file.ReadDictionary(rg, col, nil)
				classified("ReadDictionary", err)
				bf, err := file.ReadBloomFilter(rg, col)
				classified("ReadBloomFilter", err)
				if err == nil {
					_, err = bf.MayContain(Hash([]byte("x")))
					classified("MayContain", err)
				}
			}
		}
	})
}

// errSliceCap ends readSliced when the values grow past what a fuzz
// input should cost to compare.
var errSliceCap = errors.New("slices past 16 MiB")

// readSliced reads a column chunk through a PageReader in slices of size
// entries, releasing each, and returns its entries.
func readSliced(f *File, rg, col, size int) (def, rep []int32, vals [][]byte, err error) {
	l := f.Limits
	defer func() { f.Limits = l }()
	f.Limits.SliceEntries = size
	r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	var bytes int
	for {
		cd, err := r.Next()
		if err == io.EOF {
			return def, rep, vals, nil
		}
		if err != nil {
			return nil, nil, nil, err
		}
		d, rp, v := wholeOf(cd)
		def, rep, vals = append(def, d...), append(rep, rp...), append(vals, v...)
		for _, b := range v {
			bytes += len(b) + 24
		}
		if bytes > 16<<20 {
			return nil, nil, nil, errSliceCap
		}
		r.Release()
	}
}

// FuzzAssemble opens arbitrary bytes as a Parquet file and assembles every
// nested field of every row group from its decoded leaves: the assembler
// must fail with ErrCorrupt on levels that do not nest, never panic or
// assemble more rows than the row group holds.
func FuzzAssemble(f *testing.F) {
	for _, p := range []string{"nested_lists.snappy.parquet", "nested_maps.snappy.parquet", "nested_structs.rust.parquet",
		"repeated_no_annotation.parquet", "null_list.parquet", "list_columns.parquet", "old_list_structure.parquet"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "shared", "parquet-testing", "data", p)); err == nil {
			f.Add(b)
		}
	}
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "hostile", "list_60m_elements.parquet")); err == nil {
		f.Add(b)
	}
	limits := Limits{MaxFooterSize: 1 << 20, MaxPageSize: 4 << 20, MaxPageHeaderSize: 1 << 16, MaxDictionaryValues: 1 << 16, MaxPageValues: 1 << 20, MaxDecodedBytes: 64 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := OpenSource(BytesSource(data), "fuzz.parquet", limits)
		if err != nil {
			return
		}
		for rg := range file.Meta.RowGroups {
			for _, field := range file.Schema.Fields {
				if !field.IsNested() {
					continue
				}
				cols := map[int]*ColumnData{}
				for _, l := range field.Leaves {
					if cols[l.Index], err = file.ReadColumn(rg, l.Index); err != nil {
						break
					}
				}
				if err != nil {
					continue
				}
				a, err := NewAssembler(field, cols)
				if err != nil {
					continue
				}
				for rows := int64(0); ; rows++ {
					v, ok, err := a.Next()
					if err != nil {
						if !errors.Is(err, ErrCorrupt) {
							t.Fatalf("assembling %s: unclassified error: %v", field.Name, err)
						}
						break
					}
					if !ok {
						break
					}
					if rows >= file.Meta.RowGroups[rg].NumRows {
						t.Fatalf("assembling %s: more than the row group's %d rows", field.Name, file.Meta.RowGroups[rg].NumRows)
					}
					AppendValueText(nil, v)
				}
			}
		}
	})
}
