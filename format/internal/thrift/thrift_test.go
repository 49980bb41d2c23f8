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

func p[T any](v T) *T { return &v }

// fullFileMetaData returns a footer with every field of meta set, so a round
// trip exercises every encoder and decoder path.
func fullFileMetaData() *meta.FileMetaData {
	stats := func(seed byte) *meta.Statistics {
		return &meta.Statistics{
			Max: []byte{seed, 1}, Min: []byte{seed}, NullCount: p(int64(3)), DistinctCount: p(int64(7)),
			MaxValue: []byte{seed, 2}, MinValue: []byte{}, IsMaxValueExact: p(true), IsMinValueExact: p(false),
			NanCount: p(int64(1)), HasMax: true, HasMin: true, HasMaxValue: true, HasMinValue: true,
		}
	}
	column := func(name string, seed byte) meta.ColumnChunk {
		return meta.ColumnChunk{
			FilePath:   p("other.parquet"),
			FileOffset: 4,
			MetaData: &meta.ColumnMetaData{
				Type:                  meta.ByteArray,
				Encodings:             []meta.Encoding{meta.Plain, meta.RLE, meta.RLEDictionary},
				PathInSchema:          []string{"g", name},
				Codec:                 meta.Zstd,
				NumValues:             1 << 40,
				TotalUncompressedSize: 1000,
				TotalCompressedSize:   900,
				KeyValueMetadata:      []meta.KeyValue{{Key: "k", Value: p("v")}, {Key: "novalue"}},
				DataPageOffset:        100,
				IndexPageOffset:       p(int64(50)),
				DictionaryPageOffset:  p(int64(4)),
				Statistics:            stats(seed),
				EncodingStats: []meta.PageEncodingStats{
					{PageType: meta.DictionaryPage, Encoding: meta.Plain, Count: 1},
					{PageType: meta.DataPageV2, Encoding: meta.RLEDictionary, Count: 12},
				},
				BloomFilterOffset: p(int64(5000)),
				BloomFilterLength: p(int32(1040)),
				SizeStatistics: &meta.SizeStatistics{
					UnencodedByteArrayDataBytes: p(int64(12345)),
					RepetitionLevelHistogram:    []int64{5, 6},
					DefinitionLevelHistogram:    []int64{1, 2, 3},
				},
				GeospatialStatistics: &meta.GeospatialStatistics{
					BBox: &meta.BoundingBox{XMin: -1.5, XMax: 2.5, YMin: -3, YMax: 4,
						ZMin: p(0.0), ZMax: p(10.0), MMin: p(-7.0), MMax: p(7.0)},
					GeospatialTypes: []int32{1, 3, 1001},
				},
			},
			OffsetIndexOffset: p(int64(6000)),
			OffsetIndexLength: p(int32(30)),
			ColumnIndexOffset: p(int64(6030)),
			ColumnIndexLength: p(int32(40)),
			CryptoMetadata: &meta.ColumnCryptoMetaData{
				PathInSchema: []string{"g", name}, KeyMetadata: []byte("key"),
			},
			EncryptedColumnMetadata: []byte{9, 8, 7},
		}
	}
	return &meta.FileMetaData{
		Version: 2,
		Schema: []meta.SchemaElement{
			{Name: "schema", NumChildren: p(int32(1))},
			{Name: "g", RepetitionType: p(meta.Optional), NumChildren: p(int32(2)),
				ConvertedType: p(meta.ConvList), LogicalType: &meta.LogicalType{List: &struct{}{}}},
			{Name: "a", Type: p(meta.FixedLenByteArray), TypeLength: p(int32(16)),
				RepetitionType: p(meta.Required), ConvertedType: p(meta.ConvDecimal),
				Scale: p(int32(2)), Precision: p(int32(30)), FieldID: p(int32(42)),
				LogicalType: &meta.LogicalType{Decimal: &meta.DecimalType{Scale: 2, Precision: 30}}},
			{Name: "b", Type: p(meta.Int64), RepetitionType: p(meta.Repeated),
				LogicalType: &meta.LogicalType{Timestamp: &meta.TimestampType{IsAdjustedToUTC: true, Unit: meta.Nanos}}},
		},
		NumRows: 1 << 33,
		RowGroups: []meta.RowGroup{{
			Columns:             []meta.ColumnChunk{column("a", 1), column("b", 2)},
			TotalByteSize:       2000,
			NumRows:             1 << 33,
			SortingColumns:      []meta.SortingColumn{{ColumnIdx: 1, Descending: true, NullsFirst: false}, {ColumnIdx: 0, NullsFirst: true}},
			FileOffset:          p(int64(4)),
			TotalCompressedSize: p(int64(1800)),
			Ordinal:             p(int16(0)),
		}},
		KeyValueMetadata: []meta.KeyValue{{Key: "ARROW:schema", Value: p("...")}},
		CreatedBy:        p("pqsql test"),
		ColumnOrders: []meta.ColumnOrder{
			{Kind: meta.TypeDefinedOrder}, {Kind: meta.IEEE754TotalOrder}, {Kind: meta.OrderUnknown, UnknownField: 3},
		},
		EncryptionAlgorithm:      &meta.EncryptionAlgorithm{AesGcmCtrV1: true},
		FooterSigningKeyMetadata: []byte("signing key"),
	}
}

