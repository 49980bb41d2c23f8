package format

import (
	"reflect"
	"testing"
)

// The files of a glob repeat one schema: a file whose footer repeats the
// schema list of one opened before shares its elements and its Schema,
// which are what its own would be; a file of another schema has its own.
func TestFilesShareRepeatedSchema(t *testing.T) {
	open := func(path string) *File {
		t.Helper()
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	sorted := open("../fixtures/orders_sorted.parquet")
	shuffled := open("../fixtures/orders_shuffled.parquet")
	nested := open("../fixtures/nested.parquet")
	again := open("../fixtures/orders_sorted.parquet")
	if shuffled.Schema != sorted.Schema || &shuffled.Meta.Schema[0] != &sorted.Meta.Schema[0] {
		t.Error("two files of one schema hold a Schema each")
	}
	if again.Schema != sorted.Schema {
		t.Error("a schema is not shared after a file of another was opened")
	}
	if nested.Schema == sorted.Schema || len(nested.Schema.Leaves) == len(sorted.Schema.Leaves) {
		t.Error("a file of another schema shares the orders schema")
	}
	for _, f := range []*File{shuffled, nested} {
		own, err := NewSchema(f.Meta.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(own, f.Schema) {
			t.Errorf("%s: the shared Schema differs from the file's own", f.Name)
		}
	}
}

// Opening a file whose schema is known allocates nothing for the schema:
// at least what building its Schema allocates fewer than with none known.
func TestKnownSchemaAllocations(t *testing.T) {
	const path = "../fixtures/orders_shuffled.parquet"
	src, closer, err := OpenLocal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	f, err := OpenSource(src, "orders_shuffled.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	build := testing.AllocsPerRun(20, func() {
		if _, err := NewSchema(f.Meta.Schema); err != nil {
			t.Fatal(err)
		}
	})
	known := testing.AllocsPerRun(20, func() {
		if _, err := OpenSource(src, "orders_shuffled.parquet", DefaultLimits); err != nil {
			t.Fatal(err)
		}
	})
	unknown := testing.AllocsPerRun(20, func() {
		forgetSchemas()
		if _, err := OpenSource(src, "orders_shuffled.parquet", DefaultLimits); err != nil {
			t.Fatal(err)
		}
	})
	if known > unknown-build {
		t.Errorf("opening with the schema known: %.0f allocations, unknown %.0f; want at least the %.0f of building the Schema fewer", known, unknown, build)
	}
}

// forgetSchemas empties the recent schemas.
func forgetSchemas() {
	rs := &recentSchemas
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.known, rs.schemas = nil, nil
}
