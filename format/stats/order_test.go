package stats

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"sort"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

func leaf(t meta.Type) *meta.SchemaElement { return &meta.SchemaElement{Type: &t, Name: "x"} }

func withConv(e *meta.SchemaElement, c meta.ConvertedType) *meta.SchemaElement {
	e.ConvertedType = &c
	return e
}

func withLogical(e *meta.SchemaElement, lt meta.LogicalType) *meta.SchemaElement {
	e.LogicalType = &lt
	return e
}

func withLength(e *meta.SchemaElement, n int32) *meta.SchemaElement {
	e.TypeLength = &n
	return e
}

func TestOrderOf(t *testing.T) {
	tests := []struct {
		name string
		leaf *meta.SchemaElement
		want Kind // KindNone: no order
	}{
		{"boolean", leaf(meta.Boolean), KindBool},
		{"int32", leaf(meta.Int32), KindInt32},
		{"int32 INT_8", withConv(leaf(meta.Int32), meta.ConvInt8), KindInt32},
		{"int32 DATE", withConv(leaf(meta.Int32), meta.ConvDate), KindInt32},
		{"int32 UINT_8", withConv(leaf(meta.Int32), meta.ConvUint8), KindUint32},
		{"int32 UINT_16", withConv(leaf(meta.Int32), meta.ConvUint16), KindUint32},
		{"int32 UINT_32", withConv(leaf(meta.Int32), meta.ConvUint32), KindUint32},
		{"int32 INTEGER(8,false)", withLogical(leaf(meta.Int32), meta.LogicalType{Integer: &meta.IntType{BitWidth: 8}}), KindUint32},
		{"int32 INTEGER(32,true)", withLogical(leaf(meta.Int32), meta.LogicalType{Integer: &meta.IntType{BitWidth: 32, IsSigned: true}}), KindInt32},
		{"int64", leaf(meta.Int64), KindInt64},
		{"int64 UINT_64", withConv(leaf(meta.Int64), meta.ConvUint64), KindUint64},
		{"int64 INTEGER(64,false)", withLogical(leaf(meta.Int64), meta.LogicalType{Integer: &meta.IntType{BitWidth: 64}}), KindUint64},
		{"int64 TIMESTAMP", withLogical(leaf(meta.Int64), meta.LogicalType{Timestamp: &meta.TimestampType{Unit: meta.Micros}}), KindInt64},
		{"int64 DECIMAL", withLogical(leaf(meta.Int64), meta.LogicalType{Decimal: &meta.DecimalType{Precision: 10, Scale: 2}}), KindInt64},
		{"int96", leaf(meta.Int96), KindNone},
		{"float", leaf(meta.Float), KindFloat32},
		{"double", leaf(meta.Double), KindFloat64},
		{"float16", withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{Float16: &struct{}{}}), 2), KindFloat16},
		{"float16 of length 4", withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{Float16: &struct{}{}}), 4), KindNone},
		{"byte array", leaf(meta.ByteArray), KindBytes},
		{"string", withLogical(leaf(meta.ByteArray), meta.LogicalType{String: &struct{}{}}), KindBytes},
		{"UTF8", withConv(leaf(meta.ByteArray), meta.ConvUTF8), KindBytes},
		{"ENUM", withConv(leaf(meta.ByteArray), meta.ConvEnum), KindBytes},
		{"JSON", withLogical(leaf(meta.ByteArray), meta.LogicalType{JSON: &struct{}{}}), KindBytes},
		{"UUID", withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{UUID: &struct{}{}}), 16), KindBytes},
		{"flba", withLength(leaf(meta.FixedLenByteArray), 3), KindBytes},
		{"flba without length", leaf(meta.FixedLenByteArray), KindNone},
		{"byte array DECIMAL", withConv(leaf(meta.ByteArray), meta.ConvDecimal), KindDecimalBytes},
		{"flba DECIMAL", withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{Decimal: &meta.DecimalType{Precision: 9, Scale: 2}}), 4), KindDecimalBytes},
		{"INTERVAL", withLength(withConv(leaf(meta.FixedLenByteArray), meta.ConvInterval), 12), KindNone},
		{"GEOMETRY", withLogical(leaf(meta.ByteArray), meta.LogicalType{Geometry: &meta.GeometryType{}}), KindNone},
		{"GEOGRAPHY", withLogical(leaf(meta.ByteArray), meta.LogicalType{Geography: &meta.GeographyType{}}), KindNone},
		{"unknown logical type", withLogical(leaf(meta.ByteArray), meta.LogicalType{Unknown: 42}), KindNone},
		{"group", &meta.SchemaElement{Name: "g"}, KindNone},
		// The logical type wins over a converted type that says otherwise.
		{"logical over converted", withConv(withLogical(leaf(meta.Int32), meta.LogicalType{Integer: &meta.IntType{BitWidth: 32, IsSigned: true}}), meta.ConvUint32), KindInt32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, ok, why := OrderOf(tt.leaf)
			if o.Kind() != tt.want || ok != (tt.want != KindNone) {
				t.Fatalf("OrderOf = %v, %v, %q; want %v", o.Kind(), ok, why, tt.want)
			}
			if !ok && why == "" {
				t.Fatal("no order but no reason")
			}
			if ok && why != "" {
				t.Fatalf("order with a reason %q", why)
			}
		})
	}
}

