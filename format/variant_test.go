package format

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// Builders of Variant binaries with 1-byte sizes, ids and offsets.

func vmeta(keys ...string) []byte {
	b := []byte{0x01, byte(len(keys)), 0}
	n := 0
	for _, k := range keys {
		n += len(k)
		b = append(b, byte(n))
	}
	for _, k := range keys {
		b = append(b, k...)
	}
	return b
}

func vprim(t VariantType, data ...byte) []byte { return append([]byte{byte(t) << 2}, data...) }

func vshort(s string) []byte { return append([]byte{byte(len(s))<<2 | 1}, s...) }

func vlong(t VariantType, s string) []byte {
	return append(binary.LittleEndian.AppendUint32([]byte{byte(t) << 2}, uint32(len(s))), s...)
}

func vle(t VariantType, v uint64, n int) []byte {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	return vprim(t, b[:n]...)
}

// vcontainer lays out an array (ids nil) or an object.
func vcontainer(ids []byte, vals ...[]byte) []byte {
	b := []byte{3, byte(len(vals))}
	if ids != nil {
		b = append([]byte{2, byte(len(vals))}, ids...)
	}
	off := 0
	for _, v := range vals {
		b = append(b, byte(off))
		off += len(v)
	}
	b = append(b, byte(off))
	for _, v := range vals {
		b = append(b, v...)
	}
	return b
}

func varr(vals ...[]byte) []byte { return vcontainer(nil, vals...) }

func vobj(ids []byte, vals ...[]byte) []byte { return vcontainer(ids, vals...) }

func variantText(v Value) string {
	if v == nil {
		return "NULL"
	}
	return string(AppendValueText(nil, v))
}

