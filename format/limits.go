package format

// Limits bound what the reader allocates on the word of a file. A size read
// from the file is checked against the file's size and these limits before
// it sizes any buffer.
type Limits struct {
	// MaxFooterSize bounds the thrift footer.
	MaxFooterSize int64
	// MaxPageSize bounds one page, compressed or not. Real files hold pages
	// of a gigabyte that compress to a few kilobytes, so the default is the
	// format's own bound; decompression grows its buffer with the output.
	MaxPageSize int64
	// MaxPageHeaderSize bounds one thrift page header.
	MaxPageHeaderSize int64
	// MaxDictionaryValues bounds the entries of one dictionary page.
	MaxDictionaryValues int64
	// MaxPageValues bounds the values (levels) of one data page.
	MaxPageValues int64
	// MaxDecodedBytes bounds the memory a column read holds at once: the
	// decompressed pages its values point into, its levels and values, the
	// dictionary, and the scratch a page needs while it decodes. That is
	// one page and the dictionary for a PageReader whose caller releases
	// each page, the whole chunk for ReadColumn and ReadPages. A few bytes
	// of run-length or prefix encoding can declare gigabytes; every such
	// size is checked against this bound before it is allocated, and a
	// read that would pass it fails with ErrLimit.
	MaxDecodedBytes int64
	// SliceEntries is the entries PageReader.Next decodes of a page at
	// once, so that a page of millions of run-length values streams in
	// bounded slices; 0 means 64K. ReadColumn and ReadPages decode whole
	// pages.
	SliceEntries int
}

// DefaultLimits are generous for real files and small enough that a hostile
// file cannot exhaust memory.
var DefaultLimits = Limits{
	MaxFooterSize:       256 << 20,
	MaxPageSize:         1<<31 - 1,
	MaxPageHeaderSize:   16 << 20,
	MaxDictionaryValues: 64 << 20,
	MaxPageValues:       64 << 20,
	// The conformance corpus holds a chunk of a 1 GiB dictionary page and
	// a 1 GiB data page that DuckDB reads; a caller with a memory budget
	// sets a lower bound.
	MaxDecodedBytes: 3 << 30,
}
