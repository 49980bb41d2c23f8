package format

import (
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
)

const (
	magic          = "PAR1"
	encryptedMagic = "PARE"
	footerTail     = 8 // footer length + magic
)

// A File is an open Parquet file: its footer decoded and its schema built.
// Data is read on demand through Source.
type File struct {
	// Name names the file in errors and plans.
	Name string
	// Source serves every read.
	Source Source
	// Meta is the decoded footer: whole, but for a file opened with some
	// leaves' chunk metadata alone (OpenSourceColumns) or its schema alone
	// (OpenSourceSchema), whose other chunks have none (Decoded).
	Meta *meta.FileMetaData
	// Schema is the schema tree built from Meta.Schema. Both are
	// read-only: files whose footers repeat a schema list share its
	// elements and its Schema.
	Schema *Schema
	// FooterSize is the byte length of the thrift footer plus its 8-byte tail.
	FooterSize int64
	// Limits bound allocations sized by the file.
	Limits Limits

	closer io.Closer
	// kept marks the leaves whose chunks' metadata was decoded, nil when
	// every leaf's was (OpenSourceColumns); schemaOnly: no row group was
	// (OpenSourceSchema).
	kept       []bool
	schemaOnly bool
	// raw is the footer's bytes, of a file opened for its schema to be
	// decoded later (OpenSourceDeferred), and rowGroups where its row
	// groups lie in them.
	raw       []byte
	rowGroups thrift.Deferred
	// head checks the leading magic once, at open or before the first
	// page is decoded.
	head *headCheck
}

// Open opens the Parquet file at path on the local file system, with the
// DefaultLimits.
func Open(path string) (*File, error) { return OpenWith(path, DefaultLimits) }

// OpenWith is Open with the given limits: a caller with a memory budget
// bounds the decoded data of each column read by it (MaxDecodedBytes).
func OpenWith(path string, limits Limits) (*File, error) {
	src, closer, err := OpenLocal(path)
	if err != nil {
		return nil, fmt.Errorf("format: %w", err)
	}
	f, err := OpenSource(src, filepath.Base(path), limits)
	if err != nil {
		closer.Close()
		return nil, err
	}
	f.closer = closer
	return f, nil
}

// Close releases the file's source if Open opened it.
func (f *File) Close() error {
	if f.closer != nil {
		return f.closer.Close()
	}
	return nil
}

// OpenSource reads the footer of the file served by src. name is used in errors.
func OpenSource(src Source, name string, limits Limits) (*File, error) {
	return openSource(src, name, limits, decodeAll, nil)
}

// OpenSourceColumns is OpenSource decoding, of the row groups' column
// chunks, the metadata of the leaves keep marks alone: most of a footer is
// its chunks' metadata, and a scan needs that of the columns it reads or
// judges. keep is called with the file as decoded but for its row groups
// (Meta.RowGroups nil) and returns, by leaf, whether its chunks' metadata
// is decoded (nil: every leaf's); the others have none (MetaData nil), and
// the reader refuses to read them (ErrNotDecoded).
func OpenSourceColumns(src Source, name string, limits Limits, keep func(*File) ([]bool, error)) (*File, error) {
	return openSource(src, name, limits, decodeKept, keep)
}

// OpenSourceSchema is OpenSource for the schema alone: the row groups are
// passed over undecoded (Meta.RowGroups is nil), so the file serves its
// schema, row count and key-value metadata but no read, and cannot be
// given another source (WithSource).
func OpenSourceSchema(src Source, name string, limits Limits) (*File, error) {
	return openSource(src, name, limits, decodeSchema, nil)
}

// What of a footer's row groups openSource decodes.
type decodeMode uint8

const (
	decodeAll decodeMode = iota
	decodeKept
	decodeSchema
	decodeDeferred
)

