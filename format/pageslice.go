package format

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

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

// A pageCursor is the state of a data page decoded a slice at a time.
type pageCursor struct {
	p   *rawPage
	ref PageRef
	// firstRow is the row of the next slice's first record; rows counts the
	// records the slices so far began.
	firstRow, rows int64
	// n is the page's entries, done those decoded.
	n, done int
	enc     meta.Encoding
	// whole: the encoding cannot resume, so the page is one slice.
	whole    bool
	rep, def levelDecoder
	// ahead holds repetition levels decoded past the last slice's end.
	ahead []int32
	// values is the page's value section; pos is where the next value
	// starts in it (in bits for PLAIN booleans).
	values []byte
	pos    int
	// idx decodes dictionary indexes or RLE booleans once started.
	idx *rle.Decoder
	// held is what the open page holds of the decoder's budget.
	held int64
}

// resumable reports whether values of enc can be decoded a part at a time
// at no extra cost; the delta encodings and BYTE_STREAM_SPLIT are decoded
// whole, under the budget.
func resumable(enc meta.Encoding) bool {
	switch enc {
	case meta.Plain, meta.PlainDictionary, meta.RLEDictionary, meta.RLE:
		return true
	}
	return false
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

// decodeSlice appends the next n values of the open page, whose encoding
// resumes.
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
			c.idx = rle.NewDecoder(data[1:], width)
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
			c.idx = rle.NewDecoder(data[4:4+l], 1)
		}
		idx, err := d.indexes(c, n, "the page's run-length booleans")
		if err != nil {
			return err
		}
		for _, b := range idx {
			v.Bool = append(v.Bool, b != 0)
		}
		return nil
	}
	return fmt.Errorf("%w: encoding %s", ErrUnsupported, c.enc)
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
