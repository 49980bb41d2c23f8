package thrift

import (
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/pqsql/pqsql/format/meta"
)

// checkDeferred compares a footer decoded with its row groups deferred with
// m, the footer b decodes to whole (err its error): the row groups decoded
// in full equal m's, and decoded for some places alone they equal m's with
// the other chunks' metadata left out. A footer that fails whole fails
// deferred too, unless only the row groups are at fault: then decoding
// them in full fails.
func checkDeferred(t *testing.T, b []byte, m *meta.FileMetaData, err error) {
	t.Helper()
	dm, _, rest, derr := DecodeFileMetaDataDeferred(b, nil)
	if derr != nil {
		if err == nil {
			t.Fatalf("decodes whole but not deferred: %v", derr)
		}
		if !errors.Is(derr, ErrCorrupt) || dm != nil {
			t.Fatalf("deferred: err = %v, want ErrCorrupt and no footer", derr)
		}
		return
	}
	if dm.RowGroups != nil {
		t.Fatal("deferred decoding decoded the row groups")
	}
	rgs, rerr := rest.Decode(b, nil)
	if err != nil {
		if rerr == nil {
			t.Fatalf("fails whole (%v) but its deferred parts decode", err)
		}
		if !errors.Is(rerr, ErrCorrupt) {
			t.Fatalf("row groups: err = %v, want ErrCorrupt", rerr)
		}
		// The chunks' metadata left out is checked as strictly.
		for _, keep := range [][]bool{{}, {false}, {false, true, false}} {
			if _, kerr := rest.Decode(b, keep); kerr == nil {
				t.Fatalf("fails whole (%v) but decodes keeping %v", err, keep)
			}
		}
		return
	}
	if rerr != nil {
		t.Fatalf("decodes whole but its deferred row groups do not: %v", rerr)
	}
	dm.RowGroups = rgs
	if !reflect.DeepEqual(dm, m) {
		t.Fatalf("deferred then decoded: %+v, want %+v", dm, m)
	}
	for _, seed := range []uint64{1, 2, 3} {
		r := rand.New(rand.NewPCG(seed, uint64(len(b))))
		keep := make([]bool, r.IntN(8))
		for i := range keep {
			keep[i] = r.IntN(2) == 0
		}
		part, err := rest.Decode(b, keep)
		if err != nil {
			t.Fatalf("keeping %v: %v", keep, err)
		}
		want := stripped(m.RowGroups, keep)
		if !reflect.DeepEqual(part, want) {
			t.Fatalf("keeping %v: %+v, want %+v", keep, part, want)
		}
	}
}

// stripped is rgs with the metadata of the chunks keep does not mark
// removed, copied.
func stripped(rgs []meta.RowGroup, keep []bool) []meta.RowGroup {
	out := make([]meta.RowGroup, len(rgs))
	for i, rg := range rgs {
		out[i] = rg
		if rg.Columns == nil {
			continue
		}
		out[i].Columns = append([]meta.ColumnChunk{}, rg.Columns...)
		for j := range out[i].Columns {
			if j < len(keep) && !keep[j] {
				out[i].Columns[j].MetaData = nil
			}
		}
	}
	return out
}

// Every footer of the corpus decodes deferred as it does whole, and a
// deferred decode of some columns equals the whole one less the others'
// metadata.
func TestDeferredRowGroupsCorpus(t *testing.T) {
	files := corpusFiles()
	if len(files) == 0 {
		t.Skip("parquet-testing not found under ../shared")
	}
	n := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		footer, ok := splitFooter(t, data)
		if !ok {
			continue
		}
		t.Run(path, func(t *testing.T) {
			m, err := DecodeFileMetaData(footer)
			checkDeferred(t, footer, m, err)
		})
		n++
	}
	if n < 80 {
		t.Errorf("checked %d footers, want at least 80", n)
	}
}

// Passing over a value in its bytes ends where thrift.Skip, which reads
// it, ends, on every field of every corpus footer and of a footer setting
// every field; and allocates nothing.
func TestSkipValueAsThriftSkips(t *testing.T) {
	b, err := EncodeFileMetaData(fullFileMetaData())
	if err != nil {
		t.Fatal(err)
	}
	footers := [][]byte{b}
	for _, path := range corpusFiles() {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if footer, ok := splitFooter(t, data); ok {
			footers = append(footers, footer)
		}
	}
	fields := 0
	for _, b := range footers {
		// The top-level fields, each passed over both ways.
		ours, theirs := newDecoder(b), newDecoder(b)
		for _, d := range []*decoder{ours, theirs} {
			if _, err := d.p.ReadStructBegin(d.ctx); err != nil {
				t.Fatal(err)
			}
		}
		for {
			_, t1, _, err1 := ours.p.ReadFieldBegin(ours.ctx)
			_, t2, _, err2 := theirs.p.ReadFieldBegin(theirs.ctx)
			if (err1 == nil) != (err2 == nil) || t1 != t2 {
				t.Fatalf("field headers differ: %v %v, %v %v", t1, err1, t2, err2)
			}
			if err1 != nil || t1 == thrift.STOP {
				break
			}
			err1 = ours.skipValue(t1)
			err2 = theirs.skip(t2)
			if (err1 == nil) != (err2 == nil) || ours.r.pos != theirs.r.pos {
				t.Fatalf("skipping a %v: at %d (%v), thrift.Skip at %d (%v)", t1, ours.r.pos, err1, theirs.r.pos, err2)
			}
			if err1 != nil {
				break
			}
			fields++
			for _, d := range []*decoder{ours, theirs} {
				if err := d.p.ReadFieldEnd(d.ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if fields < 100 {
		t.Errorf("compared %d fields, want more", fields)
	}
	d := newDecoder(b)
	if allocs := testing.AllocsPerRun(10, func() {
		d.r.pos = 0
		if err := d.r.skipCompact(compactStruct, maxDepth); err != nil || d.r.pos != len(b) {
			t.Fatalf("skipped to %d of %d: %v", d.r.pos, len(b), err)
		}
	}); allocs != 0 {
		t.Errorf("skipping a footer allocates %.0f times", allocs)
	}
}
