package meta

// FileMetaData is the footer of a Parquet file.
type FileMetaData struct {
	Version          int32
	Schema           []SchemaElement
	NumRows          int64
	RowGroups        []RowGroup
	KeyValueMetadata []KeyValue
	CreatedBy        *string
	// ColumnOrders has one entry per leaf when the writer wrote it; nil means the
	// footer has none, so min_value/max_value have no defined order.
	ColumnOrders []ColumnOrder
	// EncryptionAlgorithm and FooterSigningKeyMetadata mark a file with a
	// plaintext footer and encrypted columns.
	EncryptionAlgorithm      *EncryptionAlgorithm
	FooterSigningKeyMetadata []byte
}

// KeyValue is one entry of key-value metadata.
type KeyValue struct {
	Key   string
	Value *string
}

// SchemaElement is one node of the flattened, depth-first schema.
type SchemaElement struct {
	Type           *Type // nil for groups
	TypeLength     *int32
	RepetitionType *Repetition // nil for the root
	Name           string
	NumChildren    *int32
	ConvertedType  *ConvertedType
	Scale          *int32
	Precision      *int32
	FieldID        *int32
	LogicalType    *LogicalType
}

// LogicalType is the thrift union of logical annotations; exactly one field is
// set. A union member this reader does not know sets Unknown to its field id.
type LogicalType struct {
	String    *struct{}
	Map       *struct{}
	List      *struct{}
	Enum      *struct{}
	Decimal   *DecimalType
	Date      *struct{}
	Time      *TimeType
	Timestamp *TimestampType
	Integer   *IntType
	Null      *struct{} // UNKNOWN in parquet.thrift: always null
	JSON      *struct{}
	BSON      *struct{}
	UUID      *struct{}
	Float16   *struct{}
	Variant   *VariantType
	Geometry  *GeometryType
	Geography *GeographyType
	// Unknown is the thrift field id of a union member this reader does not
	// know, or 0.
	Unknown int16
}

// DecimalType is DECIMAL(precision, scale).
type DecimalType struct {
	Scale     int32
	Precision int32
}

// TimeUnit is the unit of a TIME or TIMESTAMP.
type TimeUnit int8

// The time units.
const (
	Millis TimeUnit = iota + 1
	Micros
	Nanos
)

func (u TimeUnit) String() string {
	switch u {
	case Millis:
		return "MILLIS"
	case Micros:
		return "MICROS"
	case Nanos:
		return "NANOS"
	}
	return "TimeUnit(" + itoa(int64(u)) + ")"
}

// TimeType is TIME(isAdjustedToUTC, unit).
type TimeType struct {
	IsAdjustedToUTC bool
	Unit            TimeUnit
}

// TimestampType is TIMESTAMP(isAdjustedToUTC, unit).
type TimestampType struct {
	IsAdjustedToUTC bool
	Unit            TimeUnit
}

// IntType is INTEGER(bitWidth, isSigned).
type IntType struct {
	BitWidth int8
	IsSigned bool
}

// VariantType is VARIANT(specification_version).
type VariantType struct {
	SpecificationVersion *int8
}

// GeometryType is GEOMETRY(crs).
type GeometryType struct {
	CRS *string
}

// GeographyType is GEOGRAPHY(crs, algorithm).
type GeographyType struct {
	CRS       *string
	Algorithm *EdgeInterpolationAlgorithm
}

// RowGroup is one horizontal slice of the file.
type RowGroup struct {
	Columns             []ColumnChunk
	TotalByteSize       int64
	NumRows             int64
	SortingColumns      []SortingColumn
	FileOffset          *int64
	TotalCompressedSize *int64
	Ordinal             *int16
}

// SortingColumn says the rows of a row group are sorted by a leaf.
type SortingColumn struct {
	ColumnIdx  int32
	Descending bool
	NullsFirst bool
}

// ColumnChunk locates one leaf's data in one row group.
type ColumnChunk struct {
	FilePath          *string
	FileOffset        int64
	MetaData          *ColumnMetaData
	OffsetIndexOffset *int64
	OffsetIndexLength *int32
	ColumnIndexOffset *int64
	ColumnIndexLength *int32
	// CryptoMetadata is set when the column is encrypted.
	CryptoMetadata          *ColumnCryptoMetaData
	EncryptedColumnMetadata []byte
}

// ColumnCryptoMetaData says how a column chunk is encrypted.
type ColumnCryptoMetaData struct {
	FooterKey    bool
	PathInSchema []string
	KeyMetadata  []byte
}

// EncryptionAlgorithm names AES_GCM_V1 or AES_GCM_CTR_V1; only its presence matters here.
type EncryptionAlgorithm struct {
	AesGcmV1    bool
	AesGcmCtrV1 bool
}

// ColumnMetaData describes one column chunk.
type ColumnMetaData struct {
	Type                  Type
	Encodings             []Encoding
	PathInSchema          []string
	Codec                 CompressionCodec
	NumValues             int64
	TotalUncompressedSize int64
	TotalCompressedSize   int64
	KeyValueMetadata      []KeyValue
	DataPageOffset        int64
	IndexPageOffset       *int64
	DictionaryPageOffset  *int64
	Statistics            *Statistics
	EncodingStats         []PageEncodingStats
	BloomFilterOffset     *int64
	BloomFilterLength     *int32
	SizeStatistics        *SizeStatistics
	GeospatialStatistics  *GeospatialStatistics
}

