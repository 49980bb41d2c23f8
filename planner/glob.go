package planner

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/pqsql/pqsql/format"

	"github.com/pqsql/pqsql/storage"
)

// A FileStore is a Catalog that also says how to reach files: the
// session's storage, with its secrets and cache, and the statement's
// context, which cancels listings and footer reads.
type FileStore interface {
	Storage() (*storage.Store, context.Context)
}

// localStore serves plans built without a FileStore: local files, and
// remote ones without secrets.
var localStore = storage.NewStore()

// storeOf returns the store and context a catalog provides.
func storeOf(cat Catalog) (*storage.Store, context.Context) {
	if fs, ok := cat.(FileStore); ok {
		if st, ctx := fs.Storage(); st != nil {
			if ctx == nil {
				ctx = context.Background()
			}
			return st, ctx
		}
	}
	return localStore, context.Background()
}

// ExpandPaths expands the globs of a source into files, as
// storage.Store.Expand does, with the default store.
func ExpandPaths(patterns []string) ([]string, error) {
	return expandPaths(context.Background(), localStore, patterns)
}

func expandPaths(ctx context.Context, st *storage.Store, patterns []string) ([]string, error) {
	files, err := st.Expand(ctx, patterns)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrIO, err)
	}
	return files, nil
}

// footersAhead bounds the remote footers a files source reads in one
// round before binding, so that a glob of thousands of files does not
// fill memory with footers; the scan opens the rest as it reaches them.
const footersAhead = 64

// openFile opens a file's footer through the store, decoded whole. The
// store caches what it read of a remote file, so the query's scan does not
// read it again; of a local file, binding keeps the footer's bytes for the
// scan (openDeferred, keptFooters).
func openFile(ctx context.Context, st *storage.Store, path string) (*format.File, func(), error) {
	return openFooter(ctx, st, path, format.OpenSource)
}

// openSchema is openFile decoding the footer but for its row groups: the
// schema of a glob's later file is checked against the first's at binding,
// and the scan, which opens the file again, decodes the metadata of the
// columns it reads alone. Binding holds no glob's footers whole.
func openSchema(ctx context.Context, st *storage.Store, path string) (*format.File, func(), error) {
	return openFooter(ctx, st, path, format.OpenSourceSchema)
}

// openDeferred is openSchema keeping the footer's bytes, for the file
// whose footer binding keeps for the scan (keptFooters): the scan decodes
// the row groups' metadata of the columns it reads from them, without
// reading the footer again.
func openDeferred(ctx context.Context, st *storage.Store, path string) (*format.File, func(), error) {
	return openFooter(ctx, st, path, format.OpenSourceDeferred)
}

func openFooter(ctx context.Context, st *storage.Store, path string, open func(format.Source, string, format.Limits) (*format.File, error)) (*format.File, func(), error) {
	src, err := st.Open(ctx, path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrIO, err)
	}
	var read format.Source = src
	if storage.Parse(path).Scheme == "" {
		// Counted, so that a scan reusing the footer accounts its reads.
		read = format.NewCountingSource(src)
	}
	f, err := open(read, filepath.Base(path), format.DefaultLimits)
	if err != nil {
		src.Close()
		return nil, nil, fmt.Errorf("%w: %w", ErrIO, err)
	}
	return f, func() { src.Close() }, nil
}

// OpenFile opens one of the scan's files through the storage its paths were
// listed from, so a file on object storage opens as a local one does (its
// footer from the store's cache where it was read ahead). Close it with the
// function returned.
func (s *Scan) OpenFile(ctx context.Context, path string) (*format.File, func(), error) {
	if fo := s.footers.peek(path); fo != nil && fo.File != nil && s.store != nil {
		// The footer binding decoded, over a source of the file's own.
		if src, err := s.store.Open(ctx, path); err == nil {
			if f, err := fo.File.WithSource(src, format.DefaultLimits); err == nil {
				return f, func() { src.Close() }, nil
			}
			src.Close()
		}
	}
	if s.store == nil {
		f, err := format.Open(path)
		if err != nil {
			return nil, nil, err
		}
		return f, func() { f.Close() }, nil
	}
	return openFile(ctx, s.store, path)
}
