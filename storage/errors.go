package storage

import "errors"

// Sentinel errors of package storage.
var (
	// ErrNoFiles means a path or glob matches no file.
	ErrNoFiles = errors.New("No files found that match the pattern")
	// ErrAccess means the server refused the request (403), or a local
	// directory or file cannot be read.
	ErrAccess = errors.New("access denied")
	// ErrNotFound means the object does not exist (404).
	ErrNotFound = errors.New("object not found")
	// ErrChanged means the file changed while the query read it (412, or
	// a response of another ETag or size).
	ErrChanged = errors.New("file changed during the query")
	// ErrRequest means a request failed after its last retry.
	ErrRequest = errors.New("request failed")
	// ErrShortRead means a response held fewer bytes than its range; it
	// wraps io.ErrUnexpectedEOF.
	ErrShortRead = errors.New("response shorter than its range")
	// ErrUnsupported means a path or operation storage does not serve,
	// such as a glob over HTTP.
	ErrUnsupported = errors.New("not supported")
	// ErrSecret means a CREATE SECRET, DROP SECRET or SET of credentials
	// that cannot be applied.
	ErrSecret = errors.New("invalid secret")
)