// everyLogicalType lists one LogicalType per union member, known or not.
func everyLogicalType() []meta.LogicalType {
	e := &struct{}{}
	return []meta.LogicalType{
		{String: e}, {Map: e}, {List: e}, {Enum: e},
		{Decimal: &meta.DecimalType{Scale: 0, Precision: 9}},
		{Date: e},
		{Time: &meta.TimeType{IsAdjustedToUTC: false, Unit: meta.Millis}},
		{Time: &meta.TimeType{IsAdjustedToUTC: true, Unit: meta.Micros}},
		{Timestamp: &meta.TimestampType{Unit: meta.Nanos}},
		{Timestamp: &meta.TimestampType{Unit: meta.TimeUnit(4)}}, // a unit newer than this reader
		{Integer: &meta.IntType{BitWidth: 8, IsSigned: false}},
		{Integer: &meta.IntType{BitWidth: 64, IsSigned: true}},
		{Null: e}, {JSON: e}, {BSON: e}, {UUID: e}, {Float16: e},
		{Variant: &meta.VariantType{}},
		{Variant: &meta.VariantType{SpecificationVersion: p(int8(1))}},
		{Geometry: &meta.GeometryType{}},
		{Geometry: &meta.GeometryType{CRS: p("OGC:CRS84")}},
		{Geography: &meta.GeographyType{CRS: p("srid:4326"), Algorithm: p(meta.Karney)}},
		{Geography: &meta.GeographyType{}},
		{Unknown: 19},   // VECTOR, proposed
		{Unknown: 2555}, // as in parquet-testing's unknown-logical-type.parquet
	}
}

