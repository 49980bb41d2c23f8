package compress

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"

	"github.com/pqsql/pqsql/format/meta"
)

// compactReader reads just enough of the thrift compact protocol to walk
// page headers; the real decoder lives in format/internal/thrift.
type compactReader struct {
	b   []byte
	pos int
	err error
}

func (r *compactReader) byte() byte {
	if r.pos >= len(r.b) {
		r.err = errors.New("eof")
		return 0
	}
	r.pos++
	return r.b[r.pos-1]
}

func (r *compactReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b[min(r.pos, len(r.b)):])
	if n <= 0 {
		r.err = errors.New("bad varint")
		return 0
	}
	r.pos += n
	return v
}

func (r *compactReader) varint() int64 { u := r.uvarint(); return int64(u>>1) ^ -int64(u&1) }

// structFields reads a struct, returning its integer and boolean fields and
// its nested structs by field id.
func (r *compactReader) structFields(depth int) (map[int]int64, map[int]map[int]int64) {
	ints, structs := map[int]int64{}, map[int]map[int]int64{}
	id := 0
	for r.err == nil {
		h := r.byte()
		if h == 0 {
			break
		}
		if d := int(h >> 4); d != 0 {
			id += d
		} else {
			id = int(r.varint())
		}
		switch typ := h & 0x0f; typ {
		case 12:
			in, _ := r.structFields(depth + 1)
			structs[id] = in
		default:
			if v, ok := r.value(typ, depth); ok {
				ints[id] = v
			}
		}
	}
	return ints, structs
}

func (r *compactReader) value(typ byte, depth int) (int64, bool) {
	if depth > 10 {
		r.err = errors.New("too deep")
		return 0, false
	}
	switch typ {
	case 1:
		return 1, true
	case 2:
		return 0, true
	case 3:
		return int64(r.byte()), true
	case 4, 5, 6:
		return r.varint(), true
	case 7:
		r.pos += 8
	case 8:
		r.pos += int(r.uvarint())
	case 9, 10:
		h := r.byte()
		n := int(h >> 4)
		if n == 15 {
			n = int(r.uvarint())
		}
		for i := 0; i < n && r.err == nil; i++ {
			if h&0x0f == 1 || h&0x0f == 2 {
				r.byte() // booleans in lists take a byte each
			} else {
				r.elem(h&0x0f, depth)
			}
		}
	case 11:
		n := int(r.uvarint())
		if n > 0 {
			kv := r.byte()
			for i := 0; i < n && r.err == nil; i++ {
				r.elem(kv>>4, depth)
				r.elem(kv&0x0f, depth)
			}
		}
	default:
		r.err = fmt.Errorf("type %d", typ)
	}
	return 0, false
}

func (r *compactReader) elem(typ byte, depth int) {
	if typ == 12 {
		r.structFields(depth + 1)
		return
	}
	r.value(typ, depth+1)
}

// Every page of these real files decompresses to the size its header
// declares.
func TestCorpus(t *testing.T) {
	dir := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data")
	tests := []struct {
		file  string
		codec meta.CompressionCodec
	}{
		{"hadoop_lz4_compressed.parquet", meta.LZ4},
		{"hadoop_lz4_compressed_larger.parquet", meta.LZ4},
		{"non_hadoop_lz4_compressed.parquet", meta.LZ4},
		{"lz4_raw_compressed.parquet", meta.LZ4Raw},
		{"lz4_raw_compressed_larger.parquet", meta.LZ4Raw},
		{"concatenated_gzip_members.parquet", meta.Gzip},
		{"large_string_map.brotli.parquet", meta.Brotli},
		{"byte_stream_split.zstd.parquet", meta.Zstd},
		{"alltypes_plain.snappy.parquet", meta.Snappy},
		{"datapage_v2.snappy.parquet", meta.Snappy},
		{"page_v2_empty_compressed.parquet", meta.Zstd},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			footer := len(b) - 8 - int(binary.LittleEndian.Uint32(b[len(b)-8:]))
			pages, skipped := 0, 0
			for pos := 4; pos < footer; {
				r := compactReader{b: b[:footer], pos: pos}
				h, sub := r.structFields(0)
				typ, okT := h[1]
				usize, okU := h[2]
				csize, okC := h[3]
				if r.err != nil {
					break
				}
				if !okT || !okU || !okC || typ < 0 || typ > 3 || csize < 0 || r.pos+int(csize) > footer {
					// Not a page: old parquet-cpp writes each chunk's
					// metadata after it; indexes follow the chunks.
					pos = r.pos
					continue
				}
				src := b[r.pos : r.pos+int(csize)]
				pos = r.pos + int(csize)
				if usize > 64<<20 {
					// large_string_map holds 1 GiB pages, for readers'
					// limits; too slow to inflate in a unit test.
					skipped++
					continue
				}
				compressed := true
				if v2, ok := sub[8]; ok && meta.PageType(typ) == meta.DataPageV2 {
					// Levels of a v2 page precede the data uncompressed.
					levels := v2[5] + v2[6]
					src = src[levels:]
					usize -= levels
					if c, ok := v2[7]; ok && c == 0 {
						compressed = false
					}
				}
				codec := tt.codec
				if !compressed {
					codec = meta.Uncompressed
				}
				if _, err := Decompress(codec, nil, src, int(usize)); err != nil {
					t.Fatalf("page %d at %d: %v", pages, pos-int(csize), err)
				}
				pages++
			}
			if pages == 0 {
				t.Fatal("no pages found")
			}
			t.Logf("%d pages decompressed, %d over 64 MiB skipped", pages, skipped)
		})
	}
}
