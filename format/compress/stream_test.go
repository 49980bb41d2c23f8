package compress

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/snappy"

	"github.com/pqsql/pqsql/format/meta"
)

// A sliceStream serves b as a page's stream through a window of a few
// bytes, filled no further than asked, so that every element of a block is
// met split across refills; after failAt bytes it fails with fail.
type sliceStream struct {
	b              []byte
	pos, buffered  int
	window, failAt int
	fail           error
	// greedy fills the window whenever it refills, as a reader of a
	// file does.
	greedy bool
}

func streamOf(b []byte) *sliceStream { return &sliceStream{b: b, window: 16, failAt: -1} }

func (s *sliceStream) Buffer(n int) ([]byte, error) {
	want := min(max(n, s.buffered), s.window)
	if s.greedy && s.buffered < n {
		want = s.window
	}
	end := min(s.pos+want, len(s.b))
	if s.failAt >= 0 && end > s.failAt {
		end = max(s.failAt, s.pos+s.buffered)
		s.buffered = end - s.pos
		return s.b[s.pos:end], s.fail
	}
	s.buffered = end - s.pos
	if s.buffered < n {
		return s.b[s.pos:end], io.EOF
	}
	return s.b[s.pos:end], nil
}

func (s *sliceStream) Discard(n int) {
	if n > s.buffered {
		panic("discarding bytes not buffered")
	}
	s.pos += n
	s.buffered -= n
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
			for _, window := range []int{5, 16, 1 << 16} {
				st := streamOf(enc)
				st.window, st.greedy = window, window > 16
				got, err := DecompressStream(meta.Snappy, nil, st, len(enc), n)
				if err != nil {
					t.Fatalf("%s %d, window %d: DecompressStream: %v", kind, n, window, err)
				}
				if !bytes.Equal(got, want) || !bytes.Equal(got, p) {
					t.Fatalf("%s %d, window %d: decoded bytes differ", kind, n, window)
				}
			}
			got, err := DecompressStream(meta.Uncompressed, make([]byte, 0, n), streamOf(p), n, n)
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
		for _, at := range []int{0, 1, 100} {
			st := streamOf(in)
			st.failAt, st.fail = at, boom
			_, err := DecompressStream(codec, nil, st, len(in), 1000)
			if !errors.Is(err, boom) || errors.Is(err, ErrCorrupt) {
				t.Errorf("%v: a stream failing after %d bytes gave %v", codec, at, err)
			}
		}
	}
}

// BenchmarkSnappyStream decodes a dictionary page of 120k distinct int64s
// streamed through a 64 KiB window, beside Decompress of the page whole.
func BenchmarkSnappyStream(b *testing.B) {
	var p []byte
	for i := range 120000 {
		p = binary.LittleEndian.AppendUint64(p, uint64(i*7919%1000003))
	}
	enc := snappy.Encode(nil, p)
	out := make([]byte, len(p))
	b.Run("stream", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			st := streamOf(enc)
			st.window, st.greedy = 64<<10, true
			if _, err := DecompressStream(meta.Snappy, out, st, len(enc), len(p)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			if _, err := Decompress(meta.Snappy, out, enc, len(p)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzSnappyStream: whatever the block, the streaming decoder, through
// windows of any size, decodes what the reference decoder decodes or
// refuses it; it refuses every block the reference refuses, and decodes
// what the reference does where both succeed.
func FuzzSnappyStream(f *testing.F) {
	f.Add(snappy.Encode(nil, sample(300)), 300, 5)
	f.Add(snappy.Encode(nil, bytes.Repeat([]byte("ab"), 100)), 200, 7)
	f.Add([]byte{0x05, 0x10, 'h', 'e', 'l', 'l', 'o'}, 5, 64)
	f.Fuzz(func(t *testing.T, block []byte, size, window int) {
		if size < 0 || size > 1<<16 || window < 5 || window > 1<<12 {
			return
		}
		want, wantErr := Decompress(meta.Snappy, nil, block, size)
		st := streamOf(block)
		st.window, st.greedy = window, window%2 == 0
		got, err := DecompressStream(meta.Snappy, nil, st, len(block), size)
		switch {
		case err != nil && wantErr == nil && !errors.Is(err, errRepeat):
			t.Fatalf("refused what the reference decodes: %v", err)
		case err == nil && wantErr != nil:
			t.Fatalf("decoded what the reference refuses (%v)", wantErr)
		case err == nil && !bytes.Equal(got, want):
			t.Fatal("decoded bytes differ")
		case err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSizeMismatch):
			t.Fatalf("%v wraps neither ErrCorrupt nor ErrSizeMismatch", err)
		}
	})
}
