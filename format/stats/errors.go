package stats

import "errors"

// Sentinel errors of package stats; callers test them with errors.Is.
var (
	// ErrNoOrder means the leaf has no sort order, so no value of it can be compared.
	ErrNoOrder = errors.New("stats: column has no sort order")
	// ErrBadValue means a value's bytes do not fit the column's physical form
	// (wrong length for its type).
	ErrBadValue = errors.New("stats: value does not fit the column's physical type")
	// ErrWrongKind means a literal of one kind (integer, float, bytes, decimal,
	// boolean) was offered to a column of another.
	ErrWrongKind = errors.New("stats: literal kind does not match the column")
	// ErrOutOfRange means an integer or decimal literal cannot be represented in
	// the column's physical type.
	ErrOutOfRange = errors.New("stats: literal out of the column's range")
	// ErrInexact means a float literal has no exact representation in the
	// column's narrower float type.
	ErrInexact = errors.New("stats: literal not exactly representable in the column's type")
	// ErrMalformedSchema means the footer's flattened schema tree is inconsistent.
	ErrMalformedSchema = errors.New("stats: malformed schema")
)
