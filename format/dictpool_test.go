package format

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/klauspost/compress/snappy"

	"github.com/pqsql/pqsql/format/internal/craft"
	"github.com/pqsql/pqsql/format/meta"
)

// dictCase is a one-column file whose chunk is a dictionary page and one
// RLE_DICTIONARY data page whose rows are the entries idx.
type dictCase struct {
	typ   meta.Type
	codec meta.CompressionCodec
	// plain is the dictionary page's PLAIN body, n entries of it.
	plain []byte
	n     int
	idx   []uint32
	// stated, when not 0, is the uncompressed size the page header claims.
	stated int32
}

func (c dictCase) build(t *testing.T) *File {
	t.Helper()
	body := c.plain
	size := int32(len(body))
	if c.codec == meta.Snappy {
		body = snappy.Encode(nil, body)
	}
	if c.stated != 0 {
		size = c.stated
	}
	dict := craft.Page{Header: meta.PageHeader{Type: meta.DictionaryPage, UncompressedPageSize: size,
		DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: int32(c.n), Encoding: meta.Plain}}, Body: body}
	// Indices bit-packed one run per row: simple, and any width works.
	const width = 8
	data := []byte{width}
	for _, i := range c.idx {
		data = craft.RLERun(data, 1, i, width)
	}
	dataSize := int32(len(data))
	if c.codec == meta.Snappy {
		data = snappy.Encode(nil, data)
	}
	page := craft.Page{Header: meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: dataSize, DataPageHeader: &meta.DataPageHeader{
		NumValues: int32(len(c.idx)), Encoding: meta.RLEDictionary, DefinitionLevelEncoding: meta.RLE, RepetitionLevelEncoding: meta.RLE}}, Body: data}
	b, err := craft.Build(craft.File{NumRows: -1, Schema: flatSchema(column("v", c.typ, meta.Required)),
		RowGroups: []craft.RowGroup{{NumRows: int64(len(c.idx)), Chunks: []craft.Chunk{{Codec: c.codec, NumValues: int64(len(c.idx)),
			Pages: []craft.Page{dict, page}, Meta: func(cc *meta.ColumnChunk) {
				cc.MetaData.Encodings = []meta.Encoding{meta.Plain, meta.RLEDictionary}
			}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := OpenSource(BytesSource(b), "dict.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// plainOf is the PLAIN form of the numbers vals as type t.
func plainOf(t meta.Type, vals []float64) []byte {
	var b []byte
	for _, v := range vals {
		switch t {
		case meta.Int32:
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
		case meta.Int64:
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(v)))
		case meta.Float:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
		case meta.Double:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// plainStrings is the PLAIN form of byte arrays.
func plainStrings(vals []string) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
		b = append(b, v...)
	}
	return b
}

// plainEntry is entry i of a PLAIN page of fixed-width values.
func plainEntry(t meta.Type, page []byte, i int) []byte {
	w := int(valueBytes(t))
	return page[i*w : (i+1)*w]
}

// TestDictionaryReadInPlace reads dictionaries of every fixed-width number
// type, stored and compressed, and one of byte arrays: the entries, NaNs
// with their payloads, -0 and duplicates included, are the page's bits,
// rows are their entries, and a closed reader's dictionary storage serves
// later dictionaries without changing one still held.
func TestDictionaryReadInPlace(t *testing.T) {
	nan32 := math.Float32frombits(0x7fc00001)
	floats := plainOf(meta.Float, []float64{1.5, math.NaN(), math.Copysign(0, -1), math.Inf(1), 1.5})
	floats = binary.LittleEndian.AppendUint32(floats, math.Float32bits(nan32))
	doubles := plainOf(meta.Double, []float64{1.5, math.NaN(), math.Copysign(0, -1), math.Inf(-1), 1.5})
	doubles = binary.LittleEndian.AppendUint64(doubles, 0x7ff8000000000001)
	ints := []float64{3, -7, 3, 0, math.MaxInt32, math.MinInt32}
	pages := map[meta.Type][]byte{
		meta.Int32:  plainOf(meta.Int32, ints),
		meta.Int64:  append(plainOf(meta.Int64, ints), plainOf(meta.Int64, []float64{1 << 40, -1 << 50})...),
		meta.Float:  floats,
		meta.Double: doubles,
	}
	for _, codec := range []meta.CompressionCodec{meta.Uncompressed, meta.Snappy} {
		for _, typ := range []meta.Type{meta.Int32, meta.Int64, meta.Float, meta.Double} {
			page := pages[typ]
			n := len(page) / int(valueBytes(typ))
			idx := []uint32{0, uint32(n - 1), 2, 1, 0}
			for i := range n {
				idx = append(idx, uint32(i))
			}
			c := dictCase{typ: typ, codec: codec, plain: page, n: n, idx: idx}
			name := typ.String() + "/" + codec.String()
			f := c.build(t)
			held, _, err := f.ReadDictionary(0, 0, nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkEntries(t, name+": dictionary", held, page, typ, nil)
			// A dictionary read and released, then another: the page of
			// the first may serve the second; the one held stays.
			for range 3 {
				d, _, err := f.ReadDictionary(0, 0, nil)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkEntries(t, name+": dictionary read again", d, page, typ, nil)
				ReleaseDictionary(d)
				if littleEndian && d.Len() != 0 {
					t.Fatalf("%s: a released dictionary of numbers keeps %d entries", name, d.Len())
				}
			}
			whole, err := f.ReadColumn(0, 0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkEntries(t, name+": rows", &whole.Values, page, typ, idx)
			r, err := f.NewPageReader(0, 0, Range{}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			r.KeepIndices()
			cd, err := r.Next()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkEntries(t, name+": reader's dictionary", cd.Dict, page, typ, nil)
			for k, i := range cd.Indices {
				if uint32(i) != idx[k] {
					t.Fatalf("%s: row %d has index %d, want %d", name, k, i, idx[k])
				}
			}
			d := cd.Dict
			r.Close()
			if littleEndian && d.Len() != 0 {
				t.Fatalf("%s: Close kept the %d entries of the reader's dictionary", name, d.Len())
			}
			checkEntries(t, name+": dictionary held through the rest", held, page, typ, nil)
		}
		strs := []string{"b", "", "a", "b", "ccc"}
		c := dictCase{typ: meta.ByteArray, codec: codec, plain: plainStrings(strs), n: len(strs), idx: []uint32{4, 1, 0, 3}}
		f := c.build(t)
		d, _, err := f.ReadDictionary(0, 0, nil)
		if err != nil {
			t.Fatalf("byte arrays: %v", err)
		}
		ReleaseDictionary(d) // byte arrays are the collector's
		for i, s := range strs {
			if d.Len() != len(strs) || string(d.Bytes[i]) != s {
				t.Fatalf("byte arrays (%s): entry %d of %d is %q, want %q", codec, i, d.Len(), d.Bytes[i], s)
			}
		}
	}
}

// checkEntries checks that value k of v is, in its PLAIN bits, entry
// idx[k] of page (entry k when idx is nil).
func checkEntries(t *testing.T, what string, v *Values, page []byte, typ meta.Type, idx []uint32) {
	t.Helper()
	n := len(page) / int(valueBytes(typ))
	if idx != nil {
		n = len(idx)
	}
	if v == nil || v.Len() != n {
		t.Fatalf("%s: %v values, want %d", what, v, n)
	}
	for k := range n {
		i := k
		if idx != nil {
			i = int(idx[k])
		}
		if got, want := v.PlainBytes(k, nil), plainEntry(typ, page, i); string(got) != string(want) {
			t.Fatalf("%s: value %d is %x, want %x", what, k, got, want)
		}
	}
}

// TestDictionaryPageSizeLies reads dictionary pages whose header lies about
// their entries or size: too few bytes for the entries claimed fails as a
// corrupt file, whether the page is stored or compressed and whatever the
// width; bytes past the entries are ignored, as PLAIN pages' are.
func TestDictionaryPageSizeLies(t *testing.T) {
	four := plainOf(meta.Int64, []float64{1, 2, 3, 4})
	for _, codec := range []meta.CompressionCodec{meta.Uncompressed, meta.Snappy} {
		for _, c := range []struct {
			name string
			dictCase
			want []int64
		}{
			{name: "more entries than bytes", dictCase: dictCase{typ: meta.Int64, plain: four, n: 5}},
			{name: "a float cut short", dictCase: dictCase{typ: meta.Float, plain: four[:7], n: 2}},
			{name: "bytes past the entries", dictCase: dictCase{typ: meta.Int64, plain: append(four, 9, 9, 9), n: 4}, want: []int64{1, 2, 3, 4}},
			{name: "fewer entries than bytes", dictCase: dictCase{typ: meta.Int64, plain: four, n: 3}, want: []int64{1, 2, 3}},
			{name: "a larger size stated", dictCase: dictCase{typ: meta.Int64, plain: four, n: 4, stated: 64}},
			{name: "a smaller size stated", dictCase: dictCase{typ: meta.Int64, plain: four, n: 4, stated: 16}},
		} {
			if c.stated != 0 && codec == meta.Uncompressed {
				continue // a stored page's size is its body's
			}
			c.codec, c.idx = codec, []uint32{0}
			name := c.name + "/" + codec.String()
			f := c.build(t)
			d, _, err := f.ReadDictionary(0, 0, nil)
			if c.want == nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s: got %v, want a corrupt file", name, err)
				}
				if _, err := f.ReadColumn(0, 0); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s: reading the column: got %v, want a corrupt file", name, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(d.Int64) != len(c.want) {
				t.Fatalf("%s: %d entries, want %d", name, len(d.Int64), len(c.want))
			}
			for i, v := range c.want {
				if d.Int64[i] != v {
					t.Fatalf("%s: entry %d is %d, want %d", name, i, d.Int64[i], v)
				}
			}
		}
	}
}
