package compress

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/snappy"

	"github.com/pqsql/pqsql/format/meta"
)

// streamOf serves b as a page's stream, a few bytes a read, so that every
// element of a block is met split across reads.
func streamOf(b []byte) Reader {
	return bufio.NewReaderSize(iotest.HalfReader(bytes.NewReader(b)), 16)
}

// TestDecompressStreamMatchesDecompress decodes what the SNAPPY encoder
// writes, of data with and without repeats, as Decompress does.
func TestDecompressStreamMatchesDecompress(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{0, 1, 5, 60, 61, 300, 4096, 70000, 1 << 20} {
		for _, kind := range []string{"words", "random", "run"} {
			var p []byte
			switch kind {
			case "words":
				p = sample(n)
			case "random":
				p = make([]byte, n)
				for i := range p {
					p[i] = byte(r.Uint32())
				}
			case "run":
				p = bytes.Repeat([]byte{'a', 'b', 'c'}, n/3+1)[:n]
			}
			enc := snappy.Encode(nil, p)
			want, err := Decompress(meta.Snappy, nil, enc, n)
			if err != nil {
				t.Fatalf("%s %d: Decompress: %v", kind, n, err)
			}
			got, err := DecompressStream(meta.Snappy, nil, streamOf(enc), len(enc), n)
			if err != nil {
				t.Fatalf("%s %d: DecompressStream: %v", kind, n, err)
			}
			if !bytes.Equal(got, want) || !bytes.Equal(got, p) {
				t.Fatalf("%s %d: decoded bytes differ", kind, n)
			}
			got, err = DecompressStream(meta.Uncompressed, make([]byte, 0, n), streamOf(p), n, n)
			if err != nil || !bytes.Equal(got, p) {
				t.Fatalf("%s %d: UNCOMPRESSED: %v", kind, n, err)
			}
		}
	}
}

// TestDecompressStreamEveryElement decodes a block written by hand with
// every element the format has, which the encoder above never writes all
// of: literals with one to four length bytes and copies with one, two and
// four offset bytes, overlapping their output.
func TestDecompressStreamEveryElement(t *testing.T) {
	var blk, want []byte
	lit := func(n int) {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(i*7 + len(want))
		}
		switch x := n - 1; {
		case x < 60:
			blk = append(blk, byte(x<<2))
		case x < 1<<8:
			blk = append(blk, 60<<2, byte(x))
		case x < 1<<16:
			blk = append(blk, 61<<2, byte(x), byte(x>>8))
		case x < 1<<24:
			blk = append(blk, 62<<2, byte(x), byte(x>>8), byte(x>>16))
		default:
			blk = append(blk, 63<<2, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
		}
		blk = append(blk, p...)
		want = append(want, p...)
	}
	cp := func(kind, offset, length int) {
		switch kind {
		case 1:
			blk = append(blk, byte(offset>>8)<<5|byte(length-4)<<2|1, byte(offset))
		case 2:
			blk = append(blk, byte(length-1)<<2|2, byte(offset), byte(offset>>8))
		case 4:
			blk = append(blk, byte(length-1)<<2|3, byte(offset), byte(offset>>8), byte(offset>>16), byte(offset>>24))
		}
		for range length {
			want = append(want, want[len(want)-offset])
		}
	}
	lit(3)
	cp(1, 3, 11) // overlapping: repeats the 3 bytes
	lit(60)
	lit(200)
	lit(2000)
	cp(1, 2047, 4)
	lit(70000)
	cp(2, 65535, 64)
	cp(2, 1, 40)
	lit(1 << 16)
	lit(1<<16 + 1)
	lit(1<<24 + 3)
	cp(4, 1<<24+100, 64)
	cp(4, 5, 20)
	block := binary.AppendUvarint(nil, uint64(len(want)))
	block = append(block, blk...)
	got, err := DecompressStream(meta.Snappy, nil, streamOf(block), len(block), len(want))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("decoded bytes differ")
	}
	if ref, err := snappy.Decode(nil, block); err != nil || !bytes.Equal(ref, want) {
		t.Fatalf("the reference decoder disagrees with the block written: %v", err)
	}
}

// TestDecompressStreamRefusesWhatDecompressRefuses: on blocks cut short,
// with bytes changed and with bytes added, the streaming decoder fails
// where the reference one does and decodes the same bytes where it
// succeeds. The reference reads S2, SNAPPY's superset, which gives a copy
// from offset 0 a meaning; only there may it decode what the stream
// refuses.
func TestDecompressStreamRefusesWhatDecompressRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	p := sample(5000)
	enc := snappy.Encode(nil, p)
	for i := range 3000 {
		b := bytes.Clone(enc)
		switch i % 3 {
		case 0:
			b = b[:r.IntN(len(b))]
		case 1:
			for range 1 + r.IntN(3) {
				b[r.IntN(len(b))] = byte(r.Uint32())
			}
		case 2:
			b = append(b, byte(r.Uint32()), byte(r.Uint32()))
		}
		want, wantErr := Decompress(meta.Snappy, nil, b, len(p))
		got, err := DecompressStream(meta.Snappy, nil, streamOf(b), len(b), len(p))
		if err != nil && wantErr == nil && errors.Is(err, errRepeat) {
			continue
		}
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("case %d: DecompressStream: %v, Decompress: %v", i, err, wantErr)
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSizeMismatch) {
				t.Fatalf("case %d: %v wraps neither ErrCorrupt nor ErrSizeMismatch", i, err)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: decoded bytes differ", i)
		}
	}
}

// TestDecompressStreamErrors: sizes that cannot be, codecs that do not
// stream, and a reader that fails, whose error is returned as it is and not
// taken for corrupt data.
func TestDecompressStreamErrors(t *testing.T) {
	enc := snappy.Encode(nil, sample(1000))
	if _, err := DecompressStream(meta.Snappy, nil, streamOf(enc), len(enc), 999); !errors.Is(err, ErrSizeMismatch) {
		t.Errorf("size one short: %v", err)
	}
	if _, err := DecompressStream(meta.Snappy, nil, streamOf(enc), 10, 1000); !errors.Is(err, ErrCorrupt) {
		t.Errorf("inflating past the codec's ratio: %v", err)
	}
	if _, err := DecompressStream(meta.Zstd, nil, streamOf(enc), len(enc), 1000); !errors.Is(err, ErrUnsupportedCodec) {
		t.Errorf("ZSTD: %v", err)
	}
	if _, err := DecompressStream(meta.Uncompressed, nil, streamOf(make([]byte, 11)), 11, 10); !errors.Is(err, ErrSizeMismatch) {
		t.Errorf("UNCOMPRESSED of a byte more: %v", err)
	}
	boom := errors.New("the disk failed")
	for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Uncompressed} {
		in := enc
		if codec == meta.Uncompressed {
			in = sample(1000)
		}
		failing := bufio.NewReaderSize(iotest.ErrReader(boom), 16)
		if len(in) > 100 {
			failing = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(in[:100]), iotest.ErrReader(boom)), 16)
		}
		_, err := DecompressStream(codec, nil, failing, len(in), 1000)
		if !errors.Is(err, boom) || errors.Is(err, ErrCorrupt) {
			t.Errorf("%v: a failing reader gave %v", codec, err)
		}
	}
}
