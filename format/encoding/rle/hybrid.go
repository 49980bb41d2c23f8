package rle

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// maxRun is the longest run the spec allows: run lengths fit in an int32.
const maxRun = math.MaxInt32

// A Decoder reads values of the RLE/bit-packing hybrid encoding from one
// byte slice. The zero Decoder holds no values; use NewDecoder or Reset.
type Decoder struct {
	data  []byte
	pos   int // offset of the next run header
	width uint
	mask  uint64
	err   error // sticky error of an invalid bit width

	rle       bool   // the current run is an RLE run
	value     int32  // the repeated value of an RLE run
	remaining int    // values left in the current run
	bitPos    uint64 // bit offset in data of the next bit-packed value

	// uniform says the last Decode filled dst from RLE runs of one value,
	// same (Uniform).
	uniform bool
	same    int32
}

// NewDecoder returns a Decoder of data with values of bitWidth bits. A width
// of 0 yields zeros without reading data; a width outside 0..32 makes Decode
// fail with ErrBitWidth.
func NewDecoder(data []byte, bitWidth int) *Decoder {
	d := new(Decoder)
	d.Reset(data, bitWidth)
	return d
}

// Reset makes d decode data with values of bitWidth bits, reusing d.
func (d *Decoder) Reset(data []byte, bitWidth int) {
	*d = Decoder{data: data}
	if bitWidth < 0 || bitWidth > 32 {
		d.err = fmt.Errorf("%w: %d (want 0..32)", ErrBitWidth, bitWidth)
		return
	}
	d.width = uint(bitWidth)
	d.mask = 1<<d.width - 1
}

// Decode fills dst with the next values and returns how many it decoded. It
// returns fewer than len(dst) only with an error: ErrTruncated when the data
// ends first, ErrCorrupt for a malformed run.
func (d *Decoder) Decode(dst []int32) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	if d.width == 0 {
		clear(dst)
		d.uniform, d.same = len(dst) > 0, 0
		return len(dst), nil
	}
	d.uniform = len(dst) > 0
	n := 0
	for n < len(dst) {
		if d.remaining == 0 {
			if err := d.nextRun(); err != nil {
				d.uniform = false
				return n, err
			}
			continue
		}
		k := min(d.remaining, len(dst)-n)
		out := dst[n : n+k]
		if d.rle {
			v := d.value
			for i := range out {
				out[i] = v
			}
			if n == 0 {
				d.same = v
			} else if v != d.same {
				d.uniform = false
			}
		} else {
			d.unpack(out)
			d.uniform = false
		}
		n += k
		d.remaining -= k
	}
	return n, nil
}

// Uniform reports whether the values the last Decode returned were all
// one value, v, taken from RLE runs: a page's definition levels are most
// often one run of the maximum, and a caller then need not look at each.
// It is false after a Decode that failed or decoded nothing, and may be
// false for equal values that were bit-packed.
func (d *Decoder) Uniform() (v int32, ok bool) { return d.same, d.uniform }

// nextRun reads the header of the next run. Runs of length zero are legal
// to skip; each header consumes at least a byte, so skipping ends.
func (d *Decoder) nextRun() error {
	if d.pos >= len(d.data) {
		return fmt.Errorf("%w: no run header at offset %d", ErrTruncated, d.pos)
	}
	h, n := binary.Uvarint(d.data[d.pos:])
	switch {
	case n == 0:
		return fmt.Errorf("%w: run header at offset %d", ErrTruncated, d.pos)
	case n < 0:
		return fmt.Errorf("%w: run header at offset %d overflows 64 bits", ErrCorrupt, d.pos)
	}
	at := d.pos
	d.pos += n
	if h&1 == 0 {
		count := h >> 1
		if count > maxRun {
			return fmt.Errorf("%w: RLE run of %d values at offset %d exceeds 2^31-1", ErrCorrupt, count, at)
		}
		nb := int(d.width+7) / 8
		if len(d.data)-d.pos < nb {
			return fmt.Errorf("%w: RLE value at offset %d needs %d bytes", ErrTruncated, d.pos, nb)
		}
		var v uint32
		for i := range nb {
			v |= uint32(d.data[d.pos+i]) << (8 * i)
		}
		d.pos += nb
		if uint64(v) > d.mask {
			return fmt.Errorf("%w: RLE value %d at offset %d exceeds bit width %d", ErrCorrupt, v, at, d.width)
		}
		d.rle, d.value, d.remaining = true, int32(v), int(count)
		return nil
	}
	groups := h >> 1
	if groups > maxRun/8 {
		return fmt.Errorf("%w: bit-packed run of %d groups at offset %d exceeds 2^31-1 values", ErrCorrupt, groups, at)
	}
	// Take only the values the remaining bytes hold: a header promising more
	// is an error only if those values are actually asked for, and then the
	// next header read reports the truncation.
	runBytes := groups * uint64(d.width)
	avail := uint64(len(d.data) - d.pos)
	values := groups * 8
	if runBytes > avail {
		values = avail * 8 / uint64(d.width)
		runBytes = avail
	}
	d.rle, d.remaining = false, int(values)
	d.bitPos = uint64(d.pos) * 8
	d.pos += int(runBytes)
	return nil
}

// unpack decodes len(out) bit-packed values starting at d.bitPos. Each value
// of at most 32 bits lies within the 8 bytes starting at its first byte, so
// one unaligned 64-bit load and a shift extract it; only values whose 8-byte
// window passes the end of data take the byte-wise path.
func (d *Decoder) unpack(out []int32) {
	data, w, mask, bp := d.data, uint64(d.width), d.mask, d.bitPos
	i := 0
	if w <= 8 && bp&7 == 0 {
		// From a byte boundary, eight values of at most 8 bits fill w
		// bytes: one load yields them all.
		o := int(bp >> 3)
		for ; i+8 <= len(out) && o+8 <= len(data); i += 8 {
			x := binary.LittleEndian.Uint64(data[o:])
			g := out[i : i+8 : i+8]
			g[0] = int32(x & mask)
			g[1] = int32(x >> w & mask)
			g[2] = int32(x >> (2 * w) & mask)
			g[3] = int32(x >> (3 * w) & mask)
			g[4] = int32(x >> (4 * w) & mask)
			g[5] = int32(x >> (5 * w) & mask)
			g[6] = int32(x >> (6 * w) & mask)
			g[7] = int32(x >> (7 * w) & mask)
			o += int(w)
		}
		bp = uint64(o) * 8
	}
	if len(data) >= 8 {
		limit := uint64(len(data)-7) * 8 // first bit whose window is short
		if bp < limit {
			fast := uint64(i) + min(uint64(len(out)-i), (limit-bp+w-1)/w)
			for ; uint64(i) < fast; i++ {
				x := binary.LittleEndian.Uint64(data[bp>>3:])
				out[i] = int32((x >> (bp & 7)) & mask)
				bp += w
			}
		}
	}
	for ; i < len(out); i++ {
		var x uint64
		for j, b := range data[bp>>3 : min(int(bp>>3)+8, len(data))] {
			x |= uint64(b) << (8 * j)
		}
		out[i] = int32((x >> (bp & 7)) & mask)
		bp += w
	}
	d.bitPos = bp
}

// DecodeLevels decodes exactly len(dst) values of data into dst.
func DecodeLevels(dst []int32, data []byte, bitWidth int) error {
	var d Decoder
	d.Reset(data, bitWidth)
	_, err := d.Decode(dst)
	return err
}

// BitWidth returns the number of bits needed for the values 0..max.
func BitWidth(max uint64) int { return bits.Len64(max) }
