package craft

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
)

// A Hostile is a crafted file that once broke a reader: it decodes to far
// more than its size, or its metadata contradicts itself or its data.
type Hostile struct {
	// Name is its file name under testdata/hostile.
	Name string
	// What says what it is crafted to do.
	What  string
	Build func() ([]byte, error)
	// Large marks files whose generation compresses hundreds of megabytes.
	Large bool
}

// HostileFiles lists the crafted files, each built from nothing but this
// code.
func HostileFiles() []Hostile {
	return []Hostile{
		{Name: "dictionary_rle_amplification.parquet", What: "one RLE run of 60M dictionary indexes in a few bytes", Build: dictionaryRLE},
		{Name: "list_60m_elements.parquet", What: "one row holding a list of 60M elements, all of it run-length encoded", Build: hugeList},
		{Name: "zstd_bomb.parquet", What: "a zstd page of a few KB that expands to 480 MB", Build: func() ([]byte, error) { return bomb(meta.Zstd, 60<<20, 0) }, Large: true},
		{Name: "zstd_bomb_understated.parquet", What: "a zstd page that expands to 480 MB while its header says 8 KB", Build: func() ([]byte, error) { return bomb(meta.Zstd, 60<<20, 1024) }, Large: true},
		{Name: "gzip_bomb.parquet", What: "a gzip page of about 80 KB that expands to 80 MB", Build: func() ([]byte, error) { return bomb(meta.Gzip, 10<<20, 0) }, Large: true},
		{Name: "delta_byte_array_prefix.parquet", What: "1M DELTA_BYTE_ARRAY values each repeating a 1000-byte prefix: 1 GB from 80 KB", Build: func() ([]byte, error) { return deltaPrefix(1<<20, 1000) }},
		{Name: "delta_byte_array_long_prefix.parquet", What: "64K DELTA_BYTE_ARRAY values each repeating a 4000-byte prefix: 256 MB from 9 KB", Build: func() ([]byte, error) { return deltaPrefix(1<<16, 4000) }},
		{Name: "offset_index_misplaced.parquet", What: "an offset index placing pages at rows 0, 200, ... while they hold 400 rows each", Build: misplacedOffsetIndex},
		{Name: "zero_row_group_zero_offsets.parquet", What: "a row group of 0 rows whose chunks have offset 0 and no bytes", Build: zeroRowGroup},
		{Name: "no_row_groups.parquet", What: "a schema and no row groups", Build: noRowGroups},
		{Name: "empty_row_groups.parquet", What: "row groups of 0 rows around one of 2 rows (values 1 and 2)", Build: emptyRowGroups},
		{Name: "negative_time.parquet", What: "TIME(MILLIS) values -3:51:39 and 01:00:00", Build: negativeTime},
		{Name: "invalid_utf8.parquet", What: "a STRING column holding the bytes ff fe", Build: invalidUTF8},
		{Name: "date_on_int64.parquet", What: "converted type DATE on an INT64 column", Build: dateOnInt64},
		{Name: "bloom_length_contradiction.parquet", What: "100 rows of r = 200 whose Bloom filter header says 256 bytes, bloom_filter_length 528, and whose bits are empty", Build: bloomContradiction},
		{Name: "bloom_odd_bitset.parquet", What: "100 rows of r = 200 whose Bloom filter has 39 blocks (not a power of two) holding 200, its length agreeing with its header", Build: bloomOddBitset},
		{Name: "num_values_zero.parquet", What: "a chunk of 8 rows (1..8) whose num_values is 0 and null_count 0", Build: numValuesZero},
	}
}

func ptr[T any](v T) *T { return &v }

func schema(leaves ...meta.SchemaElement) []meta.SchemaElement {
	return append([]meta.SchemaElement{{Name: "schema", NumChildren: ptr(int32(len(leaves)))}}, leaves...)
}

func leafOf(name string, t meta.Type, r meta.Repetition) meta.SchemaElement {
	return meta.SchemaElement{Name: name, Type: ptr(t), RepetitionType: ptr(r)}
}

func dataPage(n int, enc meta.Encoding, body []byte, firstRow int64) Page {
	return Page{Header: meta.PageHeader{Type: meta.DataPage, DataPageHeader: &meta.DataPageHeader{
		NumValues: int32(n), Encoding: enc, DefinitionLevelEncoding: meta.RLE, RepetitionLevelEncoding: meta.RLE}},
		Body: body, FirstRow: firstRow}
}

func dictPage(n int, body []byte) Page {
	return Page{Header: meta.PageHeader{Type: meta.DictionaryPage, DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: int32(n), Encoding: meta.Plain}}, Body: body}
}

func int64s(vals ...int64) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b
}

func one(s []meta.SchemaElement, rgs ...RowGroup) ([]byte, error) {
	return Build(File{NumRows: -1, Schema: s, RowGroups: rgs})
}

