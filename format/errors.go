package format

import "errors"

// Sentinel errors of the reader. Every error it returns wraps one of these
// (or an error of a codec or encoding package) with the file and place.
var (
	// ErrNotParquet means the file lacks the PAR1 magic at either end.
	ErrNotParquet = errors.New("not a Parquet file")
	// ErrEncrypted means the file uses Parquet modular encryption.
	ErrEncrypted = errors.New("encrypted Parquet files are not supported")
	// ErrCorrupt means the file contradicts itself or the format.
	ErrCorrupt = errors.New("corrupt file")
	// ErrLimit means a size read from the file exceeds a configured limit.
	ErrLimit = errors.New("limit exceeded")
	// ErrUnsupported means a valid feature this reader does not implement.
	ErrUnsupported = errors.New("not supported")
	// ErrChecksum means a page's CRC32 does not match its bytes.
	ErrChecksum = errors.New("page checksum mismatch")
)
