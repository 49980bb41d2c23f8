package rle

import "encoding/binary"

// minRLE is the shortest run of equal values the encoder writes as an RLE
// run; shorter ones are cheaper bit-packed.
const minRLE = 8

// AppendHybrid appends values in the RLE/bit-packing hybrid encoding with
// the given bit width (0..32) to dst, without a length prefix. Values must
// fit in bitWidth bits; the encoder masks them. It exists for tests and
// fixtures, so it favours simplicity over the smallest output.
func AppendHybrid(dst []byte, values []int32, bitWidth int) []byte {
	w := uint(bitWidth)
	mask := uint32(1)<<w - 1
	lit := 0 // values[lit:i] are pending literals
	i := 0
	for i < len(values) {
		j := i + 1
		for j < len(values) && values[j] == values[i] {
			j++
		}
		// A run can start only where the pending literals fill whole groups;
		// lend the run's first values to the literals to get there.
		start := i + (8-(i-lit)%8)%8
		if j-start >= minRLE {
			dst = appendBitPacked(dst, values[lit:start], w, mask)
			dst = binary.AppendUvarint(dst, uint64(j-start)<<1)
			v := uint32(values[i]) & mask
			for k := 0; k < int(w+7)/8; k++ {
				dst = append(dst, byte(v>>(8*k)))
			}
			lit = j
		}
		i = j
	}
	return appendBitPacked(dst, values[lit:], w, mask)
}

// appendBitPacked appends values as one bit-packed run, zero-padded to a
// whole number of groups of 8.
func appendBitPacked(dst []byte, values []int32, w uint, mask uint32) []byte {
	if len(values) == 0 {
		return dst
	}
	groups := (len(values) + 7) / 8
	dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
	var acc uint64
	var nbits uint
	for k := range groups * 8 {
		var v uint32
		if k < len(values) {
			v = uint32(values[k]) & mask
		}
		acc |= uint64(v) << nbits
		nbits += w
		for nbits >= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
			nbits -= 8
		}
	}
	return dst
}