func TestDecodeVariant(t *testing.T) {
	empty := vmeta()
	keys := vmeta("a", "b", "c")
	dec16 := make([]byte, 17)
	dec16[0] = 3
	binary.LittleEndian.PutUint64(dec16[1:], uint64(math.MaxUint64-12344)) // -12345, sign-extended
	binary.LittleEndian.PutUint64(dec16[9:], math.MaxUint64)
	uuid := []byte{0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1, 0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56}
	for _, tc := range []struct {
		name        string
		meta, value []byte
		want        string
	}{
		{"null", empty, vprim(VariantNull), "NULL"},
		{"true", empty, vprim(VariantTrue), "true"},
		{"false", empty, vprim(VariantFalse), "false"},
		{"int8", empty, vle(VariantInt8, uint64(0xde), 1), "-34"},
		{"int16", empty, vle(VariantInt16, 1234, 2), "1234"},
		{"int32", empty, vle(VariantInt32, uint64(0xffffcfc7), 4), "-12345"},
		{"int64", empty, vle(VariantInt64, 9876543210, 8), "9876543210"},
		{"double", empty, vle(VariantDouble, math.Float64bits(14.3), 8), "14.3"},
		{"negative zero", empty, vle(VariantDouble, math.Float64bits(math.Copysign(0, -1)), 8), "-0.0"},
		{"float", empty, vle(VariantFloat, uint64(math.Float32bits(10.11)), 4), "10.11"},
		{"decimal4", empty, vprim(VariantDecimal4, 4, 0x15, 0xcd, 0x5b, 0x07), "12345.6789"},
		{"decimal8", empty, vprim(VariantDecimal8, 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), "-0.01"},
		{"decimal16", empty, vprim(VariantDecimal16, dec16...), "-12.345"},
		{"date", empty, vle(VariantDate, 20034, 4), "2024-11-07"},
		{"timestamptz", empty, vle(VariantTimestamp, 1730982834123456, 8), "2024-11-07 12:33:54.123456+00"},
		{"timestampntz", empty, vle(VariantTimestampNTZ, uint64(0xfffea34d346fb2c0), 8), "1957-11-07 12:33:54.123456"},
		{"timestamptz nanos truncates", empty, vle(VariantTimestampNanos, nanos1957, 8), "1957-11-07 12:33:54.123457+00"},
		{"timestampntz nanos", empty, vle(VariantTimestampNTZNanos, 1730982834123456789, 8), "2024-11-07 12:33:54.123456789"},
		{"time", empty, vle(VariantTime, 45234123456, 8), "12:33:54.123456"},
		{"binary", empty, vlong(VariantBinary, "\x0a\x0b'"), `\x0A\x0B\x27`},
		{"long string", empty, vlong(VariantString, "iceberg"), "iceberg"},
		{"short string", empty, vshort("comedy"), "comedy"},
		{"uuid", empty, vprim(VariantUUID, uuid...), "f24f9b64-81fa-49d1-b74e-8c09a6e31c56"},
		{"array", empty, varr(vshort("comedy"), vprim(VariantNull), vshort("")), "[comedy, NULL, '']"},
		{"empty array", empty, varr(), "[]"},
		{"nested quoting", empty, varr(vshort("a, b"), vle(VariantTimestampNTZ, 0, 8)), "['a, b', '1970-01-01 00:00:00']"},
		{"object", keys, vobj([]byte{0, 2}, vle(VariantInt8, 1, 1), varr(vshort("x"))), "{'a': 1, 'c': [x]}"},
		{"empty object", keys, vobj([]byte{}), "{}"},
		{"nested object", keys, vobj([]byte{1}, vobj([]byte{0}, vprim(VariantNull))), "{'b': {'a': NULL}}"},
		{"trailing bytes ignored", empty, append(vprim(VariantTrue), 9, 9), "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := DecodeVariant(tc.meta, tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if got := variantText(v); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// nanos1957 is 1957-11-07 12:33:54.123456789 UTC in nanoseconds.
var nanos1957 = func() uint64 { n := int64(-383397965876543211); return uint64(n) }()

func TestDecodeVariantRefusesMalformed(t *testing.T) {
	empty := vmeta()
	// An array of 100 elements that all start at the same nested array:
	// sharing bytes would multiply the work without the budget.
	shared := []byte{3, 100}
	for i := 0; i <= 100; i++ {
		shared = append(shared, 0)
	}
	shared[len(shared)-1] = 1
	shared = append(shared, vprim(VariantTrue)...)
	// 200 arrays of one element each, with 2-byte offsets.
	deep := vprim(VariantTrue)
	for i := 0; i < 200; i++ {
		deep = append([]byte{3 | 1<<2, 1, 0, 0, byte(len(deep)), byte(len(deep) >> 8)}, deep...)
	}
	for _, tc := range []struct {
		name        string
		meta, value []byte
		want        error
	}{
		{"empty value", empty, nil, ErrCorrupt},
		{"empty metadata", nil, vprim(VariantTrue), ErrCorrupt},
		{"metadata version 2", []byte{0x02, 0, 0}, vprim(VariantTrue), ErrUnsupported},
		{"metadata too short", []byte{0x01, 5, 0}, vprim(VariantTrue), ErrCorrupt},
		{"truncated int64", empty, vle(VariantInt64, 1, 7), ErrCorrupt},
		{"truncated short string", empty, vshort("abc")[:3], ErrCorrupt},
		{"string longer than value", empty, vlong(VariantString, "abc")[:6], ErrCorrupt},
		{"unknown primitive", empty, vprim(30), ErrUnsupported},
		{"decimal scale 39", empty, vprim(VariantDecimal4, 39, 0, 0, 0, 0), ErrCorrupt},
		{"field id outside dictionary", vmeta("a"), vobj([]byte{1}, vprim(VariantTrue)), ErrCorrupt},
		{"dictionary offset past end", []byte{0x01, 1, 0, 9, 'a'}, vobj([]byte{0}, vprim(VariantTrue)), ErrCorrupt},
		{"count past end", empty, []byte{3, 200, 0, 1}, ErrCorrupt},
		{"large count past end", empty, []byte{3 | 4<<2, 0xff, 0xff, 0xff, 0x7f}, ErrCorrupt},
		{"values end past bytes", empty, []byte{3, 1, 0, 5, 4}, ErrCorrupt},
		{"offset at end", empty, []byte{3, 1, 1, 1, 4}, ErrCorrupt},
		{"shared bytes", empty, shared, ErrCorrupt},
		{"nesting too deep", empty, deep, ErrLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := DecodeVariant(tc.meta, tc.value)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, %v; want %v", variantText(v), err, tc.want)
			}
		})
	}
}

// variantCase is one entry of shredded_variant/cases.json.
type variantCase struct {
	Number       int       `json:"case_number"`
	Test         string    `json:"test"`
	ParquetFile  string    `json:"parquet_file"`
	VariantFile  *string   `json:"variant_file"`
	VariantFiles []*string `json:"variant_files"`
	Error        string    `json:"error_message"`
}

// splitVariantBin splits a *.variant.bin file into metadata and value.
func splitVariantBin(b []byte) (metadata, value []byte, err error) {
	m, err := parseVariantMetadata(b)
	if err != nil {
		return nil, nil, err
	}
	end := readUintLE(b[1+m.offSize*(m.size+1):], m.offSize)
	n := uint64(m.strs) + end
	if n > uint64(len(b)) {
		return nil, nil, fmt.Errorf("metadata of %d bytes in a file of %d", n, len(b))
	}
	return b[:n], b[n:], nil
}

// Every shredded_variant case reads back as the Variant its .variant.bin
// holds, including the valid ones DuckDB refuses; the invalid ones fail.
func TestShreddedVariantCases(t *testing.T) {
	dir := filepath.Join(testcorpus.Shared(t), "parquet-testing", "shredded_variant")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []variantCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, c := range cases {
		if c.ParquetFile == "" {
			continue
		}
		t.Run(c.ParquetFile, func(t *testing.T) {
			f, err := Open(filepath.Join(dir, c.ParquetFile))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got := f.Schema.Fields[1].TypeName(); got != "VARIANT" {
				t.Errorf("type %s, want VARIANT", got)
			}
			rows, err := renderFile(f)
			switch {
			case c.Error == "" && strings.Contains(c.ParquetFile, "INVALID"):
				// Shredded fields repeated in value: readers may differ, and
				// the corpus test holds these to DuckDB's answer.
				return
			case c.Error == "":
			case c.Number == 87 || c.Number == 128:
				// A non-object value beside shredded object fields.
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("want ErrCorrupt, got %v", err)
				}
				return
			case c.Number == 40 || c.Number == 42:
				// value and typed_value conflict; typed_value wins, as in DuckDB.
				want := map[int]string{40: "[comedy]", 42: "34"}[c.Number]
				if err != nil || len(rows) != 1 || deref(rows[0][1]) != want {
					t.Fatalf("got %v, %v; want %s", rows, err, want)
				}
				return
			default:
				// Unsupported typed_value types (UINT32, FIXED_LEN_BYTE_ARRAY)
				// that are null in every row: the rows are missing, so NULL.
				if err != nil || len(rows) != 1 || rows[0][1] != nil {
					t.Fatalf("got %v, %v; want one NULL", rows, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			files := c.VariantFiles
			if c.VariantFile != nil {
				files = []*string{c.VariantFile}
			}
			if len(rows) != len(files) {
				t.Fatalf("%d rows, %d variant files", len(rows), len(files))
			}
			for r, name := range files {
				want := "NULL"
				if name != nil {
					b, err := os.ReadFile(filepath.Join(dir, *name))
					if err != nil {
						t.Fatal(err)
					}
					md, val, err := splitVariantBin(b)
					if err != nil {
						t.Fatal(err)
					}
					v, err := DecodeVariant(md, val)
					if err != nil {
						t.Fatalf("%s: %v", *name, err)
					}
					want = variantText(v)
				}
				if got := deref(rows[r][1]); rows[r][1] == nil && want != "NULL" || rows[r][1] != nil && got != want {
					t.Errorf("row %d: got %s, want %s", r, show(rows[r][1]), want)
				}
				compared++
			}
		})
	}
	if compared < 120 {
		t.Errorf("compared only %d rows", compared)
	}
}

// schemaElems builds a schema from (name, type or -1 for a group,
// repetition, children, logical type) rows.
type elem struct {
	name     string
	typ      int
	rep      meta.Repetition
	children int32
	lt       *meta.LogicalType
}

func buildSchema(t *testing.T, rows ...elem) *Schema {
	t.Helper()
	var out []meta.SchemaElement
	for i, r := range rows {
		e := meta.SchemaElement{Name: r.name, LogicalType: r.lt}
		if i > 0 {
			rep := r.rep
			e.RepetitionType = &rep
		}
		if r.typ >= 0 {
			pt := meta.Type(r.typ)
			e.Type = &pt
		} else {
			n := r.children
			e.NumChildren = &n
		}
		out = append(out, e)
	}
	s, err := NewSchema(out)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestVariantFieldLayout(t *testing.T) {
	variant := &meta.LogicalType{Variant: &meta.VariantType{}}
	list := &meta.LogicalType{List: &struct{}{}}
	ba := int(meta.ByteArray)
	for _, tc := range []struct {
		name string
		rows []elem
		want string
	}{
		{"unshredded", []elem{{"var", -1, meta.Optional, 2, variant}, {"metadata", ba, meta.Required, 0, nil}, {"value", ba, meta.Required, 0, nil}}, "VARIANT"},
		{"value missing", []elem{{"var", -1, meta.Optional, 2, variant}, {"metadata", ba, meta.Required, 0, nil}, {"typed_value", int(meta.Int32), meta.Optional, 0, nil}}, "VARIANT"},
		{"shredded list", []elem{{"var", -1, meta.Optional, 3, variant}, {"metadata", ba, meta.Required, 0, nil}, {"value", ba, meta.Optional, 0, nil},
			{"typed_value", -1, meta.Optional, 1, list}, {"list", -1, meta.Repeated, 1, nil}, {"element", -1, meta.Required, 1, nil}, {"value", ba, meta.Optional, 0, nil}}, "VARIANT"},
		{"repeated variant", []elem{{"var", -1, meta.Repeated, 2, variant}, {"metadata", ba, meta.Required, 0, nil}, {"value", ba, meta.Required, 0, nil}}, "VARIANT[]"},
		{"metadata missing", []elem{{"var", -1, meta.Optional, 1, variant}, {"value", ba, meta.Required, 0, nil}}, `STRUCT("value" BLOB)`},
		{"metadata not binary", []elem{{"var", -1, meta.Optional, 2, variant}, {"metadata", int(meta.Int32), meta.Required, 0, nil}, {"value", ba, meta.Required, 0, nil}},
			`STRUCT(metadata INTEGER, "value" BLOB)`},
		{"unknown member", []elem{{"var", -1, meta.Optional, 2, variant}, {"metadata", ba, meta.Required, 0, nil}, {"extra", ba, meta.Required, 0, nil}},
			"STRUCT(metadata BLOB, extra BLOB)"},
		{"object field without members", []elem{{"var", -1, meta.Optional, 2, variant}, {"metadata", ba, meta.Required, 0, nil},
			{"typed_value", -1, meta.Optional, 1, nil}, {"a", -1, meta.Required, 1, nil}, {"x", ba, meta.Optional, 0, nil}},
			"STRUCT(metadata BLOB, typed_value STRUCT(a STRUCT(x BLOB)))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := append([]elem{{"schema", -1, 0, 1, nil}}, tc.rows...)
			s := buildSchema(t, rows...)
			if got := s.Fields[0].TypeName(); got != tc.want {
				t.Errorf("type %s, want %s", got, tc.want)
			}
		})
	}
}

func FuzzDecodeVariant(f *testing.F) {
	f.Add(vmeta("a", "b"), vobj([]byte{0, 1}, varr(vshort("x"), vle(VariantInt64, 7, 8)), vlong(VariantString, "y")))
	f.Add(vmeta(), vprim(VariantDecimal16, make([]byte, 17)...))
	f.Fuzz(func(t *testing.T, md, value []byte) {
		v, err := DecodeVariant(md, value)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if text := AppendValueText(nil, v); len(text) > 64*(len(md)+len(value))+(1<<20)*2 {
			t.Fatalf("%d bytes of text from %d of input", len(text), len(md)+len(value))
		}
	})
}

// FuzzVariantFile renders mutated shredded-variant files: errors are fine,
// panics are not.
func FuzzVariantFile(f *testing.F) {
	for _, n := range []string{"001", "044", "083", "084-INVALID", "126", "134", "136"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "shared", "parquet-testing", "shredded_variant", "case-"+n+".parquet")); err == nil {
			f.Add(b)
		}
	}
	limits := Limits{MaxFooterSize: 1 << 20, MaxPageSize: 4 << 20, MaxPageHeaderSize: 1 << 16, MaxDictionaryValues: 1 << 16, MaxPageValues: 1 << 20, MaxDecodedBytes: 64 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := OpenSource(BytesSource(data), "fuzz.parquet", limits)
		if err != nil {
			return
		}
		renderFile(file)
	})
}
