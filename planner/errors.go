package planner

import "github.com/pqsql/pqsql/errclass"

// Sentinel errors of package planner: DuckDB's error classes from package
// errclass, so a wrapped error reads like DuckDB's ("Binder Error: ...") and
// is the same value exec and the shell test against.
var (
	// ErrBinder means a name or type in the query does not resolve: an
	// unknown column, a column outside GROUP BY, a wrong argument count.
	ErrBinder = errclass.Binder
	// ErrConversion means a value cannot be cast to the type asked for.
	ErrConversion = errclass.Conversion
	// ErrOutOfRange means arithmetic overflowed its result type.
	ErrOutOfRange = errclass.OutOfRange
	// ErrIO means a source's files cannot be found or opened.
	ErrIO = errclass.IO
	// ErrNotImplemented means valid SQL that pqsql does not run yet (joins,
	// window functions, ...).
	ErrNotImplemented = errclass.NotImplemented
	// ErrCatalog means a view that does not exist.
	ErrCatalog = errclass.Catalog
	// ErrInvalidInput means a construct used where DuckDB refuses it, such
	// as FILTER or DISTINCT on a scalar function.
	ErrInvalidInput = errclass.InvalidInput
	// ErrNotGrouped is the Binder Error of a column used outside GROUP BY
	// and outside an aggregate; the binder retries such an expression
	// against the group keys.
	ErrNotGrouped = errclass.Sub(errclass.Binder, "Binder Error")
	// ErrSyntax means text DuckDB's parser refuses once it sees the values,
	// such as a LIKE pattern ending in its escape character.
	ErrSyntax = errclass.Sub(errclass.Parser, "Syntax Error")
)
