package meta

// Type is a physical type: how values are laid out in pages.
type Type int32

// The physical types of parquet.thrift.
const (
	Boolean           Type = 0
	Int32             Type = 1
	Int64             Type = 2
	Int96             Type = 3
	Float             Type = 4
	Double            Type = 5
	ByteArray         Type = 6
	FixedLenByteArray Type = 7
)

var typeNames = [...]string{"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"}

func (t Type) String() string { return enumName(typeNames[:], int32(t), "Type") }

// ConvertedType is the deprecated annotation that LogicalType replaced.
type ConvertedType int32

// The converted types of parquet.thrift.
const (
	ConvUTF8            ConvertedType = 0
	ConvMap             ConvertedType = 1
	ConvMapKeyValue     ConvertedType = 2
	ConvList            ConvertedType = 3
	ConvEnum            ConvertedType = 4
	ConvDecimal         ConvertedType = 5
	ConvDate            ConvertedType = 6
	ConvTimeMillis      ConvertedType = 7
	ConvTimeMicros      ConvertedType = 8
	ConvTimestampMillis ConvertedType = 9
	ConvTimestampMicros ConvertedType = 10
	ConvUint8           ConvertedType = 11
	ConvUint16          ConvertedType = 12
	ConvUint32          ConvertedType = 13
	ConvUint64          ConvertedType = 14
	ConvInt8            ConvertedType = 15
	ConvInt16           ConvertedType = 16
	ConvInt32           ConvertedType = 17
	ConvInt64           ConvertedType = 18
	ConvJSON            ConvertedType = 19
	ConvBSON            ConvertedType = 20
	ConvInterval        ConvertedType = 21
)

var convertedNames = [...]string{"UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE",
	"TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16",
	"UINT_32", "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL"}

func (c ConvertedType) String() string {
	return enumName(convertedNames[:], int32(c), "ConvertedType")
}

// Repetition says whether a field may be absent or repeated.
type Repetition int32

// The repetition types of parquet.thrift.
const (
	Required Repetition = 0
	Optional Repetition = 1
	Repeated Repetition = 2
)

var repetitionNames = [...]string{"REQUIRED", "OPTIONAL", "REPEATED"}

func (r Repetition) String() string { return enumName(repetitionNames[:], int32(r), "Repetition") }

// Encoding is a page value or level encoding.
type Encoding int32

// The encodings of parquet.thrift. Value 1 (GROUP_VAR_INT) was never used.
const (
	Plain                Encoding = 0
	PlainDictionary      Encoding = 2
	RLE                  Encoding = 3
	BitPacked            Encoding = 4
	DeltaBinaryPacked    Encoding = 5
	DeltaLengthByteArray Encoding = 6
	DeltaByteArray       Encoding = 7
	RLEDictionary        Encoding = 8
	ByteStreamSplit      Encoding = 9
)

var encodingNames = [...]string{"PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED",
	"DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY",
	"BYTE_STREAM_SPLIT"}

func (e Encoding) String() string { return enumName(encodingNames[:], int32(e), "Encoding") }

// CompressionCodec names the compression of a column chunk's pages.
type CompressionCodec int32

// The compression codecs of parquet.thrift.
const (
	Uncompressed CompressionCodec = 0
	Snappy       CompressionCodec = 1
	Gzip         CompressionCodec = 2
	LZO          CompressionCodec = 3
	Brotli       CompressionCodec = 4
	LZ4          CompressionCodec = 5 // Hadoop-framed LZ4, deprecated
	Zstd         CompressionCodec = 6
	LZ4Raw       CompressionCodec = 7
)

var codecNames = [...]string{"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"}

func (c CompressionCodec) String() string {
	return enumName(codecNames[:], int32(c), "CompressionCodec")
}

// PageType is the kind of a page.
type PageType int32

// The page types of parquet.thrift.
const (
	DataPage       PageType = 0
	IndexPage      PageType = 1
	DictionaryPage PageType = 2
	DataPageV2     PageType = 3
)

var pageTypeNames = [...]string{"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"}

func (p PageType) String() string { return enumName(pageTypeNames[:], int32(p), "PageType") }

// BoundaryOrder says how a column index's page bounds are ordered.
type BoundaryOrder int32

// The boundary orders of parquet.thrift.
const (
	Unordered  BoundaryOrder = 0
	Ascending  BoundaryOrder = 1
	Descending BoundaryOrder = 2
)

var boundaryNames = [...]string{"UNORDERED", "ASCENDING", "DESCENDING"}

func (b BoundaryOrder) String() string { return enumName(boundaryNames[:], int32(b), "BoundaryOrder") }

// EdgeInterpolationAlgorithm says how a GEOGRAPHY's edges run between vertices.
type EdgeInterpolationAlgorithm int32

// The edge interpolation algorithms of parquet.thrift.
const (
	Spherical EdgeInterpolationAlgorithm = 0
	Vincenty  EdgeInterpolationAlgorithm = 1
	Thomas    EdgeInterpolationAlgorithm = 2
	Andoyer   EdgeInterpolationAlgorithm = 3
	Karney    EdgeInterpolationAlgorithm = 4
)

var edgeNames = [...]string{"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"}

func (e EdgeInterpolationAlgorithm) String() string {
	return enumName(edgeNames[:], int32(e), "EdgeInterpolationAlgorithm")
}

func enumName(names []string, v int32, kind string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return kind + "(" + itoa(int64(v)) + ")"
}

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	var b [20]byte
	i := len(b)
	for v != 0 {
		d := v % 10
		if d < 0 {
			d = -d
		}
		i--
		b[i] = byte('0' + d)
		v /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
