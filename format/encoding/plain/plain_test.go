package plain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"slices"
	"testing"
)

func TestBooleans(t *testing.T) {
	// 0b10110001, 0b01: LSB first.
	got, err := Booleans([]bool{true}, []byte{0xb1, 0x01}, 9)
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, true, false, false, false, true, true, false, true, true}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, err := Booleans(nil, []byte{0xff}, 9); !errors.Is(err, ErrTruncated) {
		t.Fatalf("err = %v, want ErrTruncated", err)
	}
}

func TestNumbers(t *testing.T) {
	i32 := []int32{0, 1, -1, math.MaxInt32, math.MinInt32}
	var b32 []byte
	for _, v := range i32 {
		b32 = binary.LittleEndian.AppendUint32(b32, uint32(v))
	}
	got32, err := Int32s([]int32{7}, b32, len(i32))
	if err != nil || !slices.Equal(got32, append([]int32{7}, i32...)) {
		t.Fatalf("Int32s = %v, %v", got32, err)
	}

	i64 := []int64{0, -2, math.MaxInt64, math.MinInt64}
	var b64 []byte
	for _, v := range i64 {
		b64 = binary.LittleEndian.AppendUint64(b64, uint64(v))
	}
	got64, err := Int64s(nil, b64, len(i64))
	if err != nil || !slices.Equal(got64, i64) {
		t.Fatalf("Int64s = %v, %v", got64, err)
	}

	f32 := []float32{0, -1.5, float32(math.Inf(1)), math.SmallestNonzeroFloat32}
	var bf []byte
	for _, v := range f32 {
		bf = binary.LittleEndian.AppendUint32(bf, math.Float32bits(v))
	}
	gotf, err := Floats(nil, bf, len(f32))
	if err != nil || !slices.Equal(gotf, f32) {
		t.Fatalf("Floats = %v, %v", gotf, err)
	}

	f64 := []float64{0, 3.25, math.Inf(-1), math.MaxFloat64}
	var bd []byte
	for _, v := range f64 {
		bd = binary.LittleEndian.AppendUint64(bd, math.Float64bits(v))
	}
	gotd, err := Doubles(nil, bd, len(f64))
	if err != nil || !slices.Equal(gotd, f64) {
		t.Fatalf("Doubles = %v, %v", gotd, err)
	}

	b96 := make([]byte, 24)
	for i := range b96 {
		b96[i] = byte(i)
	}
	got96, err := Int96s(nil, b96, 2)
	if err != nil || got96[1][0] != 12 || got96[1][11] != 23 || len(got96) != 2 {
		t.Fatalf("Int96s = %v, %v", got96, err)
	}

	// NaN payloads must survive bit for bit.
	nan := binary.LittleEndian.AppendUint64(nil, 0x7ff8000000000123)
	gotn, _ := Doubles(nil, nan, 1)
	if math.Float64bits(gotn[0]) != 0x7ff8000000000123 {
		t.Fatalf("NaN payload lost: %x", math.Float64bits(gotn[0]))
	}
}

// Values that start at any byte of a longer buffer, after values already
// held, decode as the bytes say.
func TestNumbersInsideBuffer(t *testing.T) {
	buf := make([]byte, 3+8*5+6)
	for i := range buf {
		buf[i] = byte(i*37 + 11)
	}
	data := buf[3:]
	got64, err := Int64s([]int64{9}, data, 5)
	if err != nil || len(got64) != 6 || got64[0] != 9 {
		t.Fatalf("Int64s = %v, %v", got64, err)
	}
	gotd, _ := Doubles(nil, data, 5)
	got32, _ := Int32s(nil, data, 10)
	gotf, _ := Floats(nil, data, 10)
	for i := range 5 {
		want := binary.LittleEndian.Uint64(data[8*i:])
		if uint64(got64[1+i]) != want || math.Float64bits(gotd[i]) != want {
			t.Errorf("value %d: %x, %x, want %x", i, got64[1+i], math.Float64bits(gotd[i]), want)
		}
	}
	for i := range 10 {
		want := binary.LittleEndian.Uint32(data[4*i:])
		if uint32(got32[i]) != want || math.Float32bits(gotf[i]) != want {
			t.Errorf("value %d: %x, %x, want %x", i, got32[i], math.Float32bits(gotf[i]), want)
		}
	}
}

