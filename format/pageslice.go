package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pqsql/pqsql/format/encoding/bytestreamsplit"
	"github.com/pqsql/pqsql/format/encoding/delta"
	"github.com/pqsql/pqsql/format/encoding/plain"
	"github.com/pqsql/pqsql/format/encoding/rle"
	"github.com/pqsql/pqsql/format/meta"
)

// defaultSliceEntries is the entries a PageReader decodes of a page at once
// when Limits.SliceEntries is 0: a run of a few bytes can declare 64M
// entries, and a slice bounds what they take while decoded.
const defaultSliceEntries = 64 << 10

// sliceEntries is Limits.SliceEntries; zero means the default.
func (l Limits) sliceEntries() int {
	if l.SliceEntries > 0 {
		return l.SliceEntries
	}
	return defaultSliceEntries
}

// wholePage is a slice size that takes each page at once.
const wholePage = math.MaxInt

// A levelDecoder yields the next levels of a page; rle.Decoder and
// rle.BitPackedDecoder resume where they stopped.
type levelDecoder interface {
	Decode(dst []int32) (int, error)
}

// uniform is rle.Decoder's Uniform of a level decoder that has it: the
// levels its last Decode returned were all v.
func uniform(dec levelDecoder) (v int32, ok bool) {
	if u, is := dec.(interface{ Uniform() (int32, bool) }); is {
		return u.Uniform()
	}
	return 0, false
}

// A pageCursor is the state of a data page decoded a slice at a time.
type pageCursor struct {
	p   *rawPage
	ref PageRef
	// firstRow is the row of the next slice's first record; rows counts the
	// records the slices so far began.
	firstRow, rows int64
	// n is the page's entries, done those decoded.
	n, done  int
	enc      meta.Encoding
	rep, def levelDecoder
	// ahead holds repetition levels decoded past the last slice's end.
	ahead []int32
	// values is the page's value section; pos is where the next value
	// starts in it (in bits for PLAIN booleans).
	values []byte
	pos    int
	// idx decodes dictionary indexes or RLE booleans once started.
	idx *rle.Decoder
	// The delta decoders, once started, resume where the last slice ended.
	ints32  *delta.IntDecoder[int32]
	ints64  *delta.IntDecoder[int64]
	lengths *delta.LengthDecoder
	arrays  *delta.ByteArrayDecoder
	// stride is the values in each BYTE_STREAM_SPLIT stream: the page's
	// non-null values. split holds a slice's values gathered from them.
	stride int
	split  []byte
	// held is what the open page holds of the decoder's budget.
	held int64
}

// indexDecoder returns the decoder of a page's dictionary indexes or
// run-length booleans, one per chunk reused from page to page: a page's
// decoder is done with once the page is.
func (d *chunkDecoder) indexDecoder(data []byte, width int) *rle.Decoder {
	if d.idxDec == nil {
		d.idxDec = new(rle.Decoder)
	}
	d.idxDec.Reset(data, width)
	return d.idxDec
}

// sliceRep decodes the repetition levels of the next slice, about k
// entries, into d.out.Rep and returns the slice's entries: up to the last
// record start within them unless the page ends there, and past k when one
// record is longer.
func (d *chunkDecoder) sliceRep(k, step int) (int, error) {
	c, out := d.cur, d.out
	start := out.NumEntries
	left := c.n - c.done
	got := 0
	for {
		more := min(k-got, left-got)
		if err := d.hold(int64(more)*4, "the page's repetition levels"); err != nil {
			return 0, err
		}
		out.Rep = growLevels(out.Rep, more)
		dst := out.Rep[start+got : start+got+more]
		m := copy(dst, c.ahead)
		c.ahead = c.ahead[m:]
		if _, err := c.rep.Decode(dst[m:]); err != nil {
			return 0, err
		}
		for _, r := range dst {
			if int(r) > d.leaf.MaxRep || r < 0 {
				return 0, fmt.Errorf("%w: repetition level %d above the maximum %d", ErrCorrupt, r, d.leaf.MaxRep)
			}
		}
		from := max(got, 1) // levels before it hold no record start
		got += more
		if got == left {
			return got, nil
		}
		rep := out.Rep[start : start+got]
		for i := got - 1; i >= from; i-- {
			if rep[i] == 0 {
				// The levels from i on begin the next slice.
				c.ahead = append(slices.Clone(rep[i:]), c.ahead...)
				out.Rep = out.Rep[:start+i]
				return i, nil
			}
		}
		// One record fills the slice so far: take more of it.
		k = got + min(step, left-got)
	}
}

