package delta

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// integer is the value type of a DELTA_BINARY_PACKED stream. Go's signed
// arithmetic wraps, which is the two's complement overflow the spec asks
// for: int32 deltas are summed in 32 bits even when a writer computed them
// in 64.
type integer interface{ ~int32 | ~int64 }

// Int32s appends up to n INT32 values of DELTA_BINARY_PACKED data to dst and
// returns the bytes the encoded stream occupies. If the stream holds fewer
// than n values it appends those and returns an error wrapping ErrTruncated.
func Int32s(dst []int32, data []byte, n int) ([]int32, int, error) {
	return decodeInts(dst, data, n, 32)
}

// Int64s appends up to n INT64 values of DELTA_BINARY_PACKED data to dst and
// returns the bytes the encoded stream occupies. If the stream holds fewer
// than n values it appends those and returns an error wrapping ErrTruncated.
func Int64s(dst []int64, data []byte, n int) ([]int64, int, error) {
	return decodeInts(dst, data, n, 64)
}

// reader reads the varints of a stream with its position for errors.
type reader struct {
	data []byte
	pos  int
}

func (r *reader) uvarint(what string) (uint64, error) {
	v, k := binary.Uvarint(r.data[r.pos:])
	switch {
	case k == 0:
		return 0, fmt.Errorf("%w: %s at offset %d", ErrTruncated, what, r.pos)
	case k < 0:
		return 0, fmt.Errorf("%w: %s at offset %d overflows 64 bits", ErrCorrupt, what, r.pos)
	}
	r.pos += k
	return v, nil
}

func (r *reader) zigzag(what string) (int64, error) {
	u, err := r.uvarint(what)
	return int64(u>>1) ^ -int64(u&1), err
}

// header is the DELTA_BINARY_PACKED stream header.
type header struct {
	blockSize  uint64 // values per block
	miniblocks uint64 // miniblocks per block
	total      uint64 // values in the stream
	first      int64
}

func (r *reader) header() (header, error) {
	var h header
	var err error
	if h.blockSize, err = r.uvarint("block size"); err != nil {
		return h, err
	}
	if h.miniblocks, err = r.uvarint("miniblock count"); err != nil {
		return h, err
	}
	if h.total, err = r.uvarint("total value count"); err != nil {
		return h, err
	}
	if h.first, err = r.zigzag("first value"); err != nil {
		return h, err
	}
	switch {
	case h.blockSize == 0 || h.blockSize%128 != 0 || h.blockSize > math.MaxInt32:
		return h, fmt.Errorf("%w: block size %d is not a positive multiple of 128", ErrCorrupt, h.blockSize)
	case h.miniblocks == 0 || h.blockSize%h.miniblocks != 0 || (h.blockSize/h.miniblocks)%32 != 0:
		return h, fmt.Errorf("%w: %d miniblocks do not split a block of %d into multiples of 32",
			ErrCorrupt, h.miniblocks, h.blockSize)
	}
	return h, nil
}

// chunk is how many deltas are unpacked at a time into a stack buffer.
const chunk = 128

// decodeInts decodes a DELTA_BINARY_PACKED stream of values of maxBits bits.
// It decodes min(n, total) values and then walks the rest of the stream
// without unpacking it, so the consumed count is right even for n < total.
func decodeInts[T integer](dst []T, data []byte, n int, maxBits uint64) ([]T, int, error) {
	if n < 0 {
		return dst, 0, fmt.Errorf("%w: negative value count %d", ErrInvalid, n)
	}
	r := reader{data: data}
	h, err := r.header()
	if err != nil {
		return dst, r.pos, err
	}
	want := n
	if h.total < uint64(n) {
		want = int(h.total)
	}
	start := len(dst)
	dst = slices.Grow(dst, want)[:start+want]
	out := dst[start:]
	if want > 0 {
		out[0] = T(h.first)
	}
	produced := min(1, want)
	last := T(h.first)

	var remaining uint64 // values after the first still in the stream
	if h.total > 0 {
		remaining = h.total - 1
	}
	miniSize := h.blockSize / h.miniblocks
	var buf [chunk]uint64
	for remaining > 0 {
		minDelta, err := r.zigzag("block min delta")
		if err != nil {
			return dst[:start+produced], r.pos, err
		}
		if uint64(len(data)-r.pos) < h.miniblocks {
			return dst[:start+produced], r.pos, fmt.Errorf("%w: %d miniblock bit widths at offset %d",
				ErrTruncated, h.miniblocks, r.pos)
		}
		widths := data[r.pos : r.pos+int(h.miniblocks)]
		r.pos += int(h.miniblocks)
		md := T(minDelta)
		// Widths of miniblocks past the last value may be arbitrary and their
		// bodies absent, so the loop stops with the values.
		for _, wb := range widths {
			if remaining == 0 {
				break
			}
			w := uint64(wb)
			if w > maxBits {
				return dst[:start+produced], r.pos, fmt.Errorf("%w: miniblock bit width %d at offset %d exceeds %d",
					ErrCorrupt, w, r.pos, maxBits)
			}
			k := min(miniSize, remaining)
			full := miniSize * w / 8
			need := (k*w + 7) / 8
			if uint64(len(data)-r.pos) < need {
				return dst[:start+produced], r.pos, fmt.Errorf("%w: miniblock of %d values of %d bits at offset %d",
					ErrTruncated, k, w, r.pos)
			}
			body := data[r.pos:]
			var bit uint64
			for todo := min(k, uint64(want-produced)); todo > 0; {
				c := min(todo, chunk)
				unpack(buf[:c], body, bit, uint(w))
				o := out[produced : produced+int(c)]
				for i, d := range buf[:c] {
					last += md + T(d)
					o[i] = last
				}
				produced += int(c)
				bit += c * w
				todo -= c
			}
			// The last miniblock should be padded to full size; accept one
			// that stops after its last value.
			r.pos += int(min(full, uint64(len(data)-r.pos)))
			remaining -= k
		}
	}
	if produced < n {
		return dst[:start+produced], r.pos, fmt.Errorf("%w: stream holds %d values, want %d",
			ErrTruncated, h.total, n)
	}
	return dst, r.pos, nil
}

// unpack decodes len(dst) little-endian bit-packed values of w bits (0..64)
// starting at bit offset bit of src, which must hold them all. A value
// starting at bit s lies within the 9 bytes from byte s/8, so a 64-bit load
// plus, when shift+w passes 64, one more byte extract it; values too near
// the end of src for the 8-byte load go byte by byte.
func unpack(dst []uint64, src []byte, bit uint64, w uint) {
	if w == 0 {
		clear(dst)
		return
	}
	mask := uint64(math.MaxUint64) >> (64 - w)
	i := 0
	for ; i < len(dst); i++ {
		idx := bit >> 3
		if idx+9 > uint64(len(src)) {
			break
		}
		sh := uint(bit & 7)
		x := binary.LittleEndian.Uint64(src[idx:]) >> sh
		if sh+w > 64 {
			x |= uint64(src[idx+8]) << (64 - sh)
		}
		dst[i] = x & mask
		bit += uint64(w)
	}
	for ; i < len(dst); i++ {
		var x uint64
		got := uint(0)
		for got < w {
			idx := bit >> 3
			sh := uint(bit & 7)
			take := min(8-sh, w-got)
			x |= uint64(src[idx]>>sh) & (1<<take - 1) << got
			got += take
			bit += uint64(take)
		}
		dst[i] = x
	}
}
