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

// A file opened for its schema with its footer's bytes kept decodes its
// row groups from them, as often as asked, whole or for some columns, as
// the file opened so would; a source of another size or a footer over the
// limits is refused as opening them would be.
func TestOpenDeferred(t *testing.T) {
	path := filepath.Join(testcorpus.ModuleRoot(t), "fixtures", "orders_sorted.parquet")
	whole, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	d, err := OpenSourceDeferred(whole.Source, whole.Name, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if d.Meta.RowGroups != nil || d.Decoded(0) || d.Meta.NumRows != whole.Meta.NumRows {
		t.Fatalf("deferred: %d row groups decoded, %d rows", len(d.Meta.RowGroups), d.Meta.NumRows)
	}
	for range 2 {
		g, err := d.Decode(whole.Source, DefaultLimits, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g.Meta, whole.Meta) || !g.Decoded(-1) {
			t.Fatal("decoded whole, the footer differs from the file opened whole")
		}
		if w, err := d.WithSource(whole.Source, DefaultLimits); err != nil || !reflect.DeepEqual(w.Meta, whole.Meta) {
			t.Fatalf("WithSource of a deferred file: %v", err)
		}
	}
	city := whole.Schema.LeafByPath("city").Index
	g, err := d.Decode(whole.Source, DefaultLimits, func(f *File) ([]bool, error) {
		keep := make([]bool, len(f.Schema.Leaves))
		keep[city] = true
		return keep, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rg := range g.NumRowGroups() {
		for c := range g.Schema.Leaves {
			if got, want := g.Chunk(rg, c), whole.Chunk(rg, c); c == city && !reflect.DeepEqual(got, want) || c != city && got.MetaData != nil {
				t.Fatalf("row group %d, leaf %d: %+v", rg, c, got)
			}
		}
	}
	if d.Meta.RowGroups != nil {
		t.Error("decoding changed the kept file")
	}
	if _, err := d.Decode(BytesSource(make([]byte, 100)), DefaultLimits, nil); !errors.Is(err, ErrTruncated) {
		t.Errorf("a source of another size: %v", err)
	}
	small := DefaultLimits
	small.MaxFooterSize = 100
	if _, err := d.Decode(whole.Source, small, nil); !errors.Is(err, ErrLimit) {
		t.Errorf("a footer over the limit: %v", err)
	}
	// The last decoding hands the bytes back: no more after it.
	if g, err := d.DecodeOnce(whole.Source, DefaultLimits, nil); err != nil || !reflect.DeepEqual(g.Meta, whole.Meta) {
		t.Fatalf("decoded once: %v", err)
	}
	if _, err := d.Decode(whole.Source, DefaultLimits, nil); !errors.Is(err, ErrNotDecoded) {
		t.Errorf("decoded after its last decoding: %v", err)
	}
}
