package format

import (
	"fmt"

	"github.com/pqsql/pqsql/format/meta"
)

// Kind is the SQL type a leaf's values take, chosen from the physical type
// and the logical (or converted) annotation the way DuckDB chooses it.
type Kind int

// The kinds of leaf values.
const (
	KindBoolean Kind = iota
	KindInt8
	KindInt16
	KindInt32
	KindInt64
	KindUint8
	KindUint16
	KindUint32
	KindUint64
	KindFloat
	KindDouble
	KindFloat16
	KindDecimal
	KindString
	KindBlob
	KindUUID
	KindDate
	KindTime
	KindTimeTZ
	KindTimestamp
	KindTimestampTZ
	KindInt96
	KindInterval
	KindNull
	KindVariant
	KindGeometry
	KindGeography
)

// Logical describes how to interpret a leaf's physical values.
type Logical struct {
	Kind Kind
	// Precision and Scale describe a DECIMAL.
	Precision, Scale int
	// Unit is the unit of a TIME or TIMESTAMP.
	Unit meta.TimeUnit
	// JSON marks a string holding JSON.
	JSON bool
}

// LogicalOf interprets a leaf. Annotations that do not fit the physical type
// fall back to the physical type's own interpretation, as DuckDB does.
func LogicalOf(l *Leaf) Logical {
	e, pt := l.Element, l.Type
	physical := physicalLogical(pt)
	if lt := e.LogicalType; lt != nil {
		switch {
		case lt.String != nil, lt.Enum != nil:
			if pt == meta.ByteArray || pt == meta.FixedLenByteArray {
				return Logical{Kind: KindString}
			}
		case lt.JSON != nil:
			if pt == meta.ByteArray {
				return Logical{Kind: KindString, JSON: true}
			}
		case lt.BSON != nil:
			return physical
		case lt.UUID != nil:
			if pt == meta.FixedLenByteArray && l.TypeLength == 16 {
				return Logical{Kind: KindUUID}
			}
		case lt.Decimal != nil:
			if d, ok := decimalOf(pt, int(lt.Decimal.Precision), int(lt.Decimal.Scale)); ok {
				return d
			}
		case lt.Date != nil:
			if pt == meta.Int32 {
				return Logical{Kind: KindDate}
			}
		case lt.Time != nil:
			u := lt.Time.Unit
			if (u == meta.Millis && pt == meta.Int32) || (u != meta.Millis && pt == meta.Int64) {
				if lt.Time.IsAdjustedToUTC {
					return Logical{Kind: KindTimeTZ, Unit: u}
				}
				return Logical{Kind: KindTime, Unit: u}
			}
		case lt.Timestamp != nil:
			if pt == meta.Int64 {
				if lt.Timestamp.IsAdjustedToUTC {
					return Logical{Kind: KindTimestampTZ, Unit: lt.Timestamp.Unit}
				}
				return Logical{Kind: KindTimestamp, Unit: lt.Timestamp.Unit}
			}
		case lt.Integer != nil:
			if k, ok := intKind(pt, int(lt.Integer.BitWidth), lt.Integer.IsSigned); ok {
				return Logical{Kind: k}
			}
		case lt.Null != nil:
			return Logical{Kind: KindNull}
		case lt.Float16 != nil:
			if pt == meta.FixedLenByteArray && l.TypeLength == 2 {
				return Logical{Kind: KindFloat16}
			}
		case lt.Variant != nil:
			return Logical{Kind: KindVariant}
		case lt.Geometry != nil:
			if pt == meta.ByteArray {
				return Logical{Kind: KindGeometry}
			}
		case lt.Geography != nil:
			if pt == meta.ByteArray {
				return Logical{Kind: KindGeography}
			}
		}
		if lt.Unknown == 0 && (lt.Map != nil || lt.List != nil) {
			return physical
		}
	}
	if ct := e.ConvertedType; ct != nil {
		switch *ct {
		case meta.ConvUTF8, meta.ConvEnum:
			if pt == meta.ByteArray || pt == meta.FixedLenByteArray {
				return Logical{Kind: KindString}
			}
		case meta.ConvJSON:
			if pt == meta.ByteArray {
				return Logical{Kind: KindString, JSON: true}
			}
		case meta.ConvDecimal:
			p, s := 0, 0
			if e.Precision != nil {
				p = int(*e.Precision)
			}
			if e.Scale != nil {
				s = int(*e.Scale)
			}
			if d, ok := decimalOf(pt, p, s); ok {
				return d
			}
		case meta.ConvDate:
			if pt == meta.Int32 {
				return Logical{Kind: KindDate}
			}
		case meta.ConvTimeMillis:
			if pt == meta.Int32 {
				return Logical{Kind: KindTime, Unit: meta.Millis}
			}
		case meta.ConvTimeMicros:
			if pt == meta.Int64 {
				return Logical{Kind: KindTime, Unit: meta.Micros}
			}
		case meta.ConvTimestampMillis:
			if pt == meta.Int64 {
				return Logical{Kind: KindTimestamp, Unit: meta.Millis}
			}
		case meta.ConvTimestampMicros:
			if pt == meta.Int64 {
				return Logical{Kind: KindTimestamp, Unit: meta.Micros}
			}
		case meta.ConvInt8, meta.ConvInt16, meta.ConvInt32, meta.ConvInt64,
			meta.ConvUint8, meta.ConvUint16, meta.ConvUint32, meta.ConvUint64:
			widths := map[meta.ConvertedType]int{meta.ConvInt8: 8, meta.ConvInt16: 16, meta.ConvInt32: 32,
				meta.ConvInt64: 64, meta.ConvUint8: 8, meta.ConvUint16: 16, meta.ConvUint32: 32, meta.ConvUint64: 64}
			signed := *ct >= meta.ConvInt8
			if k, ok := intKind(pt, widths[*ct], signed); ok {
				return Logical{Kind: k}
			}
		case meta.ConvInterval:
			if pt == meta.FixedLenByteArray && l.TypeLength == 12 {
				return Logical{Kind: KindInterval}
			}
		}
	}
	return physical
}

