package thrift

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// craft encodes a struct whose fields body writes, for inputs the typed
// encoders cannot express.
func craft(body func(e *encoder)) []byte {
	e := newEncoder()
	e.structBody(func() { body(e) })
	b, err := e.bytes()
	if err != nil {
		panic(err)
	}
	return append([]byte(nil), b...)
}

// footer writes FileMetaData's required fields, then extra.
func footer(extra func(e *encoder)) []byte {
	return craft(func(e *encoder) {
		e.i32Field(1, 1)
		e.structList(2, 1, func(int) { e.stringField(4, "root") })
		e.i64Field(3, 0)
		e.structList(4, 0, nil)
		if extra != nil {
			extra(e)
		}
	})
}

// footerWithType writes a footer with one leaf whose logicalType body is lt.
func footerWithType(lt func(e *encoder)) []byte {
	return craft(func(e *encoder) {
		e.i32Field(1, 1)
		e.structList(2, 2, func(i int) {
			e.stringField(4, "x")
			if i == 1 {
				e.structField(10, func() { lt(e) })
			}
		})
		e.i64Field(3, 0)
		e.structList(4, 0, nil)
	})
}

// nested writes depth structs inside one another as field 100.
func nested(e *encoder, depth int) {
	if depth == 0 {
		return
	}
	e.structField(100, func() { nested(e, depth-1) })
}

func TestDecodeFileMetaDataErrors(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string // the whole error message
	}{
		{"empty", nil, "thrift: FileMetaData: EOF"},
		{"missing required", craft(func(e *encoder) {
			e.i32Field(1, 1)
			e.structList(2, 0, nil)
			e.structList(4, 0, nil)
		}), "thrift: FileMetaData: required field num_rows is missing"},
		{"required field of the wrong type", craft(func(e *encoder) {
			e.i64Field(1, 1)
			e.structList(2, 0, nil)
			e.i64Field(3, 0)
			e.structList(4, 0, nil)
		}), "thrift: FileMetaData: required field version has a wire type other than I32"},
		{"list of the wrong element type", craft(func(e *encoder) {
			e.i32Field(1, 1)
			e.i32List(2, []int32{1})
		}), "thrift: FileMetaData.schema: list of I32, want list of STRUCT"},
		{"list longer than the input", append(footer(nil)[:len(footer(nil))-1],
			0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07), // field 5 key_value_metadata: list of 2^31-1 structs
			"thrift: FileMetaData.key_value_metadata: container of 2147483647 elements needs at least 2147483647 bytes, only 0 remaining"},
		{"string longer than the input", append(footer(nil)[:len(footer(nil))-1],
			0x28, 0xe8, 0x07, 'a', 'b', 'c'), // field 6 created_by: 1000 bytes, 3 present
			"thrift: FileMetaData.created_by: length 1000 exceeds the 3 bytes left"},
		{"nesting too deep", footer(func(e *encoder) { nested(e, 100) }),
			"thrift: FileMetaData.field 100: Depth limit exceeded"},
		{"union with two members", footerWithType(func(e *encoder) {
			e.emptyField(1)
			e.emptyField(3)
		}), "thrift: FileMetaData.schema[1].logicalType: union has more than one member (fields 1 and 3)"},
		{"empty union", footerWithType(func(e *encoder) {}),
			"thrift: FileMetaData.schema[1].logicalType: union has no member"},
		{"union member id 0", footerWithType(func(e *encoder) { e.emptyField(0) }),
			"thrift: FileMetaData.schema[1].logicalType.field 0: union member field id 0 out of range"},
		{"time unit out of range", footerWithType(func(e *encoder) {
			e.structField(8, func() {
				e.boolField(1, true)
				e.structField(2, func() { e.emptyField(300) })
			})
		}), "thrift: FileMetaData.schema[1].logicalType.TIMESTAMP.unit.field 300: time unit field id 300 out of range"},
		{"deep path", craft(func(e *encoder) {
			e.i32Field(1, 1)
			e.structList(2, 0, nil)
			e.i64Field(3, 0)
			e.structList(4, 1, func(int) {
				e.structList(1, 2, func(i int) {
					e.i64Field(2, 0)
					if i == 1 {
						e.structField(3, func() {
							e.i32Field(1, 0)
							e.structField(12, func() { e.binaryField(6, nil) })
						})
					}
				})
				e.i64Field(2, 0)
				e.i64Field(3, 0)
			})
		}), "thrift: FileMetaData.row_groups[0].columns[1].meta_data: required field encodings is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := DecodeFileMetaData(tt.in)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v (footer %+v), want ErrCorrupt", err, m)
			}
			if err.Error() != tt.want {
				t.Errorf("err = %q\n want %q", err, tt.want)
			}
			if m != nil {
				t.Errorf("returned %+v with the error", m)
			}
		})
	}
}

