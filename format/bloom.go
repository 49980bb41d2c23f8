package format

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/cespare/xxhash/v2"
	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
)

// bloomBlock is the size of one split-block Bloom filter block.
const bloomBlock = 32

// maxBloomHeader bounds the bytes read to find a filter header when the
// footer does not record the filter's length.
const maxBloomHeader = 256

// salt holds the eight odd constants of the split-block Bloom filter.
var salt = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// A BloomFilter is a split-block Bloom filter of one column chunk. Only its
// header is read up front; each probe reads the one 32-byte block it needs.
type BloomFilter struct {
	src      Source
	bitset   int64 // file offset of the bitset
	numBytes int64
	// HeaderBytes is the thrift header's length, and FetchedBytes what was
	// read to find it (the header and the start of the bitset).
	HeaderBytes, FetchedBytes int64
	// fetched is the start of the bitset that read returned, from bitset
	// on: a small filter is read whole with its header, and its blocks
	// are not read again.
	fetched []byte
}

// Hash is the filter hash of a value in PLAIN physical form.
func Hash(plain []byte) uint64 { return xxhash.Sum64(plain) }

// HasBloomFilter reports whether leaf col of row group rg has a Bloom filter.
func (f *File) HasBloomFilter(rg, col int) bool {
	md := f.Chunk(rg, col).MetaData
	return md != nil && md.BloomFilterOffset != nil && *md.BloomFilterOffset > 0
}

