package rle

import "fmt"

// DecodeBitPacked decodes exactly len(dst) values of the deprecated
// BIT_PACKED encoding, which packs values back to back from the most
// significant bit of each byte down. It returns the bytes the values occupy,
// ceil(len(dst)*bitWidth/8).
func DecodeBitPacked(dst []int32, data []byte, bitWidth int) (consumed int, err error) {
	if bitWidth < 0 || bitWidth > 32 {
		return 0, fmt.Errorf("%w: %d (want 0..32)", ErrBitWidth, bitWidth)
	}
	need := (uint64(len(dst))*uint64(bitWidth) + 7) / 8
	if need > uint64(len(data)) {
		return 0, fmt.Errorf("%w: %d BIT_PACKED values of %d bits need %d bytes, have %d",
			ErrTruncated, len(dst), bitWidth, need, len(data))
	}
	if bitWidth == 0 {
		clear(dst)
		return 0, nil
	}
	w := uint(bitWidth)
	mask := uint64(1)<<w - 1
	var acc uint64 // low nbits bits are unread; higher bits are stale
	var nbits uint
	j := 0
	for i := range dst {
		for nbits < w {
			acc = acc<<8 | uint64(data[j])
			j++
			nbits += 8
		}
		nbits -= w
		dst[i] = int32((acc >> nbits) & mask)
	}
	return int(need), nil
}
