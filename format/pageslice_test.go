package format

import (
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/encoding/rle"
	"github.com/pqsql/pqsql/format/internal/craft"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// slicedMatchesWhole reads every chunk of f in slices of at most size
// entries (Release after every other one) and checks that the slices hold
// ReadColumn's entries, that merged they give its page spans, and that a
// repeated leaf's slices after a page's first start at a record. A chunk
// of more than 20,000 values is read in slices of 997, for time.
func slicedMatchesWhole(t *testing.T, f *File, size int) {
	t.Helper()
	for rg := range f.Meta.RowGroups {
		for col, leaf := range f.Schema.Leaves {
			size := size
			if md := f.Chunk(rg, col).MetaData; md != nil && md.NumValues > 20_000 {
				size = max(size, 997)
			}
			f.Limits.SliceEntries = 0
			want, werr := f.ReadColumn(rg, col)
			f.Limits.SliceEntries = size
			r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var def, rep []int32
			var vals [][]byte
			var pages []PageSpan
			var gerr error
			for i := 0; ; i++ {
				cd, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					gerr = err
					break
				}
				s := cd.Pages[0]
				if len(cd.Pages) != 1 || s.FirstEntry != 0 || s.FirstValue != 0 || s.NumEntries != cd.NumEntries {
					t.Fatalf("%s: slice spans %+v for %d entries", leaf.Path, cd.Pages, cd.NumEntries)
				}
				if leaf.MaxRep == 0 && s.NumEntries > size {
					t.Fatalf("%s: slice of %d entries, above %d", leaf.Path, s.NumEntries, size)
				}
				if leaf.MaxRep > 0 && s.Continued && s.NumEntries > 0 && cd.Rep[0] != 0 {
					t.Fatalf("%s: a slice begins inside a record (repetition level %d)", leaf.Path, cd.Rep[0])
				}
				d, rp, v := wholeOf(cd)
				def, rep, vals = append(def, d...), append(rep, rp...), append(vals, v...)
				if s.Continued {
					if len(pages) == 0 {
						t.Fatalf("%s: the first slice continues a page", leaf.Path)
					}
					p := &pages[len(pages)-1]
					if s.FirstRow != p.FirstRow+p.NumRows {
						t.Fatalf("%s: slice at row %d after a page part ending at %d", leaf.Path, s.FirstRow, p.FirstRow+p.NumRows)
					}
					p.NumRows += s.NumRows
					p.NumEntries += s.NumEntries
				} else {
					pages = append(pages, s)
				}
				if i%2 == 1 {
					r.Release()
				}
			}
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("%s: whole pages: %v; slices of %d: %v", leaf.Path, werr, size, gerr)
			}
			if werr != nil {
				continue
			}
			wd, wr, wv := wholeOf(want)
			sameEntries(t, leaf.Path, def, rep, vals, wd, wr, wv)
			if len(pages) != len(want.Pages) {
				t.Fatalf("%s: %d pages, want %d", leaf.Path, len(pages), len(want.Pages))
			}
			for i, p := range pages {
				if w := want.Pages[i]; p.FirstRow != w.FirstRow || p.NumRows != w.NumRows || p.NumEntries != w.NumEntries {
					t.Fatalf("%s: page %d: %+v, want %+v", leaf.Path, i, p, w)
				}
			}
		}
	}
}

// TestSlicesMatchWholePages reads every fixture and corpus file in slices
// of a few entries and checks them against whole pages.
func TestSlicesMatchWholePages(t *testing.T) {
	root := testcorpus.ModuleRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "fixtures", "*.parquet"))
	q, _ := filepath.Glob(filepath.Join(root, "fixtures", "*", "*.parquet"))
	files = append(files, q...)
	h, _ := filepath.Glob(filepath.Join(root, "testdata", "hostile", "*.parquet"))
	for _, p := range h {
		if fi, err := os.Stat(p); err == nil && fi.Size() < 1<<20 && !strings.Contains(p, "amplification") && !strings.Contains(p, "60m") && !strings.Contains(p, "delta") && !strings.Contains(p, "bomb") {
			files = append(files, p)
		}
	}
	shared := testcorpus.Shared(t)
	for _, sub := range []string{"data", "shredded_variant"} {
		m, _ := filepath.Glob(filepath.Join(shared, "parquet-testing", sub, "*.parquet"))
		files = append(files, m...)
		m, _ = filepath.Glob(filepath.Join(shared, "parquet-testing", sub, "*", "*.parquet"))
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("%d files; the fixtures or the corpus are missing", len(files))
	}
	for _, path := range files {
		if strings.Contains(path, "large_string_map") {
			// Its one page inflates to a gigabyte; TestCorpusMatchesDuckDB reads it.
			continue
		}
		name, _ := filepath.Rel(root, path)
		if strings.HasPrefix(name, "..") {
			name, _ = filepath.Rel(shared, path)
		}
		t.Run(name, func(t *testing.T) {
			f, err := Open(path)
			if err != nil {
				t.Skipf("open: %v", err)
			}
			defer f.Close()
			for _, size := range []int{1, 7} {
				slicedMatchesWhole(t, f, size)
			}
		})
	}
}