func le32(v int32) []byte   { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
func le64(v int64) []byte   { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }
func f32b(v float32) []byte { return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)) }
func f64b(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }

func mustOrder(t testing.TB, e *meta.SchemaElement) Order {
	t.Helper()
	o, ok, why := OrderOf(e)
	if !ok {
		t.Fatalf("no order: %s", why)
	}
	return o
}

func TestCompare(t *testing.T) {
	negZero64 := f64b(math.Copysign(0, -1))
	nan64 := f64b(math.NaN())
	negNaN64 := f64b(math.Copysign(math.NaN(), -1))
	i32 := mustOrder(t, leaf(meta.Int32))
	u32 := mustOrder(t, withConv(leaf(meta.Int32), meta.ConvUint32))
	u64 := mustOrder(t, withConv(leaf(meta.Int64), meta.ConvUint64))
	dbl := mustOrder(t, leaf(meta.Double))
	str := mustOrder(t, withConv(leaf(meta.ByteArray), meta.ConvUTF8))
	dec := mustOrder(t, withConv(leaf(meta.ByteArray), meta.ConvDecimal))
	f16 := mustOrder(t, withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{Float16: &struct{}{}}), 2))
	boolean := mustOrder(t, leaf(meta.Boolean))
	tests := []struct {
		name string
		o    Order
		a, b []byte
		want int
	}{
		{"signed -1 < 1", i32, le32(-1), le32(1), -1},
		{"unsigned 0xffffffff > 1", u32, le32(-1), le32(1), 1},
		{"unsigned 2^31 > 2^31-1", u32, le32(math.MinInt32), le32(math.MaxInt32), 1},
		{"unsigned 64", u64, le64(-1), le64(math.MaxInt64), 1},
		{"Århus after Zürich", str, []byte("Århus"), []byte("Zürich"), 1},
		{"Łódź after Zürich", str, []byte("Łódź"), []byte("Zürich"), 1},
		{"Aarhus before Århus", str, []byte("Aarhus"), []byte("Århus"), -1},
		{"prefix first", str, []byte("Al"), []byte("Alice"), -1},
		{"empty first", str, []byte{}, []byte{0}, -1},
		{"decimal 100 (1 byte) < 2400 (2 bytes)", dec, []byte{0x64}, []byte{0x09, 0x60}, -1},
		{"decimal -1 < 0", dec, []byte{0xff}, []byte{0x00}, -1},
		{"decimal -1 (1 byte) == -1 (3 bytes)", dec, []byte{0xff}, []byte{0xff, 0xff, 0xff}, 0},
		{"decimal -129 < -128", dec, []byte{0xff, 0x7f}, []byte{0x80}, -1},
		{"decimal 255 > 127", dec, []byte{0x00, 0xff}, []byte{0x7f}, 1},
		{"decimal empty is zero", dec, []byte{}, []byte{0}, 0},
		{"-0 equals +0", dbl, negZero64, f64b(0), 0},
		{"NaN above +Inf", dbl, nan64, f64b(math.Inf(1)), 1},
		{"-NaN above +Inf too", dbl, negNaN64, f64b(math.Inf(1)), 1},
		{"NaN equals NaN", dbl, nan64, negNaN64, 0},
		{"-2.5 < 1", dbl, f64b(-2.5), f64b(1), -1},
		{"float16 -2 < 1", f16, []byte{0x00, 0xc0}, []byte{0x00, 0x3c}, -1},
		{"float16 -0 == +0", f16, []byte{0x00, 0x80}, []byte{0x00, 0x00}, 0},
		{"float16 NaN above 65504", f16, []byte{0x00, 0x7e}, []byte{0xff, 0x7b}, 1},
		{"false < true", boolean, []byte{0}, []byte{1}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.o.Compare(tt.a, tt.b); got != tt.want {
				t.Fatalf("Compare = %d, want %d", got, tt.want)
			}
			if got := tt.o.Compare(tt.b, tt.a); got != -tt.want {
				t.Fatalf("reversed Compare = %d, want %d", got, -tt.want)
			}
		})
	}
}

