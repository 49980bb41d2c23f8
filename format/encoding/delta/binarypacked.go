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
	d, err := newIntDecoder[T](data, maxBits)
	if err != nil {
		return dst, d.r.pos, err
	}
	total := d.h.total
	if dst, err = d.Next(dst, int(min(uint64(n), d.Len()))); err != nil {
		return dst, d.r.pos, err
	}
	end, err := d.End()
	if err != nil {
		return dst, end, err
	}
	if uint64(n) > total {
		return dst, end, fmt.Errorf("%w: stream holds %d values, want %d", ErrTruncated, total, n)
	}
	return dst, end, nil
}

// An IntDecoder decodes a DELTA_BINARY_PACKED stream a part at a time: each
// Next resumes within the miniblock where the last one stopped, so a page
// of millions of values decodes in bounded slices.
type IntDecoder[T integer] struct {
	r       reader
	h       header
	maxBits uint64
	// first: the header's first value is still to be returned.
	first bool
	// left counts the deltas not yet returned.
	left uint64
	last T
	// minDelta is the current block's; widths its miniblocks' bit widths
	// not yet begun.
	minDelta T
	widths   []byte
	// body holds the current miniblock from its start; bit is where its
	// next value starts, inMini how many of its values are left.
	body   []byte
	bit    uint64
	w      uint
	inMini uint64
}

// NewInt32Decoder reads the header of an INT32 DELTA_BINARY_PACKED stream.
func NewInt32Decoder(data []byte) (*IntDecoder[int32], error) {
	return newIntDecoder[int32](data, 32)
}

// NewInt64Decoder reads the header of an INT64 DELTA_BINARY_PACKED stream.
func NewInt64Decoder(data []byte) (*IntDecoder[int64], error) {
	return newIntDecoder[int64](data, 64)
}

func newIntDecoder[T integer](data []byte, maxBits uint64) (*IntDecoder[T], error) {
	d := &IntDecoder[T]{r: reader{data: data}, maxBits: maxBits}
	h, err := d.r.header()
	if err != nil {
		return d, err
	}
	d.h, d.last = h, T(h.first)
	if h.total > 0 {
		d.first, d.left = true, h.total-1
	}
	return d, nil
}

// Len is the number of values the stream holds past those returned.
func (d *IntDecoder[T]) Len() uint64 {
	if d.first {
		return d.left + 1
	}
	return d.left
}

// Next appends the next n values to dst. If the stream holds fewer it
// appends those and returns an error wrapping ErrTruncated.
func (d *IntDecoder[T]) Next(dst []T, n int) ([]T, error) {
	if n < 0 {
		return dst, fmt.Errorf("%w: negative value count %d", ErrInvalid, n)
	}
	want := n
	if avail := d.Len(); avail < uint64(n) {
		want = int(avail)
	}
	start := len(dst)
	dst = slices.Grow(dst, want)[:start+want]
	out := dst[start:]
	produced := 0
	if want > 0 && d.first {
		out[0] = d.last
		d.first = false
		produced = 1
	}
	var buf [chunk]uint64
	for produced < want {
		if d.inMini == 0 {
			if err := d.nextMiniblock(); err != nil {
				return dst[:start+produced], err
			}
		}
		c := min(d.inMini, uint64(want-produced), chunk)
		unpack(buf[:c], d.body, d.bit, d.w)
		o := out[produced : produced+int(c)]
		last, md := d.last, d.minDelta
		for i, v := range buf[:c] {
			last += md + T(v)
			o[i] = last
		}
		d.last = last
		produced += int(c)
		d.bit += c * uint64(d.w)
		d.inMini -= c
		d.left -= c
	}
	if want < n {
		return dst, fmt.Errorf("%w: stream holds %d values, want %d more", ErrTruncated, d.h.total, n)
	}
	return dst, nil
}

// nextMiniblock begins the next miniblock, reading a block header first
// when the block's miniblocks are used up. Widths of miniblocks past the
// last value may be arbitrary and their bodies absent, so it is called only
// while values are left.
func (d *IntDecoder[T]) nextMiniblock() error {
	r := &d.r
	if len(d.widths) == 0 {
		minDelta, err := r.zigzag("block min delta")
		if err != nil {
			return err
		}
		if uint64(len(r.data)-r.pos) < d.h.miniblocks {
			return fmt.Errorf("%w: %d miniblock bit widths at offset %d", ErrTruncated, d.h.miniblocks, r.pos)
		}
		d.minDelta = T(minDelta)
		d.widths = r.data[r.pos : r.pos+int(d.h.miniblocks)]
		r.pos += int(d.h.miniblocks)
	}
	w := uint64(d.widths[0])
	if w > d.maxBits {
		return fmt.Errorf("%w: miniblock bit width %d at offset %d exceeds %d", ErrCorrupt, w, r.pos, d.maxBits)
	}
	miniSize := d.h.blockSize / d.h.miniblocks
	k := min(miniSize, d.left)
	need := (k*w + 7) / 8
	if uint64(len(r.data)-r.pos) < need {
		return fmt.Errorf("%w: miniblock of %d values of %d bits at offset %d", ErrTruncated, k, w, r.pos)
	}
	d.widths = d.widths[1:]
	d.body, d.bit, d.w, d.inMini = r.data[r.pos:], 0, uint(w), k
	// The last miniblock should be padded to full size; accept one that
	// stops after its last value.
	r.pos += int(min(miniSize*w/8, uint64(len(r.data)-r.pos)))
	return nil
}

// End walks the rest of the stream without unpacking it and returns the
// bytes the whole stream occupies, so that a section after it can be
// found; the decoder's own position is unchanged.
func (d *IntDecoder[T]) End() (int, error) {
	e := *d
	e.left -= e.inMini
	e.inMini = 0
	for e.left > 0 {
		if err := e.nextMiniblock(); err != nil {
			return e.r.pos, err
		}
		e.left -= e.inMini
		e.inMini = 0
	}
	return e.r.pos, nil
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
