package planner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/storage"
)

// TestEachSchemaInOrder opens lists of files several at a time and checks
// that each file's fields come with its own index and that a failure is
// the first failing file's, as opening them one by one would report it.
func TestEachSchemaInOrder(t *testing.T) {
	for _, n := range []int{0, 64} {
		t.Run(fmt.Sprintf("parallelLocal=%d", n), func(t *testing.T) {
			defer func(old int) { parallelLocal = old }(parallelLocal)
			parallelLocal = n
			eachSchemaInOrder(t)
		})
	}
}

func eachSchemaInOrder(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.parquet")
	if err := os.WriteFile(bad, []byte("not parquet at all, not at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.parquet")
	sorted, types := "fixtures/orders_sorted.parquet", "fixtures/types.parquet"
	c := buildCtx{ctx: context.Background(), store: storage.NewStore()}
	var files []string
	for i := range 40 {
		files = append(files, []string{sorted, types}[i%2])
	}
	got := make([][]*format.Field, len(files))
	if err := eachSchema(files, c, openSchema, func(i int, f *format.File) {
		got[i] = f.Schema.Fields
		if f.Meta.RowGroups != nil || f.Decoded(0) {
			t.Errorf("file %d: opened for its schema, it has row groups decoded", i)
		}
	}); err != nil {
		t.Fatal(err)
	}
	for i, fields := range got {
		want := "order_id"
		if i%2 == 1 {
			want = fieldsOf(t, types)[0].Name
		}
		if len(fields) == 0 || fields[0].Name != want {
			t.Fatalf("file %d: first field %v, want %s", i, fields, want)
		}
	}
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{sorted, missing, bad, sorted}, "missing.parquet"},
		{[]string{sorted, types, bad, missing}, "bad.parquet"},
		{append(append([]string{}, files...), bad), "bad.parquet"},
	} {
		for _, open := range []func(context.Context, *storage.Store, string) (*format.File, func(), error){openSchema, openDeferred, openFile} {
			err := eachSchema(tc.files, c, open, func(int, *format.File) {})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v: error %v, want the one of %s", tc.files, err, tc.want)
			}
		}
	}
}

func fieldsOf(t *testing.T, path string) []*format.Field {
	t.Helper()
	f, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return f.Schema.Fields
}
