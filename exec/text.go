package exec

import (
	"math"
	"strconv"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
)

// AppendText appends row i of v as DuckDB's CAST(value AS VARCHAR) prints
// it. The caller handles NULL.
func AppendText(dst []byte, v *Vector, i int) []byte {
	t := v.Type
	switch t.ID {
	case TypeBoolean:
		return strconv.AppendBool(dst, v.Bool[i])
	case TypeTinyInt, TypeSmallInt, TypeInteger, TypeBigInt, TypeUTinyInt, TypeUSmallInt, TypeUInteger:
		return strconv.AppendInt(dst, v.Int[i], 10)
	case TypeUBigInt:
		return strconv.AppendUint(dst, uint64(v.Int[i]), 10)
	case TypeHugeInt:
		if v.Big != nil {
			return append(dst, v.Big[i].String()...)
		}
		return strconv.AppendInt(dst, v.Int[i], 10)
	case TypeFloat:
		return format.AppendFloat(dst, v.Float[i], 32)
	case TypeDouble:
		return format.AppendFloat(dst, v.Float[i], 64)
	case TypeDecimal:
		if v.Big != nil {
			return format.AppendDecimal(dst, v.Big[i], t.Scale)
		}
		return appendDecimal64(dst, v.Int[i], t.Scale)
	case TypeVarchar:
		return append(dst, v.Str[i]...)
	case TypeBlob:
		return planner.AppendBlobText(dst, t, v.Bytes[i])
	case TypeUUID:
		return format.AppendUUID(dst, v.Bytes[i])
	case TypeInterval:
		return planner.AppendInterval(dst, planner.IntervalOf(v.Bytes[i]))
	case TypeDate:
		return format.AppendDate(dst, v.Int[i])
	case TypeTime:
		return format.AppendTime(dst, v.Int[i], meta.Micros)
	case TypeTimeNS:
		return format.AppendTime(dst, v.Int[i], meta.Nanos)
	case TypeTimeTZ:
		return append(format.AppendTime(dst, v.Int[i], meta.Micros), "+00"...)
	case TypeTimestamp:
		return format.AppendTimestamp(dst, v.Int[i], meta.Micros)
	case TypeTimestampNS:
		return format.AppendTimestamp(dst, v.Int[i], meta.Nanos)
	case TypeTimestampTZ:
		if t := v.Int[i]; t == math.MaxInt64 || t == -math.MaxInt64 {
			return format.AppendTimestamp(dst, t, meta.Micros) // infinity has no offset
		}
		return append(format.AppendTimestamp(dst, v.Int[i], meta.Micros), "+00"...)
	case TypeNested:
		return format.AppendValueText(dst, v.Nested[i])
	}
	return dst
}

// appendDecimal64 appends a decimal whose unscaled value fits an int64, as
// format.AppendDecimal does, without a big.Int per value: decimals of up to
// 18 digits are held this way and printed on every output path.
func appendDecimal64(dst []byte, unscaled int64, scale int) []byte {
	if scale == 0 {
		return strconv.AppendInt(dst, unscaled, 10)
	}
	u := uint64(unscaled)
	if unscaled < 0 {
		dst = append(dst, '-')
		u = -u // two's complement: also right for math.MinInt64
	}
	var digits [24]byte
	d := strconv.AppendUint(digits[:0], u, 10)
	if len(d) <= scale {
		// Leading zeros up to one integer digit: 5 at scale 3 is 0.005.
		dst = append(dst, '0', '.')
		for range scale - len(d) {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	dst = append(dst, d[:len(d)-scale]...)
	dst = append(dst, '.')
	return append(dst, d[len(d)-scale:]...)
}
