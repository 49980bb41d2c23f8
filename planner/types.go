package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// TypeID names a SQL type.
type TypeID int

// The SQL types values take in the executor.
const (
	TypeNull TypeID = iota
	TypeBoolean
	TypeTinyInt
	TypeSmallInt
	TypeInteger
	TypeBigInt
	TypeUTinyInt
	TypeUSmallInt
	TypeUInteger
	TypeUBigInt
	TypeHugeInt
	TypeFloat
	TypeDouble
	TypeDecimal
	TypeVarchar
	TypeBlob
	TypeUUID
	TypeDate
	TypeTime
	TypeTimeTZ
	TypeTimeNS
	TypeTimestamp
	TypeTimestampNS
	TypeTimestampTZ
	TypeInterval
	TypeNested
)

// A Type is a SQL type with its parameters.
type Type struct {
	ID TypeID
	// Precision and Scale describe a DECIMAL.
	Precision, Scale int
	// Name is the printed name of nested and unusual types.
	Name string
}

// String is the type as DuckDB prints it.
func (t Type) String() string {
	switch t.ID {
	case TypeNull:
		return "\"NULL\""
	case TypeBoolean:
		return "BOOLEAN"
	case TypeTinyInt:
		return "TINYINT"
	case TypeSmallInt:
		return "SMALLINT"
	case TypeInteger:
		return "INTEGER"
	case TypeBigInt:
		return "BIGINT"
	case TypeUTinyInt:
		return "UTINYINT"
	case TypeUSmallInt:
		return "USMALLINT"
	case TypeUInteger:
		return "UINTEGER"
	case TypeUBigInt:
		return "UBIGINT"
	case TypeHugeInt:
		return "HUGEINT"
	case TypeFloat:
		return "FLOAT"
	case TypeDouble:
		return "DOUBLE"
	case TypeDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case TypeVarchar:
		return "VARCHAR"
	case TypeBlob:
		if t.Name != "" {
			// GEOMETRY, VARIANT and other binary-backed types keep their name.
			return t.Name
		}
		return "BLOB"
	case TypeUUID:
		return "UUID"
	case TypeDate:
		return "DATE"
	case TypeTime:
		return "TIME"
	case TypeTimeNS:
		return "TIME_NS"
	case TypeTimeTZ:
		return "TIME WITH TIME ZONE"
	case TypeTimestamp:
		return "TIMESTAMP"
	case TypeTimestampNS:
		return "TIMESTAMP_NS"
	case TypeTimestampTZ:
		return "TIMESTAMP WITH TIME ZONE"
	case TypeInterval:
		return "INTERVAL"
	}
	return t.Name
}

// IsNumeric reports whether t is an integer, decimal or float type.
func (t Type) IsNumeric() bool {
	return t.ID >= TypeTinyInt && t.ID <= TypeDecimal
}

// IsInteger reports whether t is a signed or unsigned integer type.
func (t Type) IsInteger() bool { return t.ID >= TypeTinyInt && t.ID <= TypeHugeInt }

// IsUnsigned reports whether t is an unsigned integer type.
func (t Type) IsUnsigned() bool { return t.ID >= TypeUTinyInt && t.ID <= TypeUBigInt }

// RightAligned reports whether box output right-aligns the type.
func (t Type) RightAligned() bool { return t.IsNumeric() }

// TypeOf maps a Parquet field to its SQL type, as DuckDB reads it.
func TypeOf(f *format.Field) Type {
	if f.Kind != format.ScalarField {
		return Type{ID: TypeNested, Name: f.TypeName()}
	}
	lg := format.LogicalOf(f.Leaf)
	switch lg.Kind {
	case format.KindBoolean:
		return Type{ID: TypeBoolean}
	case format.KindInt8:
		return Type{ID: TypeTinyInt}
	case format.KindInt16:
		return Type{ID: TypeSmallInt}
	case format.KindInt32, format.KindNull:
		return Type{ID: TypeInteger}
	case format.KindInt64:
		return Type{ID: TypeBigInt}
	case format.KindUint8:
		return Type{ID: TypeUTinyInt}
	case format.KindUint16:
		return Type{ID: TypeUSmallInt}
	case format.KindUint32:
		return Type{ID: TypeUInteger}
	case format.KindUint64:
		return Type{ID: TypeUBigInt}
	case format.KindFloat, format.KindFloat16:
		return Type{ID: TypeFloat}
	case format.KindDouble:
		return Type{ID: TypeDouble}
	case format.KindDecimal:
		return Type{ID: TypeDecimal, Precision: lg.Precision, Scale: lg.Scale}
	case format.KindString:
		if lg.JSON {
			return Type{ID: TypeVarchar, Name: "JSON"}
		}
		return Type{ID: TypeVarchar}
	case format.KindUUID:
		return Type{ID: TypeUUID}
	case format.KindDate:
		return Type{ID: TypeDate}
	case format.KindTime:
		if lg.Unit == meta.Nanos {
			return Type{ID: TypeTimeNS}
		}
		return Type{ID: TypeTime}
	case format.KindTimeTZ:
		return Type{ID: TypeTimeTZ}
	case format.KindTimestamp:
		if lg.Unit == meta.Nanos {
			return Type{ID: TypeTimestampNS}
		}
		return Type{ID: TypeTimestamp}
	case format.KindInt96:
		return Type{ID: TypeTimestamp}
	case format.KindTimestampTZ:
		return Type{ID: TypeTimestampTZ}
	case format.KindInterval:
		return Type{ID: TypeInterval}
	}
	// A plain BLOB column is the BLOB type itself, so functions taking BLOB
	// bind to it without a cast; the name stays for binary-backed types only.
	if name := strings.ToUpper(lg.SQLName()); name != "BLOB" {
		return Type{ID: TypeBlob, Name: name}
	}
	return Type{ID: TypeBlob}
}