func TestCompareSortsCitiesByBytes(t *testing.T) {
	str := mustOrder(t, withLogical(leaf(meta.ByteArray), meta.LogicalType{String: &struct{}{}}))
	cities := []string{"Zürich", "Łódź", "Aarhus", "Århus", "Écija", "Ängelholm"}
	sort.Slice(cities, func(i, j int) bool { return str.Compare([]byte(cities[i]), []byte(cities[j])) < 0 })
	want := []string{"Aarhus", "Zürich", "Ängelholm", "Århus", "Écija", "Łódź"}
	for i := range want {
		if cities[i] != want[i] {
			t.Fatalf("sorted %q, want %q", cities, want)
		}
	}
}

func TestValid(t *testing.T) {
	i32 := mustOrder(t, leaf(meta.Int32))
	flba := mustOrder(t, withLength(leaf(meta.FixedLenByteArray), 4))
	boolean := mustOrder(t, leaf(meta.Boolean))
	tests := []struct {
		name string
		o    Order
		v    []byte
		err  error
	}{
		{"int32 of 4 bytes", i32, le32(7), nil},
		{"int32 of 3 bytes", i32, []byte{1, 2, 3}, ErrBadValue},
		{"flba of its length", flba, []byte{1, 2, 3, 4}, nil},
		{"flba shortened", flba, []byte{1, 2}, ErrBadValue},
		{"boolean 2", boolean, []byte{2}, ErrBadValue},
		{"no order", Order{}, []byte{1}, ErrNoOrder},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.o.Valid(tt.v); !errors.Is(err, tt.err) {
				t.Fatalf("Valid = %v, want %v", err, tt.err)
			}
		})
	}
}

