package compress

import (
	"errors"

	"github.com/pqsql/pqsql/format/meta"
)

// Sentinel errors of the package; returned errors wrap one of them.
var (
	// ErrUnsupportedCodec means a codec this package does not decode (LZO,
	// or a value parquet.thrift does not define).
	ErrUnsupportedCodec = errors.New("unsupported codec")
	// ErrSizeMismatch means the decompressed data is not the declared size.
	ErrSizeMismatch = errors.New("decompressed size mismatch")
	// ErrCorrupt means the codec rejected the compressed data.
	ErrCorrupt = errors.New("corrupt compressed data")
)

// unsupportedError is the error for a codec that is not decoded; its text
// names the codec alone, as users see it in query errors.
type unsupportedError struct{ codec meta.CompressionCodec }

func (e unsupportedError) Error() string { return "codec " + e.codec.String() + " not supported" }
func (e unsupportedError) Unwrap() error { return ErrUnsupportedCodec }