func openSource(src Source, name string, limits Limits, mode decodeMode, keep func(*File) ([]bool, error)) (*File, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("format: file %s: "+format, append([]any{name}, args...)...)
	}
	size := src.Size()
	if size < int64(len(magic))+footerTail {
		return nil, fail("%w: file is %d bytes, too small to be Parquet", ErrNotParquet, size)
	}
	var tail [footerTail]byte
	if err := readFull(src, tail[:], size-footerTail); err != nil {
		return nil, fail("reading footer: %w", err)
	}
	switch string(tail[4:]) {
	case magic:
	case encryptedMagic:
		return nil, fail("%w (the footer is encrypted)", ErrEncrypted)
	default:
		return nil, fail("%w: file does not end with PAR1 magic", ErrNotParquet)
	}
	head := &headCheck{}
	if d, ok := src.(HeadDeferrer); !ok || !d.DefersHead() {
		if err := head.check(src); err != nil {
			return nil, fail("%w", err)
		}
	}
	footerLen := int64(binary.LittleEndian.Uint32(tail[:4]))
	if footerLen == 0 || footerLen > size-footerTail-int64(len(magic)) {
		return nil, fail("%w: footer length %d does not fit a file of %d bytes", ErrCorrupt, footerLen, size)
	}
	if footerLen > limits.MaxFooterSize {
		return nil, fail("%w: footer of %d bytes exceeds the limit of %d", ErrLimit, footerLen, limits.MaxFooterSize)
	}
	buf, err := readFooter(src, Range{size - footerTail - footerLen, footerLen})
	if err != nil {
		return nil, fail("%w", err)
	}
	// Nothing decoded points into the footer's bytes (the decoder copies
	// bytes and strings out): once decoded they serve the scan's first
	// reads, unless kept to decode the row groups later.
	held := false
	defer func() {
		if !held {
			putFetchBuffer(buf)
		}
	}()
	var md *meta.FileMetaData
	var known *thrift.Known
	var rowGroups thrift.Deferred
	if mode == decodeAll {
		md, known, err = thrift.DecodeFileMetaDataKnown(buf, recentKnown())
	} else {
		md, known, rowGroups, err = thrift.DecodeFileMetaDataDeferred(buf, recentKnown())
	}
	if err != nil {
		return nil, fail("%w: decoding footer: %v", ErrCorrupt, err)
	}
	if md.EncryptionAlgorithm != nil {
		return nil, fail("%w (columns are encrypted under a plaintext footer)", ErrEncrypted)
	}
	var schema *Schema
	if known.Shares(md) {
		schema = sharedSchema(known)
	}
	shared := schema != nil
	if !shared {
		if schema, err = NewSchema(md.Schema); err != nil {
			return nil, fail("schema: %w", err)
		}
	}
	f := &File{Name: name, Source: src, Meta: md, Schema: schema, FooterSize: footerLen + footerTail, Limits: limits, head: head,
		schemaOnly: mode == decodeSchema || mode == decodeDeferred}
	if mode == decodeKept {
		if err := f.decodeRowGroups(buf, rowGroups, keep); err != nil {
			return nil, err
		}
	}
	if err := f.validate(); err != nil {
		return nil, fail("%w", err)
	}
	if mode == decodeDeferred {
		f.raw, f.rowGroups, held = buf, rowGroups, true
	}
	if !shared && known.Shares(md) {
		keepSchema(known, schema)
	}
	return f, nil
}

// decodeRowGroups decodes the row groups of f, a file decoded but for them,
// from its footer's bytes, with the chunk metadata of the leaves keep marks
// (all when keep is nil).
func (f *File) decodeRowGroups(buf []byte, rowGroups thrift.Deferred, keep func(*File) ([]bool, error)) error {
	var kept []bool
	if keep != nil {
		var err error
		if kept, err = keep(f); err != nil {
			return err
		}
	}
	rgs, err := rowGroups.Decode(buf, kept)
	if err != nil {
		return fmt.Errorf("format: file %s: %w: decoding footer: %v", f.Name, ErrCorrupt, err)
	}
	f.Meta.RowGroups, f.kept = rgs, kept
	return nil
}

// OpenSourceDeferred is OpenSourceSchema keeping the footer's bytes, to
// decode its row groups when the file is read (Decode, DecodeOnce), for
// the columns read then: the footer is read once, and held undecoded
// meanwhile.
func OpenSourceDeferred(src Source, name string, limits Limits) (*File, error) {
	return openSource(src, name, limits, decodeDeferred, nil)
}

// Decode returns the file, opened by OpenSourceDeferred, served by src,
// another Source on the same bytes, under limits, with its row groups
// decoded as OpenSourceColumns decodes them: the chunk metadata of the
// leaves keep marks (all when keep is nil). The footer is not read again,
// so limits on it are checked here as opening checks them. A file decoded
// whole already is WithSource's.
func (f *File) Decode(src Source, limits Limits, keep func(*File) ([]bool, error)) (*File, error) {
	if f.raw == nil {
		return f.WithSource(src, limits)
	}
	if err := f.checkReuse(src, limits); err != nil {
		return nil, err
	}
	g := *f
	md := *f.Meta
	g.Meta, g.Source, g.Limits, g.closer, g.raw, g.schemaOnly = &md, src, limits, nil, nil, false
	if err := g.decodeRowGroups(f.raw, f.rowGroups, keep); err != nil {
		return nil, err
	}
	if err := g.validate(); err != nil {
		return nil, fmt.Errorf("format: file %s: %w", g.Name, err)
	}
	return &g, nil
}