func TestIsNaN(t *testing.T) {
	dbl := mustOrder(t, leaf(meta.Double))
	flt := mustOrder(t, leaf(meta.Float))
	f16 := mustOrder(t, withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{Float16: &struct{}{}}), 2))
	i64 := mustOrder(t, leaf(meta.Int64))
	tests := []struct {
		name string
		o    Order
		v    []byte
		want bool
	}{
		{"double NaN", dbl, f64b(math.NaN()), true},
		{"double -NaN", dbl, f64b(math.Copysign(math.NaN(), -1)), true},
		{"double Inf", dbl, f64b(math.Inf(1)), false},
		{"float NaN payload", flt, []byte{1, 0, 0x80, 0x7f}, true},
		{"float Inf", flt, []byte{0, 0, 0x80, 0x7f}, false},
		{"float16 NaN", f16, []byte{0x01, 0x7c}, true},
		{"float16 Inf", f16, []byte{0x00, 0x7c}, false},
		{"int64 with NaN bits", i64, f64b(math.NaN()), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.o.IsNaN(tt.v); got != tt.want {
				t.Fatalf("IsNaN = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestLiterals(t *testing.T) {
	i32 := mustOrder(t, leaf(meta.Int32))
	u32 := mustOrder(t, withConv(leaf(meta.Int32), meta.ConvUint32))
	flt := mustOrder(t, leaf(meta.Float))
	f16 := mustOrder(t, withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{Float16: &struct{}{}}), 2))
	decFixed := mustOrder(t, withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{Decimal: &meta.DecimalType{Precision: 9, Scale: 2}}), 4))
	decVar := mustOrder(t, withConv(leaf(meta.ByteArray), meta.ConvDecimal))
	dec32 := mustOrder(t, withLogical(leaf(meta.Int32), meta.LogicalType{Decimal: &meta.DecimalType{Precision: 4, Scale: 2}}))
	str := mustOrder(t, withConv(leaf(meta.ByteArray), meta.ConvUTF8))
	tests := []struct {
		name string
		enc  func() ([]byte, error)
		want []byte
		err  error
	}{
		{"int32 -5", func() ([]byte, error) { return i32.Int(-5) }, le32(-5), nil},
		{"int32 overflow", func() ([]byte, error) { return i32.Int(1 << 31) }, nil, ErrOutOfRange},
		{"uint32 3e9", func() ([]byte, error) { return u32.Uint(3000000000) }, le32(-1294967296), nil},
		{"uint32 negative", func() ([]byte, error) { return u32.Int(-1) }, nil, ErrOutOfRange},
		{"float 0.5", func() ([]byte, error) { return flt.Float(0.5) }, f32b(0.5), nil},
		{"float 0.1 inexact", func() ([]byte, error) { return flt.Float(0.1) }, nil, ErrInexact},
		{"float16 -2", func() ([]byte, error) { return f16.Float(-2) }, []byte{0x00, 0xc0}, nil},
		{"float16 subnormal", func() ([]byte, error) { return f16.Float(math.Ldexp(1, -24)) }, []byte{0x01, 0x00}, nil},
		{"float16 0.1 inexact", func() ([]byte, error) { return f16.Float(0.1) }, nil, ErrInexact},
		{"decimal -1 in flba(4)", func() ([]byte, error) { return decFixed.DecimalUnscaled(big.NewInt(-1)) }, []byte{0xff, 0xff, 0xff, 0xff}, nil},
		{"decimal 1250 in flba(4)", func() ([]byte, error) { return decFixed.DecimalUnscaled(big.NewInt(1250)) }, []byte{0, 0, 0x04, 0xe2}, nil},
		{"decimal too wide", func() ([]byte, error) { return decFixed.DecimalUnscaled(big.NewInt(1 << 40)) }, nil, ErrOutOfRange},
		{"decimal 128 minimal", func() ([]byte, error) { return decVar.DecimalUnscaled(big.NewInt(128)) }, []byte{0x00, 0x80}, nil},
		{"decimal -129 minimal", func() ([]byte, error) { return decVar.DecimalUnscaled(big.NewInt(-129)) }, []byte{0xff, 0x7f}, nil},
		{"decimal -128 minimal", func() ([]byte, error) { return decVar.DecimalUnscaled(big.NewInt(-128)) }, []byte{0x80}, nil},
		{"decimal 0 minimal", func() ([]byte, error) { return decVar.DecimalUnscaled(big.NewInt(0)) }, []byte{0x00}, nil},
		{"decimal in int32", func() ([]byte, error) { return dec32.DecimalUnscaled(big.NewInt(1230)) }, le32(1230), nil},
		{"string", func() ([]byte, error) { return str.Bytes([]byte("Århus")) }, []byte("Århus"), nil},
		{"string for int column", func() ([]byte, error) { return i32.Bytes([]byte("x")) }, nil, ErrWrongKind},
		{"decimal for a plain int column", func() ([]byte, error) { return i32.DecimalUnscaled(big.NewInt(1)) }, nil, ErrWrongKind},
		{"no order", func() ([]byte, error) { return Order{}.Int(1) }, nil, ErrNoOrder},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.enc()
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if string(got) != string(tt.want) {
				t.Fatalf("got %x, want %x", got, tt.want)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		o    Order
		v    []byte
		want string
	}{
		{"unsigned", mustOrder(t, withConv(leaf(meta.Int32), meta.ConvUint32)), le32(-1), "4294967295"},
		{"decimal int32", mustOrder(t, withLogical(leaf(meta.Int32), meta.LogicalType{Decimal: &meta.DecimalType{Precision: 4, Scale: 2}})), le32(-5), "-0.05"},
		{"decimal bytes", mustOrder(t, withLength(withLogical(leaf(meta.FixedLenByteArray), meta.LogicalType{Decimal: &meta.DecimalType{Precision: 9, Scale: 2}}), 4)), []byte{0xff, 0xff, 0xfe, 0x71}, "-3.99"},
		{"negative zero", mustOrder(t, leaf(meta.Double)), f64b(math.Copysign(0, -1)), "-0"},
		{"string", mustOrder(t, withConv(leaf(meta.ByteArray), meta.ConvUTF8)), []byte("Łódź"), `"Łódź"`},
		{"binary", mustOrder(t, leaf(meta.ByteArray)), []byte{0xff, 0x00}, "0xff00"},
		{"malformed", mustOrder(t, leaf(meta.Int32)), []byte{1}, "<1 bytes: 01>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.o.Format(tt.v); got != tt.want {
				t.Fatalf("Format = %q, want %q", got, tt.want)
			}
		})
	}
}
