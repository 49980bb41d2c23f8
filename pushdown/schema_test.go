package pushdown

import (
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// col describes one column of the synthetic schema the unit tests use.
type col struct {
	name     string
	typ      meta.Type
	optional bool
	length   int32
	logical  *meta.LogicalType
}

var testColumns = []col{
	{name: "i32", typ: meta.Int32},
	{name: "i32n", typ: meta.Int32, optional: true},
	{name: "u8", typ: meta.Int32, logical: &meta.LogicalType{Integer: &meta.IntType{BitWidth: 8}}},
	{name: "i64", typ: meta.Int64, optional: true},
	{name: "u64", typ: meta.Int64, logical: &meta.LogicalType{Integer: &meta.IntType{BitWidth: 64}}},
	{name: "dec", typ: meta.Int64, optional: true, logical: &meta.LogicalType{Decimal: &meta.DecimalType{Precision: 12, Scale: 2}}},
	{name: "decb", typ: meta.FixedLenByteArray, length: 9, logical: &meta.LogicalType{Decimal: &meta.DecimalType{Precision: 20, Scale: 3}}},
	{name: "dec18", typ: meta.Int64, logical: &meta.LogicalType{Decimal: &meta.DecimalType{Precision: 18, Scale: 2}}},
	{name: "day", typ: meta.Int32, optional: true, logical: &meta.LogicalType{Date: &struct{}{}}},
	{name: "ts", typ: meta.Int64, optional: true, logical: &meta.LogicalType{Timestamp: &meta.TimestampType{Unit: meta.Micros}}},
	{name: "tsn", typ: meta.Int64, logical: &meta.LogicalType{Timestamp: &meta.TimestampType{IsAdjustedToUTC: true, Unit: meta.Nanos}}},
	{name: "f32", typ: meta.Float, optional: true},
	{name: "f64", typ: meta.Double, optional: true},
	{name: "s", typ: meta.ByteArray, optional: true, logical: &meta.LogicalType{String: &struct{}{}}},
	{name: "blob", typ: meta.ByteArray},
	{name: "uuid", typ: meta.FixedLenByteArray, length: 16, logical: &meta.LogicalType{UUID: &struct{}{}}},
	{name: "flag", typ: meta.Boolean, optional: true},
	{name: "f16", typ: meta.FixedLenByteArray, length: 2, optional: true, logical: &meta.LogicalType{Float16: &struct{}{}}},
	{name: "tm", typ: meta.Int32, logical: &meta.LogicalType{Time: &meta.TimeType{Unit: meta.Millis}}},
	{name: "nested", typ: meta.Int32, optional: true}, // placeholder, replaced below by a repeated leaf
}

// testSchema builds the synthetic schema: testColumns at the top level, and
// "nested" as a repeated leaf.
func testSchema(t testing.TB) *format.Schema {
	t.Helper()
	n := int32(len(testColumns))
	elems := []meta.SchemaElement{{Name: "schema", NumChildren: &n}}
	for _, c := range testColumns {
		typ := c.typ
		rep := meta.Required
		if c.optional {
			rep = meta.Optional
		}
		if c.name == "nested" {
			rep = meta.Repeated
		}
		e := meta.SchemaElement{Name: c.name, Type: &typ, RepetitionType: &rep, LogicalType: c.logical}
		if c.length > 0 {
			l := c.length
			e.TypeLength = &l
		}
		elems = append(elems, e)
	}
	s, err := format.NewSchema(elems)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mapRow is a Row over a map from leaf index to PLAIN bytes; absent is NULL.
type mapRow map[int][]byte

func (r mapRow) Value(leaf int) ([]byte, bool) {
	v, ok := r[leaf]
	return v, ok
}
