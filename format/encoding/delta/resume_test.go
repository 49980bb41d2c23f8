package delta

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// chunkSizes are the part sizes the resumable decoders are checked with.
var chunkSizes = []int{1, 2, 3, 7, 31, 32, 33, 997}

// intsInParts decodes n values of data through an IntDecoder, size at a
// time.
func intsInParts(data []byte, n, size int) ([]int64, error) {
	d, err := NewInt64Decoder(data)
	if err != nil {
		return nil, err
	}
	var got []int64
	for len(got) < n {
		if got, err = d.Next(got, min(size, n-len(got))); err != nil {
			return got, err
		}
	}
	return got, nil
}

// Decoding in parts of any size gives the values decoding at once gives:
// a part may end inside a miniblock or a block, and the next resumes there.
func TestIntDecoderResumes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	opts := []encOpts{defaultOpts, {blockSize: 128, miniblocks: 1}, {blockSize: 256, miniblocks: 8},
		{blockSize: 128, miniblocks: 4, noPad: true}, {blockSize: 128, miniblocks: 4, junkWidths: true}}
	for _, o := range opts {
		for kind := range 4 {
			for _, n := range []int{1, 33, 129, 1000} {
				want := genInt64s(r, n, kind)
				data := appendDelta(nil, want, o)
				for _, size := range chunkSizes {
					got, err := intsInParts(data, n, size)
					if err != nil || !slices.Equal(got, want) {
						t.Fatalf("%+v kind %d n %d parts of %d: values differ, %v", o, kind, n, size, err)
					}
				}
				// End, after some values, still finds the stream's end.
				d, _ := NewInt64Decoder(data)
				if _, err := d.Next(nil, n/2); err != nil {
					t.Fatal(err)
				}
				if end, err := d.End(); err != nil || end != len(data) {
					t.Fatalf("%+v n %d: End after %d values = %d, %v; want %d", o, n, n/2, end, err, len(data))
				}
				if d.Len() != uint64(n-n/2) {
					t.Fatalf("Len after End = %d, want %d", d.Len(), n-n/2)
				}
			}
		}
	}
	d, _ := NewInt64Decoder(appendDelta(nil, []int64{1, 2, 3}, defaultOpts))
	got, err := d.Next(nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = d.Next(got, 2); !errors.Is(err, ErrTruncated) || !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("asking past the end: %v, %v; want [1 2 3] and ErrTruncated", got, err)
	}
}

// sharedPrefixes are sorted values sharing long prefixes, so that nearly
// every DELTA_BYTE_ARRAY value takes bytes from its predecessor.
func sharedPrefixes(r *rand.Rand, n int) []string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = "common/prefix/" + strings.Repeat("x", r.IntN(5)) + string(rune('a'+r.IntN(26)))
	}
	slices.Sort(vals)
	return vals
}

// A ByteArrayDecoder keeps the last value across parts: a part that began
// from an empty predecessor would refuse the first prefix or rebuild the
// wrong value.
func TestByteArrayDecoderResumes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for _, n := range []int{1, 2, 200, 1000} {
		want := sharedPrefixes(r, n)
		data := appendByteArrays(nil, want)
		for _, size := range chunkSizes {
			d, err := NewByteArrayDecoder(data)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]byte
			for len(got) < n {
				if got, err = d.Next(got, min(size, n-len(got)), MaxDecodedSize); err != nil {
					t.Fatalf("n %d parts of %d: %v", n, size, err)
				}
			}
			if !slices.Equal(toStrings(got), want) {
				t.Fatalf("n %d parts of %d: values differ", n, size)
			}
		}
	}
}

func TestLengthDecoderResumes(t *testing.T) {
	want := sharedPrefixes(rand.New(rand.NewPCG(1, 1)), 300)
	data := appendLengthByteArrays(nil, want)
	for _, size := range chunkSizes {
		d, err := NewLengthDecoder(data)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]byte
		for len(got) < len(want) {
			if got, err = d.Next(got, min(size, len(want)-len(got))); err != nil {
				t.Fatalf("parts of %d: %v", size, err)
			}
		}
		if !slices.Equal(toStrings(got), want) {
			t.Fatalf("parts of %d: values differ", size)
		}
	}
	// The second part's value of a negative length is named by its place
	// in the stream.
	d, err := NewLengthDecoder(append(appendDelta(nil, []int32{1, 1, -1}, defaultOpts), "ab"...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Next(nil, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Next(nil, 1); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "value 2 ") {
		t.Fatalf("err = %v, want ErrCorrupt naming value 2", err)
	}
}

// Fit counts the values that fit a byte bound, from the last value
// returned on, without moving the decoder.
func TestByteArrayDecoderFit(t *testing.T) {
	// Ten values of 10 bytes, each repeating its predecessor but the last
	// byte.
	vals := make([]string, 10)
	for i := range vals {
		vals[i] = "aaaaaaaaa" + string(rune('0'+i))
	}
	d, err := NewByteArrayDecoder(appendByteArrays(nil, vals))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		n    int
		max  int64
		want int
	}{
		{10, 100, 10}, {10, 99, 9}, {10, 35, 3}, {10, 5, 1}, {4, 1000, 4}, {50, 1000, 50}, {0, 1000, 0},
	} {
		if got := d.Fit(tt.n, tt.max); got != tt.want {
			t.Errorf("Fit(%d, %d) = %d, want %d", tt.n, tt.max, got, tt.want)
		}
	}
	got, err := d.Next(nil, 4, MaxDecodedSize)
	if err != nil || !slices.Equal(toStrings(got), vals[:4]) {
		t.Fatalf("after Fit: %q, %v", got, err)
	}
	if f := d.Fit(10, 25); f != 2 {
		t.Fatalf("Fit after 4 values = %d, want 2", f)
	}
	got, err = d.Next(nil, 6, MaxDecodedSize)
	if err != nil || !slices.Equal(toStrings(got), vals[4:]) {
		t.Fatalf("the rest: %q, %v", got, err)
	}
}
