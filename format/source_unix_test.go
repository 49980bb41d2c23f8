//go:build unix

package format

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.parquet")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	kinds := map[string]string{fifo: "a named pipe (FIFO)", dir: "a directory", "/dev/zero": "a character device"}
	for _, path := range []string{fifo, dir, "/dev/zero"} {
		done := make(chan error, 1)
		go func() {
			f, err := Open(path)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path+" is "+kinds[path]) {
				t.Errorf("Open(%s) = %v; want ErrNotRegular naming it %s", path, err, kinds[path])
			}
		case <-time.After(10 * time.Second):
			// Unblock the open so the test ends.
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Fatalf("Open(%s) blocked", path)
		}
	}
}

// TestOpenLocalStatsAsOsStatDoes checks the status OpenLocal takes of a
// file against os.Stat's, and that a missing file fails as os.Stat does.
func TestOpenLocalStatsAsOsStatDoes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.parquet")
	if err := os.WriteFile(path, make([]byte, 1234), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2024, 2, 29, 12, 34, 56, 789, time.UTC)
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	src, c, err := OpenLocal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l := src.(*localFile)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if l.size != fi.Size() || !l.mtime.Equal(fi.ModTime()) || !l.mtime.Equal(mtime) {
		t.Errorf("OpenLocal took size %d, mtime %v; os.Stat says %d, %v (set %v)", l.size, l.mtime, fi.Size(), fi.ModTime(), mtime)
	}
	missing := filepath.Join(t.TempDir(), "missing.parquet")
	_, _, err = OpenLocal(missing)
	_, want := os.Stat(missing)
	if !errors.Is(err, fs.ErrNotExist) || err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("OpenLocal(missing) = %v; want %v", err, want)
	}
}
