package exec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/internal/objtest"
)

// roundLatency is added to every request of the round-trip tests, so that
// requests sent together fall in one round and requests sent one after
// another in different rounds, even on a loaded machine (at 25 ms, the
// scheduling delays of a busy 2-core machine split the glob's rounds).
const roundLatency = 100 * time.Millisecond

// TestS3RoundTrips counts the sequential round trips of selective queries
// over S3 from the server's request times: a point lookup costs at most the
// footer, then the indexes and filters, then the data; an absent customer
// the footer, then the filter headers and the probed blocks together (the
// filters rule every row group out, so no index and no data follow); a
// glob of 16 files the listing, then every file's footer in parallel, then
// their indexes, then their data. Answers are the local ones.
func TestS3RoundTrips(t *testing.T) {
	root := moduleRoot(t)
	t.Chdir(root)
	_, srv := s3Session(t)
	data, err := os.ReadFile(filepath.Join(root, "fixtures", "orders_sorted.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 16; i++ {
		srv.Put(t, "bucket", fmt.Sprintf("glob/part%02d.parquet", i), data)
	}
	cases := []struct {
		name, q string
		copies  int // of the local answer
		rounds  int
	}{
		{"point lookup", "SELECT * FROM 's3://bucket/fixtures/orders_sorted.parquet' WHERE order_id = 4242", 1, 3},
		{"absent customer", "SELECT count(*), sum(amount) FROM 's3://bucket/fixtures/orders_sorted.parquet' WHERE customer_id = 500001", 1, 3},
		{"absent customer, filters outside the footer read", "SELECT count(*), sum(amount) FROM 's3://bucket/fixtures/orders_shuffled.parquet' WHERE customer_id = 500001", 1, 2},
		{"range of two row groups", "SELECT order_id, amount FROM 's3://bucket/fixtures/orders_sorted.parquet' WHERE order_id BETWEEN 3990 AND 4010", 1, 3},
		{"16-file glob point lookup", "SELECT * FROM 's3://bucket/glob/*.parquet' WHERE order_id = 4242", 16, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			local := strings.NewReplacer("s3://bucket/glob/*.parquet", "fixtures/orders_sorted.parquet", "s3://bucket/", "").Replace(c.q)
			var want []string
			for range c.copies {
				want = append(want, textRows(mustExec(t, NewSession(), local))...)
			}
			cold, _ := s3SessionOn(t, srv)
			srv.SetFaults(objtest.Faults{Latency: roundLatency})
			defer srv.SetFaults(objtest.Faults{})
			srv.Requests()
			got := textRows(mustExec(t, cold, c.q))
			reqs := srv.Requests()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			rounds := objtest.Rounds(reqs)
			t.Logf("%d requests in %d rounds", len(reqs), rounds)
			if rounds > c.rounds && !raceEnabled {
				t.Fatalf("%d round trips, want at most %d: %s", rounds, c.rounds, describeRequests(reqs))
			}
			// A second query on the same files: no metadata request.
			mustExec(t, cold, c.q)
			for _, r := range srv.Requests() {
				if strings.HasPrefix(r.Range, "bytes=-") || r.Range == "bytes=0-3" {
					t.Fatalf("second query sent a metadata request %+v", r)
				}
			}
		})
	}
}

// s3SessionOn returns a new session holding the secret of srv.
func s3SessionOn(t *testing.T, srv *objtest.Server) (*Session, *objtest.Server) {
	t.Helper()
	s := NewSession()
	mustExec(t, s, fmt.Sprintf(`CREATE SECRET fixtures (TYPE s3, KEY_ID '%s', SECRET '%s', REGION '%s',
		ENDPOINT '%s', URL_STYLE 'path', USE_SSL false)`, objtest.KeyID, objtest.Secret, objtest.Region, srv.Endpoint))
	return s, srv
}

// describeRequests lists requests with their times from the first.
func describeRequests(reqs []objtest.Request) string {
	var b strings.Builder
	if len(reqs) == 0 {
		return "none"
	}
	t0 := reqs[0].At
	for _, r := range reqs {
		if r.At.Before(t0) {
			t0 = r.At
		}
	}
	for _, r := range reqs {
		fmt.Fprintf(&b, "\n  +%v..+%v %s %s %s", r.At.Sub(t0).Round(time.Millisecond), r.Done.Sub(t0).Round(time.Millisecond), r.Path, r.Query, r.Range)
	}
	return b.String()
}
