package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pqsql/pqsql/internal/objtest"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestExpandLocal(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a/1.parquet", "a/b/2.parquet", "a/b/c/3.parquet", "a/x.csv", "z.parquet"} {
		touch(t, filepath.Join(dir, f))
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "a", "fifo.parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := NewStore()
	cases := []struct {
		pattern string
		want    []string
	}{
		{"a/**/*.parquet", []string{"a/1.parquet", "a/b/2.parquet", "a/b/c/3.parquet"}},
		{"a/*.parquet", []string{"a/1.parquet"}}, // the FIFO is not a file to read
		{"a/?/*.parquet", []string{"a/b/2.parquet"}},
		{"[a-z].parquet", []string{"z.parquet"}},
		{"a/1.parquet", []string{"a/1.parquet"}},
	}
	for _, c := range cases {
		got, err := st.Expand(context.Background(), []string{filepath.Join(dir, c.pattern)})
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		var rel []string
		for _, g := range got {
			r, _ := filepath.Rel(dir, g)
			rel = append(rel, filepath.ToSlash(r))
		}
		if fmt.Sprint(rel) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %v, want %v", c.pattern, rel, c.want)
		}
	}
	_, err := st.Expand(context.Background(), []string{filepath.Join(dir, "*.csv")})
	if !errors.Is(err, ErrNoFiles) {
		t.Errorf("no match: err = %v, want ErrNoFiles", err)
	}
}

// TestExpandManyDoubleStars checks that twelve ** do not backtrack
// exponentially.
func TestExpandManyDoubleStars(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "a", "b", "c", "d", "e", "f", "g", "h", "i", "j")
	touch(t, filepath.Join(deep, "x.parquet"))
	touch(t, filepath.Join(deep, "y.txt"))
	start := time.Now()
	got, err := NewStore().Expand(context.Background(), []string{filepath.Join(dir, strings.Repeat("**/", 12)+"*.parquet")})
	if err == nil && len(got) == 1 {
		// Apart, too: a/**/b/**/... between literal segments.
		got, err = NewStore().Expand(context.Background(), []string{filepath.Join(dir, "**/b/**/d/**/f/**/h/**/j/**/x.parquet")})
	}
	if err != nil || len(got) != 1 {
		t.Fatalf("got %d files, %v", len(got), err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
}

// TestExpandReportsCause checks that a symlink loop is reported as such,
// not as "No files found".
func TestExpandReportsCause(t *testing.T) {
	dir := t.TempDir()
	loop := filepath.Join(dir, "loop.parquet")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	_, err := NewStore().Expand(context.Background(), []string{loop})
	if err == nil || errors.Is(err, ErrNoFiles) || !errors.Is(err, syscall.ELOOP) {
		t.Fatalf("err = %v, want ELOOP", err)
	}
	if os.Getuid() == 0 {
		return // root reads any directory
	}
	locked := filepath.Join(dir, "locked")
	touch(t, filepath.Join(locked, "sub", "f.parquet"))
	os.Chmod(filepath.Join(locked, "sub"), 0)
	defer os.Chmod(filepath.Join(locked, "sub"), 0o755)
	_, err = NewStore().Expand(context.Background(), []string{filepath.Join(locked, "**", "*.parquet")})
	if !errors.Is(err, os.ErrPermission) {
		t.Fatalf("err = %v, want a permission error", err)
	}
}

// TestExpandS3Pages checks a glob over more keys than one listing page.
func TestExpandS3Pages(t *testing.T) {
	srv := objtest.NewS3(t)
	for i := 0; i < 1005; i++ {
		srv.Put(t, "bucket", fmt.Sprintf("data/part=%d/f%04d.parquet", i%3, i), []byte("x"))
	}
	srv.Put(t, "bucket", "data/part=0/readme.txt", []byte("x"))
	st := s3Store(t, srv, objtest.Secret)
	got, err := st.Expand(context.Background(), []string{"s3://bucket/data/*/*.parquet"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1005 || got[0] != "s3://bucket/data/part=0/f0000.parquet" {
		t.Fatalf("got %d files, first %v", len(got), got[:1])
	}
	lists := 0
	for _, r := range srv.Requests() {
		if strings.Contains(r.Query, "list-type=2") {
			lists++
		}
	}
	if lists < 2 {
		t.Fatalf("%d list requests, want pagination", lists)
	}
	if st.Size("s3://bucket/data/part=1/f0001.parquet") != 1 {
		t.Fatal("listing did not record the size")
	}
	_, err = st.Expand(context.Background(), []string{"s3://bucket/none/*.parquet"})
	if !errors.Is(err, ErrNoFiles) {
		t.Fatalf("err = %v, want ErrNoFiles", err)
	}
}
