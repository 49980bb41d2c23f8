package thrift

import "github.com/apache/thrift/lib/go/thrift"

// The structs of parquet.thrift (apache/parquet-format,
// src/main/thrift/parquet.thrift): each field's name and wire type, indexed
// by field id. Enums are I32 on the wire; unions are structs whose members
// are all structs.

const (
	tBool   = thrift.BOOL
	tI8     = thrift.BYTE
	tI16    = thrift.I16
	tI32    = thrift.I32
	tI64    = thrift.I64
	tDouble = thrift.DOUBLE
	tBinary = thrift.STRING
	tStruct = thrift.STRUCT
	tList   = thrift.LIST
)

var (
	fileMetaDataFields = fields{
		1: {"version", tI32},
		2: {"schema", tList},
		3: {"num_rows", tI64},
		4: {"row_groups", tList},
		5: {"key_value_metadata", tList},
		6: {"created_by", tBinary},
		7: {"column_orders", tList},
		8: {"encryption_algorithm", tStruct},
		9: {"footer_signing_key_metadata", tBinary},
	}
	keyValueFields = fields{
		1: {"key", tBinary},
		2: {"value", tBinary},
	}
	schemaElementFields = fields{
		1:  {"type", tI32},
		2:  {"type_length", tI32},
		3:  {"repetition_type", tI32},
		4:  {"name", tBinary},
		5:  {"num_children", tI32},
		6:  {"converted_type", tI32},
		7:  {"scale", tI32},
		8:  {"precision", tI32},
		9:  {"field_id", tI32},
		10: {"logicalType", tStruct},
		// 11: vector_length, of the proposed VECTOR repetition, is skipped:
		// a reader that does not know VECTOR sees Repetition(3) and refuses.
	}
	logicalTypeFields = fields{
		1:  {"STRING", tStruct},
		2:  {"MAP", tStruct},
		3:  {"LIST", tStruct},
		4:  {"ENUM", tStruct},
		5:  {"DECIMAL", tStruct},
		6:  {"DATE", tStruct},
		7:  {"TIME", tStruct},
		8:  {"TIMESTAMP", tStruct},
		10: {"INTEGER", tStruct},
		11: {"UNKNOWN", tStruct},
		12: {"JSON", tStruct},
		13: {"BSON", tStruct},
		14: {"UUID", tStruct},
		15: {"FLOAT16", tStruct},
		16: {"VARIANT", tStruct},
		17: {"GEOMETRY", tStruct},
		18: {"GEOGRAPHY", tStruct},
	}
	decimalTypeFields = fields{
		1: {"scale", tI32},
		2: {"precision", tI32},
	}
	timeTypeFields = fields{ // TimeType and TimestampType
		1: {"isAdjustedToUTC", tBool},
		2: {"unit", tStruct},
	}
	timeUnitFields = fields{
		1: {"MILLIS", tStruct},
		2: {"MICROS", tStruct},
		3: {"NANOS", tStruct},
	}
	intTypeFields = fields{
		1: {"bitWidth", tI8},
		2: {"isSigned", tBool},
	}
	variantTypeFields = fields{
		1: {"specification_version", tI8},
	}
	geometryTypeFields = fields{
		1: {"crs", tBinary},
	}
	geographyTypeFields = fields{
		1: {"crs", tBinary},
		2: {"algorithm", tI32},
	}
	rowGroupFields = fields{
		1: {"columns", tList},
		2: {"total_byte_size", tI64},
		3: {"num_rows", tI64},
		4: {"sorting_columns", tList},
		5: {"file_offset", tI64},
		6: {"total_compressed_size", tI64},
		7: {"ordinal", tI16},
	}
	sortingColumnFields = fields{
		1: {"column_idx", tI32},
		2: {"descending", tBool},
		3: {"nulls_first", tBool},
	}
	columnChunkFields = fields{
		1: {"file_path", tBinary},
		2: {"file_offset", tI64},
		3: {"meta_data", tStruct},
		4: {"offset_index_offset", tI64},
		5: {"offset_index_length", tI32},
		6: {"column_index_offset", tI64},
		7: {"column_index_length", tI32},
		8: {"crypto_metadata", tStruct},
		9: {"encrypted_column_metadata", tBinary},
	}
	columnCryptoFields = fields{
		1: {"ENCRYPTION_WITH_FOOTER_KEY", tStruct},
		2: {"ENCRYPTION_WITH_COLUMN_KEY", tStruct},
	}
	encryptionWithColumnKeyFields = fields{
		1: {"path_in_schema", tList},
		2: {"key_metadata", tBinary},
	}
	encryptionAlgorithmFields = fields{
		1: {"AES_GCM_V1", tStruct},
		2: {"AES_GCM_CTR_V1", tStruct},
	}
	columnMetaDataFields = fields{
		1:  {"type", tI32},
		2:  {"encodings", tList},
		3:  {"path_in_schema", tList},
		4:  {"codec", tI32},
		5:  {"num_values", tI64},
		6:  {"total_uncompressed_size", tI64},
		7:  {"total_compressed_size", tI64},
		8:  {"key_value_metadata", tList},
		9:  {"data_page_offset", tI64},
		10: {"index_page_offset", tI64},
		11: {"dictionary_page_offset", tI64},
		12: {"statistics", tStruct},
		13: {"encoding_stats", tList},
		14: {"bloom_filter_offset", tI64},
		15: {"bloom_filter_length", tI32},
		16: {"size_statistics", tStruct},
		17: {"geospatial_statistics", tStruct},
	}
	statisticsFields = fields{
		1: {"max", tBinary},
		2: {"min", tBinary},
		3: {"null_count", tI64},
		4: {"distinct_count", tI64},
		5: {"max_value", tBinary},
		6: {"min_value", tBinary},
		7: {"is_max_value_exact", tBool},
		8: {"is_min_value_exact", tBool},
		9: {"nan_count", tI64},
	}
	pageEncodingStatsFields = fields{
		1: {"page_type", tI32},
		2: {"encoding", tI32},
		3: {"count", tI32},
	}
	sizeStatisticsFields = fields{
		1: {"unencoded_byte_array_data_bytes", tI64},
		2: {"repetition_level_histogram", tList},
		3: {"definition_level_histogram", tList},
	}
	boundingBoxFields = fields{
		1: {"xmin", tDouble},
		2: {"xmax", tDouble},
		3: {"ymin", tDouble},
		4: {"ymax", tDouble},
		5: {"zmin", tDouble},
		6: {"zmax", tDouble},
		7: {"mmin", tDouble},
		8: {"mmax", tDouble},
	}
	geospatialStatisticsFields = fields{
		1: {"bbox", tStruct},
		2: {"geospatial_types", tList},
	}
	columnOrderFields = fields{
		1: {"TYPE_ORDER", tStruct},
		2: {"IEEE_754_TOTAL_ORDER", tStruct},
		3: {"INT96_TIMESTAMP_ORDER", tStruct},
	}

	pageHeaderFields = fields{
		1: {"type", tI32},
		2: {"uncompressed_page_size", tI32},
		3: {"compressed_page_size", tI32},
		4: {"crc", tI32},
		5: {"data_page_header", tStruct},
		6: {"index_page_header", tStruct},
		7: {"dictionary_page_header", tStruct},
		8: {"data_page_header_v2", tStruct},
	}
	dataPageHeaderFields = fields{
		1: {"num_values", tI32},
		2: {"encoding", tI32},
		3: {"definition_level_encoding", tI32},
		4: {"repetition_level_encoding", tI32},
		5: {"statistics", tStruct},
	}
	dictionaryPageHeaderFields = fields{
		1: {"num_values", tI32},
		2: {"encoding", tI32},
		3: {"is_sorted", tBool},
	}
	dataPageHeaderV2Fields = fields{
		1: {"num_values", tI32},
		2: {"num_nulls", tI32},
		3: {"num_rows", tI32},
		4: {"encoding", tI32},
		5: {"definition_levels_byte_length", tI32},
		6: {"repetition_levels_byte_length", tI32},
		7: {"is_compressed", tBool},
		8: {"statistics", tStruct},
	}
	columnIndexFields = fields{
		1: {"null_pages", tList},
		2: {"min_values", tList},
		3: {"max_values", tList},
		4: {"boundary_order", tI32},
		5: {"null_counts", tList},
		6: {"repetition_level_histograms", tList},
		7: {"definition_level_histograms", tList},
		8: {"nan_counts", tList},
	}
	offsetIndexFields = fields{
		1: {"page_locations", tList},
		2: {"unencoded_byte_array_data_bytes", tList},
	}
	pageLocationFields = fields{
		1: {"offset", tI64},
		2: {"compressed_page_size", tI32},
		3: {"first_row_index", tI64},
	}
	bloomFilterHeaderFields = fields{
		1: {"numBytes", tI32},
		2: {"algorithm", tStruct},
		3: {"hash", tStruct},
		4: {"compression", tStruct},
	}
	bloomAlgorithmFields   = fields{1: {"BLOCK", tStruct}}
	bloomHashFields        = fields{1: {"XXHASH", tStruct}}
	bloomCompressionFields = fields{1: {"UNCOMPRESSED", tStruct}}
)
