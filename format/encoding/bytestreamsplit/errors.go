package bytestreamsplit

import (
	"errors"
	"fmt"
	"io"
)

// Sentinel errors of the package; returned errors wrap one of them.
var (
	// ErrTruncated means the streams hold fewer than the requested values;
	// it also matches io.ErrUnexpectedEOF.
	ErrTruncated = fmt.Errorf("bytestreamsplit: data truncated: %w", io.ErrUnexpectedEOF)
	// ErrCorrupt means the data is not a whole number of values.
	ErrCorrupt = errors.New("bytestreamsplit: corrupt data")
	// ErrInvalid means a width below 1 or a negative count.
	ErrInvalid = errors.New("bytestreamsplit: invalid argument")
)
