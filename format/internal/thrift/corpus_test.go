package thrift

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// The corpus tests decode the footers, page headers, page indexes and Bloom
// filter headers of parquet-testing's real files and compare them with the
// facts CATALOG.tsv records (gathered there with arrow-go).

// catalogRow is one line of parquet-testing/CATALOG.tsv, by column name.
type catalogRow map[string]string

func readCatalog(t *testing.T, root string) []catalogRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "CATALOG.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	header := strings.Split(lines[0], "\t")
	var rows []catalogRow
	for _, line := range lines[1:] {
		cells := strings.Split(line, "\t")
		row := catalogRow{}
		for i, h := range header {
			if i < len(cells) {
				row[h] = cells[i]
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// splitFooter returns a file's footer bytes, or ok false when the file does
// not end in a plaintext footer (PAR1).
func splitFooter(t testing.TB, data []byte) (footer []byte, ok bool) {
	t.Helper()
	n := len(data)
	if n < 12 || string(data[n-4:]) != "PAR1" {
		return nil, false
	}
	l := int(binary.LittleEndian.Uint32(data[n-8 : n-4]))
	if l > n-8 {
		t.Fatalf("footer length %d larger than the file", l)
	}
	return data[n-8-l : n-8], true
}

func readFooter(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	footer, ok := splitFooter(t, data)
	if !ok {
		t.Fatalf("%s has no plaintext footer", path)
	}
	return footer
}

// mustFail lists corpus files whose footers are malformed on purpose.
var mustFail = map[string]string{
	// A fuzzed footer: row group 1, column 2 declares its encodings as a
	// list of i16. arrow-go's generated reader ignores element types.
	"bad_data/ARROW-GH-41317.parquet": "meta_data.encodings: list of I16, want list of I32",
}

func TestCorpusFooters(t *testing.T) {
	root := filepath.Join(testcorpus.Shared(t), "parquet-testing")
	rows := readCatalog(t, root)
	if len(rows) < 200 {
		t.Fatalf("catalog has %d rows, want the whole corpus", len(rows))
	}
	decoded := 0
	for _, row := range rows {
		path := row["path"]
		t.Run(path, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(root, path))
			if err != nil {
				t.Fatal(err)
			}
			footer, ok := splitFooter(t, data)
			if !ok {
				if !strings.HasPrefix(row["encryption"], "encrypted footer") && !strings.HasSuffix(path, ".encrypted") {
					t.Fatalf("no PAR1 footer, and the catalog does not say the footer is encrypted")
				}
				t.Skip("encrypted footer")
			}
			m, err := DecodeFileMetaData(footer)
			if want, bad := mustFail[path]; bad {
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
					t.Fatalf("err = %v, want ErrCorrupt mentioning %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			decoded++
			if row["created_by"] == "" && row["row_groups"] == "0" && row["num_leaves"] == "0" {
				return // arrow-go could not read it, so the catalog has no facts
			}
			checkCatalogFacts(t, row, m)
			// bad_data/ files have broken pages on purpose, and the pages of
			// encrypted columns are not thrift in the clear.
			if row["encryption"] == "" && !strings.HasPrefix(path, "bad_data/") {
				walkPages(t, row, data, m)
			}
		})
	}
	if decoded < 150 {
		t.Errorf("decoded %d footers, want at least 150", decoded)
	}
}

// checkCatalogFacts compares the footer with the catalog's summary of it.
func checkCatalogFacts(t *testing.T, row catalogRow, m *meta.FileMetaData) {
	t.Helper()
	createdBy := ""
	if m.CreatedBy != nil {
		createdBy = *m.CreatedBy
	}
	var rows int64
	var chunks, withStats, nullCount, nanCount, distinct, ciChunks, oiChunks int
	codecs, encodings := map[string]bool{}, map[string]bool{}
	for _, rg := range m.RowGroups {
		rows += rg.NumRows
		for _, cc := range rg.Columns {
			chunks++
			if cc.ColumnIndexOffset != nil {
				ciChunks++
			}
			if cc.OffsetIndexOffset != nil {
				oiChunks++
			}
			md := cc.MetaData
			if md == nil {
				continue
			}
			codecs[md.Codec.String()] = true
			for _, e := range md.Encodings {
				encodings[e.String()] = true
			}
			if s := md.Statistics; s != nil {
				withStats++
				if s.NullCount != nil {
					nullCount++
				}
				if s.NanCount != nil {
					nanCount++
				}
				if s.DistinctCount != nil {
					distinct++
				}
			}
		}
	}
	leaves := 0
	for _, e := range m.Schema[1:] {
		if e.NumChildren == nil {
			leaves++
		}
	}
	orders := "unset"
	if m.ColumnOrders != nil {
		count := map[string]int{}
		for _, co := range m.ColumnOrders {
			count[co.Kind.String()]++
		}
		var parts []string
		for k, n := range count {
			parts = append(parts, fmt.Sprintf("%s x%d", k, n))
		}
		sort.Strings(parts)
		orders = "set: " + strings.Join(parts, ", ")
	}
	facts := []struct{ column, got string }{
		{"created_by", createdBy},
		{"row_groups", strconv.Itoa(len(m.RowGroups))},
		{"rows", strconv.FormatInt(m.NumRows, 10)},
		{"num_leaves", strconv.Itoa(leaves)},
		{"column_orders", orders},
		{"codecs", joinSet(codecs)},
		{"encodings", joinSet(encodings)},
	}
	for _, f := range facts {
		if want := row[f.column]; f.got != want {
			t.Errorf("%s = %q, catalog says %q", f.column, f.got, want)
		}
	}
	// parquet-rs 0.3.0 wrote num_rows 0 over row groups of 6 rows.
	if m.NumRows != rows && row["path"] != "data/repeated_no_annotation.parquet" {
		t.Errorf("num_rows = %d, row groups hold %d", m.NumRows, rows)
	}
	stats := fmt.Sprintf("chunks=%d with_stats=%d", chunks, withStats)
	if !strings.HasPrefix(row["stats"], stats+" ") {
		t.Errorf("stats %q, catalog says %q", stats, row["stats"])
	}
	for name, got := range map[string]int{"null_count": nullCount, "nan_count": nanCount, "distinct": distinct} {
		if want := fmt.Sprintf(" %s=%d ", name, got); !strings.Contains(row["stats"]+" ", want) {
			t.Errorf("%s count %d, catalog stats say %q", name, got, row["stats"])
		}
	}
	if pi := row["page_index"]; strings.HasPrefix(pi, "yes") {
		want := fmt.Sprintf("yes (column_index %d/%d, offset_index %d/%d chunks)", ciChunks, chunks, oiChunks, chunks)
		if !strings.HasPrefix(pi, want) {
			t.Errorf("page index chunks: got %q, catalog says %q", want, pi)
		}
	} else if ciChunks+oiChunks != 0 {
		t.Errorf("%d column index and %d offset index offsets, catalog says %q", ciChunks, oiChunks, pi)
	}
}

func joinSet(set map[string]bool) string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

var pageIndexRE = regexp.MustCompile(`(\d+) pages in offset indexes, boundary orders (.*)$`)

// walkPages decodes every page header of every column chunk, each page index
// and each Bloom filter header, and compares them with the catalog.
func walkPages(t *testing.T, row catalogRow, data []byte, m *meta.FileMetaData) {
	t.Helper()
	pageTypes, valueEncodings, levelEncodings := map[string]bool{}, map[string]bool{}, map[string]bool{}
	boundaryOrders := map[string]bool{}
	offsetIndexPages, blooms, bloomLengths := 0, 0, 0
	maxDef, maxRep := leafLevels(m)
	slice := func(off int64, n int64) []byte {
		if off < 0 || n < 0 || off > int64(len(data)) || n > int64(len(data))-off {
			t.Fatalf("range [%d, +%d) outside the %d-byte file", off, n, len(data))
		}
		return data[off : off+n]
	}
	for g, rg := range m.RowGroups {
		for c, cc := range rg.Columns {
			md := cc.MetaData
			where := fmt.Sprintf("row group %d column %d", g, c)
			if md.NumValues == 0 {
				continue // an empty chunk may point at offset 0, the magic
			}
			start := md.DataPageOffset
			if d := md.DictionaryPageOffset; d != nil && *d > 0 && *d < start {
				start = *d
			}
			chunk := slice(start, md.TotalCompressedSize)
			for pos := 0; pos < len(chunk); {
				h, n, err := DecodePageHeader(chunk[pos:])
				if err != nil {
					t.Fatalf("%s, page at offset %d: %v", where, int(start)+pos, err)
				}
				if n <= 0 || h.CompressedPageSize < 0 {
					t.Fatalf("%s: header of %d bytes, page of %d", where, n, h.CompressedPageSize)
				}
				switch {
				case h.Type == meta.DataPage && h.DataPageHeader != nil:
					pageTypes["DATA_PAGE(v1)"] = true
					valueEncodings[h.DataPageHeader.Encoding.String()] = true
					// The catalog lists level encodings only where levels exist.
					if maxDef[c] > 0 {
						levelEncodings["def="+h.DataPageHeader.DefinitionLevelEncoding.String()] = true
					}
					if maxRep[c] > 0 {
						levelEncodings["rep="+h.DataPageHeader.RepetitionLevelEncoding.String()] = true
					}
				case h.Type == meta.DataPageV2 && h.DataPageHeaderV2 != nil:
					pageTypes["DATA_PAGE_V2"] = true
					valueEncodings[h.DataPageHeaderV2.Encoding.String()] = true
				case h.Type == meta.DictionaryPage && h.DictionaryPageHeader != nil:
					pageTypes["DICTIONARY_PAGE"] = true
					valueEncodings["dict:"+h.DictionaryPageHeader.Encoding.String()] = true
				default:
					t.Fatalf("%s: page type %v without its header: %+v", where, h.Type, h)
				}
				pos += n + int(h.CompressedPageSize)
			}
			if cc.OffsetIndexOffset != nil {
				oi, err := DecodeOffsetIndex(slice(*cc.OffsetIndexOffset, int64(*cc.OffsetIndexLength)))
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				offsetIndexPages += len(oi.PageLocations)
			}
			if cc.ColumnIndexOffset != nil {
				ci, err := DecodeColumnIndex(slice(*cc.ColumnIndexOffset, int64(*cc.ColumnIndexLength)))
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if len(ci.MinValues) != len(ci.NullPages) || len(ci.MaxValues) != len(ci.NullPages) {
					t.Errorf("%s: column index lists of %d, %d and %d pages", where,
						len(ci.NullPages), len(ci.MinValues), len(ci.MaxValues))
				}
				boundaryOrders[ci.BoundaryOrder.String()] = true
			}
			if md.BloomFilterOffset != nil {
				blooms++
				rest := data[*md.BloomFilterOffset:]
				if md.BloomFilterLength != nil {
					bloomLengths++
					rest = slice(*md.BloomFilterOffset, int64(*md.BloomFilterLength))
				}
				h, n, err := DecodeBloomFilterHeader(rest)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if !h.AlgorithmBlock || !h.HashXxHash || !h.CompressionNone || h.NumBytes <= 0 {
					t.Errorf("%s: bloom filter header %+v", where, h)
				}
				if md.BloomFilterLength != nil && n+int(h.NumBytes) != int(*md.BloomFilterLength) {
					t.Errorf("%s: bloom header %d + bitset %d bytes, length says %d", where, n, h.NumBytes, *md.BloomFilterLength)
				}
			}
		}
	}
	// The catalog's page facts are complete only where arrow-go walked
	// every page (it stops at codecs and page sizes it refuses).
	if row["page_types"] != "" && !strings.Contains(row["notes"], "page walk") {
		for _, f := range []struct {
			column string
			got    map[string]bool
		}{{"page_types", pageTypes}, {"page_value_encodings", valueEncodings}, {"level_encodings", levelEncodings}} {
			if got, want := joinSet(f.got), row[f.column]; got != want {
				t.Errorf("%s = %q, catalog says %q", f.column, got, want)
			}
		}
	}
	if pi := row["page_index"]; strings.HasPrefix(pi, "yes") {
		orders := make([]string, 0, len(boundaryOrders))
		for o := range boundaryOrders {
			orders = append(orders, o)
		}
		slices.Sort(orders)
		want := fmt.Sprintf("%d pages in offset indexes, boundary orders %s", offsetIndexPages, strings.Join(orders, "/"))
		if got := pageIndexRE.FindString(pi); got != want {
			t.Errorf("page index: %q, catalog says %q", want, got)
		}
	}
	if b := row["bloom"]; b != "no" {
		want := fmt.Sprintf("yes (%d/", blooms)
		if !strings.HasPrefix(b, want) || !strings.Contains(b, fmt.Sprintf("length set on %d)", bloomLengths)) {
			t.Errorf("%d bloom filters, %d with length; catalog says %q", blooms, bloomLengths, b)
		}
	} else if blooms != 0 {
		t.Errorf("%d bloom filters, catalog says none", blooms)
	}
}

// leafLevels returns each leaf's maximum definition and repetition levels,
// in column order.
func leafLevels(m *meta.FileMetaData) (def, rep []int) {
	var walk func(i, d, r int) int
	walk = func(i, d, r int) int {
		e := m.Schema[i]
		if i > 0 && e.RepetitionType != nil {
			switch *e.RepetitionType {
			case meta.Optional:
				d++
			case meta.Repeated:
				d++
				r++
			}
		}
		if e.NumChildren == nil {
			def, rep = append(def, d), append(rep, r)
			return i + 1
		}
		next := i + 1
		for range int(*e.NumChildren) {
			if next >= len(m.Schema) {
				break
			}
			next = walk(next, d, r)
		}
		return next
	}
	walk(0, 0, 0)
	return def, rep
}

func TestBloomFilterFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "bloom_filter.xxhash.bin"))
	if err != nil {
		t.Fatal(err)
	}
	h, n, err := DecodeBloomFilterHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	want := meta.BloomFilterHeader{NumBytes: 1024, AlgorithmBlock: true, HashXxHash: true, CompressionNone: true}
	if *h != want || n+int(h.NumBytes) != len(data) {
		t.Errorf("header %+v of %d bytes in a %d-byte file, want %+v", *h, n, len(data), want)
	}
}

