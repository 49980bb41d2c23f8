package exec

import (
	"fmt"

	"github.com/pqsql/pqsql/errclass"
)

// Sentinel errors of package exec. The classes are errclass's, the same
// values planner uses, so errors.Is(err, planner.ErrCatalog) and
// errors.Is(err, exec.ErrCatalog) agree.
var (
	// ErrCorrupt means decoded data that does not line up (a page's rows do
	// not match its entries); the file is damaged.
	ErrCorrupt = errclass.Sub(errclass.InvalidInput, "exec: corrupt data")
	// ErrSchemaMismatch means a file of a multi-file scan lacks a column of
	// the first file or has it with another type.
	ErrSchemaMismatch = errclass.Sub(errclass.InvalidInput, "exec: files of one scan have different schemas")
	// ErrCatalog means a view that does not exist or already exists.
	ErrCatalog = errclass.Catalog
	// ErrUnknownSetting means SET of a name pqsql does not know.
	ErrUnknownSetting = errclass.Sub(errclass.Catalog, "Catalog Error: unrecognized configuration parameter")
	// ErrBadSetting means a SET value of the wrong kind.
	ErrBadSetting = errclass.InvalidInput
	// ErrOutOfMemory means a query needs more memory than memory_limit
	// allows, in an operator that does not spill (a join's hash table,
	// DISTINCT, window partitions, a buffered result).
	ErrOutOfMemory = errclass.OutOfMemory
	// ErrSpill means a temporary file under temp_directory that could not
	// be made, written or read back.
	ErrSpill = errclass.Sub(errclass.IO, "exec: temporary file")
	// ErrSpillNested means rows past memory_limit holding a nested value
	// the temporary files cannot encode (a malformed one): a bug.
	ErrSpillNested = errclass.Sub(errclass.OutOfMemory, "exec: a nested value that cannot be spilled to temporary files")
	// ErrNotImplemented means a statement pqsql does not run.
	ErrNotImplemented = errclass.NotImplemented
	// ErrInternal means a bug in pqsql: a statement that panicked. The
	// session survives it.
	ErrInternal = errclass.Internal
)

func errCorrupt(field, what string) error {
	return fmt.Errorf("%w: column %s: %s", ErrCorrupt, field, what)
}
