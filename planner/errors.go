package planner

import "errors"

// Sentinel errors of package planner. Their text is DuckDB's error class, so
// a wrapped error reads like DuckDB's ("Binder Error: ...").
var (
	// ErrBinder means a name or type in the query does not resolve: an
	// unknown column, a column outside GROUP BY, a wrong argument count.
	ErrBinder = errors.New("Binder Error")
	// ErrConversion means a value cannot be cast to the type asked for.
	ErrConversion = errors.New("Conversion Error")
	// ErrOutOfRange means arithmetic overflowed its result type.
	ErrOutOfRange = errors.New("Out of Range Error")
	// ErrIO means a source's files cannot be found or opened.
	ErrIO = errors.New("IO Error")
	// ErrNotImplemented means valid SQL that pqsql does not run yet (joins,
	// UNION, window functions, ...).
	ErrNotImplemented = errors.New("Not implemented Error")
	// ErrCatalog means a view that does not exist.
	ErrCatalog = errors.New("Catalog Error")
	// ErrInvalidInput means a construct used where DuckDB refuses it, such
	// as FILTER or DISTINCT on a scalar function.
	ErrInvalidInput = errors.New("Invalid Input Error")
	// ErrSyntax means text DuckDB's parser refuses once it sees the values,
	// such as a LIKE pattern ending in its escape character.
	ErrSyntax = errors.New("Syntax Error")
)
