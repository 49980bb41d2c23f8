package planner

import (
	"context"
	"testing"

	"github.com/pqsql/pqsql/format"
)

// Binding keeps the footers it decoded for the scan, each taken once, with
// the reads that opened it; Scan.OpenFile serves the kept footer over a
// source of its own.
func TestScanKeepsFooters(t *testing.T) {
	chdirRoot(t)
	for _, tc := range []struct {
		q     string
		files int
	}{
		{"SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id = 7", 1},
		{"SELECT order_id FROM 'fixtures/orders_s*.parquet' WHERE order_id = 7", 2},
	} {
		p, err := plan(t, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		s := p.Scan
		if s == nil || len(s.Files) != tc.files {
			t.Fatalf("%s: scan %+v", tc.q, s)
		}
		for _, path := range s.Files {
			f, done, err := s.OpenFile(context.Background(), path)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			var b [4]byte
			if _, err := f.Source.ReadAt(b[:], 0); err != nil || string(b[:]) != "PAR1" {
				t.Errorf("%s: the opened file reads %q, %v", path, b, err)
			}
			done()
			fo := s.TakeFooter(path)
			if fo == nil {
				t.Fatalf("%s: no footer kept", path)
			}
			// The tail (length and magic), the leading magic, the footer.
			if want := (format.IOStats{Bytes: 4 + fo.File.FooterSize, Requests: 3}); fo.Read != want {
				t.Errorf("%s: opening read %+v, want %+v", path, fo.Read, want)
			}
			if fo.File.Meta.NumRows != f.Meta.NumRows || f.Meta != fo.File.Meta {
				t.Errorf("%s: OpenFile decoded the footer again", path)
			}
			if again := s.TakeFooter(path); again != nil {
				t.Errorf("%s: the footer was taken twice", path)
			}
		}
	}
}

// The first footer is kept whatever its size; the others within the
// bounds; a remote file's (a source that does not count) never.
func TestKeptFootersBounds(t *testing.T) {
	local := func(size int64) *format.File {
		return &format.File{Source: format.NewCountingSource(sizedSource(1 << 30)), FooterSize: size}
	}
	var k keptFooters
	k.keep("a", local(2*maxKeptFooterBytes), true)
	k.keep("b", local(1000), false)
	k.keep("remote", &format.File{Source: sizedSource(1 << 30), FooterSize: 10}, true)
	if len(k.byPath) != 1 || k.byPath["a"] == nil {
		t.Errorf("kept %v, want a alone", k.byPath)
	}
	k = keptFooters{}
	for i := range maxKeptFooters + 5 {
		k.keep(string(rune('A'+i)), local(10), i == 0)
	}
	if len(k.byPath) != maxKeptFooters {
		t.Errorf("kept %d footers, want %d", len(k.byPath), maxKeptFooters)
	}
}

type sizedSource int64

func (s sizedSource) ReadAt(p []byte, off int64) (int, error) { return len(p), nil }
func (s sizedSource) Size() int64                             { return int64(s) }
