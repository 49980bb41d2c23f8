package rle

import (
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDecodeKnownVectors(t *testing.T) {
	tests := []struct {
		name  string
		data  []byte
		width int
		want  []int32
	}{
		// Encodings.md: 0..7 with bit width 3, one bit-packed group.
		{"spec bit-packed", []byte{0x03, 0x88, 0xc6, 0xfa}, 3, []int32{0, 1, 2, 3, 4, 5, 6, 7}},
		{"rle run", []byte{0x10, 0x05}, 3, []int32{5, 5, 5, 5, 5, 5, 5, 5}},
		{"rle two-byte value", []byte{0x06, 0x34, 0x12}, 13, []int32{0x1234, 0x1234, 0x1234}},
		{"rle four-byte value", []byte{0x02, 0xff, 0xff, 0xff, 0xff}, 32, []int32{-1}},
		{"rle then bit-packed", []byte{0x04, 0x01, 0x03, 0xaa}, 1, []int32{1, 1, 0, 1, 0, 1, 0, 1, 0, 1}},
		{"partial last group", []byte{0x03, 0x88, 0xc6, 0xfa}, 3, []int32{0, 1, 2, 3, 4}},
		{"zero-length runs skipped", []byte{0x00, 0x00, 0x01, 0x03, 0x01}, 1, []int32{1, 0, 0, 0, 0, 0, 0, 0}},
		{"width 0 ignores data", nil, 0, []int32{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make([]int32, len(tt.want))
			if err := DecodeLevels(got, tt.data, tt.width); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name  string
		data  []byte
		width int
		n     int
		want  error
		got   int // values decoded before the error
	}{
		{"width 33", []byte{0x02, 0x01}, 33, 1, ErrBitWidth, 0},
		{"negative width", []byte{0x02, 0x01}, -1, 1, ErrBitWidth, 0},
		{"empty", nil, 1, 1, ErrTruncated, 0},
		{"rle run too short", []byte{0x10, 0x01}, 1, 9, ErrTruncated, 8},
		{"rle value missing", []byte{0x10}, 1, 1, ErrTruncated, 0},
		{"rle value half missing", []byte{0x10, 0x01}, 9, 1, ErrTruncated, 0},
		{"header cut", []byte{0x80}, 1, 1, ErrTruncated, 0},
		{"header overflow", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 1, 1, ErrCorrupt, 0},
		{"rle run over 2^31-1", binary.AppendUvarint(nil, 1<<32), 1, 1, ErrCorrupt, 0},
		{"bit-packed run over 2^31-1", binary.AppendUvarint(nil, (1<<29)<<1|1), 1, 1, ErrCorrupt, 0},
		{"bit-packed groups beyond data", []byte{0x07, 0xff}, 1, 9, ErrTruncated, 8},
		{"rle value beyond width", []byte{0x02, 0x02}, 1, 1, ErrCorrupt, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := make([]int32, tt.n)
			n, err := NewDecoder(tt.data, tt.width).Decode(dst)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if n != tt.got {
				t.Fatalf("decoded %d values before the error, want %d", n, tt.got)
			}
		})
	}
	err := DecodeLevels(make([]int32, 2), []byte{0x02, 0x01}, 1)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncation error %v does not match io.ErrUnexpectedEOF", err)
	}
}

// A run of 2^31-1 values is legal and must be decoded without allocating.
func TestHugeRunDoesNotAllocate(t *testing.T) {
	data := binary.AppendUvarint(nil, (1<<31-1)<<1)
	data = append(data, 1)
	dst := make([]int32, 1024)
	var d Decoder
	allocs := testing.AllocsPerRun(10, func() {
		d.Reset(data, 1)
		if _, err := d.Decode(dst); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per decode, want 0", allocs)
	}
	if dst[1023] != 1 {
		t.Fatalf("dst[1023] = %d, want 1", dst[1023])
	}
}

// genValues returns n values below 2^width mixing long runs and noise.
func genValues(r *rand.Rand, n, width int) []int32 {
	vals := make([]int32, 0, n)
	max := uint64(1) << width
	for len(vals) < n {
		v := int32(uint32(r.Uint64N(max)))
		k := 1
		if r.IntN(3) == 0 {
			k = 1 + r.IntN(40)
		}
		for range min(k, n-len(vals)) {
			vals = append(vals, v)
		}
	}
	return vals
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for width := 0; width <= 32; width++ {
		for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 100, 1000, 4099} {
			want := genValues(r, n, width)
			data := AppendHybrid(nil, want, width)

			got := make([]int32, n)
			if err := DecodeLevels(got, data, width); err != nil {
				t.Fatalf("width %d n %d: %v", width, n, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("width %d n %d: round trip differs", width, n)
			}

			// Decoding in odd-sized pieces must resume runs mid-way.
			got2 := make([]int32, 0, n)
			d := NewDecoder(data, width)
			for step := 1; len(got2) < n; step = step%13 + 1 {
				buf := make([]int32, min(step, n-len(got2)))
				k, err := d.Decode(buf)
				if err != nil {
					t.Fatalf("width %d n %d: piecewise: %v", width, n, err)
				}
				got2 = append(got2, buf[:k]...)
			}
			if !slices.Equal(got2, want) {
				t.Fatalf("width %d n %d: piecewise round trip differs", width, n)
			}
		}
	}
}

func TestEncoderUsesRuns(t *testing.T) {
	vals := make([]int32, 1000)
	for i := range vals {
		vals[i] = 3
	}
	got := AppendHybrid(nil, vals, 2)
	want := []byte{0xd0, 0x0f, 0x03} // uvarint(1000<<1), value 3
	if !slices.Equal(got, want) {
		t.Fatalf("got % x, want % x", got, want)
	}
}

// appendBitPackedMSB is a reference encoder of the deprecated BIT_PACKED
// encoding for the tests.
func appendBitPackedMSB(dst []byte, values []int32, width int) []byte {
	var acc uint64
	var nbits int
	for _, v := range values {
		acc = acc<<width | uint64(uint32(v))&(1<<width-1)
		nbits += width
		for nbits >= 8 {
			dst = append(dst, byte(acc>>(nbits-8)))
			nbits -= 8
		}
	}
	if nbits > 0 {
		dst = append(dst, byte(acc<<(8-nbits)))
	}
	return dst
}

func TestDecodeBitPacked(t *testing.T) {
	// Encodings.md: 0..7 with bit width 3, MSB first.
	got := make([]int32, 8)
	n, err := DecodeBitPacked(got, []byte{0x05, 0x39, 0x77, 0xee}, 3)
	if err != nil || n != 3 {
		t.Fatalf("consumed %d, err %v; want 3, nil", n, err)
	}
	if want := []int32{0, 1, 2, 3, 4, 5, 6, 7}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}

	r := rand.New(rand.NewPCG(3, 4))
	for width := 0; width <= 32; width++ {
		for _, n := range []int{0, 1, 5, 30, 257} {
			want := genValues(r, n, width)
			data := appendBitPackedMSB(nil, want, width)
			got := make([]int32, n)
			c, err := DecodeBitPacked(got, data, width)
			if err != nil {
				t.Fatalf("width %d n %d: %v", width, n, err)
			}
			if c != (n*width+7)/8 || c != len(data) {
				t.Fatalf("width %d n %d: consumed %d, want %d", width, n, c, len(data))
			}
			if !slices.Equal(got, want) {
				t.Fatalf("width %d n %d: round trip differs", width, n)
			}
		}
	}

	// Encodings.md: 30 values of 2 bits take 8 bytes.
	if _, err := DecodeBitPacked(make([]int32, 30), make([]byte, 7), 2); !errors.Is(err, ErrTruncated) {
		t.Fatalf("short data: err = %v, want ErrTruncated", err)
	}
	if _, err := DecodeBitPacked(make([]int32, 1), make([]byte, 8), 40); !errors.Is(err, ErrBitWidth) {
		t.Fatalf("width 40: err = %v, want ErrBitWidth", err)
	}
}

func TestBitWidth(t *testing.T) {
	tests := []struct {
		max  uint64
		want int
	}{{0, 0}, {1, 1}, {2, 2}, {3, 2}, {4, 3}, {255, 8}, {256, 9}, {1<<32 - 1, 32}, {1<<64 - 1, 64}}
	for _, tt := range tests {
		if got := BitWidth(tt.max); got != tt.want {
			t.Errorf("BitWidth(%d) = %d, want %d", tt.max, got, tt.want)
		}
	}
}

func FuzzDecoder(f *testing.F) {
	f.Add([]byte{0x03, 0x88, 0xc6, 0xfa}, uint8(3), uint16(8))
	f.Add([]byte{0x10, 0x05, 0x07, 0x01}, uint8(3), uint16(30))
	f.Add(AppendHybrid(nil, []int32{1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 9}, 4), uint8(4), uint16(14))
	f.Fuzz(func(t *testing.T, data []byte, width uint8, n uint16) {
		dst := make([]int32, n)
		k, err := NewDecoder(data, int(width)).Decode(dst)
		if k < 0 || k > len(dst) || (err == nil && k != len(dst)) {
			t.Fatalf("decoded %d of %d values, err %v", k, len(dst), err)
		}
		if err != nil && !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrBitWidth) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		if err == nil && width <= 32 {
			// Re-encoding what was decoded must decode to the same values.
			again := make([]int32, n)
			if err := DecodeLevels(again, AppendHybrid(nil, dst, int(width)), int(width)); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(again, dst) {
				t.Fatal("re-encoded values differ")
			}
		}
	})
}

