package compress

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/pqsql/pqsql/format/meta"
)

// Decompress decompresses src, compressed with codec, into a slice of
// exactly uncompressedSize bytes. It reuses dst's storage when its capacity
// suffices; dst must not overlap src. Output of any other size is an error
// wrapping ErrSizeMismatch; data the codec rejects is one wrapping
// ErrCorrupt. It is safe for concurrent use.
func Decompress(codec meta.CompressionCodec, dst, src []byte, uncompressedSize int) ([]byte, error) {
	if uncompressedSize < 0 {
		return nil, fmt.Errorf("compress: %v: %w: negative uncompressed size %d", codec, ErrSizeMismatch, uncompressedSize)
	}
	var out []byte
	// buffer sizes the output only once a codec's cheap checks passed, so a
	// page header's claimed size alone does not allocate.
	buffer := func() []byte {
		if cap(dst) >= uncompressedSize {
			return dst[:uncompressedSize]
		}
		return make([]byte, uncompressedSize)
	}
	var err error
	switch {
	case codec == meta.LZO || codec < meta.Uncompressed || codec > meta.LZ4Raw:
		return nil, unsupportedError{codec}
	case uncompressedSize == 0 && len(src) == 0:
		// Writers emit empty pages (a v2 page of only levels) without
		// even an empty codec stream.
		return dst[:0], nil
	}
	switch codec {
	case meta.Uncompressed:
		if len(src) != uncompressedSize {
			err = sizeError(len(src), uncompressedSize)
		} else {
			out = buffer()
			copy(out, src)
		}
	case meta.Snappy:
		if n, e := snappy.DecodedLen(src); e != nil || n != uncompressedSize {
			if e != nil {
				err = corrupt(e)
			} else {
				err = sizeError(n, uncompressedSize)
			}
			break
		}
		out = buffer()
		err = decodeSnappy(out, src)
	case meta.Gzip, meta.Brotli:
		// Streams can inflate a thousandfold and more, so the output
		// grows with what the stream really yields, up to the claimed size.
		out, err = decodeStream(codec, dst, src, uncompressedSize)
	case meta.Zstd:
		out, err = decodeZstd(buffer(), src)
	case meta.LZ4Raw:
		if uncompressedSize > maxLZ4Ratio*len(src)+maxLZ4Ratio {
			err = fmt.Errorf("%w: %d bytes cannot inflate to %d", ErrCorrupt, len(src), uncompressedSize)
			break
		}
		out = buffer()
		err = decodeLZ4Block(out, src)
	case meta.LZ4:
		if uncompressedSize > maxLZ4Ratio*len(src)+maxLZ4Ratio {
			err = fmt.Errorf("%w: %d bytes cannot inflate to %d", ErrCorrupt, len(src), uncompressedSize)
			break
		}
		out = buffer()
		err = decodeLZ4(out, src)
	default:
		return nil, unsupportedError{codec}
	}
	if err != nil {
		return nil, fmt.Errorf("compress: %v: %w", codec, err)
	}
	return out, nil
}

// maxLZ4Ratio bounds how far LZ4 can inflate: a match of at most 255 bytes
// per byte of input, plus slack for the format's headers.
const maxLZ4Ratio = 256

// decodeStream reads a GZIP or BROTLI stream into a buffer grown in steps,
// never past size+1 bytes.
func decodeStream(codec meta.CompressionCodec, dst, src []byte, size int) ([]byte, error) {
	const step = 1 << 20
	start := min(size, max(step, 4*len(src)))
	buf := dst[:0]
	if cap(buf) < start {
		buf = make([]byte, 0, start)
	}
	w := growWriter{buf: buf, limit: size}
	var err error
	if codec == meta.Gzip {
		err = decodeGzip(&w, src)
	} else {
		err = decodeBrotli(&w, src)
	}
	if err != nil {
		return nil, err
	}
	if len(w.buf) != size {
		return nil, sizeError(len(w.buf), size)
	}
	return w.buf, nil
}

// growWriter collects output up to limit bytes.
type growWriter struct {
	buf   []byte
	limit int
}

