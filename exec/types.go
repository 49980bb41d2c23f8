package exec

import (
	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
)

// A Type is a SQL type with its parameters; the planner types every
// expression, so the type lives there and exec names it.
type Type = planner.Type

// TypeID names a SQL type.
type TypeID = planner.TypeID

// The SQL types values take in the executor.
const (
	TypeNull        = planner.TypeNull
	TypeBoolean     = planner.TypeBoolean
	TypeTinyInt     = planner.TypeTinyInt
	TypeSmallInt    = planner.TypeSmallInt
	TypeInteger     = planner.TypeInteger
	TypeBigInt      = planner.TypeBigInt
	TypeUTinyInt    = planner.TypeUTinyInt
	TypeUSmallInt   = planner.TypeUSmallInt
	TypeUInteger    = planner.TypeUInteger
	TypeUBigInt     = planner.TypeUBigInt
	TypeHugeInt     = planner.TypeHugeInt
	TypeFloat       = planner.TypeFloat
	TypeDouble      = planner.TypeDouble
	TypeDecimal     = planner.TypeDecimal
	TypeVarchar     = planner.TypeVarchar
	TypeBlob        = planner.TypeBlob
	TypeUUID        = planner.TypeUUID
	TypeDate        = planner.TypeDate
	TypeTime        = planner.TypeTime
	TypeTimeTZ      = planner.TypeTimeTZ
	TypeTimeNS      = planner.TypeTimeNS
	TypeTimestamp   = planner.TypeTimestamp
	TypeTimestampNS = planner.TypeTimestampNS
	TypeTimestampTZ = planner.TypeTimestampTZ
	TypeInterval    = planner.TypeInterval
	TypeNested      = planner.TypeNested
)

// typeOfField maps a Parquet field to its SQL type.
func typeOfField(f *format.Field) Type { return planner.TypeOf(f) }
