package exec

import (
	"errors"
	"fmt"
)

// Sentinel errors of package exec.
var (
	// ErrCorrupt means decoded data that does not line up (a page's rows do
	// not match its entries); the file is damaged.
	ErrCorrupt = errors.New("exec: corrupt data")
	// ErrSchemaMismatch means a file of a multi-file scan lacks a column of
	// the first file or has it with another type.
	ErrSchemaMismatch = errors.New("exec: files of one scan have different schemas")
	// ErrCatalog means a view that does not exist or already exists.
	ErrCatalog = errors.New("Catalog Error")
	// ErrUnknownSetting means SET of a name pqsql does not know.
	ErrUnknownSetting = errors.New("Catalog Error: unrecognized configuration parameter")
	// ErrBadSetting means a SET value of the wrong kind.
	ErrBadSetting = errors.New("Invalid Input Error")
	// ErrOutOfMemory means a query needs more memory than memory_limit
	// allows (a join's hash table).
	ErrOutOfMemory = errors.New("Out of Memory Error")
	// ErrNotImplemented means a statement pqsql does not run.
	ErrNotImplemented = errors.New("Not implemented Error")
)

func errCorrupt(field, what string) error {
	return fmt.Errorf("%w: column %s: %s", ErrCorrupt, field, what)
}
