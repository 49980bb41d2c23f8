package exec

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
)

func leafOf(pt meta.Type, length int, conv *meta.ConvertedType, lt *meta.LogicalType) *format.Leaf {
	e := &meta.SchemaElement{Type: &pt, ConvertedType: conv, LogicalType: lt}
	if length > 0 {
		n := int32(length)
		e.TypeLength = &n
	}
	return &format.Leaf{Element: e, Type: pt, TypeLength: length}
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// TestStatText checks parquet_metadata's rendering of statistics bounds by
// DuckDB's rules: the column's SQL type, NULL for values the type cannot
// hold, an error for a bound of the wrong size.
func TestStatText(t *testing.T) {
	conv := func(c meta.ConvertedType) *meta.ConvertedType { return &c }
	dec := func(p, s int32) *meta.LogicalType {
		return &meta.LogicalType{Decimal: &meta.DecimalType{Precision: p, Scale: s}}
	}
	tests := []struct {
		name string
		leaf *format.Leaf
		v    []byte
		want string // "NULL" for SQL NULL, "error" for ErrInvalidInput
	}{
		{"int32", leafOf(meta.Int32, 0, nil, nil), le32(uint32(0xFFFFFFFF)), "-1"},
		{"int8 in range", leafOf(meta.Int32, 0, conv(meta.ConvInt8), nil), le32(uint32(0xFFFFFF80)), "-128"},
		{"int8 out of range", leafOf(meta.Int32, 0, conv(meta.ConvInt8), nil), le32(200), "NULL"},
		{"uint8 out of range", leafOf(meta.Int32, 0, conv(meta.ConvUint8), nil), le32(256), "NULL"},
		{"uint32", leafOf(meta.Int32, 0, conv(meta.ConvUint32), nil), le32(4294967295), "4294967295"},
		{"uint64", leafOf(meta.Int64, 0, conv(meta.ConvUint64), nil), le64(math.MaxUint64), "18446744073709551615"},
		{"int64 short", leafOf(meta.Int64, 0, nil, nil), le32(1), "error"},
		{"boolean", leafOf(meta.Boolean, 0, nil, nil), []byte{1}, "true"},
		{"boolean wide", leafOf(meta.Boolean, 0, nil, nil), []byte{1, 0}, "error"},
		{"float nan", leafOf(meta.Float, 0, nil, nil), le32(math.Float32bits(float32(math.NaN()))), "NULL"},
		{"float", leafOf(meta.Float, 0, nil, nil), le32(math.Float32bits(0.5)), "0.5"},
		{"double inf", leafOf(meta.Double, 0, nil, nil), le64(math.Float64bits(math.Inf(-1))), "NULL"},
		{"double -0", leafOf(meta.Double, 0, nil, nil), le64(math.Float64bits(math.Copysign(0, -1))), "-0.0"},
		{"float16", leafOf(meta.FixedLenByteArray, 2, nil, &meta.LogicalType{Float16: &struct{}{}}), []byte{0x00, 0x3c}, "1.0"},
		{"decimal int32", leafOf(meta.Int32, 0, nil, dec(9, 2)), le32(12345), "123.45"},
		{"decimal too wide", leafOf(meta.Int32, 0, nil, dec(3, 2)), le32(12345), "NULL"},
		{"decimal bytes", leafOf(meta.FixedLenByteArray, 4, nil, dec(9, 2)), []byte{0xff, 0xff, 0xff, 0x9c}, "-1.00"},
		{"decimal as double", leafOf(meta.ByteArray, 0, nil, dec(40, 2)), []byte{0x01, 0x00}, "2.56"},
		{"string", leafOf(meta.ByteArray, 0, conv(meta.ConvUTF8), nil), []byte("Łódź"), "Łódź"},
		{"string not utf-8", leafOf(meta.ByteArray, 0, conv(meta.ConvUTF8), nil), []byte{'a', 0xff}, `a\xFF`},
		{"blob", leafOf(meta.ByteArray, 0, nil, nil), []byte{0, 'a'}, `\x00a`},
		{"date", leafOf(meta.Int32, 0, conv(meta.ConvDate), nil), le32(19723), "2024-01-01"},
		{"time millis", leafOf(meta.Int32, 0, conv(meta.ConvTimeMillis), nil), le32(1500), "00:00:01.5"},
		{"timestamp millis", leafOf(meta.Int64, 0, conv(meta.ConvTimestampMillis), nil), le64(1000), "1970-01-01 00:00:01"},
		{"timestamptz nanos", leafOf(meta.Int64, 0, nil, &meta.LogicalType{Timestamp: &meta.TimestampType{IsAdjustedToUTC: true, Unit: meta.Nanos}}),
			le64(uint64(1999)), "1970-01-01 00:00:00.000001+00"},
		{"uuid", leafOf(meta.FixedLenByteArray, 16, nil, &meta.LogicalType{UUID: &struct{}{}}), make([]byte, 16), "00000000-0000-0000-0000-000000000000"},
		{"uuid short", leafOf(meta.FixedLenByteArray, 16, nil, &meta.LogicalType{UUID: &struct{}{}}), make([]byte, 15), "error"},
	}
	for _, tc := range tests {
		d, err := statText(tc.leaf, true, tc.v)
		got := d.S
		switch {
		case err != nil && errors.Is(err, planner.ErrInvalidInput):
			got = "error"
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
			continue
		case d.Null:
			got = "NULL"
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if d, err := statText(leafOf(meta.Int32, 0, nil, nil), false, nil); err != nil || !d.Null {
		t.Errorf("absent bound: %+v, %v", d, err)
	}
}

// TestLogicalTypeText checks thrift's printing of logical types, which
// parquet_schema shows, against DuckDB's output for the same annotations.
func TestLogicalTypeText(t *testing.T) {
	alg := meta.Spherical
	crs := "srid:5070"
	tests := []struct {
		lt   *meta.LogicalType
		want string
	}{
		{nil, "NULL"},
		{&meta.LogicalType{String: &struct{}{}}, "StringType()"},
		{&meta.LogicalType{Integer: &meta.IntType{BitWidth: 32, IsSigned: true}}, "IntType(bitWidth= , isSigned=1)"},
		{&meta.LogicalType{Integer: &meta.IntType{BitWidth: 64, IsSigned: false}}, "IntType(bitWidth=@, isSigned=0)"},
		{&meta.LogicalType{Decimal: &meta.DecimalType{Precision: 9, Scale: 2}}, "DecimalType(scale=2, precision=9)"},
		{&meta.LogicalType{Timestamp: &meta.TimestampType{IsAdjustedToUTC: true, Unit: meta.Micros}},
			"TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MILLIS=<null>, MICROS=MicroSeconds(), NANOS=<null>))"},
		{&meta.LogicalType{Time: &meta.TimeType{Unit: meta.Millis}},
			"TimeType(isAdjustedToUTC=0, unit=TimeUnit(MILLIS=MilliSeconds(), MICROS=<null>, NANOS=<null>))"},
		{&meta.LogicalType{Null: &struct{}{}}, "NullType()"},
		{&meta.LogicalType{Geometry: &meta.GeometryType{CRS: &crs}}, "GeometryType(crs=srid:5070)"},
		{&meta.LogicalType{Geography: &meta.GeographyType{Algorithm: &alg}}, "GeographyType(crs=<null>, algorithm=SPHERICAL)"},
		{&meta.LogicalType{Variant: &meta.VariantType{}}, "NULL"},
		{&meta.LogicalType{Unknown: 99}, "NULL"},
	}
	for _, tc := range tests {
		d := logicalTypeText(tc.lt)
		got := d.S
		if d.Null {
			got = "NULL"
		}
		if got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.lt, got, tc.want)
		}
	}
}

// TestGeoStats checks geo_types' order (by dimension, then type code) and
// its refusal of codes outside the spec.
func TestGeoStats(t *testing.T) {
	_, types, err := geoStats(&meta.GeospatialStatistics{GeospatialTypes: []int32{3002, 1, 2003, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(format.AppendValueText(nil, types.N)); got != "[point, linestring, polygon_m, linestring_zm]" {
		t.Errorf("geo_types %s", got)
	}
	_, types, err = geoStats(&meta.GeospatialStatistics{GeospatialTypes: []int32{}})
	if err != nil || string(format.AppendValueText(nil, types.N)) != "[]" {
		t.Errorf("empty geo_types %v, %v", types, err)
	}
	bbox, types, _ := geoStats(&meta.GeospatialStatistics{BBox: &meta.BoundingBox{XMin: -1, XMax: 2, YMin: 0, YMax: 0.5}})
	if got := string(format.AppendValueText(nil, bbox.N)); got != "{'xmin': -1.0, 'xmax': 2.0, 'ymin': 0.0, 'ymax': 0.5, 'zmin': NULL, 'zmax': NULL, 'mmin': NULL, 'mmax': NULL}" || !types.Null {
		t.Errorf("geo_bbox %s, types %v", got, types)
	}
	if _, _, err := geoStats(&meta.GeospatialStatistics{GeospatialTypes: []int32{8}}); !errors.Is(err, planner.ErrInvalidInput) {
		t.Errorf("type 8: %v", err)
	}
	if _, _, err := geoStats(&meta.GeospatialStatistics{GeospatialTypes: []int32{-1}}); !errors.Is(err, planner.ErrInvalidInput) {
		t.Errorf("type -1: %v", err)
	}
}
