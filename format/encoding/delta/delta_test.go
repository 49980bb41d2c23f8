package delta

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Encodings.md's examples, with a valid block size of 128 in 4 miniblocks.
func TestSpecExamples(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		want     []int64
		consumed int
	}{
		{"example 1", []byte{0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0},
			[]int64{1, 2, 3, 4, 5}, 10},
		{"example 2", []byte{0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0, 0, 0,
			0xc0, 0x3f, 0, 0, 0, 0, 0, 0, 0xaa /* next stream */},
			[]int64{7, 5, 3, 1, 2, 3, 4, 5}, 18},
		{"single value", []byte{0x80, 0x01, 0x04, 0x01, 0x0d}, []int64{-7}, 5},
		{"empty", []byte{0x80, 0x01, 0x04, 0x00, 0x00}, nil, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, c, err := Int64s(nil, tt.data, len(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) || c != tt.consumed {
				t.Fatalf("got %v consumed %d, want %v consumed %d", got, c, tt.want, tt.consumed)
			}
			got32, c32, err := Int32s(nil, tt.data, len(tt.want))
			if err != nil || c32 != tt.consumed || len(got32) != len(tt.want) {
				t.Fatalf("Int32s: %v consumed %d err %v", got32, c32, err)
			}
		})
	}
}

func genInt64s(r *rand.Rand, n int, kind int) []int64 {
	v := make([]int64, n)
	acc := r.Int64()
	for i := range v {
		switch kind {
		case 0: // full-range noise, deltas overflow
			v[i] = int64(r.Uint64())
		case 1: // slowly growing timestamps
			acc += r.Int64N(1000)
			v[i] = acc
		case 2: // extremes alternating
			if i%2 == 0 {
				v[i] = math.MaxInt64
			} else {
				v[i] = math.MinInt64
			}
		default: // constant
			v[i] = 42
		}
	}
	return v
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	opts := []encOpts{
		defaultOpts,
		{blockSize: 128, miniblocks: 1},
		{blockSize: 256, miniblocks: 8},
		{blockSize: 128, miniblocks: 4, noPad: true},
		{blockSize: 128, miniblocks: 4, junkWidths: true},
	}
	for _, o := range opts {
		for kind := range 4 {
			for _, n := range []int{0, 1, 2, 31, 32, 33, 128, 129, 130, 1000} {
				want := genInt64s(r, n, kind)
				data := appendDelta(nil, want, o)
				tail := append(slices.Clone(data), 0xde, 0xad)
				if o.noPad {
					tail = data // trailing bytes would read as padding
				}
				got, c, err := Int64s([]int64{99}, tail, n)
				if err != nil {
					t.Fatalf("%+v kind %d n %d: %v", o, kind, n, err)
				}
				if !slices.Equal(got[1:], want) || got[0] != 99 {
					t.Fatalf("%+v kind %d n %d: int64 round trip differs", o, kind, n)
				}
				if c != len(data) {
					t.Fatalf("%+v kind %d n %d: consumed %d, want %d", o, kind, n, c, len(data))
				}

				want32 := make([]int32, n)
				for i, v := range want {
					want32[i] = int32(v)
				}
				data32 := appendDelta(nil, want32, o)
				got32, c32, err := Int32s(nil, data32, n)
				if err != nil || !slices.Equal(got32, want32) || c32 != len(data32) {
					t.Fatalf("%+v kind %d n %d: int32 round trip: consumed %d of %d, %v", o, kind, n, c32, len(data32), err)
				}
			}
		}
	}
}

// Asking for fewer values than the stream holds still reports the whole
// stream as consumed, so a following section can be found.
func TestFewerThanTotal(t *testing.T) {
	want := genInt64s(rand.New(rand.NewPCG(3, 4)), 700, 1)
	data := appendDelta(nil, want, defaultOpts)
	for _, n := range []int{0, 1, 5, 129, 699} {
		got, c, err := Int64s(nil, data, n)
		if err != nil || !slices.Equal(got, want[:n]) || c != len(data) {
			t.Fatalf("n %d: consumed %d of %d, err %v", n, c, len(data), err)
		}
	}
	got, _, err := Int64s(nil, data, 701)
	if !errors.Is(err, ErrTruncated) || !slices.Equal(got, want) {
		t.Fatalf("n 701: got %d values, err %v; want all 700 and ErrTruncated", len(got), err)
	}
}