func FuzzDecodeBitPacked(f *testing.F) {
	f.Add([]byte{0x05, 0x39, 0x77}, uint8(3), uint16(8))
	f.Add([]byte{0xff}, uint8(1), uint16(9))
	f.Fuzz(func(t *testing.T, data []byte, width uint8, n uint16) {
		c, err := DecodeBitPacked(make([]int32, n), data, int(width))
		if err == nil && (c > len(data) || c != (int(n)*int(width)+7)/8) {
			t.Fatalf("consumed %d of %d bytes", c, len(data))
		}
	})
}

func benchmarkDecoder(b *testing.B, width int, runs bool) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 1 << 16
	vals := make([]int32, n)
	if runs {
		vals = genValues(r, n, width)
	} else {
		for i := range vals {
			vals[i] = int32(uint32(r.Uint64N(1 << width)))
		}
	}
	data := AppendHybrid(nil, vals, width)
	dst := make([]int32, n)
	var d Decoder
	b.SetBytes(4 * n) // decoded bytes
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data, width)
		if _, err := d.Decode(dst); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecoder(b *testing.B) {
	for _, bc := range []struct {
		name  string
		width int
		runs  bool
	}{
		{"bitpacked/w1", 1, false},
		{"bitpacked/w3", 3, false},
		{"bitpacked/w8", 8, false},
		{"bitpacked/w17", 17, false},
		{"bitpacked/w32", 32, false},
		{"mixed/w2", 2, true},
		{"mixed/w12", 12, true},
	} {
		b.Run(bc.name, func(b *testing.B) { benchmarkDecoder(b, bc.width, bc.runs) })
	}
}

