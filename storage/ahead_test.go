package storage

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/internal/objtest"
)

// TestOpenAhead checks that OpenAhead reads the footers of the first n
// remote files in one round, one suffix request each, skipping local
// paths and repeats, and that opening them afterwards sends nothing.
func TestOpenAhead(t *testing.T) {
	srv := objtest.NewS3(t)
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range 6 {
		key := fmt.Sprintf("glob/part%d.parquet", i)
		srv.Put(t, "bucket", key, data)
		paths = append(paths, "s3://bucket/"+key)
	}
	paths = append([]string{fixture, paths[0]}, paths...) // a local file, a repeat
	st := s3Store(t, srv, objtest.Secret)
	ctx := context.Background()
	// Long enough that a loaded machine starting the four reads late does
	// not see a first answer before the last request goes out.
	srv.SetFaults(objtest.Faults{Latency: 200 * time.Millisecond})
	defer srv.SetFaults(objtest.Faults{})
	srv.Requests()
	st.OpenAhead(ctx, paths, 4)
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 footer reads: %+v", len(reqs), reqs)
	}
	for _, r := range reqs {
		if !strings.HasPrefix(r.Range, "bytes=-") {
			t.Errorf("request %s %s is not a suffix read", r.Path, r.Range)
		}
	}
	if n := objtest.Rounds(reqs); n != 1 {
		t.Errorf("%d rounds, want 1", n)
	}
	for _, p := range paths[1:5] {
		src, err := st.Open(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		src.Close()
	}
	if reqs := srv.Requests(); len(reqs) != 0 {
		t.Errorf("opening files read ahead sent %+v", reqs)
	}
}
