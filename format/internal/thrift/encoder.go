package thrift

import (
	"context"

	"github.com/apache/thrift/lib/go/thrift"
)

// An encoder writes parquet.thrift structs in the compact protocol. The first
// error sticks and every later write is a no-op, so struct writers read as a
// plain list of fields.
type encoder struct {
	buf *thrift.TMemoryBuffer
	p   *thrift.TCompactProtocol
	ctx context.Context
	err error
}

func newEncoder() *encoder {
	buf := thrift.NewTMemoryBufferLen(256)
	return &encoder{
		buf: buf,
		p:   thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{}),
		ctx: context.Background(),
	}
}

func (e *encoder) bytes() ([]byte, error) {
	if e.err != nil {
		return nil, e.err
	}
	return e.buf.Bytes(), nil
}

func (e *encoder) check(err error) {
	if e.err == nil {
		e.err = err
	}
}

// structBody writes the fields that body writes, then the stop marker.
func (e *encoder) structBody(body func()) {
	if e.err != nil {
		return
	}
	e.check(e.p.WriteStructBegin(e.ctx, ""))
	body()
	if e.err != nil {
		return
	}
	e.check(e.p.WriteFieldStop(e.ctx))
	e.check(e.p.WriteStructEnd(e.ctx))
}

func (e *encoder) field(t thrift.TType, id int16) bool {
	if e.err != nil {
		return false
	}
	e.check(e.p.WriteFieldBegin(e.ctx, "", t, id))
	return e.err == nil
}

func (e *encoder) structField(id int16, body func()) {
	if e.field(thrift.STRUCT, id) {
		e.structBody(body)
		e.check(e.p.WriteFieldEnd(e.ctx))
	}
}

// emptyField writes an empty struct, as union members such as StringType are.
func (e *encoder) emptyField(id int16) { e.structField(id, func() {}) }

func (e *encoder) i8Field(id int16, v int8) {
	if e.field(thrift.BYTE, id) {
		e.check(e.p.WriteByte(e.ctx, v))
	}
}

func (e *encoder) i16Field(id int16, v int16) {
	if e.field(thrift.I16, id) {
		e.check(e.p.WriteI16(e.ctx, v))
	}
}

func (e *encoder) i32Field(id int16, v int32) {
	if e.field(thrift.I32, id) {
		e.check(e.p.WriteI32(e.ctx, v))
	}
}

func (e *encoder) i64Field(id int16, v int64) {
	if e.field(thrift.I64, id) {
		e.check(e.p.WriteI64(e.ctx, v))
	}
}

func (e *encoder) boolField(id int16, v bool) {
	if e.field(thrift.BOOL, id) {
		e.check(e.p.WriteBool(e.ctx, v))
	}
}

func (e *encoder) doubleField(id int16, v float64) {
	if e.field(thrift.DOUBLE, id) {
		e.check(e.p.WriteDouble(e.ctx, v))
	}
}

func (e *encoder) stringField(id int16, v string) {
	if e.field(thrift.STRING, id) {
		e.check(e.p.WriteString(e.ctx, v))
	}
}

func (e *encoder) binaryField(id int16, v []byte) {
	if e.field(thrift.STRING, id) {
		e.check(e.p.WriteBinary(e.ctx, v))
	}
}

// Optional fields are written only when set.

func (e *encoder) optI8(id int16, v *int8) {
	if v != nil {
		e.i8Field(id, *v)
	}
}

func (e *encoder) optI16(id int16, v *int16) {
	if v != nil {
		e.i16Field(id, *v)
	}
}

func (e *encoder) optI32(id int16, v *int32) {
	if v != nil {
		e.i32Field(id, *v)
	}
}

func (e *encoder) optI64(id int16, v *int64) {
	if v != nil {
		e.i64Field(id, *v)
	}
}

func (e *encoder) optBool(id int16, v *bool) {
	if v != nil {
		e.boolField(id, *v)
	}
}

func (e *encoder) optDouble(id int16, v *float64) {
	if v != nil {
		e.doubleField(id, *v)
	}
}

func (e *encoder) optString(id int16, v *string) {
	if v != nil {
		e.stringField(id, *v)
	}
}

// optBinary writes b when it is non-nil: the decoder returns a non-nil empty
// slice for a present empty value, so nil and empty round-trip apart.
func (e *encoder) optBinary(id int16, b []byte) {
	if b != nil {
		e.binaryField(id, b)
	}
}

// listField writes a list of n elements of type elem, element i by each(i).
func (e *encoder) listField(id int16, elem thrift.TType, n int, each func(i int)) {
	if !e.field(thrift.LIST, id) {
		return
	}
	e.check(e.p.WriteListBegin(e.ctx, elem, n))
	for i := 0; i < n && e.err == nil; i++ {
		each(i)
	}
	e.check(e.p.WriteListEnd(e.ctx))
	e.check(e.p.WriteFieldEnd(e.ctx))
}

func (e *encoder) i32List(id int16, v []int32) {
	e.listField(id, thrift.I32, len(v), func(i int) { e.check(e.p.WriteI32(e.ctx, v[i])) })
}

func (e *encoder) i64List(id int16, v []int64) {
	e.listField(id, thrift.I64, len(v), func(i int) { e.check(e.p.WriteI64(e.ctx, v[i])) })
}

func (e *encoder) boolList(id int16, v []bool) {
	e.listField(id, thrift.BOOL, len(v), func(i int) { e.check(e.p.WriteBool(e.ctx, v[i])) })
}

func (e *encoder) stringList(id int16, v []string) {
	e.listField(id, thrift.STRING, len(v), func(i int) { e.check(e.p.WriteString(e.ctx, v[i])) })
}

func (e *encoder) binaryList(id int16, v [][]byte) {
	e.listField(id, thrift.STRING, len(v), func(i int) { e.check(e.p.WriteBinary(e.ctx, v[i])) })
}

// structList writes a list of structs, element i's fields by each(i).
func (e *encoder) structList(id int16, n int, each func(i int)) {
	e.listField(id, thrift.STRUCT, n, func(i int) { e.structBody(func() { each(i) }) })
}
