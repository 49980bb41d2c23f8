package craft

import (
	"encoding/binary"
	"math/bits"
)

// RLERun appends one run of the RLE/bit-packing hybrid: count copies of
// value, which takes width bits.
func RLERun(dst []byte, count int, value uint32, width int) []byte {
	dst = binary.AppendUvarint(dst, uint64(count)<<1)
	for i := 0; i < (width+7)/8; i++ {
		dst = append(dst, byte(value>>(8*i)))
	}
	return dst
}

// Levels is RLE runs prefixed by their length, as v1 data pages store
// definition and repetition levels.
func Levels(runs []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(runs))), runs...)
}

// DeltaBinaryPacked encodes values as DELTA_BINARY_PACKED with blocks of
// 128 values in 4 miniblocks.
func DeltaBinaryPacked(values []int64) []byte {
	const block, mini = 128, 4
	const per = block / mini
	out := binary.AppendUvarint(nil, block)
	out = binary.AppendUvarint(out, mini)
	out = binary.AppendUvarint(out, uint64(len(values)))
	if len(values) == 0 {
		return binary.AppendVarint(out, 0)
	}
	out = binary.AppendVarint(out, values[0])
	deltas := make([]int64, len(values)-1)
	for i := range deltas {
		deltas[i] = values[i+1] - values[i]
	}
	for start := 0; start < len(deltas); start += block {
		b := deltas[start:min(start+block, len(deltas))]
		lo := b[0]
		for _, d := range b {
			lo = min(lo, d)
		}
		out = binary.AppendVarint(out, lo)
		widths := make([]int, mini)
		for m := range mini {
			for i := m * per; i < min((m+1)*per, len(b)); i++ {
				widths[m] = max(widths[m], bits.Len64(uint64(b[i]-lo)))
			}
			out = append(out, byte(widths[m]))
		}
		for m := range mini {
			if m*per >= len(b) {
				break
			}
			var acc uint64
			var n uint
			for i := m * per; i < (m+1)*per; i++ {
				var v uint64
				if i < len(b) {
					v = uint64(b[i] - lo)
				}
				for k := 0; k < widths[m]; k++ {
					acc |= (v >> k & 1) << n
					n++
					if n == 8 {
						out = append(out, byte(acc))
						acc, n = 0, 0
					}
				}
			}
		}
	}
	return out
}
