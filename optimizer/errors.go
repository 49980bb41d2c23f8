package optimizer

import "errors"

// Sentinel errors of package optimizer.
var (
	// ErrSubqueryRows means a scalar subquery returned more than one row,
	// in DuckDB's words.
	ErrSubqueryRows = errors.New("Invalid Input Error: More than one row returned by a subquery used as an expression - scalar subqueries can only return a single row.")
)