func TestRoundTripFileMetaData(t *testing.T) {
	minimal := &meta.FileMetaData{
		Version:   1,
		Schema:    []meta.SchemaElement{{Name: "root", NumChildren: p(int32(0))}},
		RowGroups: []meta.RowGroup{},
	}
	logical := fullFileMetaData()
	for _, lt := range everyLogicalType() {
		logical.Schema = append(logical.Schema, meta.SchemaElement{Name: "x", Type: p(meta.Int32), LogicalType: &lt})
	}
	tests := []struct {
		name string
		m    *meta.FileMetaData
	}{
		{"minimal", minimal},
		{"full", fullFileMetaData()},
		{"every logical type", logical},
		{"footer key crypto", func() *meta.FileMetaData {
			m := fullFileMetaData()
			m.RowGroups[0].Columns[0].CryptoMetadata = &meta.ColumnCryptoMetaData{FooterKey: true}
			m.EncryptionAlgorithm = &meta.EncryptionAlgorithm{AesGcmV1: true}
			return m
		}()},
		{"absent optionals", func() *meta.FileMetaData {
			m := fullFileMetaData()
			m.ColumnOrders, m.KeyValueMetadata, m.CreatedBy = nil, nil, nil
			m.EncryptionAlgorithm, m.FooterSigningKeyMetadata = nil, nil
			cc := &m.RowGroups[0].Columns[1]
			cc.CryptoMetadata, cc.EncryptedColumnMetadata, cc.FilePath = nil, nil, nil
			cc.MetaData.Statistics = &meta.Statistics{} // present, every field absent
			cc.MetaData.SizeStatistics = &meta.SizeStatistics{}
			cc.MetaData.GeospatialStatistics = &meta.GeospatialStatistics{}
			cc.MetaData.KeyValueMetadata, cc.MetaData.EncodingStats = nil, nil
			return m
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := EncodeFileMetaData(tt.m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeFileMetaData(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.m) {
				t.Errorf("round trip differs:\n got %+v\nwant %+v", got, tt.m)
			}
		})
	}
}

func TestRoundTripColumnMetaData(t *testing.T) {
	want := fullFileMetaData().RowGroups[0].Columns[0].MetaData
	b, err := EncodeColumnMetaData(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeColumnMetaData(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestRoundTripPageHeader(t *testing.T) {
	stats := fullFileMetaData().RowGroups[0].Columns[0].MetaData.Statistics
	tests := []struct {
		name string
		h    *meta.PageHeader
	}{
		{"data page v1", &meta.PageHeader{
			Type: meta.DataPage, UncompressedPageSize: 1 << 20, CompressedPageSize: 1000, CRC: p(int32(-5)),
			DataPageHeader: &meta.DataPageHeader{NumValues: 100, Encoding: meta.RLEDictionary,
				DefinitionLevelEncoding: meta.RLE, RepetitionLevelEncoding: meta.BitPacked, Statistics: stats},
		}},
		{"data page v1 without statistics", &meta.PageHeader{
			Type: meta.DataPage, DataPageHeader: &meta.DataPageHeader{NumValues: 1},
		}},
		{"dictionary page", &meta.PageHeader{
			Type: meta.DictionaryPage, UncompressedPageSize: 10, CompressedPageSize: 10,
			DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: 3, Encoding: meta.PlainDictionary, IsSorted: p(true)},
		}},
		{"data page v2 uncompressed", &meta.PageHeader{
			Type: meta.DataPageV2, UncompressedPageSize: 77, CompressedPageSize: 77,
			DataPageHeaderV2: &meta.DataPageHeaderV2{NumValues: 10, NumNulls: 2, NumRows: 5,
				Encoding: meta.DeltaBinaryPacked, DefinitionLevelsByteLength: 3, RepetitionLevelsByteLength: 4,
				IsCompressed: false, Statistics: stats},
		}},
		{"data page v2 compressed", &meta.PageHeader{
			Type:             meta.DataPageV2,
			DataPageHeaderV2: &meta.DataPageHeaderV2{NumValues: 10, IsCompressed: true},
		}},
		{"index page", &meta.PageHeader{Type: meta.IndexPage, IndexPageHeader: &struct{}{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := EncodePageHeader(tt.h)
			if err != nil {
				t.Fatal(err)
			}
			// The header is followed by page data, which it must not consume.
			in := append(append([]byte{}, b...), 0xde, 0xad, 0xbe, 0xef)
			got, n, err := DecodePageHeader(in)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(b) {
				t.Errorf("n = %d, want %d", n, len(b))
			}
			if !reflect.DeepEqual(got, tt.h) {
				t.Errorf("got %+v\nwant %+v", got, tt.h)
			}
		})
	}
}

func TestRoundTripPageIndex(t *testing.T) {
	cis := []*meta.ColumnIndex{
		{
			NullPages: []bool{false, true, false}, MinValues: [][]byte{{1}, {}, {3, 3}},
			MaxValues: [][]byte{{2}, {}, {4}}, BoundaryOrder: meta.Ascending,
			NullCounts: []int64{0, 10, 1}, RepetitionLevelHistograms: []int64{1, 2, 3, 4, 5, 6},
			DefinitionLevelHistograms: []int64{7, 8, 9, 10, 11, 12}, NanCounts: []int64{0, 0, 2},
		},
		{NullPages: []bool{}, MinValues: [][]byte{}, MaxValues: [][]byte{}, BoundaryOrder: meta.Unordered},
	}
	for i, want := range cis {
		b, err := EncodeColumnIndex(want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeColumnIndex(b)
		if err != nil {
			t.Fatalf("column index %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("column index %d: got %+v\nwant %+v", i, got, want)
		}
	}
	ois := []*meta.OffsetIndex{
		{PageLocations: []meta.PageLocation{{Offset: 4, CompressedPageSize: 100, FirstRowIndex: 0},
			{Offset: 104, CompressedPageSize: 1 << 30, FirstRowIndex: 1 << 40}},
			UnencodedByteArrayDataBytes: []int64{10, 20}},
		{PageLocations: []meta.PageLocation{}},
	}
	for i, want := range ois {
		b, err := EncodeOffsetIndex(want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeOffsetIndex(b)
		if err != nil {
			t.Fatalf("offset index %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("offset index %d: got %+v\nwant %+v", i, got, want)
		}
	}
}

func TestRoundTripBloomFilterHeader(t *testing.T) {
	want := &meta.BloomFilterHeader{NumBytes: 1024, AlgorithmBlock: true, HashXxHash: true, CompressionNone: true}
	b, err := EncodeBloomFilterHeader(want)
	if err != nil {
		t.Fatal(err)
	}
	got, n, err := DecodeBloomFilterHeader(append(b, make([]byte, 1024)...))
	if err != nil {
		t.Fatal(err)
	}
	if n != len(b) || !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v (n=%d), want %+v (n=%d)", got, n, want, len(b))
	}
}

func TestEncodeNil(t *testing.T) {
	_, err1 := EncodeFileMetaData(nil)
	_, err2 := EncodePageHeader(nil)
	_, err3 := EncodeColumnIndex(nil)
	_, err4 := EncodeOffsetIndex(nil)
	_, err5 := EncodeBloomFilterHeader(nil)
	_, err6 := EncodeColumnMetaData(nil)
	for i, err := range []error{err1, err2, err3, err4, err5, err6} {
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("encoder %d: err = %v, want ErrInvalid", i, err)
		}
	}
}

// findShared returns ../shared beside the module root (the directory holding
// the go.mod of github.com/pqsql/pqsql), or "" when there is none.
func findShared() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(mod, []byte("module github.com/pqsql/pqsql\n")) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	shared := filepath.Join(dir, "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "parquet-testing")); err != nil {
		return ""
	}
	return shared
}