// DecodeOnce is Decode by the last reader of f: the footer's bytes then
// serve the reader's next reads, and f cannot be decoded again.
func (f *File) DecodeOnce(src Source, limits Limits, keep func(*File) ([]bool, error)) (*File, error) {
	g, err := f.Decode(src, limits, keep)
	if f.raw != nil {
		putFetchBuffer(f.raw)
		f.raw = nil
	}
	return g, err
}

// Decoded reports whether the chunks of leaf col have their metadata: a
// file opened with some columns' (OpenSourceColumns) or its schema alone
// (OpenSourceSchema) lacks the others'. Decoded(-1) reports whether every
// leaf's chunks have theirs.
func (f *File) Decoded(col int) bool {
	if f.schemaOnly {
		return false
	}
	if col < 0 {
		return !slices.Contains(f.kept, false)
	}
	return f.kept == nil || col >= len(f.kept) || f.kept[col]
}

// readFooter is readPooled for a footer, into a pooled buffer even when it
// is smaller than the pools' smallest: a glob reads a footer a file, and
// one buffer serves them all.
func readFooter(src Source, r Range) ([]byte, error) {
	if err := checkRange(src, r); err != nil {
		return nil, err
	}
	buf := fetchBuffer(max(r.Length, 1<<minPooledBits))[:r.Length]
	if err := readFull(src, buf, r.Offset); err != nil {
		putFetchBuffer(buf)
		return nil, err
	}
	return buf, nil
}

// WithSource returns the file, its footer as already decoded, served by
// src, another Source on the same bytes, under limits: a footer decoded
// once serves the stage that bound the schema and the scan after it. The
// footer is not read again, so limits on it are checked here as
// OpenSource checks them.
func (f *File) WithSource(src Source, limits Limits) (*File, error) {
	if f.raw != nil {
		return f.Decode(src, limits, nil)
	}
	if f.schemaOnly {
		return nil, fmt.Errorf("format: file %s: %w: its footer was decoded for the schema alone", f.Name, ErrNotDecoded)
	}
	if err := f.checkReuse(src, limits); err != nil {
		return nil, err
	}
	g := *f
	g.Source, g.Limits, g.closer = src, limits, nil
	return &g, nil
}

// checkReuse checks that a footer decoded from the file's first source may
// serve src, under limits, as opening src would have.
func (f *File) checkReuse(src Source, limits Limits) error {
	if n := f.FooterSize - footerTail; n > limits.MaxFooterSize {
		return fmt.Errorf("format: file %s: %w: footer of %d bytes exceeds the limit of %d", f.Name, ErrLimit, n, limits.MaxFooterSize)
	}
	if src.Size() != f.Source.Size() {
		return fmt.Errorf("format: file %s: %w: %d bytes now, %d when its footer was read", f.Name, ErrTruncated, src.Size(), f.Source.Size())
	}
	return nil
}

// validate checks what later stages rely on: every row group has one chunk per
// leaf, and every chunk's metadata agrees with its leaf.
func (f *File) validate() error {
	for i := range f.Meta.RowGroups {
		for j := range f.Meta.RowGroups[i].Columns {
			if c := &f.Meta.RowGroups[i].Columns[j]; c.CryptoMetadata != nil || len(c.EncryptedColumnMetadata) > 0 {
				return fmt.Errorf("%w (column chunks are encrypted)", ErrEncrypted)
			}
		}
	}
	leaves := f.Schema.Leaves
	if f.Meta.NumRows < 0 {
		return fmt.Errorf("%w: negative row count %d", ErrCorrupt, f.Meta.NumRows)
	}
	for _, l := range leaves {
		if why := annotationMismatch(l.Element, l.Type, l.TypeLength); why != "" {
			return fmt.Errorf("%w: column %s: %s", ErrCorrupt, l.Path, why)
		}
	}
	for i := range f.Meta.RowGroups {
		rg := &f.Meta.RowGroups[i]
		if len(rg.Columns) != len(leaves) {
			return fmt.Errorf("%w: row group %d has %d column chunks, schema has %d leaves", ErrCorrupt, i, len(rg.Columns), len(leaves))
		}
		if rg.NumRows < 0 {
			return fmt.Errorf("%w: row group %d: negative row count %d", ErrCorrupt, i, rg.NumRows)
		}
		for j := range rg.Columns {
			c := &rg.Columns[j]
			if c.FilePath != nil && *c.FilePath != "" {
				return fmt.Errorf("%w: row group %d, column %s: data in external file %q", ErrUnsupported, i, leaves[j].Path, *c.FilePath)
			}
			md := c.MetaData
			if md == nil && !f.Decoded(j) {
				continue
			}
			if md == nil {
				return fmt.Errorf("%w: row group %d, column %s: column chunk has no metadata", ErrCorrupt, i, leaves[j].Path)
			}
			if md.Type != leaves[j].Type {
				return fmt.Errorf("%w: row group %d, column %s: chunk type %s differs from schema type %s", ErrCorrupt, i, leaves[j].Path, md.Type, leaves[j].Type)
			}
			if md.TotalCompressedSize < 0 || md.NumValues < 0 {
				return fmt.Errorf("%w: row group %d, column %s: negative sizes", ErrCorrupt, i, leaves[j].Path)
			}
		}
	}
	return nil
}