// A writer computing int32 deltas in 64 bits yields a min delta outside
// int32; summing in 32 bits must still restore the values.
func TestInt32WrapsWith64BitDeltas(t *testing.T) {
	data := appendDelta(nil, []int64{math.MaxInt32, math.MinInt32}, defaultOpts)
	if !bytes.Contains(data, binary.AppendUvarint(nil, zigzag(math.MinInt32-math.MaxInt32))) {
		t.Fatalf("min delta not stored in 64 bits: % x", data)
	}
	got, _, err := Int32s(nil, data, 2)
	if err != nil || !slices.Equal(got, []int32{math.MaxInt32, math.MinInt32}) {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestErrors(t *testing.T) {
	hdr := func(block, mini, total uint64, rest ...byte) []byte {
		b := binary.AppendUvarint(nil, block)
		b = binary.AppendUvarint(b, mini)
		b = binary.AppendUvarint(b, total)
		return append(append(b, 0x00), rest...)
	}
	tests := []struct {
		name  string
		data  []byte
		n     int
		int32 bool
		want  error
	}{
		{"empty", nil, 1, false, ErrTruncated},
		{"header cut", []byte{0x80, 0x01, 0x04}, 1, false, ErrTruncated},
		{"varint overflow", bytes.Repeat([]byte{0xff}, 11), 1, false, ErrCorrupt},
		{"block size 100", hdr(100, 1, 2), 2, false, ErrCorrupt},
		{"block size 0", hdr(0, 1, 2), 2, false, ErrCorrupt},
		{"block size huge", hdr(1<<40, 1, 2), 2, false, ErrCorrupt},
		{"miniblocks 0", hdr(128, 0, 2), 2, false, ErrCorrupt},
		{"miniblocks 3", hdr(128, 3, 2), 2, false, ErrCorrupt},
		{"miniblock of 16", hdr(128, 8, 2), 2, false, ErrCorrupt},
		{"widths cut", hdr(128, 4, 2, 0x00, 0x01), 2, false, ErrTruncated},
		{"min delta cut", hdr(128, 4, 2), 2, false, ErrTruncated},
		{"int32 width 33", hdr(128, 4, 2, 0x00, 33, 0, 0, 0), 2, true, ErrCorrupt},
		{"int64 width 65", hdr(128, 4, 2, 0x00, 65, 0, 0, 0), 2, false, ErrCorrupt},
		{"miniblock body cut", hdr(128, 4, 2, 0x00, 8, 0, 0, 0), 2, false, ErrTruncated},
		{"fewer than n", hdr(128, 4, 1), 2, false, ErrTruncated},
		{"negative n", hdr(128, 4, 1), -1, false, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.int32 {
				_, _, err = Int32s(nil, tt.data, tt.n)
			} else {
				_, _, err = Int64s(nil, tt.data, tt.n)
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if _, _, err := Int64s(nil, nil, 1); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncation %v does not match io.ErrUnexpectedEOF", err)
	}
}

// A header claiming 2^62 values sizes nothing beyond the n requested; the
// values asked for decode, and the stream's missing rest is reported.
func TestHugeTotalDoesNotAllocate(t *testing.T) {
	data := binary.AppendUvarint([]byte{0x80, 0x01, 0x01}, 1<<62)
	data = append(data, 0x02, 0x02, 0x00) // first 1, min delta 1, width 0
	dst := make([]int64, 0, 10)
	got, _, err := Int64s(dst, data, 10)
	if !errors.Is(err, ErrTruncated) || !slices.Equal(got, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
		t.Fatalf("got %v, %v", got, err)
	}
	if &got[0] != &dst[:1][0] {
		t.Fatal("dst was reallocated")
	}
}

func TestLengthByteArrays(t *testing.T) {
	// Encodings.md's example.
	want := []string{"Hello", "World", "Foobar", "ABCDEF"}
	data := appendLengthByteArrays(nil, want)
	if !strings.HasSuffix(string(data), "HelloWorldFoobarABCDEF") {
		t.Fatalf("encoding % x lacks the concatenated values", data)
	}
	got, c, err := LengthByteArrays(nil, append(data, 'x'), 4)
	if err != nil || c != len(data) {
		t.Fatalf("consumed %d of %d, err %v", c, len(data), err)
	}
	if !slices.Equal(toStrings(got), want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if cap(got[0]) != 5 || &got[3][5] != &data[len(data)-1] {
		t.Fatal("values do not alias data with limited capacity")
	}

	neg := appendDelta(nil, []int32{2, -1}, defaultOpts)
	if _, _, err := LengthByteArrays(nil, append(neg, "ab"...), 2); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("negative length: err = %v, want ErrCorrupt", err)
	}
	if _, _, err := LengthByteArrays(nil, data[:len(data)-1], 4); !errors.Is(err, ErrTruncated) {
		t.Fatalf("short bytes: err = %v, want ErrTruncated", err)
	}
}

func toStrings(v [][]byte) []string {
	s := make([]string, len(v))
	for i, b := range v {
		s[i] = string(b)
	}
	return s
}

func TestByteArrays(t *testing.T) {
	// Encodings.md's example.
	want := []string{"axis", "axle", "babble", "babyhood"}
	data := appendByteArrays(nil, want)
	if !strings.HasSuffix(string(data), "axislebabbleyhood") {
		t.Fatalf("encoding % x lacks the suffixes", data)
	}
	got, err := ByteArrays([][]byte{[]byte("keep")}, data, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(toStrings(got), append([]string{"keep"}, want...)) {
		t.Fatalf("got %q", got)
	}
	// Appending to one value must not overwrite the next in the arena.
	_ = append(got[1], 'Z')
	if string(got[2]) != "axle" {
		t.Fatalf("value overwritten: %q", got[2])
	}

	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 2, 200, 1000} {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = "common/prefix/" + strings.Repeat("x", r.IntN(5)) + string(rune('a'+r.IntN(26)))
		}
		slices.Sort(vals)
		got, err := ByteArrays(nil, appendByteArrays(nil, vals), n)
		if err != nil || !slices.Equal(toStrings(got), vals) {
			t.Fatalf("n %d: round trip differs, err %v", n, err)
		}
	}

	enc := func(prefixes []int32, suffixes []string) []byte {
		return appendLengthByteArrays(appendDelta(nil, prefixes, defaultOpts), suffixes)
	}
	tests := []struct {
		name string
		data []byte
		n    int
		want error
	}{
		{"first prefix nonzero", enc([]int32{1}, []string{"a"}), 1, ErrCorrupt},
		{"prefix beyond previous", enc([]int32{0, 3}, []string{"ab", "c"}), 2, ErrCorrupt},
		{"negative prefix", enc([]int32{0, -1}, []string{"ab", "c"}), 2, ErrCorrupt},
		{"missing suffixes", appendDelta(nil, []int32{0, 0}, defaultOpts), 2, ErrTruncated},
		{"fewer suffixes", enc([]int32{0, 0}, []string{"a"}), 2, ErrTruncated},
		// One 64 KiB value repeated 20000 times by prefix: 1.3 GB from a
		// few bytes.
		{"output too large", enc(append([]int32{0}, slices.Repeat([]int32{1 << 16}, 19999)...),
			append([]string{strings.Repeat("a", 1<<16)}, make([]string, 19999)...)), 20000, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ByteArrays(nil, tt.data, tt.n); !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func FuzzInts(f *testing.F) {
	f.Add([]byte{0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0, 0, 0}, uint16(8))
	f.Add(appendDelta(nil, []int64{1, -5, math.MaxInt64, 0, 3}, encOpts{blockSize: 128, miniblocks: 1}), uint16(5))
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		got, c, err := Int64s(nil, data, int(n))
		if c < 0 || c > len(data) || len(got) > int(n) || (err == nil && len(got) != int(n)) {
			t.Fatalf("got %d values of %d, consumed %d of %d, err %v", len(got), n, c, len(data), err)
		}
		if err == nil {
			// Re-encoding must round trip.
			again, _, err := Int64s(nil, appendDelta(nil, got, defaultOpts), int(n))
			if err != nil || !slices.Equal(again, got) {
				t.Fatalf("re-encoding differs: %v", err)
			}
		}
		got32, c32, err32 := Int32s(nil, data, int(n))
		if c32 > len(data) || (err32 == nil && len(got32) != int(n)) {
			t.Fatalf("int32: got %d values of %d, consumed %d", len(got32), n, c32)
		}
		// Parts of random sizes give what decoding at once gives.
		sizes := partSizes(data, n)
		parts, perr := intsInParts(data, int(n), sizes.IntN(40)+1)
		if !slices.Equal(parts, got[:min(len(got), len(parts))]) {
			t.Fatalf("parts give %v, at once %v", parts, got)
		}
		if err == nil && (perr != nil || len(parts) != len(got)) {
			t.Fatalf("parts: %d values, %v; at once all %d", len(parts), perr, len(got))
		}
	})
}

// partSizes is a source of part sizes that depends on the fuzz input only.
func partSizes(data []byte, n uint16) *rand.Rand {
	var h uint64
	for _, b := range data {
		h = h*31 + uint64(b)
	}
	return rand.New(rand.NewPCG(h, uint64(n)))
}

func FuzzByteArrays(f *testing.F) {
	f.Add(appendByteArrays(nil, []string{"axis", "axle", "babble", "babyhood"}), uint16(4))
	f.Add(appendLengthByteArrays(nil, []string{"Hello", "World"}), uint16(2))
	f.Add(appendByteArrays(nil, sharedPrefixes(rand.New(rand.NewPCG(2, 2)), 300)), uint16(300))
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		got, err := ByteArrays(nil, data, int(n))
		if err == nil && len(got) != int(n) {
			t.Fatalf("got %d values, want %d", len(got), n)
		}
		sizes := partSizes(data, n)
		if err == nil {
			// Parts of random sizes, the prefix carried between them, give
			// the same values; Fit never moves the decoder.
			d, perr := NewByteArrayDecoder(data)
			var parts [][]byte
			for perr == nil && len(parts) < int(n) {
				k := min(1+sizes.IntN(40), int(n)-len(parts))
				if f := d.Fit(k, int64(sizes.IntN(200))); f < min(k, 1) || f > k {
					t.Fatalf("Fit(%d) = %d", k, f)
				}
				parts, perr = d.Next(parts, k, MaxDecodedSize)
			}
			if perr != nil || !slices.Equal(toStrings(parts), toStrings(got)) {
				t.Fatalf("parts: %q, %v; at once %q", parts, perr, got)
			}
		}
		got, c, err := LengthByteArrays(nil, data, int(n))
		if c > len(data) || (err == nil && len(got) != int(n)) {
			t.Fatalf("got %d values of %d, consumed %d of %d", len(got), n, c, len(data))
		}
		if err == nil {
			d, perr := NewLengthDecoder(data)
			var parts [][]byte
			for perr == nil && len(parts) < int(n) {
				parts, perr = d.Next(parts, min(1+sizes.IntN(40), int(n)-len(parts)))
			}
			if perr != nil || !slices.Equal(toStrings(parts), toStrings(got)) {
				t.Fatalf("length parts: %q, %v; at once %q", parts, perr, got)
			}
		}
	})
}

func BenchmarkInt64s(b *testing.B) {
	for _, bc := range []struct {
		name string
		kind int
	}{{"timestamps", 1}, {"random", 0}, {"constant", 3}} {
		b.Run(bc.name, func(b *testing.B) {
			const n = 1 << 16
			data := appendDelta(nil, genInt64s(rand.New(rand.NewPCG(9, 9)), n, bc.kind), defaultOpts)
			dst := make([]int64, 0, n)
			b.SetBytes(8 * n) // decoded bytes
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Int64s(dst[:0], data, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
