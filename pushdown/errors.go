package pushdown

import "errors"

// Sentinel errors of package pushdown; callers test them with errors.Is.
var (
	// ErrUnknownColumn means a predicate names a column the file does not have.
	ErrUnknownColumn = errors.New("unknown column")
	// ErrType means a literal cannot be compared with the column's type (a
	// string with an integer column, LIKE on a number). The planner should
	// have cast it or reported a type error.
	ErrType = errors.New("literal type does not match the column")
	// ErrUnsupported means a valid comparison this package does not push down
	// (a TIME or INTERVAL column, a repeated column). Resolve turns such a
	// leaf into a Residual, which never prunes.
	ErrUnsupported = errors.New("comparison not pushed down")
	// ErrBadPredicate means a malformed predicate tree (a nil node, an
	// unknown operator, a BETWEEN without bounds).
	ErrBadPredicate = errors.New("malformed predicate")
	// ErrBadColumn means a projected leaf index outside the file's schema.
	ErrBadColumn = errors.New("projected column out of range")
)