const sixty = 60 << 20

func dictionaryRLE() ([]byte, error) {
	body := RLERun([]byte{1}, sixty, 0, 1)
	return one(schema(leafOf("v", meta.Int64, meta.Required)), RowGroup{NumRows: sixty, Chunks: []Chunk{{NumValues: sixty,
		Pages: []Page{dictPage(1, int64s(42)), dataPage(sixty, meta.RLEDictionary, body, 0)}}}})
}

func hugeList() ([]byte, error) {
	s := []meta.SchemaElement{
		{Name: "schema", NumChildren: ptr(int32(1))},
		{Name: "l", RepetitionType: ptr(meta.Optional), NumChildren: ptr(int32(1)), ConvertedType: ptr(meta.ConvList), LogicalType: &meta.LogicalType{List: &struct{}{}}},
		{Name: "list", RepetitionType: ptr(meta.Repeated), NumChildren: ptr(int32(1))},
		leafOf("element", meta.Int32, meta.Optional),
	}
	rep := Levels(RLERun(RLERun(nil, 1, 0, 1), sixty-1, 1, 1))
	def := Levels(RLERun(nil, sixty, 3, 2))
	body := append(append(rep, def...), RLERun([]byte{1}, sixty, 0, 1)...)
	return one(s, RowGroup{NumRows: 1, Chunks: []Chunk{{NumValues: sixty,
		Pages: []Page{dictPage(1, binary.LittleEndian.AppendUint32(nil, 7)), dataPage(sixty, meta.RLEDictionary, body, 0)}}}})
}

