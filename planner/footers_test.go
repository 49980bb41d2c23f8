package planner

import (
	"context"
	"testing"

	"github.com/pqsql/pqsql/format"
)

// Binding keeps the first file's footer, its bytes and what they decode
// to but for the row groups, for the scan, taken once, with the reads that
// opened it; Scan.OpenFile serves it over
// a source of its own. A glob's later files were opened for their schema
// alone: what that read is kept, their footers not, and OpenFile opens
// them whole.
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
		for i, path := range s.Files {
			f, done, err := s.OpenFile(context.Background(), path)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			var b [4]byte
			if _, err := f.Source.ReadAt(b[:], 0); err != nil || string(b[:]) != "PAR1" {
				t.Errorf("%s: the opened file reads %q, %v", path, b, err)
			}
			if len(f.Meta.RowGroups) == 0 || !f.Decoded(0) || f.Chunk(0, 0).MetaData == nil {
				t.Errorf("%s: OpenFile gave a footer without its row groups' metadata", path)
			}
			done()
			fo := s.TakeFooter(path)
			if fo == nil {
				t.Fatalf("%s: nothing kept", path)
			}
			// The tail (length and magic), the leading magic, the footer.
			if want := (format.IOStats{Bytes: 4 + f.FooterSize, Requests: 3}); fo.Read != want {
				t.Errorf("%s: opening read %+v, want %+v", path, fo.Read, want)
			}
			if i > 0 {
				if fo.File != nil {
					t.Errorf("%s: binding kept a later file's footer", path)
				}
				continue
			}
			// Binding kept the bytes of the footer, decoded but for its row
			// groups, which OpenFile decodes whole from them.
			if fo.File.Meta.NumRows != f.Meta.NumRows || fo.File.Meta.RowGroups != nil || &f.Meta.Schema[0] != &fo.File.Meta.Schema[0] {
				t.Errorf("%s: OpenFile decoded the footer again", path)
			}
			if again := s.TakeFooter(path); again != nil {
				t.Errorf("%s: the footer was taken twice", path)
			}
		}
	}
}

// A remote file's footer (a source that does not count) is never kept.
func TestKeptFootersLocalOnly(t *testing.T) {
	var k keptFooters
	k.keep("a", &format.File{Source: format.NewCountingSource(sizedSource(1 << 30)), FooterSize: 10})
	k.keep("remote", &format.File{Source: sizedSource(1 << 30), FooterSize: 10})
	if len(k.byPath) != 1 || k.byPath["a"] == nil {
		t.Errorf("kept %v, want a alone", k.byPath)
	}
}

type sizedSource int64

func (s sizedSource) ReadAt(p []byte, off int64) (int, error) { return len(p), nil }
func (s sizedSource) Size() int64                             { return int64(s) }
