// Package format reads Apache Parquet files. It knows no SQL.
//
// A File is opened from a Source, a random-access view of the bytes that
// serves every read as a positioned range read (ReadAt), never a memory map:
// bytes and requests are countable (CountingSource) and the same path can
// serve remote range reads. Open checks the magic, decodes the footer with
// the thrift compact protocol (format/internal/thrift) into format/meta
// values, refuses encrypted files, and builds the Schema: the element tree,
// its leaves with dotted paths and maximum levels, and the Fields a query
// sees, with the LIST and MAP backward-compatibility rules of
// LogicalTypes.md resolved. Files whose footers repeat a schema list byte
// for byte, as the files of a glob do, share its elements and Schema. Most
// of a footer is its column chunks' metadata: OpenSourceColumns decodes
// that of the leaves a reader uses alone, passing over the others' bytes,
// and OpenSourceSchema none; a read of a chunk left undecoded is refused
// (ErrNotDecoded).
//
// Column chunks decode page by page (PageReader, or ReadColumn and
// ReadPages for whole chunks and selected pages): dictionary pages, data
// pages v1 and v2 with their levels, every encoding (format/encoding/...),
// every codec (format/compress), CRC32 checks. Values stay columnar
// (Values) with definition and repetition levels kept, so nulls are exact;
// an Assembler rebuilds STRUCT, LIST, MAP and VARIANT values from levels.
// LogicalOf interprets a leaf as DuckDB does, and the Append* functions
// print values in DuckDB's text.
//
// The page index (ReadColumnIndex, ReadOffsetIndex) and split-block Bloom
// filters (ReadBloomFilter, whose probes read one 32-byte block) are read on
// demand for pushdown; a chunk without one gives an error wrapping
// ErrAbsent, which is no fault of the file.
//
// What the package promises: no size read from a file sizes an allocation
// before it is checked against the file's size and the Limits, and a column
// read holds at most Limits.MaxDecodedBytes of decoded data; a malformed
// file gives an error naming the file, row group, column and page offset
// that wraps ErrCorrupt, ErrLimit, ErrUnsupported, ErrChecksum,
// ErrInvalidString or ErrEncrypted, never a panic. A file that changes or shrinks while it is
// read gives ErrTruncated, never zeroed bytes; a path that is not a regular
// file gives ErrNotRegular before it is opened.
package format
