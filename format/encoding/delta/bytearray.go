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
	d := LengthDecoder{data: data, pos: pos}
	dst, err = d.values(dst, lengths)
	return dst, d.pos, err
}

// A LengthDecoder decodes DELTA_LENGTH_BYTE_ARRAY values a part at a time:
// the lengths stream resumes where it stopped, and the values follow it.
type LengthDecoder struct {
	lengths *IntDecoder[int32]
	data    []byte
	// pos is where the next value starts; i counts the values returned.
	pos, i  int
	scratch []int32
}

// NewLengthDecoder reads the lengths header of DELTA_LENGTH_BYTE_ARRAY data
// and walks the lengths to find where the values start.
func NewLengthDecoder(data []byte) (*LengthDecoder, error) {
	lengths, err := NewInt32Decoder(data)
	if err != nil {
		return nil, fmt.Errorf("lengths: %w", err)
	}
	end, err := lengths.End()
	if err != nil {
		return nil, fmt.Errorf("lengths: %w", err)
	}
	return &LengthDecoder{lengths: lengths, data: data, pos: end}, nil
}

// Next appends the next n values to dst; they alias the data. On an error
// dst is returned unchanged.
func (d *LengthDecoder) Next(dst [][]byte, n int) ([][]byte, error) {
	var err error
	if d.scratch, err = d.lengths.Next(d.scratch[:0], n); err != nil {
		return dst, fmt.Errorf("lengths: %w", err)
	}
	return d.values(dst, d.scratch)
}

// values appends the values of the given lengths starting at d.pos.
func (d *LengthDecoder) values(dst [][]byte, lengths []int32) ([][]byte, error) {
	pos := d.pos
	for i, l := range lengths {
		if l < 0 || int(l) > len(d.data)-pos {
			return dst, lengthError(d.i+i, int(l), len(d.data)-pos)
		}
		pos += int(l)
	}
	dst = slices.Grow(dst, len(lengths))
	for _, l := range lengths {
		end := d.pos + int(l)
		dst = append(dst, d.data[d.pos:end:end])
		d.pos = end
	}
	d.i += len(lengths)
	return dst, nil
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
	if err := checkCount(n, maxBytes); err != nil {
		return dst, err
	}
	d, err := NewByteArrayDecoder(data)
	if err != nil {
		return dst, err
	}
	return d.Next(dst, n, maxBytes)
}

func checkCount(n int, maxBytes int64) error {
	if int64(n)*perValue > maxBytes {
		return fmt.Errorf("%w: %d values need %d bytes before their contents, above the limit of %d", ErrTooLarge, n, int64(n)*perValue, maxBytes)
	}
	return nil
}

// A ByteArrayDecoder decodes DELTA_BYTE_ARRAY values a part at a time. The
// last value returned is kept, since the next value's prefix comes from
// it, so values are rebuilt across calls as if decoded at once.
type ByteArrayDecoder struct {
	prefixes *IntDecoder[int32]
	suffixes *LengthDecoder
	// last is the last value returned; i counts the values returned.
	last []byte
	i    int
	pre  []int32
	suf  [][]byte
}

// NewByteArrayDecoder reads the prefix-length header of DELTA_BYTE_ARRAY
// data and finds the suffixes after the prefix lengths.
func NewByteArrayDecoder(data []byte) (*ByteArrayDecoder, error) {
	prefixes, err := NewInt32Decoder(data)
	if err != nil {
		return nil, fmt.Errorf("prefix lengths: %w", err)
	}
	end, err := prefixes.End()
	if err != nil {
		return nil, fmt.Errorf("prefix lengths: %w", err)
	}
	suffixes, err := NewLengthDecoder(data[end:])
	if err != nil {
		return nil, fmt.Errorf("suffixes: %w", err)
	}
	return &ByteArrayDecoder{prefixes: prefixes, suffixes: suffixes}, nil
}

// Next appends the next n values to dst, copied into one new allocation,
// which with the lengths and slices held while decoding takes at most
// maxBytes bytes, or fails with ErrTooLarge before it is made. On an error
// dst is returned unchanged and the decoder must not be used again.
func (d *ByteArrayDecoder) Next(dst [][]byte, n int, maxBytes int64) ([][]byte, error) {
	if err := checkCount(n, maxBytes); err != nil {
		return dst, err
	}
	if err := d.lengths(n); err != nil {
		return dst, err
	}
	// Size the arena first: every prefix is checked against its
	// predecessor's length, so the total is exact and bounded before any
	// byte is copied.
	room := min(maxBytes-int64(n)*perValue, MaxDecodedSize)
	var total int64
	prev := int64(len(d.last))
	for i, p := range d.pre {
		if p < 0 || int64(p) > prev {
			return dst, fmt.Errorf("%w: value %d has prefix length %d, previous value has %d bytes",
				ErrCorrupt, d.i+i, p, prev)
		}
		prev = int64(p) + int64(len(d.suf[i]))
		total += prev
		if total > room {
			return dst, fmt.Errorf("%w: %d values exceed %d bytes", ErrTooLarge, n, room)
		}
	}
	arena := make([]byte, 0, total)
	dst = slices.Grow(dst, n)
	last := d.last
	for i, p := range d.pre {
		start := len(arena)
		arena = append(arena, last[:p]...)
		arena = append(arena, d.suf[i]...)
		last = arena[start:len(arena):len(arena)]
		dst = append(dst, last)
	}
	d.last, d.i = last, d.i+n
	clear(d.suf) // the suffixes alias the page
	return dst, nil
}

// lengths decodes the next n prefix lengths and suffixes into d.pre and
// d.suf.
func (d *ByteArrayDecoder) lengths(n int) error {
	var err error
	if d.pre, err = d.prefixes.Next(d.pre[:0], n); err != nil {
		return fmt.Errorf("prefix lengths: %w", err)
	}
	if d.suf, err = d.suffixes.Next(d.suf[:0], n); err != nil {
		return fmt.Errorf("suffixes: %w", err)
	}
	return nil
}

// Fit returns how many of the next n values decode into at most maxBytes
// bytes of values: n when all of them (or all the stream holds) fit, else
// those that fit but at least one, so that a caller can size a part to a
// memory bound. The decoder's position is unchanged; lengths that Next
// would refuse end the fit, for Next to report.
func (d *ByteArrayDecoder) Fit(n int, maxBytes int64) int {
	avail := int(min(uint64(max(n, 0)), d.prefixes.Len()))
	// Copies of the length decoders peek without moving the originals.
	pre, sl := *d.prefixes, *d.suffixes.lengths
	// Lengths are peeked in steps, so a small fit decodes few of them.
	var buf, lens []int32
	var total int64
	prev := int64(len(d.last))
	fit := 0
	for fit < avail {
		step := min(avail-fit, 1024)
		var err, err2 error
		buf, err = pre.Next(buf[:0], step)
		lens, err2 = sl.Next(lens[:0], step)
		if err != nil || err2 != nil {
			return max(fit, 1)
		}
		for i, p := range buf {
			if p < 0 || int64(p) > prev || lens[i] < 0 {
				return max(fit, 1)
			}
			prev = int64(p) + int64(lens[i])
			total += prev
			if total > maxBytes {
				return max(fit, 1)
			}
			fit++
		}
	}
	return n
}
