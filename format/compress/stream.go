package compress

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/pqsql/pqsql/format/meta"
)

// A Stream is a page's compressed bytes, buffered a window at a time.
type Stream interface {
	// Buffer returns the bytes buffered, reading more first when fewer
	// than n are (n is at most 5, and the window at least that): fewer
	// than n only with the error that stopped it, io.EOF at the stream's
	// end.
	Buffer(n int) ([]byte, error)
	// Discard drops the first n bytes buffered, which are done with.
	Discard(n int)
}

// Streams reports whether DecompressStream decodes codec: pages of the
// codecs whose data can be decoded as it arrives, with no state beyond the
// output, so that a page's compressed bytes need never be held whole.
func Streams(codec meta.CompressionCodec) bool {
	return codec == meta.Uncompressed || codec == meta.Snappy
}

// maxSnappyRatio bounds how far SNAPPY inflates: a copy of 64 bytes costs
// three bytes of input.
const maxSnappyRatio = 22

// DecompressStream is Decompress for a page whose compressedSize bytes st
// holds: it decodes them as they are buffered, into dst when its capacity
// suffices, and takes st to its end. It promises what Decompress promises;
// a codec Streams does not report fails with ErrUnsupportedCodec. A
// failure of st itself is returned as it is.
func DecompressStream(codec meta.CompressionCodec, dst []byte, st Stream, compressedSize, uncompressedSize int) ([]byte, error) {
	// Sizes that cannot be are refused before the output is allocated.
	if err := StreamSizes(codec, compressedSize, uncompressedSize); err != nil {
		return nil, err
	}
	out := dst[:0]
	if cap(out) < uncompressedSize {
		out = make([]byte, uncompressedSize)
	}
	out = out[:uncompressedSize]
	var err error
	switch {
	case uncompressedSize == 0 && compressedSize == 0:
		// An empty page may hold no codec stream at all.
	case codec == meta.Uncompressed:
		err = copyStream(out, st)
	default:
		err = decodeSnappyStream(out, st)
	}
	if err != nil {
		return nil, fmt.Errorf("compress: %v: %w", codec, err)
	}
	return out, nil
}

// StreamSizes fails, as DecompressStream would before it allocates, when
// a page of compressedSize bytes in codec cannot decode to
// uncompressedSize bytes or codec does not stream: a caller with a buffer
// to lend asks first.
func StreamSizes(codec meta.CompressionCodec, compressedSize, uncompressedSize int) error {
	switch {
	case uncompressedSize < 0 || compressedSize < 0:
		return fmt.Errorf("compress: %v: %w: negative size (compressed %d, uncompressed %d)", codec, ErrSizeMismatch, compressedSize, uncompressedSize)
	case !Streams(codec):
		return unsupportedError{codec}
	case codec == meta.Snappy && uncompressedSize > maxSnappyRatio*compressedSize+maxSnappyRatio:
		return fmt.Errorf("compress: %v: %w: %d bytes cannot inflate to %d", codec, ErrCorrupt, compressedSize, uncompressedSize)
	case codec == meta.Uncompressed && compressedSize != uncompressedSize:
		return fmt.Errorf("compress: %v: %w", codec, sizeError(compressedSize, uncompressedSize))
	}
	return nil
}

// errSnappy is the codec's complaint about its own stream; errRepeat about
// a copy from offset 0, which S2, a superset of SNAPPY that Decompress's
// decoder also reads, takes for a repeat of the last offset.
var (
	errSnappy = errors.New("snappy: corrupt input")
	errRepeat = errors.New("snappy: copy from offset 0")
)

var le = binary.LittleEndian

// maxElementHeader is the most bytes a SNAPPY element takes before its
// literal bytes, if any: a tag and four bytes of length or offset.
const maxElementHeader = 5

