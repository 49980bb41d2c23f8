package planner

import (
	"testing"

	"github.com/pqsql/pqsql/format"
)

// TestStructCastByName checks that a struct value converts to another
// struct type field by field of the same name, ignoring case, with NULL
// for a field the value lacks, as DuckDB casts structs and reads a later
// file's struct column into the first file's type; with no name in common
// the fields go by position.
func TestStructCastByName(t *testing.T) {
	leaf := func(d Datum, ty Type) format.Value {
		v, err := valueOf(d, ty)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	one, two := leaf(IntDatum(1), tInteger), leaf(IntDatum(2), tInteger)
	str := func(name string) Type { return Type{ID: TypeNested, Name: name} }
	for _, tc := range []struct {
		from, to string
		values   []format.Value
		want     string
	}{
		{"STRUCT(a INTEGER, b INTEGER)", "STRUCT(b INTEGER, a INTEGER)", []format.Value{one, two}, "{'b': 2, 'a': 1}"},
		{"STRUCT(p INTEGER, q INTEGER)", "STRUCT(Q BIGINT, r INTEGER)", []format.Value{one, two}, "{'Q': 2, 'r': NULL}"},
		{"STRUCT(p INTEGER, q INTEGER)", "STRUCT(q BIGINT)", []format.Value{one, two}, "{'q': 2}"},
		{"STRUCT(p INTEGER, q INTEGER)", "STRUCT(x INTEGER, y INTEGER)", []format.Value{one, two}, "{'x': 1, 'y': 2}"},
	} {
		from, to := str(tc.from), str(tc.to)
		ff, _ := structFields(from)
		v := &format.Struct{Values: tc.values}
		for _, f := range ff {
			v.Fields = append(v.Fields, &format.Field{Name: f.Name})
		}
		d, err := CastDatum(Datum{N: v}, from, to)
		if err != nil {
			t.Errorf("%s to %s: %v", tc.from, tc.to, err)
			continue
		}
		if got := string(AppendText(nil, d, to)); got != tc.want {
			t.Errorf("%s to %s = %s, want %s", tc.from, tc.to, got, tc.want)
		}
	}
}
