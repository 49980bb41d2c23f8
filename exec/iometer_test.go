package exec

import (
	"testing"

	"github.com/pqsql/pqsql/format"
)

// TestMeterRegionsRuns checks that a file's structures are located as the
// runs they lie in, few for a file of many chunks, and that every read is
// classified as it is against each structure alone.
func TestMeterRegionsRuns(t *testing.T) {
	for _, path := range []string{"../fixtures/orders_sorted.parquet", "../fixtures/structs.parquet", "../fixtures/variant_typed.parquet"} {
		f, err := format.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		m := &fileMeter{f: f}
		each := structuresOf(f)
		blooms := 0
		for _, r := range each {
			if r.kind == regionBloom {
				blooms++
			}
		}
		// Chunks in one run, column and offset indexes in one each.
		if got := len(m.regionsOf()); got > 3+blooms {
			t.Errorf("%s: %d regions for %d structures, want at most %d", path, got, len(each), 3+blooms)
		}
		var offs []int64
		for _, r := range each {
			offs = append(offs, r.r.Offset-1, r.r.Offset, r.r.End()-1, r.r.End())
		}
		for _, off := range offs {
			for _, phase := range []int32{phasePlan, phaseScan} {
				if got, want := m.purpose(phase, off), purposeAmong(each, phase, off); got != want {
					t.Errorf("%s: read at %d in phase %d: purpose %s, want %s", path, off, phase, got, want)
				}
			}
		}
	}
}

// structuresOf lists every chunk, page index part and sized Bloom filter of
// f as a region of its own.
func structuresOf(f *format.File) []region {
	var rs []region
	for rg := range f.Meta.RowGroups {
		for c := range f.Meta.RowGroups[rg].Columns {
			if r, err := f.ChunkRange(rg, c); err == nil {
				rs = append(rs, region{r, regionChunk, c})
			}
			if r, ok := f.ColumnIndexRange(rg, c); ok {
				rs = append(rs, region{r, regionIndex, c})
			}
			if r, ok := f.OffsetIndexRange(rg, c); ok {
				rs = append(rs, region{r, regionIndex, c})
			}
			md := f.Chunk(rg, c).MetaData
			if md != nil && md.BloomFilterOffset != nil && md.BloomFilterLength != nil && *md.BloomFilterLength > 0 {
				rs = append(rs, region{format.Range{Offset: *md.BloomFilterOffset, Length: int64(*md.BloomFilterLength)}, regionBloom, c})
			}
		}
	}
	return rs
}

// purposeAmong classifies a read by every structure holding its offset.
func purposeAmong(rs []region, phase int32, off int64) ioPurpose {
	if off < 4 {
		return ioFooter
	}
	in := [3]bool{}
	for _, r := range rs {
		if off >= r.r.Offset && off < r.r.End() {
			in[r.kind] = true
		}
	}
	return purposeIn(phase, in)
}
