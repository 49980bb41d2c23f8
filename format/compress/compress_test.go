package compress

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/pqsql/pqsql/format/meta"
)

// sample returns n bytes that compress but not trivially.
func sample(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	words := []string{"parquet ", "page ", "column ", "row ", "group ", "0123 ", "zstd "}
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		if r.IntN(8) == 0 {
			b.WriteByte(byte(r.Uint32()))
		}
	}
	return b.Bytes()[:n]
}

func gzipOf(p []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func zlibOf(p []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func brotliOf(p []byte) []byte {
	var b bytes.Buffer
	w := brotli.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func zstdOf(p []byte) []byte {
	enc, _ := zstd.NewWriter(nil)
	defer enc.Close()
	return enc.EncodeAll(p, nil)
}

// zstdStreamOf writes a frame without a content size.
func zstdStreamOf(p []byte) []byte {
	var b bytes.Buffer
	enc, _ := zstd.NewWriter(&b)
	enc.Write(p)
	enc.Close()
	return b.Bytes()
}

func lz4BlockOf(p []byte) []byte {
	out := make([]byte, lz4.CompressBlockBound(len(p)))
	n, err := lz4.CompressBlock(p, out, nil)
	if err != nil {
		panic(err)
	}
	if n == 0 { // incompressible: emit one literal run by hand
		return lz4Literal(p)
	}
	return out[:n]
}

// lz4Literal encodes p as a single LZ4 literal sequence.
func lz4Literal(p []byte) []byte {
	var b []byte
	l := len(p)
	if l < 15 {
		b = append(b, byte(l<<4))
	} else {
		b = append(b, 0xf0)
		for l -= 15; l >= 255; l -= 255 {
			b = append(b, 255)
		}
		b = append(b, byte(l))
	}
	return append(b, p...)
}

func lz4FrameOf(p []byte) []byte {
	var b bytes.Buffer
	w := lz4.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

// hadoopOf frames p as Hadoop's BlockCompressorStream does, in blocks of
// blockSize bytes, each split into chunks of chunkSize.
func hadoopOf(p []byte, blockSize, chunkSize int) []byte {
	var out []byte
	for first := true; first || len(p) > 0; first = false {
		block := p[:min(blockSize, len(p))]
		p = p[len(block):]
		out = binary.BigEndian.AppendUint32(out, uint32(len(block)))
		for firstChunk := true; firstChunk || len(block) > 0; firstChunk = false {
			chunk := block[:min(chunkSize, len(block))]
			block = block[len(chunk):]
			c := lz4BlockOf(chunk)
			out = binary.BigEndian.AppendUint32(out, uint32(len(c)))
			out = append(out, c...)
		}
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	for _, size := range []int{0, 1, 1000, 300_000} {
		p := sample(size)
		g := gzipOf(p[:size/2])
		tests := []struct {
			name  string
			codec meta.CompressionCodec
			src   []byte
		}{
			{"uncompressed", meta.Uncompressed, p},
			{"snappy", meta.Snappy, snappy.Encode(nil, p)},
			{"gzip", meta.Gzip, gzipOf(p)},
			{"gzip two members", meta.Gzip, append(g[:len(g):len(g)], gzipOf(p[size/2:])...)},
			{"gzip holding zlib", meta.Gzip, zlibOf(p)},
			{"brotli", meta.Brotli, brotliOf(p)},
			{"zstd", meta.Zstd, zstdOf(p)},
			{"zstd two frames", meta.Zstd, append(zstdOf(p[:size/2]), zstdOf(p[size/2:])...)},
			{"zstd without content size", meta.Zstd, zstdStreamOf(p)},
			{"lz4 raw", meta.LZ4Raw, lz4BlockOf(p)},
			{"lz4 hadoop", meta.LZ4, hadoopOf(p, 1<<30, 1<<30)},
			{"lz4 hadoop blocks", meta.LZ4, hadoopOf(p, 777, 1<<30)},
			{"lz4 hadoop chunks", meta.LZ4, hadoopOf(p, 1<<30, 500)},
			{"lz4 raw block fallback", meta.LZ4, lz4BlockOf(p)},
			{"lz4 frame fallback", meta.LZ4, lz4FrameOf(p)},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%d", tt.name, size), func(t *testing.T) {
				got, err := Decompress(tt.codec, nil, tt.src, size)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, p) {
					t.Fatal("output differs")
				}
				// A roomy dst is reused, and the result is exactly sized.
				buf := make([]byte, 10, size+100)
				got, err = Decompress(tt.codec, buf, tt.src, size)
				if err != nil || !bytes.Equal(got, p) || len(got) != size {
					t.Fatalf("with dst: %v", err)
				}
				if size > 0 && &got[0] != &buf[:1][0] {
					t.Fatal("dst not reused")
				}
			})
		}
	}
}

func TestSizeMismatch(t *testing.T) {
	p := sample(5000)
	tests := []struct {
		name  string
		codec meta.CompressionCodec
		src   []byte
		size  int
		want  error
	}{
		{"uncompressed short", meta.Uncompressed, p, 5001, ErrSizeMismatch},
		{"snappy larger", meta.Snappy, snappy.Encode(nil, p), 4999, ErrSizeMismatch},
		{"snappy smaller", meta.Snappy, snappy.Encode(nil, p), 5001, ErrSizeMismatch},
		// The preamble claims 1 GiB: rejected before any allocation.
		{"snappy lying preamble", meta.Snappy, binary.AppendUvarint(nil, 1<<30), 10, ErrSizeMismatch},
		{"gzip larger", meta.Gzip, gzipOf(p), 4999, ErrSizeMismatch},
		{"gzip smaller", meta.Gzip, gzipOf(p), 5001, ErrSizeMismatch},
		{"brotli larger", meta.Brotli, brotliOf(p), 4999, ErrSizeMismatch},
		{"brotli smaller", meta.Brotli, brotliOf(p), 5001, ErrSizeMismatch},
		{"zstd larger", meta.Zstd, zstdOf(p), 4999, ErrSizeMismatch},
		{"zstd smaller", meta.Zstd, zstdOf(p), 5001, ErrSizeMismatch},
		{"zstd stream larger", meta.Zstd, zstdStreamOf(p), 4999, ErrSizeMismatch},
		{"zstd stream smaller", meta.Zstd, zstdStreamOf(p), 5001, ErrSizeMismatch},
		{"lz4 raw smaller", meta.LZ4Raw, lz4BlockOf(p), 5001, ErrSizeMismatch},
		// A raw block too big for the buffer looks like corruption to LZ4.
		{"lz4 raw larger", meta.LZ4Raw, lz4BlockOf(p), 4999, ErrCorrupt},
		{"lz4 frame larger", meta.LZ4, lz4FrameOf(p), 4999, ErrCorrupt},
		{"lz4 hadoop larger", meta.LZ4, hadoopOf(p, 1<<30, 1<<30), 4999, ErrCorrupt},
		{"negative size", meta.Snappy, snappy.Encode(nil, p), -1, ErrSizeMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decompress(tt.codec, nil, tt.src, tt.size)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestCorrupt(t *testing.T) {
	p := sample(5000)
	g := gzipOf(p)
	z := zstdOf(p)
	g2 := bytes.Clone(g)
	g2[len(g2)-6] ^= 0xff // CRC32 of the member
	tests := []struct {
		name  string
		codec meta.CompressionCodec
		src   []byte
		want  error
	}{
		{"snappy garbage", meta.Snappy, []byte{0x80}, ErrCorrupt},
		{"snappy cut", meta.Snappy, snappy.Encode(nil, p)[:100], ErrCorrupt},
		{"gzip garbage", meta.Gzip, []byte("not gzip at all"), ErrCorrupt},
		{"gzip bad checksum", meta.Gzip, g2, ErrCorrupt},
		{"gzip trailer cut", meta.Gzip, g[:len(g)-4], ErrCorrupt},
		{"gzip cut", meta.Gzip, g[:len(g)/2], ErrSizeMismatch},
		{"brotli garbage", meta.Brotli, []byte{0xff, 0xff, 0xff, 0xff}, ErrCorrupt},
		{"zstd garbage", meta.Zstd, []byte("not zstd at all"), ErrCorrupt},
		{"zstd cut", meta.Zstd, z[:len(z)/2], ErrCorrupt},
		{"lz4 raw garbage", meta.LZ4Raw, []byte{0x1f, 0x00, 0xff, 0xff}, ErrCorrupt},
		{"lz4 garbage", meta.LZ4, []byte{0x00, 0x00, 0x13, 0x88, 0x00, 0x00, 0x00, 0x01, 0x1f}, ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decompress(tt.codec, nil, tt.src, 5000)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestUnsupported(t *testing.T) {
	for _, tt := range []struct {
		codec meta.CompressionCodec
		msg   string
	}{
		{meta.LZO, "codec LZO not supported"},
		{99, "codec CompressionCodec(99) not supported"},
		{-1, "codec CompressionCodec(-1) not supported"},
	} {
		_, err := Decompress(tt.codec, nil, []byte{1}, 1)
		if !errors.Is(err, ErrUnsupportedCodec) || err.Error() != tt.msg {
			t.Errorf("%v: err = %v, want %q wrapping ErrUnsupportedCodec", tt.codec, err, tt.msg)
		}
	}
}

// The shared zstd decoder and the reader pools serve goroutines at once.
func TestConcurrent(t *testing.T) {
	p := sample(100_000)
	srcs := map[meta.CompressionCodec][]byte{
		meta.Zstd: zstdOf(p), meta.Gzip: gzipOf(p), meta.Brotli: brotliOf(p), meta.LZ4: lz4FrameOf(p),
	}
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 8 {
		for codec, src := range srcs {
			wg.Go(func() {
				got, err := Decompress(codec, nil, src, len(p))
				if err == nil && !bytes.Equal(got, p) {
					err = fmt.Errorf("goroutine %d %v: output differs", i, codec)
				}
				if err != nil {
					errs <- err
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func FuzzDecompress(f *testing.F) {
	p := sample(300)
	f.Add(uint8(meta.Snappy), snappy.Encode(nil, p), uint16(300))
	f.Add(uint8(meta.Zstd), zstdOf(p), uint16(300))
	f.Add(uint8(meta.LZ4), hadoopOf(p, 100, 50), uint16(300))
	f.Add(uint8(meta.Gzip), gzipOf(p), uint16(300))
	f.Add(uint8(meta.Brotli), brotliOf(p), uint16(300))
	f.Add(uint8(meta.LZ4Raw), lz4BlockOf(p), uint16(300))
	f.Fuzz(func(t *testing.T, codec uint8, src []byte, size uint16) {
		got, err := Decompress(meta.CompressionCodec(codec%8), nil, src, int(size))
		if err == nil && len(got) != int(size) {
			t.Fatalf("got %d bytes, want %d", len(got), size)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSizeMismatch) &&
			!errors.Is(err, ErrUnsupportedCodec) {
			t.Fatalf("error of no kind: %v", err)
		}
	})
}

// A page header claiming a gigabyte does not make a few bytes of a stream
// codec allocate it: the buffer grows with the real output.
func TestClaimedSizeDoesNotAllocate(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("tiny"))
	zw.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Decompress(meta.Gzip, nil, b.Bytes(), 1<<30)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrSizeMismatch) {
		t.Fatalf("want ErrSizeMismatch, got %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("allocated %d bytes for a 4-byte stream claiming 1 GiB", grew)
	}
	if _, err := Decompress(meta.LZ4Raw, nil, []byte{0x10, 'a'}, 1<<30); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("LZ4_RAW claiming 1 GiB from 2 bytes: want ErrCorrupt, got %v", err)
	}
}

// TestLZ4EmptyOutput decodes LZ4 data whose page declares no bytes: the
// library's decoder faults on an empty destination, so each form must give
// an error of its kind (or the empty page), never a crash (found by
// FuzzDecompress).
func TestLZ4EmptyOutput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		codec meta.CompressionCodec
		src   []byte
		ok    bool
	}{
		{"raw block of one literal", meta.LZ4Raw, []byte{0x10, 'a'}, false},
		{"raw empty block", meta.LZ4Raw, []byte{0x00}, true},
		{"deprecated codec, raw block", meta.LZ4, []byte{0x10, 'a'}, false},
		{"Hadoop empty block with a chunk", meta.LZ4, []byte{0, 0, 0, 0, 0, 0, 0, 2, 0x10, 'a'}, false},
		{"fuzzer's input", meta.LZ4, []byte("000000000000000000"), false},
	} {
		got, err := Decompress(tc.codec, nil, tc.src, 0)
		switch {
		case tc.ok && (err != nil || len(got) != 0):
			t.Errorf("%s: %d bytes, %v; want the empty page", tc.name, len(got), err)
		case !tc.ok && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSizeMismatch):
			t.Errorf("%s: %v, want a corrupt or size error", tc.name, err)
		}
	}
}
