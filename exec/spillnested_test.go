package exec

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spillRoundTrip writes the batches of res to a temporary file and reads
// them back: every value must come back as it went, nested ones with the
// same encoding (type, physical value and all) and the same text.
func spillRoundTrip(t *testing.T, name string, res *Result) {
	t.Helper()
	space := newSpillSpace(filepath.Join(t.TempDir(), "spill"))
	defer space.remove()
	w, err := space.newWriter()
	if err != nil {
		t.Fatal(err)
	}
	for _, bt := range res.Batches {
		if err := w.write(&batch{n: bt.Len, cols: bt.Vectors}); err != nil {
			t.Fatalf("%s: write: %v", name, err)
		}
	}
	r, err := w.reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	nested := 0
	for _, want := range res.Batches {
		got, err := r.read()
		if err != nil {
			t.Fatalf("%s: read: %v", name, err)
		}
		if got.n != want.Len || len(got.cols) != len(want.Vectors) {
			t.Fatalf("%s: %d rows of %d columns, want %d of %d", name, got.n, len(got.cols), want.Len, len(want.Vectors))
		}
		for c, wv := range want.Vectors {
			gv := got.cols[c]
			if gv.Type != wv.Type {
				t.Fatalf("%s: column %s: type %v, want %v", name, res.Columns[c], gv.Type, wv.Type)
			}
			for i := range want.Len {
				if gv.IsNull(i) != wv.IsNull(i) {
					t.Fatalf("%s: column %s row %d: null %v, want %v", name, res.Columns[c], i, gv.IsNull(i), wv.IsNull(i))
				}
				if wv.IsNull(i) {
					continue
				}
				if g, w := string(AppendText(nil, gv, i)), string(AppendText(nil, wv, i)); g != w {
					t.Fatalf("%s: column %s row %d: %q, want %q", name, res.Columns[c], i, g, w)
				}
				if wv.Nested == nil {
					continue
				}
				nested++
				var ft1, ft2 fieldTable
				ge, err1 := appendNested(nil, gv.Nested[i], &ft1)
				we, err2 := appendNested(nil, wv.Nested[i], &ft2)
				if err1 != nil || err2 != nil || !bytes.Equal(ge, we) {
					t.Fatalf("%s: column %s row %d: encoded %x (%v), want %x (%v)", name, res.Columns[c], i, ge, err1, we, err2)
				}
			}
		}
	}
	if _, err := r.read(); !errors.Is(err, io.EOF) {
		t.Fatalf("%s: after the last batch: %v", name, err)
	}
	if nested == 0 && strings.Contains(name, "nested") {
		t.Fatalf("%s: no nested value was checked", name)
	}
}

// Every column of the fixtures, and every type of types.parquet inside a
// LIST, a STRUCT and a MAP, spills and reads back exactly.
func TestSpillNestedRoundTrip(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	ctx := context.Background()
	for _, f := range []string{"nested", "types", "variant_shredded", "variant_typed", "geo_points"} {
		res, err := s.Execute(ctx, "SELECT * FROM 'fixtures/"+f+".parquet'")
		if err != nil {
			t.Fatal(err)
		}
		spillRoundTrip(t, f+" (nested)", res)
	}
	res, err := s.Execute(ctx, "SELECT * FROM 'fixtures/types.parquet'")
	if err != nil {
		t.Fatal(err)
	}
	wrapped := 0
	for _, c := range res.Columns {
		q := `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
		sel := "SELECT [" + q + ", NULL] AS l, {'v': " + q + ", 'w': 1} AS s, MAP {1: " + q + ", 2: NULL} AS m FROM 'fixtures/types.parquet'"
		res, err := s.Execute(ctx, sel)
		if errors.Is(err, ErrNotImplemented) {
			continue // a type pqsql does not put in nested values (wide DECIMAL)
		}
		if err != nil {
			t.Fatal(err)
		}
		spillRoundTrip(t, c+" in nested", res)
		wrapped++
	}
	t.Logf("%d of %d types inside LIST, STRUCT and MAP", wrapped, len(res.Columns))
	if wrapped < len(res.Columns)/2 {
		t.Fatalf("only %d of %d types went inside nested values", wrapped, len(res.Columns))
	}
}

// ORDER BY and GROUP BY over nested columns under an 8MB memory_limit
// spill and give the answer they give without the limit.
func TestSpillNestedSortAndGroupBy(t *testing.T) {
	t.Chdir(moduleRoot(t))
	nestedCols := "{'c': city, 'q': quantity, 'a': amount} AS s, [status, note, NULL] AS l, MAP {order_id: {'d': discount}} AS m"
	queries := map[string]string{
		"sort by struct": "SELECT " + nestedCols + ", order_id FROM " + ordersTimes5 + " ORDER BY s, order_id",
		"sort by list":   "SELECT [city, status] AS k, order_id, note FROM " + ordersTimes5 + " ORDER BY k DESC, order_id",
		"group by struct key": "SELECT {'o': order_id, 'c': city} AS k, count(*), sum(amount), max(note) FROM " + ordersTimes5 +
			" GROUP BY k ORDER BY k",
		"nested aggregate arguments": "SELECT order_id, max({'c': city, 'q': quantity}), first([status, note] ORDER BY amount), list(quantity ORDER BY quantity) FROM " +
			ordersTimes5 + " GROUP BY order_id ORDER BY order_id",
	}
	for name, q := range queries {
		t.Run(name, func(t *testing.T) {
			want, files, _ := spillRun(t, NewSession(), q)
			if files != 0 {
				t.Fatalf("without a limit, %d temporary files", files)
			}
			s := NewSession()
			temp := filepath.Join(t.TempDir(), "spill")
			mustExec(t, s, "SET memory_limit = '8MB'")
			mustExec(t, s, "SET temp_directory = '"+temp+"'")
			got, files, _ := spillRun(t, s, q)
			if files == 0 {
				t.Fatalf("under 8MB nothing spilled")
			}
			if got != want {
				t.Fatalf("under 8MB the answer differs (%d bytes, want %d)", len(got), len(want))
			}
			if left, _ := os.ReadDir(temp); len(left) != 0 {
				t.Fatalf("temp_directory holds %d entries after the statement", len(left))
			}
		})
	}
}
