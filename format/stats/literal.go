package stats

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

// The encoders below turn a SQL literal into the column's physical form so
// that Compare can weigh it against bounds. They refuse rather than round:
// a literal the column cannot hold exactly is the caller's to reason about
// (for example, x > 300 on a UINT_8 column can never be true).

// Int encodes a signed integer literal for an integer column (or an INT32/INT64
// DECIMAL, taking v as the unscaled value).
func (o Order) Int(v int64) ([]byte, error) {
	switch o.kind {
	case KindInt32:
		if v < math.MinInt32 || v > math.MaxInt32 {
			return nil, fmt.Errorf("%w: %d does not fit a signed 32-bit integer", ErrOutOfRange, v)
		}
		return binary.LittleEndian.AppendUint32(nil, uint32(int32(v))), nil
	case KindInt64:
		return binary.LittleEndian.AppendUint64(nil, uint64(v)), nil
	case KindUint32, KindUint64:
		if v < 0 {
			return nil, fmt.Errorf("%w: %d is negative and the column is unsigned", ErrOutOfRange, v)
		}
		return o.Uint(uint64(v))
	case KindDecimalBytes:
		return o.DecimalUnscaled(big.NewInt(v))
	case KindNone:
		return nil, ErrNoOrder
	}
	return nil, fmt.Errorf("%w: integer literal for a column of %s", ErrWrongKind, o.kind)
}

// Uint encodes an unsigned integer literal for an integer column.
func (o Order) Uint(v uint64) ([]byte, error) {
	switch o.kind {
	case KindUint32:
		if v > math.MaxUint32 {
			return nil, fmt.Errorf("%w: %d does not fit an unsigned 32-bit integer", ErrOutOfRange, v)
		}
		return binary.LittleEndian.AppendUint32(nil, uint32(v)), nil
	case KindUint64:
		return binary.LittleEndian.AppendUint64(nil, v), nil
	case KindInt32, KindInt64:
		if v > math.MaxInt64 {
			return nil, fmt.Errorf("%w: %d does not fit a signed 64-bit integer", ErrOutOfRange, v)
		}
		return o.Int(int64(v))
	case KindNone:
		return nil, ErrNoOrder
	}
	return nil, fmt.Errorf("%w: integer literal for a column of %s", ErrWrongKind, o.kind)
}

// Float encodes a float literal for a float column. A FLOAT or FLOAT16 column
// takes only literals its type holds exactly (NaN and infinities included).
func (o Order) Float(v float64) ([]byte, error) {
	switch o.kind {
	case KindFloat64:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)), nil
	case KindFloat32:
		f := float32(v)
		if float64(f) != v && !math.IsNaN(v) {
			return nil, fmt.Errorf("%w: %v is not a 32-bit float", ErrInexact, v)
		}
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(f)), nil
	case KindFloat16:
		h, ok := float64ToFloat16(v)
		if !ok {
			return nil, fmt.Errorf("%w: %v is not a 16-bit float", ErrInexact, v)
		}
		return binary.LittleEndian.AppendUint16(nil, h), nil
	case KindNone:
		return nil, ErrNoOrder
	}
	return nil, fmt.Errorf("%w: float literal for a column of %s", ErrWrongKind, o.kind)
}

// Bytes encodes a string or binary literal for a byte-array column. For a
// FIXED_LEN_BYTE_ARRAY column a literal of another length is still returned:
// byte order compares it correctly, though no value can equal it.
func (o Order) Bytes(v []byte) ([]byte, error) {
	switch o.kind {
	case KindBytes:
		return append([]byte{}, v...), nil
	case KindNone:
		return nil, ErrNoOrder
	}
	return nil, fmt.Errorf("%w: string literal for a column of %s", ErrWrongKind, o.kind)
}

// Bool encodes a boolean literal for a BOOLEAN column.
func (o Order) Bool(v bool) ([]byte, error) {
	switch o.kind {
	case KindBool:
		if v {
			return []byte{1}, nil
		}
		return []byte{0}, nil
	case KindNone:
		return nil, ErrNoOrder
	}
	return nil, fmt.Errorf("%w: boolean literal for a column of %s", ErrWrongKind, o.kind)
}

// DecimalUnscaled encodes a DECIMAL literal already scaled to the column's
// scale (12.30 at scale 2 is 1230) in the column's physical type: INT32,
// INT64, or big-endian two's complement for BYTE_ARRAY (minimal length) and
// FIXED_LEN_BYTE_ARRAY (sign-extended to its length).
func (o Order) DecimalUnscaled(unscaled *big.Int) ([]byte, error) {
	if unscaled == nil {
		return nil, fmt.Errorf("%w: nil decimal", ErrWrongKind)
	}
	switch o.kind {
	case KindInt32, KindInt64:
		if !o.decimal {
			break
		}
		if !unscaled.IsInt64() {
			return nil, fmt.Errorf("%w: %v does not fit %s", ErrOutOfRange, unscaled, o.kind)
		}
		return o.Int(unscaled.Int64())
	case KindDecimalBytes:
		b := twosComplement(unscaled)
		if o.width == 0 {
			return b, nil
		}
		if len(b) > o.width {
			return nil, fmt.Errorf("%w: %v needs %d bytes, the column holds %d", ErrOutOfRange, unscaled, len(b), o.width)
		}
		out := make([]byte, o.width)
		if unscaled.Sign() < 0 {
			for i := range out {
				out[i] = 0xff
			}
		}
		copy(out[o.width-len(b):], b)
		return out, nil
	case KindNone:
		return nil, ErrNoOrder
	}
	return nil, fmt.Errorf("%w: decimal literal for a column of %s", ErrWrongKind, o.kind)
}

// twosComplement is the minimal big-endian two's complement form of n.
func twosComplement(n *big.Int) []byte {
	if n.Sign() >= 0 {
		b := n.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return b
	}
	// -n - 1 has the complemented bits of n.
	m := new(big.Int).Neg(n)
	m.Sub(m, big.NewInt(1))
	b := m.Bytes()
	for i := range b {
		b[i] = ^b[i]
	}
	if len(b) == 0 || b[0]&0x80 == 0 {
		b = append([]byte{0xff}, b...)
	}
	return b
}

// float64ToFloat16 narrows v to binary16 when that is exact (NaN maps to the
// quiet NaN of the same sign).
func float64ToFloat16(v float64) (uint16, bool) {
	var sign uint16
	if math.Signbit(v) {
		sign = 0x8000
	}
	switch {
	case math.IsNaN(v):
		return sign | 0x7e00, true
	case math.IsInf(v, 0):
		return sign | 0x7c00, true
	case v == 0:
		return sign, true
	}
	a := math.Abs(v)
	frac, exp := math.Frexp(a) // a = frac * 2^exp, frac in [0.5, 1)
	e := exp - 1               // a = (2*frac) * 2^e
	var h uint16
	switch {
	case e > 15:
		return 0, false
	case e >= -14:
		m := (2*frac - 1) * 1024
		if m != math.Trunc(m) {
			return 0, false
		}
		h = uint16(e+15)<<10 | uint16(m)
	default:
		m := a * (1 << 24) // subnormal: a = m * 2^-24
		if m != math.Trunc(m) || m >= 1024 {
			return 0, false
		}
		h = uint16(m)
	}
	return sign | h, true
}