// CreatedBy returns the footer's created_by, or "".
func (f *File) CreatedBy() string {
	if f.Meta.CreatedBy == nil {
		return ""
	}
	return *f.Meta.CreatedBy
}

// NumRowGroups is the number of row groups.
func (f *File) NumRowGroups() int { return len(f.Meta.RowGroups) }

// Chunk returns the metadata of leaf col in row group rg.
func (f *File) Chunk(rg, col int) *meta.ColumnChunk { return &f.Meta.RowGroups[rg].Columns[col] }

// ChunkRange is the byte range of a column chunk: from its dictionary page
// (or first data page) over TotalCompressedSize bytes.
func (f *File) ChunkRange(rg, col int) (Range, error) {
	md := f.Chunk(rg, col).MetaData
	if md == nil {
		return Range{}, f.notDecoded(rg, col)
	}
	start := md.DataPageOffset
	if d := md.DictionaryPageOffset; d != nil && *d > 0 && *d < start {
		start = *d
	}
	r := Range{start, md.TotalCompressedSize}
	if f.undersizedChunks() {
		// parquet-mr before 1.2.9 (PARQUET-816) left the dictionary page
		// header out of total_compressed_size; readers pad the range.
		r.Length += 100
		if end := f.Source.Size() - f.FooterSize; r.End() > end && start < end {
			r.Length = end - start
		}
	}
	if start < int64(len(magic)) || r.End() > f.Source.Size() || r.End() < start {
		// Some writers record a total size that runs past the footer or
		// begins before the dictionary; clamp to the data region.
		if start >= int64(len(magic)) && start < f.Source.Size() {
			end := f.Source.Size() - f.FooterSize
			if r.End() < start || r.End() > end {
				r.Length = end - start
			}
			if r.Length > 0 {
				return r, nil
			}
		}
		return Range{}, fmt.Errorf("%w: row group %d, column %s: chunk [%d, %d) lies outside the file", ErrCorrupt, rg, f.Schema.Leaves[col].Path, r.Offset, r.End())
	}
	return r, nil
}

// notDecoded is the error of a read of a chunk whose metadata the file
// was opened without.
func (f *File) notDecoded(rg, col int) error {
	return fmt.Errorf("format: file %s: row group %d, column %s: %w", f.Name, rg, f.Schema.Leaves[col].Path, ErrNotDecoded)
}

// undersizedChunks reports whether the writer is a parquet-mr older than
// 1.2.9, whose column chunk sizes may be short by the dictionary header.
func (f *File) undersizedChunks() bool {
	cb := f.CreatedBy()
	if !strings.HasPrefix(cb, "parquet-mr") {
		return false
	}
	rest := strings.TrimPrefix(cb, "parquet-mr")
	if !strings.HasPrefix(rest, " version ") {
		return true
	}
	v := versionNumbers(strings.TrimPrefix(rest, " version "))
	major, minor, patch := v[0], v[1], v[2]
	return major < 1 || (major == 1 && (minor < 2 || (minor == 2 && patch < 9)))
}

// versionNumbers reads up to three dot-separated numbers from the start of
// s ("1.2.9-SNAPSHOT" is 1, 2, 9); those missing are 0. It allocates
// nothing: every chunk range asks.
func versionNumbers(s string) [3]int {
	var v [3]int
	for i := range v {
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' && v[i] < 1<<20 {
			v[i] = 10*v[i] + int(s[j]-'0')
			j++
		}
		if j == 0 || j == len(s) || s[j] != '.' {
			break
		}
		s = s[j+1:]
	}
	return v
}
