package sql

import "strings"

// Canonical DuckDB type names, as they appear in sqlparser.ConvertType.Type
// after lowering. Aliases (INT, INT8, TEXT, FLOAT8, NUMERIC, ...) are mapped
// onto these.
const (
	TypeBoolean     = "BOOLEAN"
	TypeTinyint     = "TINYINT"
	TypeSmallint    = "SMALLINT"
	TypeInteger     = "INTEGER"
	TypeBigint      = "BIGINT"
	TypeHugeint     = "HUGEINT"
	TypeUTinyint    = "UTINYINT"
	TypeUSmallint   = "USMALLINT"
	TypeUInteger    = "UINTEGER"
	TypeUBigint     = "UBIGINT"
	TypeUHugeint    = "UHUGEINT"
	TypeFloat       = "FLOAT"
	TypeDouble      = "DOUBLE"
	TypeDecimal     = "DECIMAL"
	TypeVarchar     = "VARCHAR"
	TypeBlob        = "BLOB"
	TypeDate        = "DATE"
	TypeTime        = "TIME"
	TypeTimestamp   = "TIMESTAMP"
	TypeTimestampTZ = "TIMESTAMP WITH TIME ZONE"
	TypeTimestampS  = "TIMESTAMP_S"
	TypeTimestampMS = "TIMESTAMP_MS"
	TypeTimestampNS = "TIMESTAMP_NS"
	TypeInterval    = "INTERVAL"
	TypeUUID        = "UUID"
	// TypeGeometry is the spatial extension's GEOMETRY: x::GEOMETRY reads
	// WKT text or a WKB blob.
	TypeGeometry = "GEOMETRY"
)

// typeNames maps every accepted spelling (lower case, words joined by one
// space) to its canonical name.
var typeNames = map[string]string{
	"boolean": TypeBoolean, "bool": TypeBoolean, "logical": TypeBoolean,
	"tinyint": TypeTinyint, "int1": TypeTinyint,
	"smallint": TypeSmallint, "int2": TypeSmallint, "short": TypeSmallint,
	"integer": TypeInteger, "int": TypeInteger, "int4": TypeInteger, "signed": TypeInteger,
	"bigint": TypeBigint, "int8": TypeBigint, "long": TypeBigint,
	"hugeint": TypeHugeint, "int128": TypeHugeint,
	"utinyint": TypeUTinyint, "uint8": TypeUTinyint,
	"usmallint": TypeUSmallint, "uint16": TypeUSmallint,
	"uinteger": TypeUInteger, "uint32": TypeUInteger,
	"ubigint": TypeUBigint, "uint64": TypeUBigint,
	"uhugeint": TypeUHugeint, "uint128": TypeUHugeint,
	"float": TypeFloat, "float4": TypeFloat, "real": TypeFloat,
	"double": TypeDouble, "float8": TypeDouble, "double precision": TypeDouble,
	"decimal": TypeDecimal, "numeric": TypeDecimal,
	"varchar": TypeVarchar, "text": TypeVarchar, "string": TypeVarchar, "char": TypeVarchar,
	"bpchar": TypeVarchar, "character": TypeVarchar, "character varying": TypeVarchar,
	"blob": TypeBlob, "bytea": TypeBlob, "binary": TypeBlob, "varbinary": TypeBlob,
	"date":      TypeDate,
	"time":      TypeTime,
	"timestamp": TypeTimestamp, "datetime": TypeTimestamp, "timestamp without time zone": TypeTimestamp,
	"timestamptz": TypeTimestampTZ, "timestamp with time zone": TypeTimestampTZ,
	"timestamp_s": TypeTimestampS, "timestamp_ms": TypeTimestampMS,
	"timestamp_ns": TypeTimestampNS, "timestamp_us": TypeTimestamp,
	"interval": TypeInterval,
	"uuid":     TypeUUID,
	"geometry": TypeGeometry,
}

// multiWordTypes are the spellings of more than one word, longest first, so
// the longest one is matched.
var multiWordTypes = [][]string{
	{"timestamp", "without", "time", "zone"},
	{"timestamp", "with", "time", "zone"},
	{"character", "varying"},
	{"double", "precision"},
}

// maxDecimalWidth is DuckDB's largest DECIMAL precision.
const maxDecimalWidth = 38

// castType is a parsed type of a cast or typed literal.
type castType struct {
	name         string // canonical
	width, scale string // DECIMAL(width, scale); "" when absent
	display      string // as DuckDB prints the type in a column name
}

// quotedTypes are the types DuckDB prints double-quoted in the name of a
// cast column (CAST(x AS "DOUBLE")); the others print bare.
var quotedTypes = map[string]bool{
	TypeTinyint: true, TypeUTinyint: true, TypeUSmallint: true, TypeUInteger: true, TypeUBigint: true,
	TypeHugeint: true, TypeUHugeint: true, TypeDouble: true, TypeDate: true, TypeBlob: true, TypeGeometry: true,
	TypeTimestampTZ: true, TypeTimestampS: true, TypeTimestampMS: true, TypeTimestampNS: true, TypeUUID: true,
}

// typeDisplay is how DuckDB prints a cast's type in a column name, given
// the spelling (lower case) and the parameters as written.
func typeDisplay(name, spelling string, params []string) string {
	switch {
	case quotedTypes[name]:
		return `"` + name + `"`
	case len(params) > 0:
		return name + "(" + strings.Join(params, ", ") + ")"
	case name == TypeVarchar && (spelling == "char" || spelling == "character"):
		return TypeVarchar + "(1)"
	}
	return name
}