// bomb is a file of one INT64 column whose one page holds n zeros,
// compressed; a stated size other than 0 replaces the true one in the
// header.
func bomb(codec meta.CompressionCodec, n int, stated int32) ([]byte, error) {
	var buf bytes.Buffer
	var w io.WriteCloser
	var err error
	switch codec {
	case meta.Zstd:
		w, err = zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	default:
		w, err = gzip.NewWriterLevel(&buf, gzip.BestCompression)
	}
	if err != nil {
		return nil, err
	}
	zeros := make([]byte, 1<<20)
	for left := n * 8; left > 0; left -= len(zeros) {
		if _, err := w.Write(zeros[:min(left, len(zeros))]); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	size := int32(n * 8)
	if stated != 0 {
		size = stated
	}
	p := dataPage(n, meta.Plain, buf.Bytes(), 0)
	p.Header.UncompressedPageSize = size
	return one(schema(leafOf("v", meta.Int64, meta.Required)), RowGroup{NumRows: int64(n), Chunks: []Chunk{{Codec: codec, NumValues: int64(n), Pages: []Page{p}}}})
}

// deltaPrefix is n DELTA_BYTE_ARRAY values of size bytes: the first all
// suffix, every other all prefix.
func deltaPrefix(n int, size int64) ([]byte, error) {
	prefixes := make([]int64, n)
	suffixes := make([]int64, n)
	for i := 1; i < n; i++ {
		prefixes[i] = size
	}
	suffixes[0] = size
	body := DeltaBinaryPacked(prefixes)
	body = append(body, DeltaBinaryPacked(suffixes)...)
	body = append(body, bytes.Repeat([]byte("a"), int(size))...)
	return one(schema(leafOf("s", meta.ByteArray, meta.Required)), RowGroup{NumRows: int64(n), Chunks: []Chunk{{NumValues: int64(n),
		Pages: []Page{dataPage(n, meta.DeltaByteArray, body, 0)}}}})
}

func misplacedOffsetIndex() ([]byte, error) {
	var pages []Page
	for i := 0; i < 2000; i += 400 {
		var vals []int64
		for v := i; v < i+400; v++ {
			vals = append(vals, int64(v+1))
		}
		pages = append(pages, dataPage(400, meta.Plain, int64s(vals...), int64(i/2)))
	}
	return one(schema(leafOf("v", meta.Int64, meta.Required)), RowGroup{NumRows: 2000, Chunks: []Chunk{{NumValues: 2000, OffsetIndex: true, Pages: pages}}})
}

func zeroRowGroup() ([]byte, error) {
	zero := func(cc *meta.ColumnChunk) {
		cc.FileOffset, cc.MetaData.DataPageOffset, cc.MetaData.TotalCompressedSize, cc.MetaData.TotalUncompressedSize = 0, 0, 0, 0
	}
	return one(schema(leafOf("column1", meta.Int32, meta.Optional), leafOf("column2", meta.Int32, meta.Optional)),
		RowGroup{NumRows: 0, Chunks: []Chunk{{Meta: zero}, {Meta: zero}}})
}

func noRowGroups() ([]byte, error) {
	return one(schema(leafOf("v", meta.Int64, meta.Optional)))
}

func emptyRowGroups() ([]byte, error) {
	s := schema(leafOf("v", meta.Int64, meta.Required))
	return one(s,
		RowGroup{NumRows: 0, Chunks: []Chunk{{NumValues: 0, Pages: []Page{dataPage(0, meta.Plain, nil, 0)}}}},
		RowGroup{NumRows: 2, Chunks: []Chunk{{NumValues: 2, Pages: []Page{dataPage(2, meta.Plain, int64s(1, 2), 0)}}}},
		RowGroup{NumRows: 0, Chunks: []Chunk{{NumValues: 0}}})
}

func negativeTime() ([]byte, error) {
	l := leafOf("t", meta.Int32, meta.Required)
	l.LogicalType = &meta.LogicalType{Time: &meta.TimeType{Unit: meta.Millis}}
	l.ConvertedType = ptr(meta.ConvTimeMillis)
	neg := int32(-13899000)
	body := binary.LittleEndian.AppendUint32(nil, uint32(neg))
	body = binary.LittleEndian.AppendUint32(body, 3600000)
	return one(schema(l), RowGroup{NumRows: 2, Chunks: []Chunk{{NumValues: 2, Pages: []Page{dataPage(2, meta.Plain, body, 0)}}}})
}

func invalidUTF8() ([]byte, error) {
	l := leafOf("s", meta.ByteArray, meta.Required)
	l.LogicalType = &meta.LogicalType{String: &struct{}{}}
	l.ConvertedType = ptr(meta.ConvUTF8)
	var body []byte
	for _, v := range []string{"ok", "\xff\xfe"} {
		body = binary.LittleEndian.AppendUint32(body, uint32(len(v)))
		body = append(body, v...)
	}
	return one(schema(l), RowGroup{NumRows: 2, Chunks: []Chunk{{NumValues: 2, Pages: []Page{dataPage(2, meta.Plain, body, 0)}}}})
}

func dateOnInt64() ([]byte, error) {
	l := leafOf("d", meta.Int64, meta.Required)
	l.ConvertedType = ptr(meta.ConvDate)
	return one(schema(l), RowGroup{NumRows: 1, Chunks: []Chunk{{NumValues: 1, Pages: []Page{dataPage(1, meta.Plain, int64s(19000), 0)}}}})
}

func bloomContradiction() ([]byte, error) {
	vals := make([]int64, 100)
	for i := range vals {
		vals[i] = 200
	}
	h, err := thrift.EncodeBloomFilterHeader(&meta.BloomFilterHeader{NumBytes: 256, AlgorithmBlock: true, HashXxHash: true, CompressionNone: true})
	if err != nil {
		return nil, err
	}
	bloom := append(h, make([]byte, 528-len(h))...)
	return one(schema(leafOf("r", meta.Int64, meta.Required)), RowGroup{NumRows: 100, Chunks: []Chunk{{NumValues: 100,
		Pages: []Page{dataPage(100, meta.Plain, int64s(vals...), 0)}, Bloom: bloom, BloomLength: ptr(int32(528))}}})
}

// bloomOddBitset writes a filter that is sound but sized as no common
// writer sizes one: a reader that derives the bitset from the length (the
// largest power of two below it) looks for the blocks in the wrong place.
func bloomOddBitset() ([]byte, error) {
	vals := make([]int64, 100)
	for i := range vals {
		vals[i] = 200
	}
	const blocks = 39
	h, err := thrift.EncodeBloomFilterHeader(&meta.BloomFilterHeader{NumBytes: blocks * 32, AlgorithmBlock: true, HashXxHash: true, CompressionNone: true})
	if err != nil {
		return nil, err
	}
	bitset := make([]byte, blocks*32)
	hash := xxhash.Sum64(int64s(200))
	block := bitset[((hash>>32)*blocks)>>32*32:]
	salt := [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}
	for i, s := range salt {
		w := binary.LittleEndian.Uint32(block[4*i:]) | 1<<((uint32(hash)*s)>>27)
		binary.LittleEndian.PutUint32(block[4*i:], w)
	}
	bloom := append(h, bitset...)
	return one(schema(leafOf("r", meta.Int64, meta.Required)), RowGroup{NumRows: 100, Chunks: []Chunk{{NumValues: 100,
		Pages: []Page{dataPage(100, meta.Plain, int64s(vals...), 0)}, Bloom: bloom}}})
}

func numValuesZero() ([]byte, error) {
	def := Levels(RLERun(nil, 8, 1, 1))
	body := append(def, int64s(1, 2, 3, 4, 5, 6, 7, 8)...)
	st := &meta.Statistics{NullCount: ptr(int64(0)), MinValue: int64s(1), MaxValue: int64s(8), HasMinValue: true, HasMaxValue: true}
	return one(schema(leafOf("v", meta.Int64, meta.Optional)), RowGroup{NumRows: 8, Chunks: []Chunk{{NumValues: 0, Stats: st,
		Pages: []Page{dataPage(8, meta.Plain, body, 0)}}}})
}