// decodeSlice appends the next n values of the open page; every encoding
// resumes where the last slice ended.
func (d *chunkDecoder) decodeSlice(c *pageCursor, n int) error {
	v := &d.out.Values
	data := c.values
	switch c.enc {
	case meta.Plain:
		if v.Type == meta.Boolean {
			var err error
			v.Bool, err = plain.BooleansFrom(v.Bool, data, c.pos, n)
			c.pos += n
			return err
		}
		if c.pos > len(data) {
			return fmt.Errorf("%w: values run past the page", ErrCorrupt)
		}
		if v.Type == meta.ByteArray {
			var used int
			var err error
			v.Bytes, used, err = plain.ByteArraysUsed(v.Bytes, data[c.pos:], n)
			c.pos += used
			return err
		}
		if err := decodePlain(v, data[c.pos:], n, d.leaf.TypeLength); err != nil {
			return err
		}
		size := int(valueBytes(v.Type))
		if v.Type == meta.FixedLenByteArray {
			size = d.leaf.TypeLength
		}
		c.pos += n * size
		return nil
	case meta.PlainDictionary, meta.RLEDictionary:
		if d.dict == nil {
			return fmt.Errorf("%w: dictionary-encoded page but the chunk has no dictionary page", ErrCorrupt)
		}
		if n == 0 {
			return nil
		}
		if c.idx == nil {
			if len(data) < 1 {
				return fmt.Errorf("%w: dictionary index bit width missing", ErrCorrupt)
			}
			width := int(data[0])
			if width > 32 {
				return fmt.Errorf("%w: dictionary index bit width %d", ErrCorrupt, width)
			}
			c.idx = d.indexDecoder(data[1:], width)
		}
		if d.indexed(c.enc) {
			return d.keepIndicesOf(c, n)
		}
		idx, err := d.indexes(c, n, "the page's dictionary indexes")
		if err != nil {
			return err
		}
		return d.lookUp(v, c.enc, idx)
	case meta.RLE:
		if d.leaf.Type != meta.Boolean {
			return fmt.Errorf("%w: RLE values on a %s column", ErrUnsupported, d.leaf.Type)
		}
		if c.idx == nil {
			if len(data) < 4 {
				return fmt.Errorf("%w: RLE length prefix missing", ErrCorrupt)
			}
			l := binary.LittleEndian.Uint32(data)
			if uint64(l) > uint64(len(data)-4) {
				return fmt.Errorf("%w: RLE run of %d bytes exceeds the page", ErrCorrupt, l)
			}
			c.idx = d.indexDecoder(data[4:4+l], 1)
		}
		idx, err := d.indexes(c, n, "the page's run-length booleans")
		if err != nil {
			return err
		}
		for _, b := range idx {
			v.Bool = append(v.Bool, b != 0)
		}
		return nil
	case meta.DeltaBinaryPacked:
		return d.deltaInts(c, n)
	case meta.DeltaLengthByteArray:
		if d.leaf.Type != meta.ByteArray {
			return fmt.Errorf("%w: DELTA_LENGTH_BYTE_ARRAY on a %s column", ErrCorrupt, d.leaf.Type)
		}
		if c.lengths == nil {
			var err error
			if c.lengths, err = delta.NewLengthDecoder(data); err != nil {
				return err
			}
		}
		if err := d.fits(int64(n)*4, "the page's value lengths"); err != nil {
			return err
		}
		var err error
		v.Bytes, err = c.lengths.Next(v.Bytes, n)
		return err
	case meta.DeltaByteArray:
		return d.deltaByteArrays(c, n)
	case meta.ByteStreamSplit:
		return d.byteStreamSplit(c, n)
	}
	return fmt.Errorf("%w: encoding %s", ErrUnsupported, c.enc)
}

// deltaInts appends the next n DELTA_BINARY_PACKED values of the open page.
// The stream is walked to its end when it starts, so a page whose values
// past those read are broken fails as when it is decoded whole.
func (d *chunkDecoder) deltaInts(c *pageCursor, n int) error {
	v := &d.out.Values
	var err error
	switch d.leaf.Type {
	case meta.Int32:
		if c.ints32 == nil {
			if c.ints32, err = delta.NewInt32Decoder(c.values); err != nil {
				return err
			}
			if _, err = c.ints32.End(); err != nil {
				return err
			}
		}
		v.Int32, err = c.ints32.Next(v.Int32, n)
	case meta.Int64:
		if c.ints64 == nil {
			if c.ints64, err = delta.NewInt64Decoder(c.values); err != nil {
				return err
			}
			if _, err = c.ints64.End(); err != nil {
				return err
			}
		}
		v.Int64, err = c.ints64.Next(v.Int64, n)
	default:
		return fmt.Errorf("%w: DELTA_BINARY_PACKED on a %s column", ErrCorrupt, d.leaf.Type)
	}
	return err
}

// byteArrays starts the open page's DELTA_BYTE_ARRAY decoder.
func (d *chunkDecoder) byteArrays(c *pageCursor) (*delta.ByteArrayDecoder, error) {
	if c.arrays == nil {
		if d.leaf.Type != meta.ByteArray && d.leaf.Type != meta.FixedLenByteArray {
			return nil, fmt.Errorf("%w: DELTA_BYTE_ARRAY on a %s column", ErrCorrupt, d.leaf.Type)
		}
		var err error
		if c.arrays, err = delta.NewByteArrayDecoder(c.values); err != nil {
			return nil, err
		}
	}
	return c.arrays, nil
}

