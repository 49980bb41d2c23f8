package rle

import "fmt"

// A BitPackedDecoder reads values of the deprecated BIT_PACKED encoding,
// which packs values back to back from the most significant bit of each
// byte down, resuming where the last Decode stopped.
type BitPackedDecoder struct {
	data  []byte
	width uint
	mask  uint64
	bit   uint64 // offset of the next value's first bit
	err   error
}

// NewBitPackedDecoder returns a decoder of data with values of bitWidth
// bits; a width outside 0..32 makes Decode fail with ErrBitWidth.
func NewBitPackedDecoder(data []byte, bitWidth int) *BitPackedDecoder {
	d := &BitPackedDecoder{data: data}
	if bitWidth < 0 || bitWidth > 32 {
		d.err = fmt.Errorf("%w: %d (want 0..32)", ErrBitWidth, bitWidth)
		return d
	}
	d.width = uint(bitWidth)
	d.mask = 1<<d.width - 1
	return d
}

// Decode fills dst with the next len(dst) values, or decodes none and
// fails with ErrTruncated when the data ends first.
func (d *BitPackedDecoder) Decode(dst []int32) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	w := uint64(d.width)
	if need := (d.bit + uint64(len(dst))*w + 7) / 8; need > uint64(len(d.data)) {
		return 0, fmt.Errorf("%w: %d BIT_PACKED values of %d bits from bit %d need %d bytes, have %d",
			ErrTruncated, len(dst), w, d.bit, need, len(d.data))
	}
	if w == 0 {
		clear(dst)
		return len(dst), nil
	}
	for i := range dst {
		at, off := d.bit>>3, d.bit&7
		// The value lies in the nbytes bytes from at, read big-endian.
		nbytes := (off + w + 7) / 8
		var x uint64
		for _, b := range d.data[at : at+nbytes] {
			x = x<<8 | uint64(b)
		}
		dst[i] = int32(x >> (nbytes*8 - off - w) & d.mask)
		d.bit += w
	}
	return len(dst), nil
}

// DecodeBitPacked decodes exactly len(dst) values of the deprecated
// BIT_PACKED encoding. It returns the bytes the values occupy,
// ceil(len(dst)*bitWidth/8).
func DecodeBitPacked(dst []int32, data []byte, bitWidth int) (consumed int, err error) {
	d := NewBitPackedDecoder(data, bitWidth)
	if _, err := d.Decode(dst); err != nil {
		return 0, err
	}
	return int((uint64(len(dst))*uint64(bitWidth) + 7) / 8), nil
}