// randomLeaf is a leaf of a random file: its schema and how its values are
// made and encoded.
type randomLeaf struct {
	name   string
	schema []meta.SchemaElement // the elements under the root
	typ    meta.Type
	def    int // maximum levels
	rep    int
}

var randomLeaves = []randomLeaf{
	{name: "required int64", schema: []meta.SchemaElement{column("v", meta.Int64, meta.Required)}, typ: meta.Int64},
	{name: "optional int32", schema: []meta.SchemaElement{column("v", meta.Int32, meta.Optional)}, typ: meta.Int32, def: 1},
	{name: "optional string", schema: []meta.SchemaElement{column("v", meta.ByteArray, meta.Optional)}, typ: meta.ByteArray, def: 1},
	{name: "optional boolean", schema: []meta.SchemaElement{column("v", meta.Boolean, meta.Optional)}, typ: meta.Boolean, def: 1},
	{name: "list of optional int32", schema: []meta.SchemaElement{
		{Name: "l", RepetitionType: ptr(meta.Optional), NumChildren: ptr(int32(1)), ConvertedType: ptr(meta.ConvList), LogicalType: &meta.LogicalType{List: &struct{}{}}},
		{Name: "list", RepetitionType: ptr(meta.Repeated), NumChildren: ptr(int32(1))},
		column("element", meta.Int32, meta.Optional)}, typ: meta.Int32, def: 3, rep: 1},
}

// entry is one level pair and, when defined, its value's index.
type entry struct{ rep, def, val int32 }

// randomRecords makes rows records of leaf l: value indexes below card.
func randomRecords(rnd *rand.Rand, l randomLeaf, rows, card int) [][]entry {
	recs := make([][]entry, rows)
	nulls := rnd.IntN(3) // 0: none, 1: some, 2: many
	null := func() bool { return l.def > 0 && nulls > 0 && rnd.IntN(4-nulls) == 0 }
	for i := range recs {
		if l.rep == 0 {
			if null() {
				recs[i] = []entry{{0, 0, -1}}
			} else {
				recs[i] = []entry{{0, int32(l.def), int32(rnd.IntN(card))}}
			}
			continue
		}
		switch k := rnd.IntN(12); {
		case k == 0:
			recs[i] = []entry{{0, 0, -1}} // a null list
		case k == 1:
			recs[i] = []entry{{0, 1, -1}} // an empty list
		default:
			n := 1 + rnd.IntN(6)
			if k == 2 {
				n = 20 + rnd.IntN(40) // longer than a slice
			}
			for j := range n {
				e := entry{rep: min(int32(j), 1), def: 3, val: int32(rnd.IntN(card))}
				if null() {
					e.def, e.val = 2, -1
				}
				recs[i] = append(recs[i], e)
			}
		}
	}
	return recs
}

// plainValue appends value index v of leaf type t, PLAIN encoded but for
// booleans, which the caller packs.
func plainValue(dst []byte, t meta.Type, v int32) []byte {
	switch t {
	case meta.Int64:
		return binary.LittleEndian.AppendUint64(dst, uint64(int64(v)*1000003-7))
	case meta.Int32:
		return binary.LittleEndian.AppendUint32(dst, uint32(v*31-5))
	case meta.ByteArray:
		s := strings.Repeat("x", int(v%5)) + string(rune('a'+v%26))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)))
		return append(dst, s...)
	}
	panic("no plain value for " + t.String())
}

// plainValues encodes the values of idx of type t.
func plainValues(t meta.Type, idx []int32) []byte {
	var b []byte
	if t == meta.Boolean {
		b = make([]byte, (len(idx)+7)/8)
		for i, v := range idx {
			if v%2 == 1 {
				b[i/8] |= 1 << (i % 8)
			}
		}
		return b
	}
	for _, v := range idx {
		b = plainValue(b, t, v)
	}
	return b
}

