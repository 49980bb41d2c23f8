package bytestreamsplit

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// encode scatters plain values of width bytes into streams.
func encode(plain []byte, width int) []byte {
	n := len(plain) / width
	out := make([]byte, len(plain))
	for i := range n {
		for k := range width {
			out[k*n+i] = plain[i*width+k]
		}
	}
	return out
}

func TestSpecExample(t *testing.T) {
	data := []byte{0xaa, 0x00, 0xa3, 0xbb, 0x11, 0xb4, 0xcc, 0x22, 0xc5, 0xdd, 0x33, 0xd6}
	want := []byte{0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x11, 0x22, 0x33, 0xa3, 0xb4, 0xc5, 0xd6}
	got, err := Decode([]byte{0x01}, data, 4, 3)
	if err != nil || !bytes.Equal(got, append([]byte{0x01}, want...)) {
		t.Fatalf("got % x, %v", got, err)
	}
	// Two values of the three: the streams still span all of data.
	got, err = Decode(nil, data, 4, 2)
	if err != nil || !bytes.Equal(got, want[:8]) {
		t.Fatalf("n=2: got % x, %v", got, err)
	}
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, width := range []int{1, 2, 3, 4, 5, 8, 12, 16} {
		for _, n := range []int{0, 1, 7, 100} {
			plain := make([]byte, width*n)
			for i := range plain {
				plain[i] = byte(r.Uint32())
			}
			got, err := Decode(nil, encode(plain, width), width, n)
			if err != nil || !bytes.Equal(got, plain) {
				t.Fatalf("width %d n %d: round trip differs, err %v", width, n, err)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		width, n int
		want     error
	}{
		{"short", make([]byte, 8), 4, 3, ErrTruncated},
		{"ragged", make([]byte, 9), 4, 2, ErrCorrupt},
		{"width 0", make([]byte, 8), 0, 1, ErrInvalid},
		{"negative n", make([]byte, 8), 4, -1, ErrInvalid},
		{"huge n", make([]byte, 8), 8, 1 << 60, ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Decode(nil, tt.data, tt.width, tt.n); !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := Decode(nil, nil, 4, 1); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncation %v does not match io.ErrUnexpectedEOF", err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{0xaa, 0x00, 0xa3, 0xbb, 0x11, 0xb4, 0xcc, 0x22, 0xc5, 0xdd, 0x33, 0xd6}, 4, 3)
	f.Add([]byte{1, 2, 3, 4, 5, 6}, 2, 3)
	f.Fuzz(func(t *testing.T, data []byte, width, n int) {
		got, err := Decode(nil, data, width, n)
		if err != nil {
			return
		}
		if len(got) != width*n {
			t.Fatalf("got %d bytes, want %d", len(got), width*n)
		}
		if n == len(data)/width && !bytes.Equal(encode(got, width), data) {
			t.Fatal("re-encoding differs")
		}
		// Parts of every size give the same bytes.
		for _, size := range []int{1, 2, 3, 7} {
			var parts []byte
			for first := 0; first < n; first += size {
				if parts, err = DecodeFrom(parts, data, width, first, min(size, n-first)); err != nil {
					t.Fatalf("part at %d of %d: %v", first, size, err)
				}
			}
			if !bytes.Equal(parts, got) {
				t.Fatalf("parts of %d differ", size)
			}
		}
		if _, err := DecodeFrom(nil, data, width, n, len(data)/width-n+1); !errors.Is(err, ErrTruncated) {
			t.Fatalf("a part past the streams: %v", err)
		}
	})
}
