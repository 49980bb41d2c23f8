package thrift

import (
	"context"
	"errors"
	"io"

	"github.com/apache/thrift/lib/go/thrift"
)

// A reader is a read-only thrift transport over a byte slice. Unlike
// TMemoryBuffer it knows its position, which DecodePageHeader reports as the
// header's size, and it never copies or alters the caller's bytes.
type reader struct {
	b   []byte
	pos int
}

var _ thrift.TRichTransport = (*reader)(nil)
var _ thrift.TTransport = (*reader)(nil)

var errReadOnly = errors.New("read-only transport")

func (r *reader) Read(p []byte) (int, error) {
	if r.pos >= len(r.b) {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := copy(p, r.b[r.pos:])
	r.pos += n
	return n, nil
}

func (r *reader) ReadByte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, io.EOF
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

// RemainingBytes lets the protocol reject a list whose declared size cannot
// fit in what is left, before anything is allocated for it.
func (r *reader) RemainingBytes() uint64 { return uint64(len(r.b) - r.pos) }

func (r *reader) Write([]byte) (int, error)       { return 0, errReadOnly }
func (r *reader) WriteByte(byte) error            { return errReadOnly }
func (r *reader) WriteString(string) (int, error) { return 0, errReadOnly }
func (r *reader) Flush(context.Context) error     { return nil }
func (r *reader) Open() error                     { return nil }
func (r *reader) IsOpen() bool                    { return true }
func (r *reader) Close() error                    { return nil }