// fill reads r to its end into w, failing once it passes the limit.
func (w *growWriter) fill(r io.Reader) error {
	for {
		if len(w.buf) == cap(w.buf) {
			if len(w.buf) > w.limit {
				return fmt.Errorf("%w: data continues past %d bytes", ErrSizeMismatch, w.limit)
			}
			next := min(max(2*cap(w.buf), 1<<16), w.limit+1)
			grown := make([]byte, len(w.buf), next)
			copy(grown, w.buf)
			w.buf = grown
		}
		n, err := r.Read(w.buf[len(w.buf):cap(w.buf)])
		w.buf = w.buf[:len(w.buf)+n]
		if err == io.EOF {
			if len(w.buf) > w.limit {
				return fmt.Errorf("%w: data continues past %d bytes", ErrSizeMismatch, w.limit)
			}
			return nil
		}
		if errors.Is(err, io.ErrUnexpectedEOF) && len(w.buf) < w.limit {
			return fmt.Errorf("%w: data ends after %d bytes, want %d", ErrSizeMismatch, len(w.buf), w.limit)
		}
		if err != nil {
			return corrupt(err)
		}
	}
}

func sizeError(got, want int) error {
	return fmt.Errorf("%w: got %d bytes, want %d", ErrSizeMismatch, got, want)
}

func corrupt(err error) error { return fmt.Errorf("%w: %w", ErrCorrupt, err) }

// decodeSnappy checks the size in the block's preamble before decoding, so
// a lying preamble is caught without work.
func decodeSnappy(out, src []byte) error {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return corrupt(err)
	}
	if n != len(out) {
		return sizeError(n, len(out))
	}
	got, err := snappy.Decode(out, src)
	if err != nil {
		return corrupt(err)
	}
	if len(got) != len(out) {
		return sizeError(len(got), len(out))
	}
	return nil
}

// readExactly fills out from r and then checks r is at its end, reading at
// most one byte more than out holds. Reading to the end also makes
// streaming codecs verify their trailing checksums.
func readExactly(r io.Reader, out []byte) error {
	n, err := io.ReadFull(r, out)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: data ends after %d bytes, want %d", ErrSizeMismatch, n, len(out))
	case err != nil:
		return corrupt(err)
	}
	var one [1]byte
	switch n, err := io.ReadFull(r, one[:]); {
	case n > 0:
		return fmt.Errorf("%w: data continues past %d bytes", ErrSizeMismatch, len(out))
	case err != io.EOF:
		return corrupt(err)
	}
	return nil
}

var (
	gzipReaders   sync.Pool // *gzip.Reader
	brotliReaders sync.Pool // *brotli.Reader
	lz4Readers    sync.Pool // *lz4.Reader
)

// decodeGzip reads all concatenated gzip members, which some writers emit
// for one page. Like Arrow, it also accepts a zlib stream, which other
// writers have put in GZIP pages.
func decodeGzip(out *growWriter, src []byte) error {
	if len(src) >= 2 && isZlib(src) {
		zr, err := zlib.NewReader(bytes.NewReader(src))
		if err != nil {
			return corrupt(err)
		}
		defer zr.Close()
		return out.fill(zr)
	}
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(bytes.NewReader(src))
	} else {
		err = zr.Reset(bytes.NewReader(src))
	}
	if err != nil {
		return corrupt(err)
	}
	err = out.fill(zr)
	gzipReaders.Put(zr)
	return err
}

// isZlib reports whether src starts with a valid zlib header: deflate
// method and a header checksum divisible by 31.
func isZlib(src []byte) bool {
	return src[0]&0x0f == 8 && src[0]>>4 <= 7 && (uint16(src[0])<<8|uint16(src[1]))%31 == 0
}

func decodeBrotli(out *growWriter, src []byte) error {
	br, _ := brotliReaders.Get().(*brotli.Reader)
	if br == nil {
		br = brotli.NewReader(bytes.NewReader(src))
	} else if err := br.Reset(bytes.NewReader(src)); err != nil {
		return corrupt(err)
	}
	err := out.fill(br)
	brotliReaders.Put(br)
	return err
}

// zstdMaxMemory bounds what the shared decoder may allocate for one call;
// the cap limit below is the tighter bound in practice.
const zstdMaxMemory = 1 << 31

var (
	zstdOnce    sync.Once
	zstdDecoder *zstd.Decoder
	zstdInitErr error
)