// TestCorpusSpecifics checks values the catalog does not summarise.
func TestCorpusSpecifics(t *testing.T) {
	data := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	decode := func(t *testing.T, name string) *meta.FileMetaData {
		m, err := DecodeFileMetaData(readFooter(t, filepath.Join(data, name)))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	t.Run("unknown logical type", func(t *testing.T) {
		m := decode(t, "unknown-logical-type.parquet")
		got := map[string]string{}
		for _, e := range m.Schema[1:] {
			switch lt := e.LogicalType; {
			case lt == nil:
				got[e.Name] = "none"
			case lt.String != nil:
				got[e.Name] = "STRING"
			case lt.Unknown != 0:
				got[e.Name] = "unknown " + strconv.Itoa(int(lt.Unknown))
			}
		}
		want := map[string]string{"column with known type": "STRING", "column with unknown type": "unknown 2555"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("logical types %v, want %v", got, want)
		}
	})
	t.Run("IEEE 754 total order and nan_count", func(t *testing.T) {
		m := decode(t, "floating_orders_nan_count.parquet")
		var kinds []meta.ColumnOrderKind
		for _, co := range m.ColumnOrders {
			kinds = append(kinds, co.Kind)
		}
		want := []meta.ColumnOrderKind{meta.IEEE754TotalOrder, meta.TypeDefinedOrder,
			meta.IEEE754TotalOrder, meta.TypeDefinedOrder, meta.IEEE754TotalOrder, meta.TypeDefinedOrder}
		if !slices.Equal(kinds, want) {
			t.Errorf("column orders %v, want %v", kinds, want)
		}
		s := m.RowGroups[0].Columns[0].MetaData.Statistics
		if s == nil || s.NanCount == nil || !s.HasMinValue || !s.HasMaxValue {
			t.Errorf("statistics %+v: want nan_count, min_value and max_value", s)
		}
	})
	t.Run("exact flags", func(t *testing.T) {
		m := decode(t, "binary_truncated_min_max.parquet")
		flags := 0
		for _, cc := range m.RowGroups[0].Columns {
			if s := cc.MetaData.Statistics; s != nil && s.IsMinValueExact != nil && s.IsMaxValueExact != nil {
				flags++
			}
		}
		if flags != len(m.RowGroups[0].Columns) || flags != 6 {
			t.Errorf("%d of %d chunks have both exact flags, want all 6", flags, len(m.RowGroups[0].Columns))
		}
	})
	t.Run("geospatial statistics", func(t *testing.T) {
		m := decode(t, "geospatial/geospatial.parquet")
		found := 0
		for _, rg := range m.RowGroups {
			for _, cc := range rg.Columns {
				if g := cc.MetaData.GeospatialStatistics; g != nil && g.BBox != nil && len(g.GeospatialTypes) > 0 {
					found++
				}
			}
		}
		if found == 0 {
			t.Error("no column chunk has a bounding box and geospatial types")
		}
	})
	t.Run("plaintext footer of an encrypted file", func(t *testing.T) {
		m := decode(t, "encrypt_columns_plaintext_footer.parquet.encrypted")
		if m.EncryptionAlgorithm == nil || !m.EncryptionAlgorithm.AesGcmV1 {
			t.Errorf("encryption algorithm %+v, want AES_GCM_V1", m.EncryptionAlgorithm)
		}
		encrypted := 0
		for _, cc := range m.RowGroups[0].Columns {
			if cc.CryptoMetadata != nil {
				encrypted++
			}
		}
		if encrypted == 0 {
			t.Error("no column chunk has crypto metadata")
		}
	})
	t.Run("mistyped pre-release field is skipped", func(t *testing.T) {
		// parquet-mr 1.12.0 snapshot wrote a list as ColumnMetaData field 15.
		m := decode(t, "dict-page-offset-zero.parquet")
		if md := m.RowGroups[0].Columns[0].MetaData; md.BloomFilterLength != nil {
			t.Errorf("bloom_filter_length = %d, want absent", *md.BloomFilterLength)
		}
	})
}