func TestDecodeLenient(t *testing.T) {
	tests := []struct {
		name  string
		in    []byte
		check func(m *meta.FileMetaData) bool
	}{
		{"unknown fields are skipped", footer(func(e *encoder) {
			e.structField(50, func() { e.stringList(1, []string{"a"}) })
			e.doubleField(51, 1.5)
		}), func(m *meta.FileMetaData) bool { return m.Version == 1 && len(m.Schema) == 1 }},
		{"optional field of the wrong type is absent", footer(func(e *encoder) { e.i32Field(6, 7) }),
			func(m *meta.FileMetaData) bool { return m.CreatedBy == nil }},
		{"unknown column order", footer(func(e *encoder) {
			e.structList(7, 2, func(i int) { e.emptyField(int16(3 + i)) })
		}), func(m *meta.FileMetaData) bool {
			return reflect.DeepEqual(m.ColumnOrders, []meta.ColumnOrder{
				{Kind: meta.OrderUnknown, UnknownField: 3}, {Kind: meta.OrderUnknown, UnknownField: 4}})
		}},
		{"unknown logical type member of another wire type", footerWithType(func(e *encoder) { e.i32Field(40, 1) }),
			func(m *meta.FileMetaData) bool { return m.Schema[1].LogicalType.Unknown == 40 }},
		{"trailing bytes", append(footer(nil), 1, 2, 3),
			func(m *meta.FileMetaData) bool { return m.Version == 1 }},
		{"empty statistics bounds are present", craft(func(e *encoder) {
			e.i32Field(1, 1)
			e.structList(2, 0, nil)
			e.i64Field(3, 0)
			e.structList(4, 1, func(int) {
				e.structList(1, 1, func(int) {
					e.i64Field(2, 0)
					e.structField(3, func() {
						e.i32Field(1, 0)
						e.i32List(2, nil)
						e.stringList(3, nil)
						e.i32Field(4, 0)
						e.i64Field(5, 0)
						e.i64Field(6, 0)
						e.i64Field(7, 0)
						e.i64Field(9, 0)
						e.structField(12, func() { e.binaryField(6, nil) })
					})
				})
				e.i64Field(2, 0)
				e.i64Field(3, 0)
			})
		}), func(m *meta.FileMetaData) bool {
			s := m.RowGroups[0].Columns[0].MetaData.Statistics
			return s.HasMinValue && s.MinValue != nil && len(s.MinValue) == 0 && !s.HasMaxValue && s.MaxValue == nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := DecodeFileMetaData(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(m) {
				t.Errorf("unexpected footer %+v", m)
			}
		})
	}
}

func TestDataPageHeaderV2IsCompressedDefault(t *testing.T) {
	header := func(isCompressed *bool) []byte {
		return craft(func(e *encoder) {
			e.i32Field(1, int32(meta.DataPageV2))
			e.i32Field(2, 10)
			e.i32Field(3, 10)
			e.structField(8, func() {
				for id := int16(1); id <= 6; id++ {
					e.i32Field(id, 0)
				}
				e.optBool(7, isCompressed)
			})
		})
	}
	for _, tt := range []struct {
		in   *bool
		want bool
	}{{nil, true}, {p(true), true}, {p(false), false}} {
		h, _, err := DecodePageHeader(header(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if h.DataPageHeaderV2.IsCompressed != tt.want {
			t.Errorf("is_compressed %v: IsCompressed = %v, want %v", tt.in, h.DataPageHeaderV2.IsCompressed, tt.want)
		}
	}
}

func TestDecodeOtherErrors(t *testing.T) {
	tests := []struct {
		name   string
		decode func([]byte) error
		in     []byte
		want   string
	}{
		{"page header truncated", func(b []byte) error { _, _, err := DecodePageHeader(b); return err },
			[]byte{0x15, 0x00, 0x15}, "thrift: PageHeader.uncompressed_page_size: EOF"},
		{"page header missing sizes", func(b []byte) error { _, _, err := DecodePageHeader(b); return err },
			craft(func(e *encoder) { e.i32Field(1, 0) }), "thrift: PageHeader: required field uncompressed_page_size is missing"},
		{"column index list of pages too long", func(b []byte) error { _, err := DecodeColumnIndex(b); return err },
			[]byte{0x19, 0xf1, 0x80, 0x01}, "thrift: ColumnIndex.null_pages: container of 128 elements needs at least 128 bytes, only 0 remaining"},
		{"column index missing boundary order", func(b []byte) error { _, err := DecodeColumnIndex(b); return err },
			craft(func(e *encoder) {
				e.boolList(1, nil)
				e.binaryList(2, nil)
				e.binaryList(3, nil)
			}), "thrift: ColumnIndex: required field boundary_order is missing"},
		{"offset index location missing", func(b []byte) error { _, err := DecodeOffsetIndex(b); return err },
			craft(func(e *encoder) {
				e.structList(1, 2, func(i int) {
					e.i64Field(1, 4)
					e.i32Field(2, 10)
					if i == 0 {
						e.i64Field(3, 0)
					}
				})
			}), "thrift: OffsetIndex.page_locations[1]: required field first_row_index is missing"},
		{"bloom filter header with an empty union", func(b []byte) error { _, _, err := DecodeBloomFilterHeader(b); return err },
			craft(func(e *encoder) {
				e.i32Field(1, 32)
				e.structField(2, func() {})
			}), "thrift: BloomFilterHeader.algorithm: union has no member"},
		{"column metadata of the wrong wire types", func(b []byte) error { _, err := DecodeColumnMetaData(b); return err },
			[]byte{0x15}, "thrift: ColumnMetaData.type: EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode(tt.in)
			if !errors.Is(err, ErrCorrupt) || err.Error() != tt.want {
				t.Errorf("err = %v\nwant ErrCorrupt: %s", err, tt.want)
			}
		})
	}
}

func TestBloomFilterUnknownMembers(t *testing.T) {
	in := craft(func(e *encoder) {
		e.i32Field(1, 32)
		for id := int16(2); id <= 4; id++ {
			e.structField(id, func() { e.emptyField(2) })
		}
	})
	h, n, err := DecodeBloomFilterHeader(in)
	if err != nil {
		t.Fatal(err)
	}
	want := meta.BloomFilterHeader{NumBytes: 32}
	if *h != want || n != len(in) {
		t.Errorf("got %+v (n=%d), want %+v (n=%d)", *h, n, want, len(in))
	}
}

// testFooters returns a synthetic footer with every field set and, when the
// corpus is present, a few real footers that between them use most of
// parquet.thrift: page indexes, IEEE 754 order, NaN counts, exact flags,
// geospatial statistics, unknown logical types, size statistics.
func testFooters(t testing.TB) map[string][]byte {
	full, err := EncodeFileMetaData(fullFileMetaData())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{"synthetic": full}
	shared := findShared()
	if shared == "" {
		t.Log("corpus absent: using the synthetic footer only")
		return out
	}
	data := filepath.Join(shared, "parquet-testing", "data")
	for _, name := range []string{
		"floating_orders_nan_count.parquet",
		"binary_truncated_min_max.parquet",
		"geospatial/geospatial-with-nan.parquet",
		"unknown-logical-type.parquet",
		"alltypes_tiny_pages.parquet",
		"encrypt_columns_plaintext_footer.parquet.encrypted",
	} {
		out[name] = readFooter(t, filepath.Join(data, name))
	}
	return out
}

// TestTruncatedFooters decodes every proper prefix of real footers: each must
// fail with ErrCorrupt, since the footer's final stop byte is missing.
func TestTruncatedFooters(t *testing.T) {
	for name, full := range testFooters(t) {
		// A plaintext footer of an encrypted file ends in a 28-byte
		// signature after the struct; only cuts inside the struct count.
		d := newDecoder(full)
		if err := d.fileMetaData(new(meta.FileMetaData)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		end := d.r.pos
		if name == "encrypt_columns_plaintext_footer.parquet.encrypted" && end != len(full)-28 {
			t.Errorf("%s: struct ends at %d of %d bytes, want a 28-byte signature after it", name, end, len(full))
		}
		for n := range end {
			m, err := DecodeFileMetaData(full[:n])
			if !errors.Is(err, ErrCorrupt) || m != nil {
				t.Fatalf("%s cut to %d of %d bytes: footer %v, err %v; want ErrCorrupt", name, n, len(full), m != nil, err)
			}
		}
	}
}

// TestBitFlippedFooters flips every bit of real footers in turn. Many flips
// still decode (a changed number is still a number), but none may panic, and
// every failure must be ErrCorrupt with a path.
func TestBitFlippedFooters(t *testing.T) {
	for name, full := range testFooters(t) {
		if len(full) > 4000 {
			continue // keep the run short; the smaller footers cover the same structs
		}
		b := bytes.Clone(full)
		failed := 0
		for i := range b {
			for bit := range 8 {
				b[i] ^= 1 << bit
				_, err := DecodeFileMetaData(b)
				b[i] ^= 1 << bit
				if err == nil {
					continue
				}
				failed++
				if !errors.Is(err, ErrCorrupt) || !strings.HasPrefix(err.Error(), "thrift: FileMetaData") {
					t.Fatalf("%s, byte %d bit %d: err = %v, want ErrCorrupt with a path", name, i, bit, err)
				}
			}
		}
		if failed == 0 {
			t.Errorf("%s: no bit flip was detected", name)
		}
	}
}

// TestPageHeaderSizeReported checks n against the bytes a real header used.
func TestPageHeaderSizeReported(t *testing.T) {
	h := &meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 3, CompressedPageSize: 3,
		DataPageHeader: &meta.DataPageHeader{NumValues: 1}}
	b, err := EncodePageHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(b) {
		if _, _, err := DecodePageHeader(b[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("header cut to %d bytes: err = %v, want ErrCorrupt", n, err)
		}
	}
	// The protocol must not read ahead into the page.
	_, n, err := DecodePageHeader(append(b, 0x15, 0x15, 0x15))
	if err != nil || n != len(b) {
		t.Errorf("n = %d, err = %v; want %d", n, err, len(b))
	}
}

// TestDecoderReuse decodes in an order that would expose protocol state
// (a pending bool, the field-id stack) leaking from one pooled decoder use
// into the next.
func TestDecoderReuse(t *testing.T) {
	v2 := func(isCompressed *bool) []byte {
		return craft(func(e *encoder) {
			e.i32Field(1, int32(meta.DataPageV2))
			e.i32Field(2, 1)
			e.i32Field(3, 1)
			e.structField(8, func() {
				for id := int16(1); id <= 6; id++ {
					e.i32Field(id, 0)
				}
				e.optBool(7, isCompressed)
			})
		})
	}
	inputs := []struct {
		in         []byte
		ok         bool
		compressed bool
	}{
		{v2(p(false)), true, false},
		{v2(nil), true, true},
		{v2(p(false))[:9], false, false}, // fails inside the nested struct
		{v2(nil), true, true},
		{craft(func(e *encoder) { e.boolField(9, true) }), false, false}, // an unknown bool, then missing fields
		{v2(nil), true, true},
	}
	for round := range 3 {
		for i, tt := range inputs {
			h, _, err := DecodePageHeader(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("round %d input %d: err = %v, want success %v", round, i, err, tt.ok)
			}
			if tt.ok && h.DataPageHeaderV2.IsCompressed != tt.compressed {
				t.Fatalf("round %d input %d: IsCompressed = %v, want %v", round, i, h.DataPageHeaderV2.IsCompressed, tt.compressed)
			}
		}
	}
}