// TestUniformOnlyWhenEveryValueIsIt decodes runs of levels in pieces and
// checks that Uniform claims one value only for a piece all of that value,
// and that it does claim it for a piece inside one RLE run.
func TestUniformOnlyWhenEveryValueIsIt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := range 2000 {
		width := r.IntN(3)
		var want []int32
		for range 1 + r.IntN(6) {
			v, n := int32(r.IntN(1<<width)), 1+r.IntN(40)
			if r.IntN(4) == 0 {
				// A stretch of mixed values, bit-packed by the encoder.
				for range n {
					want = append(want, int32(r.IntN(1<<width)))
				}
				continue
			}
			for range n {
				want = append(want, v)
			}
		}
		data := AppendHybrid(nil, want, width)
		d := NewDecoder(data, width)
		claimed := 0
		for at := 0; at < len(want); {
			buf := make([]int32, min(1+r.IntN(20), len(want)-at))
			if _, err := d.Decode(buf); err != nil {
				t.Fatal(err)
			}
			if v, ok := d.Uniform(); ok {
				claimed++
				for i, x := range buf {
					if x != v {
						t.Fatalf("iteration %d: Uniform says %d, value %d of the piece at %d is %d", iter, v, i, at, x)
					}
				}
			}
			at += len(buf)
		}
		if width == 0 && claimed == 0 {
			t.Fatalf("iteration %d: width 0 never uniform", iter)
		}
	}
	// One RLE run of 1000 ones, read as two pieces of 500: both uniform.
	ones := slices.Repeat([]int32{1}, 1000)
	d := NewDecoder(AppendHybrid(nil, ones, 1), 1)
	for range 2 {
		buf := make([]int32, 500)
		if _, err := d.Decode(buf); err != nil {
			t.Fatal(err)
		}
		if v, ok := d.Uniform(); !ok || v != 1 {
			t.Fatalf("a piece of one run of ones: Uniform = %d, %v", v, ok)
		}
	}
	// A failed decode is never uniform.
	d = NewDecoder([]byte{0x10, 0x01}, 1) // a run of 8 ones
	if _, err := d.Decode(make([]int32, 9)); err == nil {
		t.Fatal("decoding past the data succeeded")
	}
	if _, ok := d.Uniform(); ok {
		t.Fatal("Uniform after a failed Decode")
	}
}
