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
	// ErrTruncated means the file changed or shrank while it was read: a
	// read inside the size seen at open returned fewer bytes.
	ErrTruncated = errors.New("file changed or truncated while reading")
	// ErrNotRegular means the path names something other than a regular
	// file (a directory, a FIFO, a device), which is refused unopened.
	ErrNotRegular = errors.New("not a regular file")
	// ErrInvalidString means a string column holds a value that is not
	// valid UTF-8, which DuckDB refuses to read as VARCHAR.
	ErrInvalidString = errors.New("invalid string encoding")
	// ErrAbsent means the file holds no such structure: a column chunk
	// without a column index, an offset index or a Bloom filter. It is not
	// a fault of the file; a caller treats it as "cannot rule anything out".
	ErrAbsent = errors.New("absent")
	// ErrChecksum means a page's CRC32 does not match its bytes.
	ErrChecksum = errors.New("page checksum mismatch")
	// ErrNotDecoded means a column chunk's metadata was asked for of a
	// file opened with the metadata of other columns alone
	// (OpenSourceColumns) or with its schema alone (OpenSourceSchema).
	ErrNotDecoded = errors.New("column metadata not decoded")
)