func physicalLogical(pt meta.Type) Logical {
	switch pt {
	case meta.Boolean:
		return Logical{Kind: KindBoolean}
	case meta.Int32:
		return Logical{Kind: KindInt32}
	case meta.Int64:
		return Logical{Kind: KindInt64}
	case meta.Int96:
		return Logical{Kind: KindInt96}
	case meta.Float:
		return Logical{Kind: KindFloat}
	case meta.Double:
		return Logical{Kind: KindDouble}
	}
	return Logical{Kind: KindBlob}
}

func decimalOf(pt meta.Type, precision, scale int) (Logical, bool) {
	if precision <= 0 || scale < 0 || scale > precision {
		return Logical{}, false
	}
	switch pt {
	case meta.Int32, meta.Int64, meta.ByteArray, meta.FixedLenByteArray:
		if precision > 38 {
			// DuckDB has no DECIMAL wider than 38 digits and reads these as DOUBLE.
			return Logical{Kind: KindDouble, Precision: precision, Scale: scale}, true
		}
		return Logical{Kind: KindDecimal, Precision: precision, Scale: scale}, true
	}
	return Logical{}, false
}

func intKind(pt meta.Type, width int, signed bool) (Kind, bool) {
	if pt == meta.Int32 && width <= 32 || pt == meta.Int64 && width == 64 {
		switch {
		case width == 8 && signed:
			return KindInt8, true
		case width == 16 && signed:
			return KindInt16, true
		case width == 32 && signed:
			return KindInt32, true
		case width == 64 && signed:
			return KindInt64, true
		case width == 8:
			return KindUint8, true
		case width == 16:
			return KindUint16, true
		case width == 32:
			return KindUint32, true
		case width == 64:
			return KindUint64, true
		}
	}
	return 0, false
}

// SQLName is the type's name as DuckDB prints it.
func (l Logical) SQLName() string {
	switch l.Kind {
	case KindBoolean:
		return "BOOLEAN"
	case KindInt8:
		return "TINYINT"
	case KindInt16:
		return "SMALLINT"
	case KindInt32, KindNull:
		return "INTEGER"
	case KindInt64:
		return "BIGINT"
	case KindUint8:
		return "UTINYINT"
	case KindUint16:
		return "USMALLINT"
	case KindUint32:
		return "UINTEGER"
	case KindUint64:
		return "UBIGINT"
	case KindFloat, KindFloat16:
		return "FLOAT"
	case KindDouble:
		return "DOUBLE"
	case KindDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", l.Precision, l.Scale)
	case KindString:
		if l.JSON {
			return "JSON"
		}
		return "VARCHAR"
	case KindBlob:
		return "BLOB"
	case KindUUID:
		return "UUID"
	case KindDate:
		return "DATE"
	case KindTime:
		if l.Unit == meta.Nanos {
			return "TIME_NS"
		}
		return "TIME"
	case KindTimeTZ:
		return "TIME WITH TIME ZONE"
	case KindTimestamp:
		if l.Unit == meta.Nanos {
			return "TIMESTAMP_NS"
		}
		return "TIMESTAMP"
	case KindInt96:
		return "TIMESTAMP"
	case KindTimestampTZ:
		return "TIMESTAMP WITH TIME ZONE"
	case KindInterval:
		return "INTERVAL"
	case KindVariant:
		return "VARIANT"
	case KindGeometry, KindGeography:
		return "GEOMETRY"
	}
	return "UNKNOWN"
}

// TypeName is the SQL type of a field as DuckDB prints it.
func (f *Field) TypeName() string {
	switch f.Kind {
	case ScalarField:
		return LogicalOf(f.Leaf).SQLName()
	case ListField:
		return f.Children[0].TypeName() + "[]"
	case VariantField:
		return "VARIANT"
	case MapField:
		if len(f.Children) < 2 {
			return f.Children[0].TypeName() + "[]"
		}
		return "MAP(" + f.Children[0].TypeName() + ", " + f.Children[1].TypeName() + ")"
	}
	s := "STRUCT("
	for i, c := range f.Children {
		if i > 0 {
			s += ", "
		}
		s += QuoteFieldName(c.Name) + " " + c.TypeName()
	}
	return s + ")"
}
