package delta

import (
	"encoding/binary"
	"math/bits"
)

// encOpts shapes the test encoder's output.
type encOpts struct {
	blockSize, miniblocks int
	noPad                 bool // stop the last miniblock after its last value
	junkWidths            bool // write 0xff as the width of unused miniblocks
}

var defaultOpts = encOpts{blockSize: 128, miniblocks: 4}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// appendDelta is a reference DELTA_BINARY_PACKED encoder for the tests.
// Deltas are computed in T so int32 input wraps in 32 bits.
func appendDelta[T integer](dst []byte, values []T, o encOpts) []byte {
	dst = binary.AppendUvarint(dst, uint64(o.blockSize))
	dst = binary.AppendUvarint(dst, uint64(o.miniblocks))
	dst = binary.AppendUvarint(dst, uint64(len(values)))
	var first T
	if len(values) > 0 {
		first = values[0]
	}
	dst = binary.AppendUvarint(dst, zigzag(int64(first)))
	miniSize := o.blockSize / o.miniblocks
	for b := 1; b < len(values); b += o.blockSize {
		end := min(b+o.blockSize, len(values))
		deltas := make([]T, end-b)
		for i := range deltas {
			deltas[i] = values[b+i] - values[b+i-1]
		}
		minDelta := deltas[0]
		for _, d := range deltas {
			minDelta = min(minDelta, d)
		}
		dst = binary.AppendUvarint(dst, zigzag(int64(minDelta)))
		rel := make([]uint64, len(deltas))
		for i, d := range deltas {
			// Subtract in T, then view as unsigned of T's width.
			r := d - minDelta
			if _, ok := any(r).(int32); ok {
				rel[i] = uint64(uint32(r))
			} else {
				rel[i] = uint64(r)
			}
		}
		used := (len(rel) + miniSize - 1) / miniSize
		widths := make([]int, o.miniblocks)
		for m := range o.miniblocks {
			if m >= used {
				if o.junkWidths {
					dst = append(dst, 0xff)
				} else {
					dst = append(dst, 0)
				}
				continue
			}
			for _, r := range rel[m*miniSize : min((m+1)*miniSize, len(rel))] {
				widths[m] = max(widths[m], bits.Len64(r))
			}
			dst = append(dst, byte(widths[m]))
		}
		for m := range used {
			chunk := rel[m*miniSize : min((m+1)*miniSize, len(rel))]
			count := miniSize
			if o.noPad && end == len(values) {
				count = len(chunk)
			}
			dst = appendPacked(dst, chunk, count, widths[m])
		}
	}
	return dst
}

// appendPacked bit-packs count values LSB first, padding with zeros past
// len(values), and pads the last byte.
func appendPacked(dst []byte, values []uint64, count, w int) []byte {
	var acc uint64
	nbits := 0
	for i := range count {
		var v uint64
		if i < len(values) {
			v = values[i]
		}
		for got := 0; got < w; {
			take := min(w-got, 8)
			acc |= (v >> got) & (1<<take - 1) << nbits
			nbits += take
			got += take
			for nbits >= 8 {
				dst = append(dst, byte(acc))
				acc >>= 8
				nbits -= 8
			}
		}
	}
	if nbits > 0 {
		dst = append(dst, byte(acc))
	}
	return dst
}

// appendLengthByteArrays is a reference DELTA_LENGTH_BYTE_ARRAY encoder.
func appendLengthByteArrays(dst []byte, values []string) []byte {
	lengths := make([]int32, len(values))
	for i, v := range values {
		lengths[i] = int32(len(v))
	}
	dst = appendDelta(dst, lengths, defaultOpts)
	for _, v := range values {
		dst = append(dst, v...)
	}
	return dst
}

// appendByteArrays is a reference DELTA_BYTE_ARRAY encoder.
func appendByteArrays(dst []byte, values []string) []byte {
	prefixes := make([]int32, len(values))
	suffixes := make([]string, len(values))
	prev := ""
	for i, v := range values {
		p := 0
		for p < len(v) && p < len(prev) && v[p] == prev[p] {
			p++
		}
		prefixes[i], suffixes[i] = int32(p), v[p:]
		prev = v
	}
	dst = appendDelta(dst, prefixes, defaultOpts)
	return appendLengthByteArrays(dst, suffixes)
}
