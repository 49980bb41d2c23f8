package pushdown

import (
	"fmt"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// dictState is one chunk's dictionary, read once per plan when the chunk's
// encoding stats prove every data page indexes into it.
type dictState struct {
	why string
	// decoded is the dictionary as format decoded it, read from at.
	decoded *format.Values
	at      format.Range
}

// allDictionary reports whether encoding stats prove every data page of the
// chunk is dictionary-encoded, so the dictionary holds every non-null value.
func allDictionary(md *meta.ColumnMetaData) (bool, string) {
	if len(md.EncodingStats) == 0 {
		return false, "the chunk has no encoding stats"
	}
	dictPages, dataPages := 0, 0
	for _, e := range md.EncodingStats {
		switch e.PageType {
		case meta.DictionaryPage:
			dictPages += int(e.Count)
		case meta.DataPage, meta.DataPageV2:
			if e.Count <= 0 {
				continue
			}
			if e.Encoding != meta.PlainDictionary && e.Encoding != meta.RLEDictionary {
				return false, fmt.Sprintf("%d data pages are %s-encoded", e.Count, e.Encoding)
			}
			dataPages += int(e.Count)
		}
	}
	if dictPages == 0 || dataPages == 0 {
		return false, "the encoding stats list no dictionary-encoded data pages"
	}
	return true, ""
}

func (s *rgState) dictionary(c int) *dictState {
	if x := s.dicts[c]; x != nil {
		return x
	}
	x := &dictState{}
	s.makeMemos()
	s.dicts[c] = x
	f := s.p.f
	if ok, why := allDictionary(f.Chunk(s.rg, c).MetaData); !ok {
		x.why = why
		return x
	}
	var oi *meta.OffsetIndex
	if cached := s.oi[c]; cached != nil {
		oi = cached.oi // locates the dictionary exactly, at no extra cost
	}
	vals, r, err := f.ReadDictionary(s.rg, c, oi)
	s.tally.dictionaryBytes += r.Length
	switch {
	case err != nil:
		x.why = fmt.Sprintf("the dictionary cannot be read (%v)", err)
		s.note(fmt.Sprintf("row group %d, column %s: dictionary unused, kept: %s", s.rg, f.Schema.Leaves[c].Path, x.why))
		return x
	case vals == nil:
		x.why = "the footer does not locate the dictionary page"
		return x
	}
	x.decoded, x.at = vals, r
	return x
}

// dictLeaf is the rows an =, !=, IN, NOT IN, LIKE or prefix test allows by
// the chunk's dictionary: none when no dictionary entry satisfies it. Nulls
// are not in a dictionary, and these tests are never true for NULL. Range
// tests are left to statistics and the page index, which decide them from
// the same bounds without reading a dictionary page.
func (s *rgState) dictLeaf(c *Cond) (RowRanges, string) {
	if !c.dictionaryTest() {
		return s.all, ""
	}
	x := s.dictionary(c.Col.Leaf.Index)
	if x.why != "" {
		return s.all, ""
	}
	// Each entry is judged in its plain form in place: a dictionary of a
	// high-cardinality column holds a hundred thousand entries and more,
	// and most checks end at the first entry that may match.
	vals := x.decoded
	n := vals.Len()
	var buf []byte
	for i := range n {
		var v []byte
		switch vals.Type {
		case meta.ByteArray, meta.FixedLenByteArray:
			v = vals.Bytes[i]
		default:
			buf = vals.PlainBytes(i, buf[:0])
			v = buf
		}
		if c.test(v, true) == True {
			return s.all, ""
		}
	}
	return nil, fmt.Sprintf("dictionary: none of the %d values of %s satisfies %s", n, c.Col.Path, c)
}

// dictionaryTest reports whether a dictionary is worth reading for c.
func (c *Cond) dictionaryTest() bool {
	switch c.Op {
	case Eq, Ne, In, NotIn, Prefix, NotPrefix, LikeOp, NotLikeOp:
		return true
	}
	return false
}

// giveDictionary hands the read of a chunk the dictionary the dictionary
// check decoded, so that the scan neither reads nor decodes it again, and
// returns the bytes it is spared. Only a top-level leaf without repetition
// is given one: the scan reads those page by page, and can start past the
// dictionary page.
func (s *rgState) giveDictionary(cr *ColumnRead) int64 {
	x := s.dicts[cr.Leaf]
	leaf := s.p.f.Schema.Leaves[cr.Leaf]
	if x == nil || x.decoded == nil || leaf.MaxRep > 0 || len(leaf.PathInSchema) != 1 {
		return 0
	}
	switch {
	case cr.Whole:
		end := x.at.End()
		if x.at.Offset != cr.Chunk.Offset || end >= cr.Chunk.End() {
			return 0
		}
		cr.Dictionary, cr.Tail = x.decoded, format.Range{Offset: end, Length: cr.Chunk.End() - end}
	case cr.Dict.Length > 0 && cr.Dict == x.at:
		cr.Dictionary, cr.Dict = x.decoded, format.Range{}
	default:
		return 0
	}
	cr.Bytes -= x.at.Length
	cr.Given = x.at.Length
	return x.at.Length
}