// deltaByteArrays appends the next n DELTA_BYTE_ARRAY values of the open
// page. They are copied out of the page, since each repeats a prefix of its
// predecessor, and held until the caller releases the slice.
func (d *chunkDecoder) deltaByteArrays(c *pageCursor, n int) error {
	arrays, err := d.byteArrays(c)
	if err != nil {
		return err
	}
	v := &d.out.Values
	start := len(v.Bytes)
	v.Bytes, err = arrays.Next(v.Bytes, n, d.f.Limits.budget()-d.held)
	if errors.Is(err, delta.ErrTooLarge) {
		return fmt.Errorf("%w: %w", ErrLimit, err)
	}
	if err != nil {
		return err
	}
	for _, b := range v.Bytes[start:] {
		d.held += int64(len(b))
		if d.leaf.Type == meta.FixedLenByteArray && len(b) != d.leaf.TypeLength {
			return fmt.Errorf("%w: value of %d bytes in a FIXED_LEN_BYTE_ARRAY(%d) column", ErrCorrupt, len(b), d.leaf.TypeLength)
		}
	}
	return nil
}

// maxSliceBytes bounds the bytes of the values a slice copies out of a
// DELTA_BYTE_ARRAY page: 64K values repeating a 4000-byte prefix would
// take 256 MB in one slice of 64K entries.
const maxSliceBytes = 16 << 20

// fitBytes lowers a slice of k entries of the open page so that the
// values it copies take at most maxSliceBytes, or a quarter of the
// decoded-data budget if less; a slice holds at least one entry.
func (d *chunkDecoder) fitBytes(c *pageCursor, k int) (int, error) {
	if c.enc != meta.DeltaByteArray || k == 0 {
		return k, nil
	}
	arrays, err := d.byteArrays(c)
	if err != nil {
		return 0, err
	}
	// The k entries hold at most k values; when fewer fit, as many
	// entries as values that fit hold no more than those.
	return arrays.Fit(k, min(maxSliceBytes, d.f.Limits.budget()/4)), nil
}

// byteStreamSplit appends the next n BYTE_STREAM_SPLIT values of the open
// page; c.pos counts the values gathered from its streams so far.
func (d *chunkDecoder) byteStreamSplit(c *pageCursor, n int) error {
	width := 0
	switch d.leaf.Type {
	case meta.Int32, meta.Float:
		width = 4
	case meta.Int64, meta.Double:
		width = 8
	case meta.FixedLenByteArray:
		width = d.leaf.TypeLength
	default:
		return fmt.Errorf("%w: BYTE_STREAM_SPLIT on a %s column", ErrCorrupt, d.leaf.Type)
	}
	data := c.values
	if int64(len(data)) != int64(width)*int64(c.stride) {
		// Trailing bytes would shift every stream; the spec sizes the page exactly.
		if int64(len(data)) < int64(width)*int64(c.stride) {
			return fmt.Errorf("%w: %d bytes for %d values of width %d", ErrCorrupt, len(data), c.stride, width)
		}
		data = data[:width*c.stride]
	}
	// Fixed-length values point into the gathered bytes, held with them.
	reserve := d.fits
	if d.leaf.Type == meta.FixedLenByteArray {
		reserve = d.hold
	}
	if err := reserve(int64(n)*int64(width), "the page's split values"); err != nil {
		return err
	}
	var err error
	if c.split, err = bytestreamsplit.DecodeFrom(c.split[:0], data, width, c.pos, n); err != nil {
		return err
	}
	c.pos += n
	if d.leaf.Type == meta.FixedLenByteArray {
		// The next slice must not overwrite them.
		buf := c.split
		c.split = nil
		return decodePlain(&d.out.Values, buf, n, width)
	}
	return decodePlain(&d.out.Values, c.split, n, width)
}

// countDefined counts the levels of dec equal to max among its first n.
func countDefined(dec levelDecoder, n, max int) (int, error) {
	var buf [4096]int32
	defined := 0
	for n > 0 {
		k := min(n, len(buf))
		if _, err := dec.Decode(buf[:k]); err != nil {
			return 0, err
		}
		if v, ok := uniform(dec); ok {
			if int(v) == max {
				defined += k
			}
			n -= k
			continue
		}
		for _, l := range buf[:k] {
			if int(l) == max {
				defined++
			}
		}
		n -= k
	}
	return defined, nil
}

// indexes decodes the next n run-length values of the open page into the
// decoder's scratch.
func (d *chunkDecoder) indexes(c *pageCursor, n int, what string) ([]int32, error) {
	if err := d.fits(int64(n)*4, what); err != nil {
		return nil, err
	}
	if cap(d.idx) < n {
		d.idx = make([]int32, n)
	}
	idx := d.idx[:n]
	if _, err := c.idx.Decode(idx); err != nil {
		return nil, err
	}
	return idx, nil
}
