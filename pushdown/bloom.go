package pushdown

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
)

// bloomState is one chunk's Bloom filter: its header, read once, and the
// answers of the blocks probed so far.
type bloomState struct {
	bf     *format.BloomFilter
	why    string
	probes map[uint64]bool
	blocks map[int64][]byte
}

func (s *rgState) bloom(c int) *bloomState {
	if x := s.blooms[c]; x != nil {
		return x
	}
	x := &bloomState{probes: map[uint64]bool{}, blocks: map[int64][]byte{}}
	s.makeMemos()
	s.blooms[c] = x
	f := s.p.f
	if !f.HasBloomFilter(s.rg, c) {
		x.why = "the chunk has no Bloom filter"
		return x
	}
	bf, err := f.ReadBloomFilter(s.rg, c)
	if errors.Is(err, format.ErrAbsent) {
		x.why = "the chunk has no Bloom filter"
		return x
	}
	if bf != nil {
		s.tally.filterBytes += bf.FetchedBytes
	}
	if err != nil {
		x.why = fmt.Sprintf("the Bloom filter cannot be read (%v)", err)
		s.note(fmt.Sprintf("row group %d, column %s: Bloom filter unused, kept: %s", s.rg, f.Schema.Leaves[c].Path, x.why))
		return x
	}
	// A filter whose header and footer disagree on its size was not
	// written as either says: its bits prove nothing.
	if l := f.Chunk(s.rg, c).MetaData.BloomFilterLength; l != nil && int64(*l) != bf.Length() {
		x.why = fmt.Sprintf("its header gives it %d bytes, but bloom_filter_length is %d", bf.Length(), *l)
		s.note(fmt.Sprintf("row group %d, column %s: Bloom filter unused, kept: %s", s.rg, f.Schema.Leaves[c].Path, x.why))
		return x
	}
	x.bf = bf
	return x
}

// mayContain probes the filter for one hash, reading its 32-byte block once.
// A block that cannot be read answers "may contain".
func (s *rgState) mayContain(x *bloomState, c int, h uint64) bool {
	if may, ok := x.probes[h]; ok {
		return may
	}
	r := x.bf.BlockRange(h)
	block, seen := x.blocks[r.Offset]
	if !seen {
		// Two values may hash into one block: read and count it once; a
		// block the header read brought costs nothing more.
		if !x.bf.Fetched(r) {
			s.tally.filterBytes += r.Length
		}
		var err error
		if block, err = x.bf.ReadBlock(h); err != nil {
			s.note(fmt.Sprintf("row group %d, column %s: Bloom filter block unreadable, kept (%v)", s.rg, s.p.f.Schema.Leaves[c].Path, err))
			block = nil
		}
		x.blocks[r.Offset] = block
	}
	may := block == nil || format.BlockMayContain(block, h)
	x.probes[h] = may
	return may
}

// bloomProbes are the PLAIN encodings a value may be stored as, each of
// which the writer would have hashed; nil when a filter cannot answer for
// the value: a NaN has many encodings, a variable-length decimal may be
// stored with more sign bytes than its minimal form, and a boolean's PLAIN
// form is a bit.
func bloomProbes(c *Cond, v []byte) [][]byte {
	o := c.Order
	switch o.Kind() {
	case stats.KindInt32, stats.KindUint32, stats.KindInt64, stats.KindUint64, stats.KindBytes:
		return [][]byte{v}
	case stats.KindDecimalBytes:
		if o.Width() > 0 && len(v) == o.Width() {
			return [][]byte{v}
		}
	case stats.KindFloat32, stats.KindFloat64, stats.KindFloat16:
		if o.IsNaN(v) {
			return nil
		}
		zero := true
		for i, b := range v {
			if b != 0 && !(i == len(v)-1 && b == 0x80) {
				zero = false
			}
		}
		if zero { // -0 equals +0 in SQL, but they hash apart
			pos := make([]byte, len(v))
			neg := append(make([]byte, len(v)-1), 0x80)
			return [][]byte{pos, neg}
		}
		return [][]byte{v}
	}
	return nil
}

// bloomLeaf is the rows an = or IN allows by the chunk's Bloom filter: none
// when every value (in every encoding it may be stored in) is absent.
func (s *rgState) bloomLeaf(c *Cond) (RowRanges, string) {
	var values [][]byte
	switch c.Op {
	case Eq:
		values = [][]byte{c.Value}
	case In:
		values = c.Values
	default:
		return s.all, ""
	}
	if len(values) == 0 || s.p.f.Chunk(s.rg, c.Col.Leaf.Index).MetaData.Type == meta.Boolean {
		return s.all, ""
	}
	var probes [][]byte
	for _, v := range values {
		p := bloomProbes(c, v)
		if p == nil {
			return s.all, ""
		}
		probes = append(probes, p...)
	}
	x := s.bloom(c.Col.Leaf.Index)
	if x.bf == nil {
		return s.all, ""
	}
	for _, p := range probes {
		if s.mayContain(x, c.Col.Leaf.Index, format.Hash(p)) {
			return s.all, ""
		}
	}
	shown := make([]string, 0, len(values))
	for i, v := range values {
		if i == 5 {
			shown = append(shown, fmt.Sprintf("and %d more", len(values)-5))
			break
		}
		shown = append(shown, c.show(v))
	}
	return nil, fmt.Sprintf("bloom: %s %s absent", c.Col.Path, strings.Join(shown, ", "))
}

// BloomHashes returns, by leaf, the hashes that planning pred on f may
// probe in Bloom filters: those of every = and IN leaf bloomLeaf would
// judge. A remote reader fetches their blocks ahead, in one round with the
// filter headers; a hash listed here and never probed costs 32 bytes, a
// probe not listed only a read of its own.
func BloomHashes(f *format.File, pred Expr) map[int][]uint64 {
	if pred == nil {
		return nil
	}
	resolved, _, err := resolve(f.Schema, pred)
	if err != nil {
		return nil
	}
	out := map[int][]uint64{}
	var walk func(Expr)
	walk = func(e Expr) {
		switch n := e.(type) {
		case *And:
			for _, x := range n.Xs {
				walk(x)
			}
		case *Or:
			for _, x := range n.Xs {
				walk(x)
			}
		case *Cond:
			values := n.Values
			switch {
			case n.Op == Eq:
				values = [][]byte{n.Value}
			case n.Op != In:
				return
			}
			leaf := n.Col.Leaf.Index
			for _, v := range values {
				for _, p := range bloomProbes(n, v) {
					out[leaf] = append(out[leaf], format.Hash(p))
				}
			}
		}
	}
	walk(resolved)
	return out
}
