package delta

import (
	"errors"
	"fmt"
	"io"
)

// Sentinel errors of the package; returned errors wrap one of them.
var (
	// ErrTruncated means the data ends, or declares fewer values, before
	// the requested ones; it also matches io.ErrUnexpectedEOF.
	ErrTruncated = fmt.Errorf("delta: data truncated: %w", io.ErrUnexpectedEOF)
	// ErrCorrupt means a header, bit width or length contradicts the
	// encoding.
	ErrCorrupt = errors.New("delta: corrupt data")
	// ErrTooLarge means DELTA_BYTE_ARRAY values would decode to more than
	// MaxDecodedSize bytes.
	ErrTooLarge = errors.New("delta: decoded values too large")
	// ErrInvalid means a negative value count.
	ErrInvalid = errors.New("delta: invalid argument")
)