// ReadBloomFilter reads the header of a chunk's Bloom filter. It returns an
// error wrapping ErrAbsent when the chunk has none.
func (f *File) ReadBloomFilter(rg, col int) (*BloomFilter, error) {
	md := f.Chunk(rg, col).MetaData
	if md == nil {
		return nil, f.notDecoded(rg, col)
	}
	if md.BloomFilterOffset == nil {
		return nil, f.absent("Bloom filter", rg, col)
	}
	where := fmt.Sprintf("format: file %s: row group %d, column %s: bloom filter", f.Name, rg, f.Schema.Leaves[col].Path)
	off := *md.BloomFilterOffset
	hr := f.bloomHeaderRange(rg, col)
	n := hr.Length
	if off <= 0 || n <= 0 {
		return nil, fmt.Errorf("%s: %w: offset %d outside the file", where, ErrCorrupt, off)
	}
	b, err := readRange(f.Source, hr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	h, hn, err := thrift.DecodeBloomFilterHeader(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: header: %v", where, ErrCorrupt, err)
	}
	bf, err := newBloomFilter(f.Source, h, off+int64(hn), int64(hn), where)
	if err != nil {
		return nil, err
	}

	bf.FetchedBytes = n
	if int64(hn) < int64(len(b)) {
		bf.fetched = b[hn:]
	}
	return bf, nil
}

func newBloomFilter(src Source, h *meta.BloomFilterHeader, bitset, headerBytes int64, where string) (*BloomFilter, error) {
	if !h.AlgorithmBlock || !h.HashXxHash || !h.CompressionNone {
		return nil, fmt.Errorf("%s: %w: only split-block, xxHash, uncompressed filters are defined", where, ErrUnsupported)
	}
	if h.NumBytes <= 0 || h.NumBytes%bloomBlock != 0 || bitset+int64(h.NumBytes) > src.Size() {
		return nil, fmt.Errorf("%s: %w: bitset of %d bytes at %d does not fit the file", where, ErrCorrupt, h.NumBytes, bitset)
	}
	return &BloomFilter{src: src, bitset: bitset, numBytes: int64(h.NumBytes), HeaderBytes: headerBytes}, nil
}

// Length is the filter's size by its header: the header and the bitset it
// declares. A footer's bloom_filter_length that differs says the filter was
// not written as either claims.
func (b *BloomFilter) Length() int64 { return b.HeaderBytes + b.numBytes }

// BlockRange is the 32-byte block a hash probes.
func (b *BloomFilter) BlockRange(hash uint64) Range {
	blocks := uint64(b.numBytes / bloomBlock)
	i := ((hash >> 32) * blocks) >> 32
	return Range{b.bitset + int64(i)*bloomBlock, bloomBlock}
}

// MayContain reads the block for hash and reports whether the value may be
// in the chunk; false proves it absent.
func (b *BloomFilter) MayContain(hash uint64) (bool, error) {
	block, err := b.ReadBlock(hash)
	if err != nil {
		return true, err
	}
	return BlockMayContain(block, hash), nil
}

// ReadBlock reads the 32-byte block a hash probes, so that a caller probing
// many values can read each block once.
func (b *BloomFilter) ReadBlock(hash uint64) ([]byte, error) {
	r := b.BlockRange(hash)
	if b.Fetched(r) {
		at := r.Offset - b.bitset
		return b.fetched[at : at+r.Length : at+r.Length], nil
	}
	return readRange(b.src, r)
}

// Fetched reports whether block r came with the header read, so that
// reading it costs nothing more.
func (b *BloomFilter) Fetched(r Range) bool {
	return r.Offset >= b.bitset && r.End() <= b.bitset+int64(len(b.fetched))
}

// BlockMayContain tests the eight bits hash sets in a 32-byte block.
func BlockMayContain(block []byte, hash uint64) bool {
	key := uint32(hash)
	for i := 0; i < 8; i++ {
		word := binary.LittleEndian.Uint32(block[4*i:])
		bit := (key * salt[i]) >> 27
		if word&(1<<bit) == 0 {
			return false
		}
	}
	return true
}

// bloomHeaderRange is what ReadBloomFilter reads to find a chunk's filter
// header: maxBloomHeader bytes from the filter's offset, fewer when the
// footer's bloom_filter_length or the file ends sooner.
func (f *File) bloomHeaderRange(rg, col int) Range {
	md := f.Chunk(rg, col).MetaData
	off := *md.BloomFilterOffset
	n := int64(maxBloomHeader)
	if md.BloomFilterLength != nil && int64(*md.BloomFilterLength) < n {
		n = int64(*md.BloomFilterLength)
	}
	if rest := f.Source.Size() - off; rest < n {
		n = rest
	}
	return Range{off, n}
}

// bloomLayout derives a filter's bitset from its total length, before its
// header is read: writers size the bitset as a power of two (parquet-mr's
// and arrow's BlockSplitBloomFilter both round up to one), so the largest
// power of two that leaves a header of 1 to maxBloomHeader bytes is the
// bitset, and what precedes it the header. ok is false when no power of
// two fits. The header read later says where the bitset really is; a
// layout that guessed wrong only costs reads that were not fetched ahead.
func bloomLayout(length int64) (header, bitset int64, ok bool) {
	if length <= bloomBlock {
		return 0, 0, false
	}
	p := int64(1) << (bits.Len64(uint64(length-1)) - 1) // largest power of two below length
	if p < bloomBlock || length-p > maxBloomHeader {
		return 0, 0, false
	}
	return length - p, p, true
}

// BloomReads returns the byte ranges that probing the chunk's Bloom filter
// for hashes will read: the header read of ReadBloomFilter and, by the
// layout the footer's bloom_filter_length implies, the block of each hash.
// A remote reader fetches them all in one round, before the header is
// decoded. ok is false when the chunk has no filter or its length is not
// recorded or fits no layout; the blocks are then known only once the
// header is read.
func (f *File) BloomReads(rg, col int, hashes []uint64) (reads []Range, ok bool) {
	md := f.Chunk(rg, col).MetaData
	if md == nil || md.BloomFilterOffset == nil || *md.BloomFilterOffset <= 0 || md.BloomFilterLength == nil {
		return nil, false
	}
	off, length := *md.BloomFilterOffset, int64(*md.BloomFilterLength)
	header, bitset, ok := bloomLayout(length)
	if !ok || off+length > f.Source.Size() {
		return nil, false
	}
	hr := f.bloomHeaderRange(rg, col)
	reads = append(reads, hr)
	bf := BloomFilter{bitset: off + header, numBytes: bitset}
	for _, h := range hashes {
		// A block the header read covers is not read again.
		if r := bf.BlockRange(h); r.Offset < hr.Offset || r.End() > hr.End() {
			reads = append(reads, r)
		}
	}
	return reads, true
}