// decodeZstd decodes with one shared decoder; DecodeAll is safe for
// concurrent use. The cap limit stops decoding once output passes
// len(out), so a frame that lies about, or omits, its size cannot make it
// allocate beyond what the page header declared.
func decodeZstd(out, src []byte) ([]byte, error) {
	zstdOnce.Do(func() {
		zstdDecoder, zstdInitErr = zstd.NewReader(nil,
			// One decoder per core, so parallel row groups do not queue.
			zstd.WithDecoderConcurrency(0),
			zstd.WithDecoderMaxMemory(zstdMaxMemory),
			zstd.WithDecodeAllCapLimit(true))
	})
	if zstdInitErr != nil {
		return nil, zstdInitErr
	}
	got, err := zstdDecoder.DecodeAll(src, out[:0:len(out)])
	switch {
	case errors.Is(err, zstd.ErrDecoderSizeExceeded):
		return nil, fmt.Errorf("%w: data continues past %d bytes", ErrSizeMismatch, len(out))
	case err != nil:
		return nil, corrupt(err)
	case len(got) != len(out):
		return nil, sizeError(len(got), len(out))
	}
	return got, nil
}

// decodeLZ4Block decodes one raw LZ4 block into exactly out. A block that
// would decode to more does not fit and is reported by the library as a
// short buffer.
func decodeLZ4Block(out, src []byte) error {
	n, err := uncompressBlock(src, out)
	if err != nil {
		return corrupt(err)
	}
	if n != len(out) {
		return sizeError(n, len(out))
	}
	return nil
}

// uncompressBlock is lz4.UncompressBlock, whose decoder faults on an empty
// destination: there it decodes into scratch, so that any byte produced
// shows as a size mismatch.
func uncompressBlock(src, dst []byte) (int, error) {
	if len(dst) == 0 {
		var scratch [16]byte
		return lz4.UncompressBlock(src, scratch[:])
	}
	return lz4.UncompressBlock(src, dst)
}

// lz4FrameMagic starts an LZ4 frame, little-endian 0x184D2204.
var lz4FrameMagic = []byte{0x04, 0x22, 0x4d, 0x18}

// decodeLZ4 decodes the deprecated LZ4 codec, which writers have filled
// three ways: Hadoop's block framing (parquet-mr), a raw LZ4 block (old
// parquet-cpp) and an LZ4 frame. Arrow C++ tries them in that order, since
// the Hadoop framing is checked so tightly that other data almost never
// passes for it.
func decodeLZ4(out, src []byte) error {
	if decodeHadoop(out, src) {
		return nil
	}
	if bytes.HasPrefix(src, lz4FrameMagic) {
		if err := decodeLZ4Frame(out, src); err == nil {
			return nil
		}
	}
	if err := decodeLZ4Block(out, src); err != nil {
		return fmt.Errorf("not Hadoop-framed, an LZ4 frame or a raw LZ4 block: %w", err)
	}
	return nil
}

// decodeHadoop decodes Hadoop's BlockCompressorStream framing: blocks of a
// 4-byte big-endian decompressed length followed by chunks, each a 4-byte
// big-endian compressed length and a raw LZ4 block, until the block's
// length is reached. It reports whether src was exactly that and filled
// out exactly.
func decodeHadoop(out, src []byte) bool {
	be32 := func(b []byte) int { return int(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])) }
	o := 0
	for len(src) > 0 {
		if len(src) < 4 {
			return false
		}
		blockEnd := o + be32(src)
		src = src[4:]
		if blockEnd > len(out) || blockEnd < o {
			return false
		}
		// An empty block still carries one chunk, as Arrow writes it.
		for first := true; first || o < blockEnd; first = false {
			if len(src) < 4 {
				return false
			}
			c := be32(src)
			src = src[4:]
			if c > len(src) {
				return false
			}
			n, err := uncompressBlock(src[:c], out[o:blockEnd])
			if err != nil || (n == 0 && o < blockEnd) {
				return false
			}
			o += n
			src = src[c:]
		}
	}
	return o == len(out)
}

func decodeLZ4Frame(out, src []byte) error {
	zr, _ := lz4Readers.Get().(*lz4.Reader)
	if zr == nil {
		zr = lz4.NewReader(bytes.NewReader(src))
	} else {
		zr.Reset(bytes.NewReader(src))
	}
	err := readExactly(zr, out)
	lz4Readers.Put(zr)
	return err
}
