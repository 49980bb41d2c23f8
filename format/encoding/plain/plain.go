package plain

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// check reports whether data can hold n values of size bytes each, without
// overflowing n*size.
func check(data []byte, n, size int, kind string) error {
	if n < 0 {
		return fmt.Errorf("%w: negative value count %d", ErrInvalid, n)
	}
	if n > len(data)/size {
		return fmt.Errorf("%w: %d %s values need %d bytes, have %d",
			ErrTruncated, n, kind, uint64(n)*uint64(size), len(data))
	}
	return nil
}

// Booleans appends n booleans, bit-packed LSB first, to dst.
func Booleans(dst []bool, data []byte, n int) ([]bool, error) {
	return BooleansFrom(dst, data, 0, n)
}

// BooleansFrom appends the n booleans that start at bit first of data, so
// that a page's booleans can be decoded a part at a time.
func BooleansFrom(dst []bool, data []byte, first, n int) ([]bool, error) {
	if n < 0 || first < 0 {
		return dst, fmt.Errorf("%w: negative value count %d or start %d", ErrInvalid, n, first)
	}
	if need := (uint64(first) + uint64(n) + 7) / 8; need > uint64(len(data)) {
		return dst, fmt.Errorf("%w: %d BOOLEAN values from bit %d need %d bytes, have %d", ErrTruncated, n, first, need, len(data))
	}
	dst, out := extend(dst, n)
	for i := range out {
		b := first + i
		out[i] = data[b>>3]>>(b&7)&1 != 0
	}
	return dst, nil
}

// Int32s appends n little-endian INT32 values to dst.
func Int32s(dst []int32, data []byte, n int) ([]int32, error) {
	if err := check(data, n, 4, "INT32"); err != nil {
		return dst, err
	}
	dst, out := extend(dst, n)
	if copyNative(out, data) {
		return dst, nil
	}
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return dst, nil
}

// Int64s appends n little-endian INT64 values to dst.
func Int64s(dst []int64, data []byte, n int) ([]int64, error) {
	if err := check(data, n, 8, "INT64"); err != nil {
		return dst, err
	}
	dst, out := extend(dst, n)
	if copyNative(out, data) {
		return dst, nil
	}
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return dst, nil
}

// Int96s appends n 12-byte INT96 values to dst, as stored.
func Int96s(dst [][12]byte, data []byte, n int) ([][12]byte, error) {
	if err := check(data, n, 12, "INT96"); err != nil {
		return dst, err
	}
	dst, out := extend(dst, n)
	for i := range out {
		out[i] = [12]byte(data[12*i:])
	}
	return dst, nil
}

// Floats appends n little-endian IEEE 754 FLOAT values to dst.
func Floats(dst []float32, data []byte, n int) ([]float32, error) {
	if err := check(data, n, 4, "FLOAT"); err != nil {
		return dst, err
	}
	dst, out := extend(dst, n)
	if copyNative(out, data) {
		return dst, nil
	}
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return dst, nil
}

// Doubles appends n little-endian IEEE 754 DOUBLE values to dst.
func Doubles(dst []float64, data []byte, n int) ([]float64, error) {
	if err := check(data, n, 8, "DOUBLE"); err != nil {
		return dst, err
	}
	dst, out := extend(dst, n)
	if copyNative(out, data) {
		return dst, nil
	}
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return dst, nil
}

// ByteArrays appends n BYTE_ARRAY values, each a 4-byte little-endian
// length and that many bytes, to dst. The values alias data.
func ByteArrays(dst [][]byte, data []byte, n int) ([][]byte, error) {
	dst, _, err := ByteArraysUsed(dst, data, n)
	return dst, err
}

// ByteArraysUsed is ByteArrays that also returns the bytes of data the n
// values occupy, where the next value starts.
func ByteArraysUsed(dst [][]byte, data []byte, n int) ([][]byte, int, error) {
	// Every value takes at least its 4-byte length, which bounds n before
	// it sizes dst.
	if err := check(data, n, 4, "BYTE_ARRAY"); err != nil {
		return dst, 0, err
	}
	dst = slices.Grow(dst, n)
	pos := 0
	for i := range n {
		if len(data)-pos < 4 {
			return dst, 0, fmt.Errorf("%w: BYTE_ARRAY value %d of %d: length at offset %d cut short", ErrTruncated, i, n, pos)
		}
		l := uint64(binary.LittleEndian.Uint32(data[pos:]))
		pos += 4
		if l > uint64(len(data)-pos) {
			return dst, 0, fmt.Errorf("%w: BYTE_ARRAY value %d of %d: length %d at offset %d exceeds the %d bytes left",
				ErrTruncated, i, n, l, pos-4, len(data)-pos)
		}
		end := pos + int(l)
		dst = append(dst, data[pos:end:end])
		pos = end
	}
	return dst, pos, nil
}

// FixedLenByteArrays appends n FIXED_LEN_BYTE_ARRAY values of width bytes
// each to dst. The values alias data.
func FixedLenByteArrays(dst [][]byte, data []byte, n, width int) ([][]byte, error) {
	if width <= 0 {
		return dst, fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY width %d", ErrInvalid, width)
	}
	if err := check(data, n, width, "FIXED_LEN_BYTE_ARRAY"); err != nil {
		return dst, err
	}
	dst = slices.Grow(dst, n)
	for i := range n {
		p := i * width
		dst = append(dst, data[p:p+width:p+width])
	}
	return dst, nil
}

// extend grows dst by n elements and returns it with the new tail.
func extend[T any](dst []T, n int) ([]T, []T) {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	return dst, dst[start:]
}
