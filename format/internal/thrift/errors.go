package thrift

import (
	"errors"
	"strconv"
	"strings"
)

var (
	// ErrCorrupt marks input that is not well-formed thrift for the struct
	// being decoded: truncated, a wrong wire type, a missing required field,
	// an oversized length or count, or nesting deeper than the limit.
	ErrCorrupt = errors.New("corrupt thrift")

	// ErrInvalid marks a value that cannot be encoded, such as a nil struct.
	ErrInvalid = errors.New("invalid value to encode")
)

// A pathError is a decoding failure together with where it happened. The path
// is collected innermost first while the error travels up the decoders, so
// the common, successful path never formats a name.
type pathError struct {
	segs []pathSeg // innermost first
	err  error
}

// A pathSeg is a field name or, when name is empty, a list index.
type pathSeg struct {
	name string
	idx  int
}

func (e *pathError) Error() string {
	var sb strings.Builder
	sb.WriteString("thrift: ")
	for i := len(e.segs) - 1; i >= 0; i-- {
		s := e.segs[i]
		switch {
		case s.name == "":
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(s.idx))
			sb.WriteByte(']')
		case i == len(e.segs)-1:
			sb.WriteString(s.name)
		default:
			sb.WriteByte('.')
			sb.WriteString(s.name)
		}
	}
	sb.WriteString(": ")
	sb.WriteString(e.err.Error())
	return sb.String()
}

func (e *pathError) Unwrap() []error { return []error{ErrCorrupt, e.err} }

// at adds a field name to the path of err.
func at(err error, name string) error {
	return push(err, pathSeg{name: name})
}

// atIndex adds a list index to the path of err.
func atIndex(err error, i int) error {
	return push(err, pathSeg{idx: i})
}

func push(err error, s pathSeg) error {
	if err == nil {
		return nil
	}
	if pe, ok := err.(*pathError); ok {
		pe.segs = append(pe.segs, s)
		return pe
	}
	return &pathError{segs: []pathSeg{s}, err: err}
}
