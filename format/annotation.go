package format

import (
	"fmt"

	"github.com/pqsql/pqsql/format/meta"
)

// annotationMismatch says why a leaf's converted type cannot annotate its
// physical type, or "". DuckDB refuses such a file rather than read the
// values as their bare physical type, and so does this reader: a DATE
// stored as INT64 or a UTF8 stored as INT32 is a writer's error whose
// meaning no reader can recover. A logical type, when present, is judged
// by LogicalOf instead, as parquet.thrift makes it take precedence.
func annotationMismatch(e *meta.SchemaElement, t meta.Type, width int) string {
	if e.ConvertedType == nil || e.LogicalType != nil || e.Type == nil {
		return ""
	}
	ct := *e.ConvertedType
	ok := true
	switch ct {
	case meta.ConvUTF8, meta.ConvEnum, meta.ConvJSON, meta.ConvBSON:
		ok = t == meta.ByteArray || (t == meta.FixedLenByteArray && ct != meta.ConvJSON && ct != meta.ConvBSON)
	case meta.ConvDecimal:
		ok = t == meta.Int32 || t == meta.Int64 || t == meta.ByteArray || t == meta.FixedLenByteArray
	case meta.ConvDate, meta.ConvTimeMillis, meta.ConvInt8, meta.ConvInt16, meta.ConvInt32,
		meta.ConvUint8, meta.ConvUint16, meta.ConvUint32:
		ok = t == meta.Int32
	case meta.ConvTimeMicros, meta.ConvTimestampMillis, meta.ConvTimestampMicros, meta.ConvInt64, meta.ConvUint64:
		ok = t == meta.Int64
	case meta.ConvInterval:
		ok = t == meta.FixedLenByteArray && width == 12
	}
	if ok {
		return ""
	}
	if t == meta.FixedLenByteArray {
		return fmt.Sprintf("converted type %s cannot annotate FIXED_LEN_BYTE_ARRAY(%d)", ct, width)
	}
	return fmt.Sprintf("converted type %s cannot annotate %s", ct, t)
}
