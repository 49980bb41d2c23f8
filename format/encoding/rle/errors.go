package rle

import (
	"errors"
	"fmt"
	"io"
)

// Sentinel errors of the package; returned errors wrap one of them.
var (
	// ErrTruncated means the data ended before the requested values; it
	// also matches io.ErrUnexpectedEOF.
	ErrTruncated = fmt.Errorf("rle: data truncated: %w", io.ErrUnexpectedEOF)
	// ErrBitWidth means a bit width outside 0..32.
	ErrBitWidth = errors.New("rle: invalid bit width")
	// ErrCorrupt means a run header or value contradicts the encoding.
	ErrCorrupt = errors.New("rle: corrupt data")
)
