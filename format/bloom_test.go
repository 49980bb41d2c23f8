package format

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// recordingSource records the ranges read through it.
type recordingSource struct {
	Source
	mu    sync.Mutex
	reads []Range
}

func (r *recordingSource) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	r.reads = append(r.reads, Range{off, int64(len(p))})
	r.mu.Unlock()
	return r.Source.ReadAt(p, off)
}

func TestBloomLayout(t *testing.T) {
	cases := []struct {
		length, header, bitset int64
		ok                     bool
	}{
		{262161, 17, 262144, true},
		{144, 16, 128, true},
		{32 + 15, 15, 32, true},
		{1024 + 256, 256, 1024, true},
		{1024 + 257, 0, 0, false}, // a header longer than any real one
		{1024, 0, 0, false},       // no room for a header before 512 bytes
		{32, 0, 0, false},
		{0, 0, 0, false},
	}
	for _, c := range cases {
		h, b, ok := bloomLayout(c.length)
		if h != c.header || b != c.bitset || ok != c.ok {
			t.Errorf("bloomLayout(%d) = %d, %d, %v; want %d, %d, %v", c.length, h, b, ok, c.header, c.bitset, c.ok)
		}
	}
}

// TestBloomReadsMatchProbes checks that BloomReads names exactly the ranges
// that reading the filter's header and probing its blocks then read, on
// every chunk with a Bloom filter of real files, and that a file whose
// header contradicts its bloom_filter_length is read where its header
// says, not where the length implied.
func TestBloomReadsMatchProbes(t *testing.T) {
	root := testcorpus.ModuleRoot(t)
	paths := []string{
		filepath.Join(root, "fixtures", "orders_shuffled.parquet"),
		filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "data_index_bloom_encoding_stats.parquet"),
		filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", "data_index_bloom_encoding_with_length.parquet"),
	}
	hashes := []uint64{Hash([]byte("Hello")), Hash([]byte{1, 0, 0, 0}), 0, ^uint64(0)}
	probed := 0
	for _, path := range paths {
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s: %v", path, err)
			continue
		}
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for rg := range f.NumRowGroups() {
			for col := range f.Schema.Leaves {
				if !f.HasBloomFilter(rg, col) {
					continue
				}
				want, ok := f.BloomReads(rg, col, hashes)
				if f.Chunk(rg, col).MetaData.BloomFilterLength == nil {
					if ok {
						t.Errorf("%s rg %d col %d: reads %v without a recorded length", path, rg, col, want)
					}
					continue
				}
				if !ok {
					t.Errorf("%s rg %d col %d: no reads derived from length %d", path, rg, col, *f.Chunk(rg, col).MetaData.BloomFilterLength)
					continue
				}
				got := probeReads(t, f, rg, col, hashes)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s rg %d col %d: probing read %v, BloomReads said %v", path, rg, col, got, want)
				}
				probed++
			}
		}
	}
	if probed == 0 {
		t.Fatal("no chunk with a Bloom filter and its length was probed")
	}

	// bloom_length_contradiction.parquet records a length of 528 for a
	// filter whose header declares 256 bytes of bitset: the derived blocks
	// lie elsewhere than the ones a probe reads, so a reader that fetched
	// them ahead still reads the real ones.
	f, err := Open(filepath.Join(hostileDir(t), "bloom_length_contradiction.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	want, ok := f.BloomReads(0, 0, hashes[3:])
	if !ok {
		t.Fatal("no reads derived from the contradicting length")
	}
	got := probeReads(t, f, 0, 0, hashes[3:])
	if got[0] != want[0] || got[1] == want[1] {
		t.Errorf("contradicting length: probing read %v, BloomReads said %v; want the same header read and another block", got, want)
	}
}

// TestBloomOddBitset reads a sound filter of 39 blocks, which the length
// alone would place as 32 blocks after a longer header: the probe reads the
// block its header places and finds the value, where the derived block would
// have been read in vain.
func TestBloomOddBitset(t *testing.T) {
	f, err := Open(filepath.Join(hostileDir(t), "bloom_odd_bitset.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	h := Hash([]byte{200, 0, 0, 0, 0, 0, 0, 0})
	derived, ok := f.BloomReads(0, 0, []uint64{h})
	if !ok {
		t.Fatal("no reads derived from length 1264")
	}
	got := probeReads(t, f, 0, 0, []uint64{h})
	if got[1] == derived[1] {
		t.Fatalf("the derived block %v is the one read; the file no longer tests a wrong layout", derived[1])
	}
	bf, err := f.ReadBloomFilter(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if may, err := bf.MayContain(h); !may || err != nil {
		t.Fatalf("MayContain(200) = %v, %v; want true", may, err)
	}
}

// probeReads returns the ranges that reading a chunk's filter header and
// probing hashes read, in order.
func probeReads(t *testing.T, f *File, rg, col int, hashes []uint64) []Range {
	t.Helper()
	rec := &recordingSource{Source: f.Source}
	g := *f
	g.Source = rec
	bf, err := g.ReadBloomFilter(rg, col)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hashes {
		if _, err := bf.MayContain(h); err != nil {
			t.Fatal(err)
		}
	}
	return rec.reads
}