// Statistics are a chunk's or page's bounds and counts, as written.
type Statistics struct {
	// Max and Min are the deprecated pair, ordered as signed values.
	Max           []byte
	Min           []byte
	NullCount     *int64
	DistinctCount *int64
	// MaxValue and MinValue are ordered by the column's ColumnOrder.
	MaxValue        []byte
	MinValue        []byte
	IsMaxValueExact *bool
	IsMinValueExact *bool
	NanCount        *int64
	HasMax, HasMin  bool // the deprecated fields were present (possibly empty)
	HasMaxValue     bool // max_value was present (possibly empty)
	HasMinValue     bool // min_value was present (possibly empty)
}

// PageEncodingStats counts the pages of one type written with one encoding.
type PageEncodingStats struct {
	PageType PageType
	Encoding Encoding
	Count    int32
}

// SizeStatistics carry unencoded sizes and level histograms.
type SizeStatistics struct {
	UnencodedByteArrayDataBytes *int64
	RepetitionLevelHistogram    []int64
	DefinitionLevelHistogram    []int64
}

// BoundingBox is the extent of a chunk's geometries.
type BoundingBox struct {
	XMin, XMax, YMin, YMax float64
	ZMin, ZMax, MMin, MMax *float64
}

// GeospatialStatistics are the Parquet 2.11 statistics of a GEOMETRY or GEOGRAPHY chunk.
type GeospatialStatistics struct {
	BBox            *BoundingBox
	GeospatialTypes []int32
}

// ColumnOrderKind is the order a column's min_value/max_value follow.
type ColumnOrderKind int8

// The column orders; OrderUnknown stands for a union member this reader does not know.
const (
	OrderUnknown ColumnOrderKind = iota
	TypeDefinedOrder
	IEEE754TotalOrder
)

func (k ColumnOrderKind) String() string {
	switch k {
	case TypeDefinedOrder:
		return "TYPE_ORDER"
	case IEEE754TotalOrder:
		return "IEEE_754_TOTAL_ORDER"
	}
	return "unknown column order"
}

// ColumnOrder is the thrift ColumnOrder union.
type ColumnOrder struct {
	Kind ColumnOrderKind
	// UnknownField is the union field id when Kind is OrderUnknown.
	UnknownField int16
}

// PageHeader precedes every page.
type PageHeader struct {
	Type                 PageType
	UncompressedPageSize int32
	CompressedPageSize   int32
	CRC                  *int32
	DataPageHeader       *DataPageHeader
	IndexPageHeader      *struct{}
	DictionaryPageHeader *DictionaryPageHeader
	DataPageHeaderV2     *DataPageHeaderV2
}

// DataPageHeader is the header of a DATA_PAGE (v1).
type DataPageHeader struct {
	NumValues               int32
	Encoding                Encoding
	DefinitionLevelEncoding Encoding
	RepetitionLevelEncoding Encoding
	Statistics              *Statistics
}

// DictionaryPageHeader is the header of a DICTIONARY_PAGE.
type DictionaryPageHeader struct {
	NumValues int32
	Encoding  Encoding
	IsSorted  *bool
}

// DataPageHeaderV2 is the header of a DATA_PAGE_V2.
type DataPageHeaderV2 struct {
	NumValues                  int32
	NumNulls                   int32
	NumRows                    int32
	Encoding                   Encoding
	DefinitionLevelsByteLength int32
	RepetitionLevelsByteLength int32
	// IsCompressed defaults to true when absent.
	IsCompressed bool
	Statistics   *Statistics
}

// PageLocation is one page's entry in an OffsetIndex.
type PageLocation struct {
	Offset             int64
	CompressedPageSize int32
	FirstRowIndex      int64
}

// OffsetIndex locates a column chunk's data pages.
type OffsetIndex struct {
	PageLocations               []PageLocation
	UnencodedByteArrayDataBytes []int64
}

// ColumnIndex holds per-page bounds of a column chunk.
type ColumnIndex struct {
	NullPages     []bool
	MinValues     [][]byte
	MaxValues     [][]byte
	BoundaryOrder BoundaryOrder
	// NullCounts is nil when the writer did not write it.
	NullCounts                []int64
	RepetitionLevelHistograms []int64
	DefinitionLevelHistograms []int64
	// NanCounts is nil unless the writer used IEEE_754_TOTAL_ORDER and wrote it.
	NanCounts []int64
}

// BloomFilterHeader precedes a split-block Bloom filter's bitset.
type BloomFilterHeader struct {
	NumBytes int32
	// Algorithm, Hash and Compression are unions; each bool is true when the
	// only defined member (BLOCK, XXHASH, UNCOMPRESSED) is set.
	AlgorithmBlock  bool
	HashXxHash      bool
	CompressionNone bool
}