func TestTruncated(t *testing.T) {
	data := make([]byte, 23)
	tests := []struct {
		name string
		call func() error
	}{
		{"int32", func() error { _, err := Int32s(nil, data, 6); return err }},
		{"int64", func() error { _, err := Int64s(nil, data, 3); return err }},
		{"int96", func() error { _, err := Int96s(nil, data, 2); return err }},
		{"float", func() error { _, err := Floats(nil, data, 6); return err }},
		{"double", func() error { _, err := Doubles(nil, data, 3); return err }},
		{"flba", func() error { _, err := FixedLenByteArrays(nil, data, 2, 12); return err }},
		{"byte array count", func() error { _, err := ByteArrays(nil, data, 6); return err }},
		{"huge count", func() error { _, err := Int64s(nil, data, math.MaxInt); return err }},
		{"huge flba count", func() error { _, err := FixedLenByteArrays(nil, data, math.MaxInt/2, 4); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("err = %v, want ErrTruncated", err)
			}
		})
	}
	if _, err := Int32s(nil, data, -1); !errors.Is(err, ErrInvalid) {
		t.Fatalf("negative count: err = %v, want ErrInvalid", err)
	}
	if _, err := FixedLenByteArrays(nil, data, 1, 0); !errors.Is(err, ErrInvalid) {
		t.Fatalf("width 0: err = %v, want ErrInvalid", err)
	}
}

func appendByteArray(dst []byte, v string) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(v)))
	return append(dst, v...)
}

func TestByteArrays(t *testing.T) {
	var data []byte
	for _, s := range []string{"hello", "", "world!"} {
		data = appendByteArray(data, s)
	}
	got, err := ByteArrays(nil, data, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || string(got[0]) != "hello" || len(got[1]) != 0 || string(got[2]) != "world!" {
		t.Fatalf("got %q", got)
	}
	// Values alias data but cannot grow into their neighbours.
	if &got[0][0] != &data[4] || cap(got[0]) != 5 {
		t.Fatal("value does not alias data with limited capacity")
	}

	tests := []struct {
		name string
		data []byte
		n    int
	}{
		{"length beyond data", appendByteArray(nil, "abc")[:6], 1},
		{"huge length", binary.LittleEndian.AppendUint32(nil, math.MaxUint32), 1},
		{"second length cut", append(appendByteArray(nil, "abcd"), 1, 0), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ByteArrays(nil, tt.data, tt.n); !errors.Is(err, ErrTruncated) {
				t.Fatalf("err = %v, want ErrTruncated", err)
			}
		})
	}
}

func TestFixedLenByteArrays(t *testing.T) {
	got, err := FixedLenByteArrays(nil, []byte("abcdefg"), 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, [][]byte{[]byte("ab"), []byte("cd"), []byte("ef")}, bytes.Equal) {
		t.Fatalf("got %q", got)
	}
	if cap(got[0]) != 2 {
		t.Fatalf("cap = %d, want 2", cap(got[0]))
	}
}

func FuzzByteArrays(f *testing.F) {
	f.Add(appendByteArray(appendByteArray(nil, "ab"), "c"), 2)
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f, 1}, 1)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		got, err := ByteArrays(nil, data, n)
		if err == nil && len(got) != n {
			t.Fatalf("got %d values, want %d", len(got), n)
		}
	})
}

func FuzzFixed(f *testing.F) {
	f.Add([]byte("abcdefgh"), 3, 2)
	f.Add([]byte{1, 2, 3}, 2, 0)
	f.Fuzz(func(t *testing.T, data []byte, n, width int) {
		// Every fixed-width decoder shares the bounds logic; exercise all.
		_, _ = Booleans(nil, data, n)
		_, _ = Int32s(nil, data, n)
		_, _ = Int64s(nil, data, n)
		_, _ = Int96s(nil, data, n)
		_, _ = Floats(nil, data, n)
		_, _ = Doubles(nil, data, n)
		got, err := FixedLenByteArrays(nil, data, n, width)
		if err == nil && len(got) != n {
			t.Fatalf("got %d values, want %d", len(got), n)
		}
	})
}
