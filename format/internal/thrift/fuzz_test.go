package thrift

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// corpusFiles returns the paths of the corpus's Parquet files, or none when
// the corpus is absent (the fuzz targets then run on synthetic seeds only).
func corpusFiles() []string {
	shared := findShared()
	if shared == "" {
		return nil
	}
	root := filepath.Join(shared, "parquet-testing")
	var files []string
	for _, pattern := range []string{"data/*.parquet", "data/*/*.parquet", "bad_data/*.parquet", "data/*.encrypted"} {
		m, _ := filepath.Glob(filepath.Join(root, pattern))
		files = append(files, m...)
	}
	return files
}

// FuzzDecodeFileMetaData checks that any input either fails with ErrCorrupt
// or decodes to a footer that re-encodes to a fixed point.
func FuzzDecodeFileMetaData(f *testing.F) {
	for _, m := range []*meta.FileMetaData{fullFileMetaData(), {Version: 1}} {
		b, err := EncodeFileMetaData(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, path := range corpusFiles() {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if footer, ok := splitFooter(f, data); ok {
			f.Add(footer)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeFileMetaData(b)
		checkDeferred(t, b, m, err)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) || m != nil {
				t.Fatalf("err = %v, want ErrCorrupt and no footer", err)
			}
			return
		}
		// Decoded again beside its own schema, it shares and decodes alike.
		if _, k, err := DecodeFileMetaDataKnown(b, nil); err != nil {
			t.Fatalf("decodes alone but not to make a Known: %v", err)
		} else if mk, _, err := DecodeFileMetaDataKnown(b, []*Known{k}); err != nil || !reflect.DeepEqual(mk, m) {
			t.Fatalf("decoded beside its own Known: err = %v, footer %+v, want %+v", err, mk, m)
		}
		b2, err := EncodeFileMetaData(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := DecodeFileMetaData(b2)
		if err != nil {
			// An encryption algorithm union with only an unknown member
			// decodes to no flag set, which re-encodes as an empty union.
			if ea := m.EncryptionAlgorithm; ea != nil && !ea.AesGcmV1 && !ea.AesGcmCtrV1 {
				return
			}
			t.Fatalf("re-encoded footer does not decode: %v", err)
		}
		b3, err := EncodeFileMetaData(m2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b2, b3) {
			t.Fatalf("re-encoding is not a fixed point:\n%x\n%x", b2, b3)
		}
	})
}

// FuzzDecodePageHeader checks the same for page headers, and that the
// reported size stays within the input.
func FuzzDecodePageHeader(f *testing.F) {
	for _, h := range []*meta.PageHeader{
		{Type: meta.DataPage, UncompressedPageSize: 10, CompressedPageSize: 8, CRC: p(int32(7)),
			DataPageHeader: &meta.DataPageHeader{NumValues: 3, Statistics: fullFileMetaData().RowGroups[0].Columns[0].MetaData.Statistics}},
		{Type: meta.DictionaryPage, DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: 2, IsSorted: p(false)}},
		{Type: meta.DataPageV2, DataPageHeaderV2: &meta.DataPageHeaderV2{NumValues: 1, NumRows: 1, IsCompressed: false}},
	} {
		b, err := EncodePageHeader(h)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Real page headers: the first page of each column chunk.
	for _, path := range corpusFiles() {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		footer, ok := splitFooter(f, data)
		if !ok {
			continue
		}
		m, err := DecodeFileMetaData(footer)
		if err != nil || len(m.RowGroups) == 0 {
			continue
		}
		for _, cc := range m.RowGroups[0].Columns {
			if md := cc.MetaData; md != nil && md.DataPageOffset > 0 && md.DataPageOffset < int64(len(data)) {
				end := min(int64(len(data)), md.DataPageOffset+256)
				f.Add(data[md.DataPageOffset:end])
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, n, err := DecodePageHeader(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) || h != nil || n != 0 {
				t.Fatalf("err = %v, header %v, n = %d; want ErrCorrupt alone", err, h, n)
			}
			return
		}
		if n <= 0 || n > len(b) {
			t.Fatalf("n = %d for %d bytes of input", n, len(b))
		}
		// The reused buffer holds the last input's header.
		ni, err := DecodePageHeaderInto(b, &fuzzHeaderBuf)
		if err != nil || ni != n {
			t.Fatalf("into a buffer: n = %d (want %d), err = %v", ni, n, err)
		}
		if got, want := withoutPageStatistics(fuzzHeaderBuf.H), withoutPageStatistics(*h); !reflect.DeepEqual(got, want) {
			t.Fatalf("into a buffer:\n got %+v\nwant %+v", got, want)
		}
		b2, err := EncodePageHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		h2, n2, err := DecodePageHeader(b2)
		if err != nil || n2 != len(b2) {
			t.Fatalf("re-encoded header: n = %d of %d, err = %v", n2, len(b2), err)
		}
		b3, err := EncodePageHeader(h2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b2, b3) {
			t.Fatalf("re-encoding is not a fixed point:\n%x\n%x", b2, b3)
		}
	})
}

var fuzzHeaderBuf PageHeaderBuf

// FuzzDecodeIndexes checks that any input either fails with ErrCorrupt or
// decodes to a ColumnIndex, OffsetIndex or Bloom filter header that
// re-encodes and decodes to the same value.
func FuzzDecodeIndexes(f *testing.F) {
	ci, _ := EncodeColumnIndex(&meta.ColumnIndex{NullPages: []bool{false, true}, MinValues: [][]byte{{1}, {}}, MaxValues: [][]byte{{9}, {}},
		BoundaryOrder: meta.Ascending, NullCounts: []int64{0, 4}})
	oi, _ := EncodeOffsetIndex(&meta.OffsetIndex{PageLocations: []meta.PageLocation{{Offset: 4, CompressedPageSize: 100, FirstRowIndex: 0}, {Offset: 104, CompressedPageSize: 50, FirstRowIndex: 10}}})
	bf, _ := EncodeBloomFilterHeader(&meta.BloomFilterHeader{NumBytes: 256, AlgorithmBlock: true, HashXxHash: true, CompressionNone: true})
	for _, b := range [][]byte{ci, oi, bf} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if ci, err := DecodeColumnIndex(b); err != nil {
			if !errors.Is(err, ErrCorrupt) || ci != nil {
				t.Fatalf("column index: err = %v with %v; want ErrCorrupt alone", err, ci)
			}
		} else {
			b2, err := EncodeColumnIndex(ci)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := DecodeColumnIndex(b2); err != nil {
				t.Fatalf("re-encoded column index: %v", err)
			}
		}
		if oi, err := DecodeOffsetIndex(b); err != nil {
			if !errors.Is(err, ErrCorrupt) || oi != nil {
				t.Fatalf("offset index: err = %v with %v; want ErrCorrupt alone", err, oi)
			}
		} else {
			b2, err := EncodeOffsetIndex(oi)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := DecodeOffsetIndex(b2); err != nil {
				t.Fatalf("re-encoded offset index: %v", err)
			}
		}
		if h, n, err := DecodeBloomFilterHeader(b); err != nil {
			if !errors.Is(err, ErrCorrupt) || h != nil || n != 0 {
				t.Fatalf("bloom filter header: err = %v, header %v, n = %d; want ErrCorrupt alone", err, h, n)
			}
		} else if n <= 0 || n > len(b) {
			t.Fatalf("bloom filter header: n = %d for %d bytes", n, len(b))
		}
	})
}
