package craft

import (
	"encoding/binary"
	"fmt"

	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
)

// A File describes a Parquet file: its schema (the root element included)
// and row groups.
type File struct {
	Schema    []meta.SchemaElement
	RowGroups []RowGroup
	// NumRows is the footer's row count; -1 sums the row groups'.
	NumRows int64
	// Footer, if set, edits the footer after it is filled in.
	Footer func(*meta.FileMetaData)
}

// A RowGroup holds one chunk per leaf of the schema, in schema order.
type RowGroup struct {
	NumRows int64
	Chunks  []Chunk
}

// A Chunk is one column chunk: its pages in file order and what the footer
// says of it.
type Chunk struct {
	Codec meta.CompressionCodec
	// NumValues is the chunk's num_values.
	NumValues int64
	Pages     []Page
	// Stats are the chunk's statistics, if any.
	Stats *meta.Statistics
	// OffsetIndex writes an offset index listing the data pages, each at
	// its FirstRow.
	OffsetIndex bool
	// Bloom is written after the data (a filter header and its bitset);
	// BloomLength, if not nil, is the bloom_filter_length the footer states.
	Bloom       []byte
	BloomLength *int32
	// Meta, if set, edits the chunk's metadata after it is filled in.
	Meta func(*meta.ColumnChunk)
}

// A Page is a page header and the body as stored (compressed, if the chunk
// is). CompressedPageSize is set from the body unless the header gives one.
type Page struct {
	Header   meta.PageHeader
	Body     []byte
	FirstRow int64
}

// Build writes the file.
func Build(f File) ([]byte, error) {
	out := []byte("PAR1")
	md := &meta.FileMetaData{Version: 1, Schema: f.Schema, NumRows: f.NumRows}
	leaves := leafPaths(f.Schema)
	var total int64
	type later struct {
		cc    *meta.ColumnChunk
		locs  []meta.PageLocation
		bloom []byte
	}
	var pending []later
	md.RowGroups = make([]meta.RowGroup, len(f.RowGroups))
	for i, rg := range f.RowGroups {
		if len(rg.Chunks) > len(leaves) {
			return nil, fmt.Errorf("row group %d: %d chunks for %d leaves", i, len(rg.Chunks), len(leaves))
		}
		total += rg.NumRows
		mrg := &md.RowGroups[i]
		mrg.NumRows = rg.NumRows
		mrg.Columns = make([]meta.ColumnChunk, len(rg.Chunks))
		for j, c := range rg.Chunks {
			cm := &meta.ColumnMetaData{Type: leaves[j].typ, PathInSchema: leaves[j].path, Codec: c.Codec,
				NumValues: c.NumValues, Statistics: c.Stats, Encodings: []meta.Encoding{meta.Plain, meta.RLE}}
			start := int64(len(out))
			var locs []meta.PageLocation
			cm.DataPageOffset = -1
			for _, p := range c.Pages {
				h := p.Header
				if h.CompressedPageSize == 0 {
					h.CompressedPageSize = int32(len(p.Body))
				}
				if h.UncompressedPageSize == 0 && c.Codec == meta.Uncompressed {
					h.UncompressedPageSize = int32(len(p.Body))
				}
				hb, err := thrift.EncodePageHeader(&h)
				if err != nil {
					return nil, err
				}
				off := int64(len(out))
				switch h.Type {
				case meta.DictionaryPage:
					cm.DictionaryPageOffset = &off
				default:
					if cm.DataPageOffset < 0 {
						cm.DataPageOffset = off
					}
					locs = append(locs, meta.PageLocation{Offset: off, CompressedPageSize: int32(len(hb) + len(p.Body)), FirstRowIndex: p.FirstRow})
				}
				out = append(out, hb...)
				out = append(out, p.Body...)
				cm.TotalUncompressedSize += int64(len(hb)) + int64(h.UncompressedPageSize)
			}
			if cm.DataPageOffset < 0 {
				cm.DataPageOffset = start
			}
			cm.TotalCompressedSize = int64(len(out)) - start
			mrg.TotalByteSize += cm.TotalUncompressedSize
			cc := &mrg.Columns[j]
			cc.FileOffset = start
			cc.MetaData = cm
			if c.BloomLength != nil {
				cm.BloomFilterLength = c.BloomLength
			}
			l := later{cc: cc, bloom: c.Bloom}
			if c.OffsetIndex {
				l.locs = locs
			}
			pending = append(pending, l)
		}
	}
	// Indexes and filters follow the data, as writers place them.
	for _, l := range pending {
		if l.locs != nil {
			b, err := thrift.EncodeOffsetIndex(&meta.OffsetIndex{PageLocations: l.locs})
			if err != nil {
				return nil, err
			}
			off, n := int64(len(out)), int32(len(b))
			l.cc.OffsetIndexOffset, l.cc.OffsetIndexLength = &off, &n
			out = append(out, b...)
		}
		if l.bloom != nil {
			off := int64(len(out))
			l.cc.MetaData.BloomFilterOffset = &off
			if l.cc.MetaData.BloomFilterLength == nil {
				n := int32(len(l.bloom))
				l.cc.MetaData.BloomFilterLength = &n
			}
			out = append(out, l.bloom...)
		}
	}
	for i, rg := range f.RowGroups {
		for j, c := range rg.Chunks {
			if c.Meta != nil {
				c.Meta(&md.RowGroups[i].Columns[j])
			}
		}
	}
	if md.NumRows < 0 {
		md.NumRows = total
	}
	if f.Footer != nil {
		f.Footer(md)
	}
	fb, err := thrift.EncodeFileMetaData(md)
	if err != nil {
		return nil, err
	}
	out = append(out, fb...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(fb)))
	return append(out, "PAR1"...), nil
}

// EncodeBloomFilterHeader encodes a Bloom filter header.
func EncodeBloomFilterHeader(h *meta.BloomFilterHeader) ([]byte, error) {
	return thrift.EncodeBloomFilterHeader(h)
}

type leaf struct {
	path []string
	typ  meta.Type
}

// leafPaths lists the leaves of a flattened schema in order.
func leafPaths(s []meta.SchemaElement) []leaf {
	var out []leaf
	var walk func(i int, prefix []string) int
	walk = func(i int, prefix []string) int {
		e := s[i]
		if e.NumChildren == nil || *e.NumChildren == 0 && e.Type != nil {
			t := meta.Type(0)
			if e.Type != nil {
				t = *e.Type
			}
			out = append(out, leaf{append(append([]string(nil), prefix...), e.Name), t})
			return i + 1
		}
		next := i + 1
		for range *e.NumChildren {
			if next >= len(s) {
				return next
			}
			next = walk(next, append(prefix, e.Name))
		}
		return next
	}
	if len(s) == 0 || s[0].NumChildren == nil {
		return nil
	}
	next := 1
	for range *s[0].NumChildren {
		if next >= len(s) {
			break
		}
		next = walk(next, nil)
	}
	return out
}
