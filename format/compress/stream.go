package compress

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/pqsql/pqsql/format/meta"
)

// A Reader yields a page's compressed bytes, then io.EOF.
type Reader interface {
	io.Reader
	io.ByteReader
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

// DecompressStream is Decompress for a page whose compressedSize bytes r
// yields: it reads them as it decodes, into dst when its capacity
// suffices, and reads r to its end. It promises what Decompress promises;
// a codec Streams does not report fails with ErrUnsupportedCodec.
func DecompressStream(codec meta.CompressionCodec, dst []byte, r Reader, compressedSize, uncompressedSize int) ([]byte, error) {
	if uncompressedSize < 0 || compressedSize < 0 {
		return nil, fmt.Errorf("compress: %v: %w: negative size (compressed %d, uncompressed %d)", codec, ErrSizeMismatch, compressedSize, uncompressedSize)
	}
	if !Streams(codec) {
		return nil, unsupportedError{codec}
	}
	if codec == meta.Snappy && uncompressedSize > maxSnappyRatio*compressedSize+maxSnappyRatio {
		return nil, fmt.Errorf("compress: %v: %w: %d bytes cannot inflate to %d", codec, ErrCorrupt, compressedSize, uncompressedSize)
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
		err = readStreamExactly(r, out)
	default:
		err = decodeSnappyStream(out, r)
	}
	if err != nil {
		return nil, fmt.Errorf("compress: %v: %w", codec, err)
	}
	return out, nil
}

// errSnappy is the codec's complaint about its own stream; errRepeat about
// a copy from offset 0, which S2, a superset of SNAPPY that Decompress's
// decoder also reads, takes for a repeat of the last offset.
var (
	errSnappy = errors.New("snappy: corrupt input")
	errRepeat = errors.New("snappy: copy from offset 0")
)

// decodeSnappyStream decodes a SNAPPY block (the format's raw block, not its
// framing) from r into exactly out. The block is a varint of its decoded
// length and elements, each a literal run or a copy of earlier output;
// copies reach back into out, so out is the only state kept.
func decodeSnappyStream(out []byte, r Reader) error {
	n, err := readUvarint(r)
	if err != nil {
		return err
	}
	if n != uint64(len(out)) {
		return fmt.Errorf("%w: got %d bytes, want %d", ErrSizeMismatch, n, len(out))
	}
	var b [4]byte
	d := 0
	for {
		tag, err := r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		var length, offset int
		switch tag & 3 {
		case 0:
			x := int(tag >> 2)
			if x >= 60 {
				// The run's length minus one follows, in 1 to 4 bytes.
				k := x - 59
				b = [4]byte{}
				if _, err := io.ReadFull(r, b[:k]); err != nil {
					return streamErr(err)
				}
				x = int(binary.LittleEndian.Uint32(b[:]))
			}
			length = x + 1
			if length > len(out)-d {
				return corrupt(errSnappy)
			}
			if _, err := io.ReadFull(r, out[d:d+length]); err != nil {
				return streamErr(err)
			}
			d += length
			continue
		case 1:
			c, err := r.ReadByte()
			if err != nil {
				return streamErr(err)
			}
			length = 4 + int(tag>>2)&7
			offset = int(tag&0xe0)<<3 | int(c)
		case 2:
			if _, err := io.ReadFull(r, b[:2]); err != nil {
				return streamErr(err)
			}
			length = 1 + int(tag>>2)
			offset = int(binary.LittleEndian.Uint16(b[:2]))
		case 3:
			if _, err := io.ReadFull(r, b[:4]); err != nil {
				return streamErr(err)
			}
			length = 1 + int(tag>>2)
			offset = int(binary.LittleEndian.Uint32(b[:]))
		}
		if offset == 0 {
			return corrupt(errRepeat)
		}
		if offset > d || length > len(out)-d {
			return corrupt(errSnappy)
		}
		if offset >= length {
			copy(out[d:d+length], out[d-offset:])
		} else {
			// The copy overlaps its own output: a run repeats.
			for i := d; i < d+length; i++ {
				out[i] = out[i-offset]
			}
		}
		d += length
	}
	if d != len(out) {
		return corrupt(errSnappy)
	}
	return nil
}

// readUvarint reads the block's varint preamble.
func readUvarint(r Reader) (uint64, error) {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c, err := r.ReadByte()
		if err != nil {
			return 0, streamErr(err)
		}
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, corrupt(errSnappy)
}

// streamErr is the error for a read of the stream that failed: the stream
// ending early is the codec's complaint, any other failure the reader's.
func streamErr(err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return corrupt(errSnappy)
	}
	return err
}

// readStreamExactly fills out from r and checks that r then ends; a
// failure of r itself is returned as it is.
func readStreamExactly(r Reader, out []byte) error {
	n, err := io.ReadFull(r, out)
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: data ends after %d bytes, want %d", ErrSizeMismatch, n, len(out))
	case err != nil:
		return err
	}
	switch _, err := r.ReadByte(); {
	case err == nil:
		return fmt.Errorf("%w: data continues past %d bytes", ErrSizeMismatch, len(out))
	case err != io.EOF:
		return err
	}
	return nil
}
