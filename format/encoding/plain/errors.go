package plain

import (
	"errors"
	"fmt"
	"io"
)

// Sentinel errors of the package; returned errors wrap one of them.
var (
	// ErrTruncated means the data holds fewer than the requested values; it
	// also matches io.ErrUnexpectedEOF.
	ErrTruncated = fmt.Errorf("plain: data truncated: %w", io.ErrUnexpectedEOF)
	// ErrInvalid means a negative count or a non-positive width.
	ErrInvalid = errors.New("plain: invalid argument")
)
