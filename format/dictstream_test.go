package format

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/bits"
	"sync/atomic"
	"testing"

	"github.com/klauspost/compress/snappy"

	"github.com/pqsql/pqsql/format/compress"
	"github.com/pqsql/pqsql/format/internal/craft"
	"github.com/pqsql/pqsql/format/meta"
)

// A requestSource counts reads, as CountingSource does, and keeps the
// largest.
type requestSource struct {
	Source
	bytes, requests, largest atomic.Int64
}

func (s *requestSource) ReadAt(p []byte, off int64) (int, error) {
	s.requests.Add(1)
	if n := int64(len(p)); n > s.largest.Load() {
		s.largest.Store(n)
	}
	n, err := s.Source.ReadAt(p, off)
	s.bytes.Add(int64(n))
	return n, err
}

// bigDictFile is a file of one required INT64 column of n rows, each
// holding a distinct value of a dictionary of n entries in two data pages,
// with codec; edit, if not nil, changes the dictionary page (its header's
// CompressedPageSize is then the body's length unless edit sets it).
func bigDictFile(t *testing.T, n int, codec meta.CompressionCodec, edit func(*craft.Page)) []byte {
	t.Helper()
	var plain []byte
	for i := range n {
		plain = binary.LittleEndian.AppendUint64(plain, uint64(int64(i)*7919%100003+int64(i)<<20))
	}
	compressed := func(b []byte) []byte {
		if codec == meta.Snappy {
			return snappy.Encode(nil, b)
		}
		return b
	}
	dict := craft.Page{Header: meta.PageHeader{Type: meta.DictionaryPage, UncompressedPageSize: int32(len(plain)),
		DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: int32(n), Encoding: meta.Plain}}, Body: compressed(plain)}
	if edit != nil {
		edit(&dict)
	}
	width := bits.Len(uint(n - 1))
	pages := []craft.Page{dict}
	for first := 0; first < n; first += n / 2 {
		data := []byte{byte(width)}
		end := min(first+n/2, n)
		for i := first; i < end; i++ {
			data = craft.RLERun(data, 1, uint32(n-1-i), width)
		}
		pages = append(pages, craft.Page{Header: meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: int32(len(data)),
			DataPageHeader: &meta.DataPageHeader{NumValues: int32(end - first), Encoding: meta.RLEDictionary,
				DefinitionLevelEncoding: meta.RLE, RepetitionLevelEncoding: meta.RLE}}, Body: compressed(data), FirstRow: int64(first)})
	}
	b, err := craft.Build(craft.File{NumRows: -1, Schema: flatSchema(column("v", meta.Int64, meta.Required)),
		RowGroups: []craft.RowGroup{{NumRows: int64(n), Chunks: []craft.Chunk{{Codec: codec, NumValues: int64(n),
			Pages: pages, OffsetIndex: true, Meta: func(cc *meta.ColumnChunk) {
				cc.MetaData.Encodings = []meta.Encoding{meta.Plain, meta.RLEDictionary}
			}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// listedPages are the chunk's dictionary range and data pages by its
// offset index.
func listedPages(t *testing.T, f *File) (Range, []PageRef) {
	t.Helper()
	oi, err := f.ReadOffsetIndex(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var pages []PageRef
	for i, loc := range oi.PageLocations {
		end := f.Meta.RowGroups[0].NumRows
		if i+1 < len(oi.PageLocations) {
			end = oi.PageLocations[i+1].FirstRowIndex
		}
		pages = append(pages, PageRef{Range: Range{loc.Offset, int64(loc.CompressedPageSize)}, FirstRow: loc.FirstRowIndex, NumRows: end - loc.FirstRowIndex})
	}
	return f.DictionaryRange(0, 0, oi), pages
}

// readInt64s reads every value a reader yields.
func readInt64s(r *PageReader) ([]int64, error) {
	defer r.Close()
	var out []int64
	for {
		cd, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		for i := range cd.NumEntries {
			if cd.Dict != nil && len(cd.Indices) > 0 {
				out = append(out, cd.Dict.Int64[cd.Indices[i]])
			} else {
				out = append(out, cd.Values.Int64[i])
			}
		}
		r.Release()
	}
}

// TestStreamedDictionaryMatchesWholeRead reads a chunk whose dictionary
// page is far larger than the window both ways a reader streams it, listed
// (StreamDictionary) and whole (StreamChunk), and checks that the values
// are those of a whole read, the bytes read are the page's and no more,
// and no request took more than a window: the page was never read whole.
func TestStreamedDictionaryMatchesWholeRead(t *testing.T) {
	for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Uncompressed} {
		b := bigDictFile(t, 6000, codec, nil)
		f, err := OpenSource(BytesSource(b), "dict.parquet", DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		dict, pages := listedPages(t, f)
		whole, err := f.NewPageReader(0, 0, Range{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := readInt64s(whole)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 6000 || want[0] == want[1] {
			t.Fatalf("%v: the whole read gave %d values", codec, len(want))
		}
		chunk, _ := f.ChunkRange(0, 0)
		for _, window := range []int{64, 1000, 4096} {
			for _, listed := range []bool{true, false} {
				src := &requestSource{Source: f.Source}
				g := *f
				g.Source = src
				var r *PageReader
				if listed {
					r, _ = g.NewPageReader(0, 0, dict, pages, nil)
					r.StreamDictionary(window)
				} else {
					r, _ = g.NewPageReader(0, 0, Range{}, nil, nil)
					r.StreamChunk(window)
					r.StreamDictionary(window)
				}
				before := streamedDictionaries.Load()
				got, err := readInt64s(r)
				if err != nil {
					t.Fatalf("%v, window %d, listed %v: %v", codec, window, listed, err)
				}
				if len(got) != len(want) {
					t.Fatalf("%v, window %d, listed %v: %d values, want %d", codec, window, listed, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%v, window %d, listed %v: value %d is %d, want %d", codec, window, listed, i, got[i], want[i])
					}
				}
				if streamedDictionaries.Load() == before {
					t.Errorf("%v, window %d, listed %v: the dictionary page was not streamed", codec, window, listed)
				}
				if src.bytes.Load() != chunk.Length {
					t.Errorf("%v, window %d, listed %v: read %d bytes of a chunk of %d", codec, window, listed, src.bytes.Load(), chunk.Length)
				}
				// Data pages are read whole, a page at a time; the
				// dictionary page never is.
				limit := int64(window)
				for _, p := range pages {
					limit = max(limit, p.Range.Length)
				}
				if !listed {
					// A window holding a page takes a buffer of the fetch
					// pools, read to its capacity.
					limit *= 2
				}
				if dict.Length <= limit {
					t.Fatalf("%v: a dictionary page of %d bytes tests nothing beside pages of %d", codec, dict.Length, limit)
				}
				if largest := src.largest.Load(); largest > limit {
					t.Errorf("%v, window %d, listed %v: a request of %d bytes", codec, window, listed, largest)
				}
			}
		}
	}
}

// TestStreamedDictionaryRefusesWhatAWholeReadRefuses: a dictionary page
// whose checksum is wrong, whose data is not SNAPPY, or whose header claims
// more bytes than its chunk has fails streamed as it fails read whole.
func TestStreamedDictionaryRefusesWhatAWholeReadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*craft.Page)
		want error
	}{
		{"right checksum", func(p *craft.Page) { p.Header.CRC = ptr(int32(crc32.ChecksumIEEE(p.Body))) }, nil},
		{"wrong checksum", func(p *craft.Page) { p.Header.CRC = ptr(int32(crc32.ChecksumIEEE(p.Body) + 1)) }, ErrChecksum},
		{"not snappy", func(p *craft.Page) {
			for i := 8; i < len(p.Body); i++ {
				p.Body[i] = 0xff
			}
		}, compress.ErrCorrupt},
		{"cut short", func(p *craft.Page) { p.Body = p.Body[:len(p.Body)-100] }, compress.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := OpenSource(BytesSource(bigDictFile(t, 6000, meta.Snappy, tc.edit)), "dict.parquet", DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			dict, pages := listedPages(t, f)
			whole, _ := f.NewPageReader(0, 0, dict, pages, nil)
			_, wholeErr := readInt64s(whole)
			for _, listed := range []bool{true, false} {
				var r *PageReader
				if listed {
					r, _ = f.NewPageReader(0, 0, dict, pages, nil)
					r.StreamDictionary(1000)
				} else {
					r, _ = f.NewPageReader(0, 0, Range{}, nil, nil)
					r.StreamChunk(1000)
					r.StreamDictionary(1000)
				}
				_, err := readInt64s(r)
				switch {
				case tc.want == nil && (err != nil || wholeErr != nil):
					t.Errorf("listed %v: %v (read whole: %v)", listed, err, wholeErr)
				case tc.want != nil && (!errors.Is(err, tc.want) || !errors.Is(wholeErr, tc.want)):
					t.Errorf("listed %v: %v (read whole: %v), want %v", listed, err, wholeErr, tc.want)
				}
			}
		})
	}
}
