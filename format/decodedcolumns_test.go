package format

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// A file opened with some columns' chunk metadata reads those columns as
// the file opened whole does, and refuses the others; one opened for its
// schema has the whole one's schema, row count and key-value metadata,
// and neither row groups nor another source.
func TestOpenWithSomeColumns(t *testing.T) {
	path := filepath.Join(testcorpus.ModuleRoot(t), "fixtures", "orders_sorted.parquet")
	whole, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	amount := whole.Schema.LeafByPath("amount").Index
	city := whole.Schema.LeafByPath("city").Index
	f, err := OpenSourceColumns(whole.Source, whole.Name, DefaultLimits, func(f *File) ([]bool, error) {
		keep := make([]bool, len(f.Schema.Leaves))
		keep[amount], keep[city] = true, true
		return keep, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.NumRowGroups() != whole.NumRowGroups() || f.NumRowGroups() < 2 {
		t.Fatalf("%d row groups, want %d", f.NumRowGroups(), whole.NumRowGroups())
	}
	for rg := range f.NumRowGroups() {
		for c := range f.Schema.Leaves {
			if c != amount && c != city {
				if _, err := f.ReadColumn(rg, c); !errors.Is(err, ErrNotDecoded) || f.Decoded(c) || f.HasBloomFilter(rg, c) {
					t.Fatalf("row group %d, leaf %d left out: read %v", rg, c, err)
				}
				continue
			}
			if !reflect.DeepEqual(f.Chunk(rg, c), whole.Chunk(rg, c)) {
				t.Fatalf("row group %d, leaf %d: chunk %+v, want %+v", rg, c, f.Chunk(rg, c), whole.Chunk(rg, c))
			}
			got, err := f.ReadColumn(rg, c)
			if err != nil {
				t.Fatal(err)
			}
			want, err := whole.ReadColumn(rg, c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Values, want.Values) || !reflect.DeepEqual(got.Def, want.Def) {
				t.Fatalf("row group %d, leaf %d: values differ from the file opened whole", rg, c)
			}
		}
	}
	boom := errors.New("no columns for you")
	if _, err := OpenSourceColumns(whole.Source, whole.Name, DefaultLimits, func(*File) ([]bool, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("the columns' error: %v", err)
	}

	s, err := OpenSourceSchema(whole.Source, whole.Name, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if s.Meta.RowGroups != nil || s.NumRowGroups() != 0 || s.Decoded(amount) {
		t.Errorf("opened for its schema, it has row groups")
	}
	if s.Schema != whole.Schema && !reflect.DeepEqual(s.Meta.Schema, whole.Meta.Schema) || s.Meta.NumRows != whole.Meta.NumRows ||
		!reflect.DeepEqual(s.Meta.KeyValueMetadata, whole.Meta.KeyValueMetadata) || s.CreatedBy() != whole.CreatedBy() {
		t.Errorf("opened for its schema, it differs from the file opened whole")
	}
	if _, err := s.WithSource(whole.Source, DefaultLimits); !errors.Is(err, ErrNotDecoded) {
		t.Errorf("a file opened for its schema took another source: %v", err)
	}
}
