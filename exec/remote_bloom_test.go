package exec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/objtest"
)

// TestS3BloomKeepsPresentValues is the soundness of Bloom probes over S3,
// where the filter headers and the probed blocks are fetched ahead from
// the layout bloom_filter_length implies: a row group holding the value is
// kept, whether the layout holds (orders_shuffled), is wrong though the
// filter is sound (a bitset of 39 blocks), or contradicts the header. Each
// query runs on a new session, so that nothing is served from an earlier
// query's cache.
func TestS3BloomKeepsPresentValues(t *testing.T) {
	root := moduleRoot(t)
	t.Chdir(root)
	_, srv := s3Session(t)
	for _, name := range []string{"bloom_odd_bitset.parquet", "bloom_length_contradiction.parquet"} {
		data, err := os.ReadFile(filepath.Join(root, "testdata", "hostile", name))
		if err != nil {
			t.Fatal(err)
		}
		srv.Put(t, "bucket", "hostile/"+name, data)
	}
	const shuffled = "fixtures/orders_shuffled.parquet"
	ids := textRows(mustExec(t, NewSession(), "SELECT customer_id FROM '"+shuffled+"' WHERE order_id % 1700 = 3"))
	if len(ids) < 8 {
		t.Fatalf("only %d customers sampled", len(ids))
	}
	var qs []string
	for _, id := range ids {
		qs = append(qs, fmt.Sprintf("SELECT count(*), sum(amount) FROM '%s' WHERE customer_id = %s", shuffled, id))
	}
	qs = append(qs,
		fmt.Sprintf("SELECT count(*) FROM '%s' WHERE customer_id IN (%s, 500001, %s)", shuffled, ids[0], ids[len(ids)-1]),
		fmt.Sprintf("SELECT count(*) FROM '%s' WHERE customer_id = %s OR city = 'Oslo'", shuffled, ids[1]))
	for _, q := range qs {
		want := textRows(mustExec(t, NewSession(), q))
		if len(want) != 1 || strings.HasPrefix(want[0], "0") {
			t.Fatalf("%s: local answer %v, want a row group holding the value", q, want)
		}
		s, _ := s3SessionOn(t, srv)
		got := textRows(mustExec(t, s, strings.ReplaceAll(q, "'fixtures/", "'s3://bucket/fixtures/")))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s over S3: %v, local %v", q, got, want)
		}
	}
	for _, name := range []string{"bloom_odd_bitset.parquet", "bloom_length_contradiction.parquet"} {
		s, _ := s3SessionOn(t, srv)
		q := "SELECT count(*) FROM 's3://bucket/hostile/" + name + "' WHERE r = 200"
		if got := textRows(mustExec(t, s, q)); fmt.Sprint(got) != "[100]" {
			t.Errorf("%s: %v, want [100]", q, got)
		}
	}
}

// TestS3BytesNearLocal checks that selective queries over S3 ask for no
// more than the local read plus 10% and the footer's suffix guess, and that
// an absent customer asks for the filter bytes a local read probes (each
// filter's header read and one 32-byte block) within 10%, not whole
// filters.
func TestS3BytesNearLocal(t *testing.T) {
	t.Chdir(moduleRoot(t))
	_, srv := s3Session(t)
	for _, q := range []string{
		"SELECT count(*) FROM 'fixtures/orders_shuffled.parquet' WHERE customer_id = 500001",
		"SELECT * FROM 'fixtures/orders_sorted.parquet' WHERE order_id = 4242",
		"SELECT order_id, amount FROM 'fixtures/orders_sorted.parquet' WHERE order_id BETWEEN 3990 AND 4010",
	} {
		local := mustExec(t, NewSession(), "EXPLAIN ANALYZE "+q).Explain
		localBloom := analyzeRead(t, local, "bloom: planned ")
		localAll := analyzeRead(t, local, "bytes read: ")
		s, _ := s3SessionOn(t, srv)
		srv.Requests()
		remote := mustExec(t, s, "EXPLAIN ANALYZE "+strings.ReplaceAll(q, "'fixtures/", "'s3://bucket/fixtures/")).Explain
		asked := askedRangeBytes(srv.Requests())
		var bloomReqs, bloomBytes int64
		for _, line := range strings.Split(remote, "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "bloom: "); ok && strings.Contains(rest, "request") {
				fmt.Sscanf(rest, "%d request", &bloomReqs)
				if _, after, ok := strings.Cut(rest, ", "); ok {
					fmt.Sscanf(after, "%d bytes", &bloomBytes)
				}
			}
		}
		t.Logf("%s\n  local: %d bytes, %d of filters; S3: %d bytes asked, %d of filters in %d requests", q, localAll, localBloom, asked, bloomBytes, bloomReqs)
		if bloomBytes > localBloom*11/10 {
			t.Errorf("%s: S3 filter bytes %d, local %d: more than 10%% above\n%s", q, bloomBytes, localBloom, remote)
		}
		if limit := localAll*11/10 + 64<<10; asked > limit {
			t.Errorf("%s: S3 asked for %d bytes, more than %d (local %d + 10%% + the footer guess)", q, asked, limit, localAll)
		}
	}
}

// analyzeRead returns the bytes read on EXPLAIN ANALYZE's line starting
// with prefix ("bytes read: N ..." or "bloom: planned P, read N ...").
func analyzeRead(t *testing.T, explain, prefix string) int64 {
	t.Helper()
	for _, line := range strings.Split(explain, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), prefix)
		if !ok {
			continue
		}
		if _, after, ok := strings.Cut(rest, "read "); ok {
			rest = after
		}
		var n int64
		if _, err := fmt.Sscanf(rest, "%d", &n); err == nil {
			return n
		}
	}
	t.Fatalf("no %q line in\n%s", prefix, explain)
	return 0
}

// askedRangeBytes sums the bytes the requests' ranges ask for; a suffix
// range counts its length.
func askedRangeBytes(reqs []objtest.Request) int64 {
	var n int64
	for _, r := range reqs {
		rng, ok := strings.CutPrefix(r.Range, "bytes=")
		if !ok {
			continue
		}
		var a, b int64
		if strings.HasPrefix(rng, "-") {
			fmt.Sscanf(rng, "-%d", &b)
			n += b
			continue
		}
		fmt.Sscanf(rng, "%d-%d", &a, &b)
		n += b - a + 1
	}
	return n
}