// valueEncodings are the encodings a random page of each type may take
// besides a dictionary.
var valueEncodings = map[meta.Type][]meta.Encoding{
	meta.Int32:     {meta.Plain, meta.DeltaBinaryPacked, meta.ByteStreamSplit},
	meta.Int64:     {meta.Plain, meta.DeltaBinaryPacked, meta.ByteStreamSplit},
	meta.ByteArray: {meta.Plain, meta.DeltaLengthByteArray, meta.DeltaByteArray},
	meta.Boolean:   {meta.Plain},
}

// rawValue is value index v of type t as ColumnData holds it: a byte
// array's bytes without their length.
func rawValue(t meta.Type, v int32) []byte {
	b := plainValue(nil, t, v)
	if t == meta.ByteArray {
		return b[4:]
	}
	return b
}

// encodeValues encodes the values of idx of type t in enc.
func encodeValues(enc meta.Encoding, t meta.Type, idx []int32) []byte {
	switch enc {
	case meta.DeltaBinaryPacked:
		vals := make([]int64, len(idx))
		for i, v := range idx {
			vals[i] = int64(binary.LittleEndian.Uint64(append(rawValue(t, v), 0, 0, 0, 0)))
			if t == meta.Int32 {
				vals[i] = int64(int32(vals[i]))
			}
		}
		return craft.DeltaBinaryPacked(vals)
	case meta.ByteStreamSplit:
		width := len(rawValue(t, 0))
		out := make([]byte, width*len(idx))
		for i, v := range idx {
			for k, b := range rawValue(t, v) {
				out[k*len(idx)+i] = b
			}
		}
		return out
	case meta.DeltaLengthByteArray, meta.DeltaByteArray:
		// DELTA_BYTE_ARRAY values share a prefix of x's with their
		// predecessor, so a slice that lost the last value fails.
		var prefixes, lengths []int64
		var suffixes []byte
		var prev []byte
		for _, v := range idx {
			b := rawValue(t, v)
			p := 0
			if enc == meta.DeltaByteArray {
				for p < len(b) && p < len(prev) && b[p] == prev[p] {
					p++
				}
			}
			prefixes = append(prefixes, int64(p))
			lengths = append(lengths, int64(len(b)-p))
			suffixes = append(suffixes, b[p:]...)
			prev = b
		}
		out := craft.DeltaBinaryPacked(lengths)
		out = append(out, suffixes...)
		if enc == meta.DeltaByteArray {
			out = append(craft.DeltaBinaryPacked(prefixes), out...)
		}
		return out
	}
	return plainValues(t, idx)
}

// bitPackedLevels encodes levels in the deprecated BIT_PACKED encoding,
// from the most significant bit down.
func bitPackedLevels(levels []int32, width int) []byte {
	out := make([]byte, (len(levels)*width+7)/8)
	bit := 0
	for _, l := range levels {
		for b := width - 1; b >= 0; b-- {
			if l>>b&1 == 1 {
				out[bit/8] |= 0x80 >> (bit % 8)
			}
			bit++
		}
	}
	return out
}

// randomPage encodes records as one data page.
func randomPage(rnd *rand.Rand, l randomLeaf, recs [][]entry, dict bool, v2 bool, firstRow int64) craft.Page {
	var rep, def, idx []int32
	nulls := 0
	for _, r := range recs {
		for _, e := range r {
			rep, def = append(rep, e.rep), append(def, e.def)
			if e.def == int32(l.def) {
				idx = append(idx, e.val)
			} else {
				nulls++
			}
		}
	}
	enc := meta.Plain
	var values []byte
	if dict {
		enc = meta.RLEDictionary
		values = rle.AppendHybrid([]byte{8}, idx, 8)
	} else {
		encs := valueEncodings[l.typ]
		enc = encs[rnd.IntN(len(encs))]
		values = encodeValues(enc, l.typ, idx)
	}
	rw, dw := rle.BitWidth(uint64(l.rep)), rle.BitWidth(uint64(l.def))
	var repB, defB []byte
	if l.rep > 0 {
		repB = rle.AppendHybrid(nil, rep, rw)
	}
	if l.def > 0 {
		defB = rle.AppendHybrid(nil, def, dw)
	}
	if v2 {
		body := append(append(append([]byte(nil), repB...), defB...), values...)
		return craft.Page{Header: meta.PageHeader{Type: meta.DataPageV2, DataPageHeaderV2: &meta.DataPageHeaderV2{
			NumValues: int32(len(def)), NumNulls: int32(nulls), NumRows: int32(len(recs)), Encoding: enc,
			DefinitionLevelsByteLength: int32(len(defB)), RepetitionLevelsByteLength: int32(len(repB))}},
			Body: body, FirstRow: firstRow}
	}
	defEnc := meta.RLE
	var body []byte
	if l.rep > 0 {
		body = craft.Levels(repB)
	}
	if l.def > 0 {
		if rnd.IntN(3) == 0 {
			defEnc = meta.BitPacked
			body = append(body, bitPackedLevels(def, dw)...)
		} else {
			body = append(body, craft.Levels(defB)...)
		}
	}
	body = append(body, values...)
	return craft.Page{Header: meta.PageHeader{Type: meta.DataPage, DataPageHeader: &meta.DataPageHeader{
		NumValues: int32(len(def)), Encoding: enc, DefinitionLevelEncoding: defEnc, RepetitionLevelEncoding: meta.RLE}},
		Body: body, FirstRow: firstRow}
}

