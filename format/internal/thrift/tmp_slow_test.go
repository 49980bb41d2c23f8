package thrift

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTmpSlow(t *testing.T) {
	files, _ := filepath.Glob(os.Getenv("FUZZDIR") + "/*")
	for _, f := range files {
		raw, _ := os.ReadFile(f)
		lines := strings.Split(string(raw), "\n")
		s := strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")")
		b, err := strconv.Unquote(s)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		DecodeFileMetaData([]byte(b))
		if d := time.Since(start); d > time.Millisecond {
			t.Logf("%s: %d bytes, %v", filepath.Base(f), len(b), d)
		}
	}
}