// decodeSnappyStream decodes a SNAPPY block (the format's raw block, not its
// framing) from st into exactly out. The block is a varint of its decoded
// length and elements, each a literal run or a copy of earlier output;
// copies reach back into out, so out is the only state kept. Elements are
// decoded from the bytes buffered, which are refilled whenever fewer than
// an element's header remain.
func decodeSnappyStream(out []byte, st Stream) error {
	// A page's size, an int32, takes at most five bytes of varint.
	in, err := st.Buffer(maxElementHeader)
	n, k := binary.Uvarint(in)
	if k <= 0 {
		return streamErr(err)
	}
	if n != uint64(len(out)) {
		return fmt.Errorf("%w: got %d bytes, want %d", ErrSizeMismatch, n, len(out))
	}
	s, d := k, 0
	for {
		if len(in)-s < maxElementHeader && err == nil {
			st.Discard(s)
			in, err = st.Buffer(maxElementHeader)
			s = 0
			if err != nil && err != io.EOF {
				return err
			}
		}
		if s == len(in) {
			if err == io.EOF {
				break
			}
			return streamErr(err)
		}
		tag := in[s]
		var length, offset int
		switch tag & 3 {
		case 0:
			x := int(tag >> 2)
			s++
			if x >= 60 {
				// The run's length minus one follows, in 1 to 4 bytes.
				k := x - 59
				if len(in)-s < k {
					return corrupt(errSnappy)
				}
				x = 0
				for i := k - 1; i >= 0; i-- {
					x = x<<8 | int(in[s+i])
				}
				s += k
			}
			length = x + 1
			if length > len(out)-d {
				return corrupt(errSnappy)
			}
			if length <= 16 && len(in)-s >= 16 && len(out)-d >= 16 {
				// A short run in two words; what they write past it is
				// written again by the elements after.
				le.PutUint64(out[d:], le.Uint64(in[s:]))
				le.PutUint64(out[d+8:], le.Uint64(in[s+8:]))
				d, s = d+length, s+length
				continue
			}
			for length > 0 {
				if s == len(in) {
					if err != nil {
						return streamErr(err)
					}
					st.Discard(s)
					in, err = st.Buffer(1)
					s = 0
					if err != nil && err != io.EOF {
						return err
					}
					continue
				}
				c := copy(out[d:d+length], in[s:])
				d, s, length = d+c, s+c, length-c
			}
			continue
		case 1:
			if len(in)-s < 2 {
				return corrupt(errSnappy)
			}
			length = 4 + int(tag>>2)&7
			offset = int(tag&0xe0)<<3 | int(in[s+1])
			s += 2
		case 2:
			if len(in)-s < 3 {
				return corrupt(errSnappy)
			}
			length = 1 + int(tag>>2)
			offset = int(binary.LittleEndian.Uint16(in[s+1:]))
			s += 3
		case 3:
			if len(in)-s < 5 {
				return corrupt(errSnappy)
			}
			length = 1 + int(tag>>2)
			offset = int(binary.LittleEndian.Uint32(in[s+1:]))
			s += 5
		}
		if offset == 0 {
			return corrupt(errRepeat)
		}
		if offset > d || length > len(out)-d {
			return corrupt(errSnappy)
		}
		switch {
		case offset >= 8 && len(out)-d >= length+8:
			// A word at a time: each reads bytes already final, however
			// the copy overlaps its output.
			for i := d; i < d+length; i += 8 {
				le.PutUint64(out[i:], le.Uint64(out[i-offset:]))
			}
		case offset >= length:
			copy(out[d:d+length], out[d-offset:])
		default:
			// The copy overlaps its own output: a run repeats.
			for i := d; i < d+length; i++ {
				out[i] = out[i-offset]
			}
		}
		d += length
	}
	st.Discard(s)
	if d != len(out) {
		return corrupt(errSnappy)
	}
	return nil
}

// streamErr is the error for a stream that stopped: ending early is the
// codec's complaint, any other failure the stream's.
func streamErr(err error) error {
	if err == nil || err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return corrupt(errSnappy)
	}
	return err
}

// copyStream fills out from st and checks that st then ends.
func copyStream(out []byte, st Stream) error {
	d := 0
	for {
		in, err := st.Buffer(1)
		c := copy(out[d:], in)
		st.Discard(c)
		d += c
		switch {
		case c < len(in):
			return fmt.Errorf("%w: data continues past %d bytes", ErrSizeMismatch, len(out))
		case err == io.EOF && len(in) == 0:
			if d < len(out) {
				return fmt.Errorf("%w: data ends after %d bytes, want %d", ErrSizeMismatch, d, len(out))
			}
			return nil
		case err != nil && err != io.EOF:
			return err
		}
	}
}
