package delta

import (
	"fmt"
	"slices"
)

// MaxDecodedSize bounds the bytes DELTA_BYTE_ARRAY may decode in one call.
// Prefixes let a few input bytes repeat a long value many times, so the
// output is not bounded by the input; this keeps a crafted page from
// demanding terabytes.
const MaxDecodedSize = 1 << 30

// LengthByteArrays appends up to n DELTA_LENGTH_BYTE_ARRAY values to dst and
// returns the bytes consumed: the DELTA_BINARY_PACKED lengths and the value
// bytes that follow them. The values alias data.
func LengthByteArrays(dst [][]byte, data []byte, n int) ([][]byte, int, error) {
	lengths, pos, err := Int32s(nil, data, n)
	if err != nil {
		return dst, pos, fmt.Errorf("lengths: %w", err)
	}
	dst = slices.Grow(dst, len(lengths))
	for i, l := range lengths {
		if l < 0 || int(l) > len(data)-pos {
			return dst, pos, lengthError(i, int(l), len(data)-pos)
		}
		end := pos + int(l)
		dst = append(dst, data[pos:end:end])
		pos = end
	}
	return dst, pos, nil
}

func lengthError(i, l, left int) error {
	if l < 0 {
		return fmt.Errorf("%w: value %d has negative length %d", ErrCorrupt, i, l)
	}
	return fmt.Errorf("%w: value %d of length %d exceeds the %d bytes left", ErrTruncated, i, l, left)
}

// ByteArrays decodes n DELTA_BYTE_ARRAY values, each the first prefix-length
// bytes of its predecessor followed by a suffix, and appends them to dst.
// The values are copied into one new allocation shared by all of them.
func ByteArrays(dst [][]byte, data []byte, n int) ([][]byte, error) {
	return ByteArraysMax(dst, data, n, MaxDecodedSize)
}

// perValue is what decoding one DELTA_BYTE_ARRAY value holds besides its
// bytes: its prefix and suffix lengths, its suffix slice and its slot in dst.
const perValue = 4 + 4 + 24 + 24

// ByteArraysMax is ByteArrays decoding into at most maxBytes bytes, the
// lengths and slices it holds while decoding included: n values declared by
// a few bytes of header, each repeating a long prefix, fail with ErrTooLarge
// before anything of their size is allocated.
func ByteArraysMax(dst [][]byte, data []byte, n int, maxBytes int64) ([][]byte, error) {
	if n < 0 {
		return dst, fmt.Errorf("%w: negative value count %d", ErrInvalid, n)
	}
	if int64(n)*perValue > maxBytes {
		return dst, fmt.Errorf("%w: %d values need %d bytes before their contents, above the limit of %d", ErrTooLarge, n, int64(n)*perValue, maxBytes)
	}
	prefixes, pos, err := Int32s(nil, data, n)
	if err != nil {
		return dst, fmt.Errorf("prefix lengths: %w", err)
	}
	suffixes, _, err := LengthByteArrays(make([][]byte, 0, n), data[pos:], n)
	if err != nil {
		return dst, fmt.Errorf("suffixes: %w", err)
	}
	// Size the arena first: every prefix is checked against its
	// predecessor's length, so the total is exact and bounded before any
	// byte is copied.
	var total, prev int64
	room := min(maxBytes-int64(n)*perValue, MaxDecodedSize)
	for i, p := range prefixes {
		if p < 0 || int64(p) > prev {
			return dst, fmt.Errorf("%w: value %d has prefix length %d, previous value has %d bytes",
				ErrCorrupt, i, p, prev)
		}
		prev = int64(p) + int64(len(suffixes[i]))
		total += prev
		if total > room {
			return dst, fmt.Errorf("%w: %d values exceed %d bytes", ErrTooLarge, n, room)
		}
	}
	arena := make([]byte, 0, total)
	dst = slices.Grow(dst, n)
	var last []byte
	for i, p := range prefixes {
		start := len(arena)
		arena = append(arena, last[:p]...)
		arena = append(arena, suffixes[i]...)
		last = arena[start:len(arena):len(arena)]
		dst = append(dst, last)
	}
	return dst, nil
}
