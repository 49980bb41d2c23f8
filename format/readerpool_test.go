package format

import (
	"errors"
	"io"
	"math"
	"reflect"
	"testing"
)

// A closed reader, and its decoder, serve the next reader opened: opening
// and closing readers chunk after chunk allocates nothing.
func TestClosedReaderServesTheNext(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled readers at random")
	}
	f, err := Open("../fixtures/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	rg := 0
	allocs := testing.AllocsPerRun(50, func() {
		r, err := f.NewPageReader(rg, rg%len(f.Schema.Leaves), Range{}, []PageRef{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		rg = (rg + 1) % f.NumRowGroups()
	})
	if allocs != 0 {
		t.Errorf("opening and closing a page reader allocates %v objects, want 0", allocs)
	}
}

// A reader made of a closed one decodes its chunk as a new one does: each
// leaf of each row group, read page by page by readers that are closed
// and reused, gives the values ReadColumn gives.
func TestReusedReaderDecodesItsChunk(t *testing.T) {
	for _, path := range []string{"../fixtures/orders_sorted.parquet", "../fixtures/types.parquet", "../fixtures/nested.parquet"} {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for rg := range f.NumRowGroups() {
			for col := range f.Schema.Leaves {
				want, err := f.ReadColumn(rg, col)
				if err != nil {
					t.Fatal(err)
				}
				r, err := f.NewPageReader(rg, col, Range{}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got []any
				var def, rep []int32
				entries := 0
				for {
					cd, err := r.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					def, rep = append(def, cd.Def...), append(rep, cd.Rep...)
					entries += cd.NumEntries
					got = appendKeys(got, &cd.Values, cd.Dict, cd.Indices)
					r.Release()
				}
				r.Close()
				if entries != want.NumEntries || !reflect.DeepEqual(def, want.Def) || !reflect.DeepEqual(rep, want.Rep) ||
					!reflect.DeepEqual(got, appendKeys(nil, &want.Values, want.Dict, want.Indices)) {
					t.Errorf("%s: row group %d, leaf %d: a reused reader decodes other entries than ReadColumn", path, rg, col)
				}
			}
		}
	}
}

// appendKeys appends the values of src, or those of dict at indices when
// src holds none, as comparable keys: floats by their bits, so that NaN
// equals NaN.
func appendKeys(keys []any, src, dict *Values, indices []int32) []any {
	if src.Len() == 0 && dict != nil {
		for _, i := range indices {
			keys = append(keys, keyAt(dict, int(i)))
		}
		return keys
	}
	for i := range src.Len() {
		keys = append(keys, keyAt(src, i))
	}
	return keys
}

func keyAt(v *Values, i int) any {
	switch {
	case v.Bool != nil:
		return v.Bool[i]
	case v.Int32 != nil:
		return v.Int32[i]
	case v.Int64 != nil:
		return v.Int64[i]
	case v.Int96 != nil:
		return v.Int96[i]
	case v.Float != nil:
		return math.Float32bits(v.Float[i])
	case v.Double != nil:
		return math.Float64bits(v.Double[i])
	}
	return string(v.Bytes[i])
}

// A reader that streams its chunk holds the stream in itself: reading a
// chunk a window at a time, chunk after chunk, allocates only the buffer
// its pages decompress into (the fixture's pages, of about 2 KiB, are too
// small for the fetch pools).
func TestStreamedChunkHeldInItsReader(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled readers at random")
	}
	f, err := Open("../fixtures/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	rg := 0
	read := func() {
		r, err := f.NewPageReader(rg, 0, Range{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.StreamChunk(4 << 10)
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			r.Release()
		}
		r.Close()
		rg = (rg + 1) % f.NumRowGroups()
	}
	for range f.NumRowGroups() {
		read()
	}
	if allocs := testing.AllocsPerRun(20, read); allocs > 1 {
		t.Errorf("streaming a chunk allocates %v objects, want 1", allocs)
	}
}