// TestSlicesMatchWholeRandomPages builds files of random pages (levels,
// nulls, lists; dictionary, PLAIN, DELTA_* and BYTE_STREAM_SPLIT values;
// v1 and v2 pages) and reads them in slices of 1, 2, 3, 7 and 997 entries.
func TestSlicesMatchWholeRandomPages(t *testing.T) {
	rnd := rand.New(rand.NewPCG(14, 3))
	for iter := range 200 {
		l := randomLeaves[iter%len(randomLeaves)]
		card := 1 + rnd.IntN(40)
		dict := rnd.IntN(2) == 0
		v2 := rnd.IntN(2) == 0
		recs := randomRecords(rnd, l, rnd.IntN(120), card)
		var pages []craft.Page
		if dict {
			var all []int32
			for v := range card {
				all = append(all, int32(v))
			}
			pages = append(pages, craft.Page{Header: meta.PageHeader{Type: meta.DictionaryPage,
				DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: int32(card), Encoding: meta.Plain}},
				Body: plainValues(l.typ, all)})
		}
		entries := 0
		for first := 0; first < len(recs) || first == 0; {
			n := min(len(recs)-first, 1+rnd.IntN(50))
			pages = append(pages, randomPage(rnd, l, recs[first:first+n], dict, v2, int64(first)))
			for _, r := range recs[first : first+n] {
				entries += len(r)
			}
			first += n
			if n == 0 {
				break
			}
		}
		b, err := craft.Build(craft.File{NumRows: -1, Schema: append([]meta.SchemaElement{{Name: "schema", NumChildren: ptr(int32(1))}}, l.schema...),
			RowGroups: []craft.RowGroup{{NumRows: int64(len(recs)), Chunks: []craft.Chunk{{NumValues: int64(entries), Pages: pages}}}}})
		if err != nil {
			t.Fatal(err)
		}
		f, err := OpenSource(BytesSource(b), "random.parquet", DefaultLimits)
		if err != nil {
			t.Fatalf("%d (%s): %v", iter, l.name, err)
		}
		whole, err := f.ReadColumn(0, 0)
		if err != nil {
			t.Fatalf("%d (%s, dict %v, v2 %v): %v", iter, l.name, dict, v2, err)
		}
		// Whole pages give the records written.
		wd, wr, wv := wholeOf(whole)
		k, values := 0, 0
		for _, r := range recs {
			for _, e := range r {
				if (l.def > 0 && wd[k] != e.def) || (l.rep > 0 && wr[k] != e.rep) {
					t.Fatalf("%d (%s): entry %d has levels (%d, %d), want (%d, %d)", iter, l.name, k, wr[k], wd[k], e.rep, e.def)
				}
				if e.def == int32(l.def) {
					if l.typ != meta.Boolean && string(rawValue(l.typ, e.val)) != string(wv[values]) {
						t.Fatalf("%d (%s): value %d is %x", iter, l.name, values, wv[values])
					}
					values++
				}
				k++
			}
		}
		if k != whole.NumEntries || values != len(wv) {
			t.Fatalf("%d (%s): %d entries and %d values, want %d and %d", iter, l.name, whole.NumEntries, len(wv), k, values)
		}
		for _, size := range []int{1, 2, 3, 7, 997} {
			slicedMatchesWhole(t, f, size)
		}
	}
}
