package exec

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pqsql/pqsql/internal/objtest"
	"github.com/pqsql/pqsql/storage"
)

// s3Session serves the module's fixtures from an S3 server on loopback as
// s3://bucket/fixtures/..., and returns a session holding its secret.
func s3Session(t *testing.T) (*Session, *objtest.Server) {
	t.Helper()
	root := moduleRoot(t)
	srv := objtest.NewS3(t)
	srv.PutDir(t, "bucket", "fixtures/", filepath.Join(root, "fixtures"), "*.parquet")
	srv.PutDir(t, "bucket", "fixtures/quirks/", filepath.Join(root, "fixtures", "quirks"), "*.parquet")
	s := NewSession()
	mustExec(t, s, fmt.Sprintf(`CREATE SECRET fixtures (TYPE s3, KEY_ID '%s', SECRET '%s', REGION '%s',
		ENDPOINT '%s', URL_STYLE 'path', USE_SSL false)`, objtest.KeyID, objtest.Secret, objtest.Region, srv.Endpoint))
	mustExec(t, s, "SET http_retry_wait_ms = 1")
	srv.Requests()
	return s, srv
}

func mustExec(t *testing.T, s *Session, q string) *Result {
	t.Helper()
	res, err := s.Execute(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res
}

// toS3 rewrites the fixtures' paths of a record to their S3 URLs.
func toS3(r record) record {
	rw := func(s string) string {
		s = strings.ReplaceAll(s, "'fixtures/", "'s3://bucket/fixtures/")
		s = strings.ReplaceAll(s, "\"fixtures/", "\"s3://bucket/fixtures/")
		return s
	}
	r.sql, r.errText = rw(r.sql), rw(r.errText)
	r.expected = append([]string(nil), r.expected...)
	for i, e := range r.expected {
		if strings.HasPrefix(e, "fixtures/") {
			r.expected[i] = "s3://bucket/" + e
		}
	}
	return r
}

// TestSQLLogicS3 runs the query suite against the fixtures served over
// S3: the answers must be the local ones.
func TestSQLLogicS3(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole query suite again")
	}
	root := moduleRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "testdata", "queries", "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files: %v", err)
	}
	t.Chdir(root)
	ran := 0
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s, srv := s3Session(t)
			for _, r := range parseRecords(t, path) {
				if strings.Contains(r.sql, "../shared/") {
					continue // the conformance corpus is not served
				}
				r = toS3(r)
				checkRecord(t, s, r)
				ran++
			}
			if len(srv.Requests()) == 0 && strings.Contains(filepath.Base(path), "orders") {
				t.Fatal("no request reached the S3 server")
			}
		})
	}
	t.Logf("%d records over S3", ran)
}

// requestsOf counts a query's requests, by what they ask for.
func requestsOf(srv *objtest.Server) (suffix, ranged, lists int) {
	for _, r := range srv.Requests() {
		switch {
		case strings.Contains(r.Query, "list-type"):
			lists++
		case strings.HasPrefix(r.Range, "bytes=-"):
			suffix++
		default:
			ranged++
		}
	}
	return
}

// TestS3Requests counts the requests of queries over S3: one suffix read
// per file, no metadata request for a second query, and data reads that
// carry If-Match.
func TestS3Requests(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s, srv := s3Session(t)
	const q = "SELECT * FROM 's3://bucket/fixtures/orders_sorted.parquet' WHERE order_id = 4242"
	want := mustExec(t, NewSession(), strings.ReplaceAll(q, "s3://bucket/", ""))
	got := mustExec(t, s, q)
	if fmt.Sprint(textRows(got)) != fmt.Sprint(textRows(want)) {
		t.Fatalf("got %v, want %v", textRows(got), textRows(want))
	}
	reqs := srv.Requests()
	var suffix, ranged int
	for _, r := range reqs {
		if strings.HasPrefix(r.Range, "bytes=-") {
			suffix++
		} else if r.Range != "bytes=0-3" && r.IfMatch == "" {
			t.Errorf("request %s %s without If-Match", r.Path, r.Range)
		} else {
			ranged++
		}
	}
	if suffix != 1 {
		t.Fatalf("%d suffix requests, want 1: %+v", suffix, reqs)
	}
	// The head and the 11 kept pages (one per column), in parallel:
	// pages merge only when the bytes between them stay within a tenth
	// of theirs (storage.Coalesce), and the page index lies in the
	// footer's suffix read.
	if ranged > 12 {
		t.Fatalf("%d range requests for a point lookup: %+v", ranged, reqs)
	}
	mustExec(t, s, q)
	for _, r := range srv.Requests() {
		if r.Range == "bytes=0-3" || strings.HasPrefix(r.Range, "bytes=-") {
			t.Fatalf("second query sent a footer request %+v", r)
		}
	}
}

func textRows(res *Result) []string {
	var out []string
	for i := 0; i < res.NumRows(); i++ {
		var cells []string
		for c := range res.Columns {
			text, _ := res.Cell(i, c)
			cells = append(cells, text)
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}

// TestS3FaultsExactOrClear runs queries through injected faults: the
// answer is the local one or the query fails with a clear error, and it
// never hangs.
func TestS3FaultsExactOrClear(t *testing.T) {
	t.Chdir(moduleRoot(t))
	queries := []string{
		"SELECT count(*), sum(quantity) FROM 'fixtures/orders_shuffled.parquet' WHERE customer_id < 500",
		"SELECT * FROM 'fixtures/orders_sorted.parquet' WHERE order_id BETWEEN 100 AND 105 ORDER BY order_id",
		"SELECT city, count(*) FROM 'fixtures/orders_*.parquet' GROUP BY city ORDER BY city",
	}
	local := NewSession()
	want := map[string][]string{}
	for _, q := range queries {
		want[q] = textRows(mustExec(t, local, q))
	}
	faults := []objtest.Faults{
		{Latency: 2 * time.Millisecond},
		{FailEvery: 3},
		{ResetEvery: 4},
		{ShortEvery: 3},
		{Status: 500},
	}
	for _, f := range faults {
		s, srv := s3Session(t)
		srv.SetFaults(f)
		for _, q := range queries {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			res, err := s.Execute(ctx, strings.ReplaceAll(q, "'fixtures/", "'s3://bucket/fixtures/"))
			cancel()
			switch {
			case errors.Is(err, context.DeadlineExceeded):
				t.Fatalf("%+v: %s: hung", f, q)
			case err != nil:
				if f.Status == 0 && f.FailEvery == 0 {
					t.Errorf("%+v: %s: %v", f, q, err)
				}
				if msg := err.Error(); !strings.Contains(msg, "s3://bucket/fixtures/") || !strings.Contains(msg, "HTTP 500") || !strings.Contains(msg, "4 attempts") {
					t.Errorf("%+v: error %q does not name the URL, the status and the attempts", f, err)
				}
			default:
				if got := textRows(res); fmt.Sprint(got) != fmt.Sprint(want[q]) {
					t.Errorf("%+v: %s: wrong answer %v", f, q, got)
				}
			}
		}
	}
}

// TestS3ReplacedDuringQuery replaces the object after the footer read:
// the query fails clearly, and the next one reads the new version.
func TestS3ReplacedDuringQuery(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s, srv := s3Session(t)
	root := moduleRoot(t)
	const q = "SELECT count(*) FROM 's3://bucket/fixtures/orders_sorted.parquet' WHERE quantity > 3"
	mustExec(t, s, q) // the footer is cached
	other, err := os.ReadFile(filepath.Join(root, "fixtures", "orders_shuffled.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Put(t, "bucket", "fixtures/orders_sorted.parquet", other)
	_, err = s.Execute(context.Background(), q)
	if !errors.Is(err, storage.ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	want := textRows(mustExec(t, NewSession(), "SELECT count(*) FROM 'fixtures/orders_shuffled.parquet' WHERE quantity > 3"))
	if got := textRows(mustExec(t, s, q)); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after the change: %v, want %v", got, want)
	}
}

// TestSecretsNeverShown checks that a secret's key appears in no error,
// EXPLAIN or duckdb_secrets() row.
func TestSecretsNeverShown(t *testing.T) {
	srv := objtest.NewS3(t)
	srv.PutDir(t, "bucket", "fixtures/", filepath.Join(moduleRoot(t), "fixtures"), "*.parquet")
	s := NewSession()
	const key = "Do-Not-Show-This-Key-9f8e7d"
	mustExec(t, s, fmt.Sprintf(`CREATE SECRET bad (TYPE s3, KEY_ID '%s', SECRET '%s', ENDPOINT '%s', URL_STYLE 'path', USE_SSL false)`,
		objtest.KeyID, key, srv.Endpoint))
	var texts []string
	for _, q := range []string{
		"SELECT count(*) FROM 's3://bucket/fixtures/statistics.parquet'",
		"EXPLAIN SELECT count(*) FROM 's3://bucket/fixtures/statistics.parquet'",
		"SELECT * FROM 's3://bucket/fixtures/*.parquet'",
		"CREATE SECRET bad (TYPE s3, KEY_ID 'x', SECRET '" + key + "')",
		"CREATE SECRET x (TYPE s3, KEY_ID 'x', SECRET '" + key + "', BOGUS 1)",
		"CREATE SECRET y (TYPE s3, SECRET '" + key + "'",
		"SET s3_use_ssl = '" + key + "'",
	} {
		_, err := s.Execute(context.Background(), q)
		if err == nil {
			t.Fatalf("%s: want an error", q)
		}
		texts = append(texts, err.Error())
	}
	if !errors.Is(fmt.Errorf("%s", texts[0]), storage.ErrAccess) && !strings.Contains(texts[0], "403") {
		t.Errorf("wrong key: %q does not say 403", texts[0])
	}
	res := mustExec(t, s, "SELECT name, type, secret_string FROM duckdb_secrets()")
	texts = append(texts, textRows(res)...)
	if len(textRows(res)) != 1 || !strings.Contains(textRows(res)[0], "secret=redacted") {
		t.Errorf("duckdb_secrets() = %v", textRows(res))
	}
	for _, text := range texts {
		if strings.Contains(text, key) {
			t.Errorf("secret shown in %q", text)
		}
	}
	mustExec(t, s, "DROP SECRET bad")
	if n := len(textRows(mustExec(t, s, "FROM duckdb_secrets()"))); n != 0 {
		t.Errorf("%d secrets after DROP", n)
	}
}

// TestS3Explain checks EXPLAIN's and EXPLAIN ANALYZE's request lines for
// a remote file.
func TestS3Explain(t *testing.T) {
	s, srv := s3Session(t)
	const q = "SELECT * FROM 's3://bucket/fixtures/orders_sorted.parquet' WHERE order_id = 4242"
	plan := mustExec(t, s, "EXPLAIN "+q).Explain
	// The footer alone: the page index lies in the footer's suffix read,
	// EXPLAIN reads no data, and the head would come with the data. The
	// plan's data is 19178 bytes of pages and the head, in 11 requests:
	// the pages lie far from the head and from each other, farther than a
	// tenth of their bytes.
	if reqs := srv.Requests(); len(reqs) != 1 {
		t.Errorf("EXPLAIN sent %d requests, want 1: %+v", len(reqs), reqs)
	}
	for _, want := range []string{"remote s3://bucket/fixtures/orders_sorted.parquet: 633343 bytes", "  footer: 1 request, 65536 bytes", "  data: 11 requests planned, "} {
		if !strings.Contains(plan, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, plan)
		}
	}
	s2, _ := s3Session(t)
	an := mustExec(t, s2, "EXPLAIN ANALYZE "+q).Explain
	for _, want := range []string{"  footer: 1 request, 65536 bytes", "  data: 11 requests, ", "retries: 0, network wait: ", "measured bytes equal the planned ones: yes"} {
		if !strings.Contains(an, want) {
			t.Errorf("EXPLAIN ANALYZE lacks %q:\n%s", want, an)
		}
	}
	// Every variant runs over S3 as it does on a local file.
	for _, v := range []string{"EXPLAIN VERBOSE ", "EXPLAIN VERIFY ", "EXPLAIN ANALYZE (FORMAT JSON) ", "DESCRIBE "} {
		if _, err := s2.Execute(context.Background(), v+q); err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
}

// TestRemoteCredentials reaches the S3 server with each way of giving
// keys: SET s3_*, a credential_chain secret reading the environment, a
// gcs secret with HMAC keys (gs:// URLs), and a secret scoped to a
// prefix, which wins over a broader one.
func TestRemoteCredentials(t *testing.T) {
	srv := objtest.NewS3(t)
	srv.PutDir(t, "bucket", "fixtures/", filepath.Join(moduleRoot(t), "fixtures"), "statistics.parquet")
	const q = "SELECT count(*) FROM '%s://bucket/fixtures/statistics.parquet'"
	cases := []struct {
		name   string
		stmts  []string
		scheme string
	}{
		{"settings", []string{"SET s3_access_key_id = '" + objtest.KeyID + "'", "SET s3_secret_access_key = '" + objtest.Secret + "'",
			"SET s3_endpoint = '" + srv.Endpoint + "'", "SET s3_url_style = 'path'", "SET s3_use_ssl = false", "SET s3_region = 'us-east-1'"}, "s3"},
		{"credential chain", []string{"CREATE SECRET (TYPE s3, PROVIDER credential_chain, ENDPOINT '" + srv.Endpoint + "', URL_STYLE 'path', USE_SSL false, REGION 'us-east-1')"}, "s3"},
		{"gcs hmac", []string{fmt.Sprintf("CREATE SECRET (TYPE gcs, KEY_ID '%s', SECRET '%s', ENDPOINT '%s', USE_SSL false)", objtest.KeyID, objtest.Secret, srv.Endpoint)}, "gs"},
		{"scope", []string{
			fmt.Sprintf("CREATE SECRET wide (TYPE s3, KEY_ID '%s', SECRET 'wrong', ENDPOINT '%s', URL_STYLE 'path', USE_SSL false)", objtest.KeyID, srv.Endpoint),
			fmt.Sprintf("CREATE SECRET narrow (TYPE s3, KEY_ID '%s', SECRET '%s', ENDPOINT '%s', URL_STYLE 'path', USE_SSL false, SCOPE 's3://bucket/fixtures')", objtest.KeyID, objtest.Secret, srv.Endpoint)}, "s3"},
	}
	t.Setenv("AWS_ACCESS_KEY_ID", objtest.KeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", objtest.Secret)
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	for _, c := range cases {
		s := NewSession()
		for _, st := range c.stmts {
			mustExec(t, s, st)
		}
		res, err := s.Execute(context.Background(), fmt.Sprintf(q, c.scheme))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := textRows(res); fmt.Sprint(got) != "[12]" { // the file's rows
			t.Errorf("%s: count %v", c.name, got)
		}
	}
	// Without credentials the server refuses the request.
	s := NewSession()
	mustExec(t, s, "SET s3_endpoint = '"+srv.Endpoint+"'")
	mustExec(t, s, "SET s3_url_style = 'path'")
	mustExec(t, s, "SET s3_use_ssl = false")
	_, err := s.Execute(context.Background(), "SELECT count(*) FROM 's3://bucket/fixtures/statistics.parquet'")
	if !errors.Is(err, storage.ErrAccess) {
		t.Fatalf("anonymous request: err = %v, want ErrAccess", err)
	}
}

// TestHTTPQuery reads the fixtures over plain HTTP.
func TestHTTPQuery(t *testing.T) {
	t.Chdir(moduleRoot(t))
	srv := objtest.NewHTTP(t, "fixtures")
	const q = "SELECT count(*), sum(quantity) FROM '%s' WHERE customer_id < 900"
	want := textRows(mustExec(t, NewSession(), fmt.Sprintf(q, "fixtures/orders_shuffled.parquet")))
	got := textRows(mustExec(t, NewSession(), fmt.Sprintf(q, srv.URL+"/orders_shuffled.parquet")))
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("over HTTP %v, locally %v", got, want)
	}
	_, err := NewSession().Execute(context.Background(), fmt.Sprintf(q, srv.URL+"/*.parquet"))
	if !errors.Is(err, storage.ErrUnsupported) {
		t.Fatalf("glob over HTTP: err = %v, want ErrUnsupported", err)
	}
}

// TestS3HivePruning checks that hive partitions pruned by the WHERE get
// no request, and that answers match the local ones.
func TestS3HivePruning(t *testing.T) {
	root := moduleRoot(t)
	srv := objtest.NewS3(t)
	data, err := os.ReadFile(filepath.Join(root, "fixtures", "statistics.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"year=2023/month=1", "year=2023/month=2", "year=2024/month=1", "year=2024/month=2"} {
		srv.Put(t, "bucket", "hive/"+p+"/f.parquet", data)
	}
	s := NewSession()
	mustExec(t, s, fmt.Sprintf(`CREATE SECRET (TYPE s3, KEY_ID '%s', SECRET '%s', ENDPOINT '%s', URL_STYLE 'path', USE_SSL false)`,
		objtest.KeyID, objtest.Secret, srv.Endpoint))
	srv.Requests()
	res := mustExec(t, s, "SELECT year, month, count(*) FROM 's3://bucket/hive/**/*.parquet' WHERE year = 2023 AND month = 2 GROUP BY year, month")
	if got := fmt.Sprint(textRows(res)); got != "[2023|2|12]" {
		t.Fatalf("got %s", got)
	}
	for _, r := range srv.Requests() {
		// The first file is read to bind the schema, as in DuckDB; no other
		// pruned file is touched.
		if strings.Contains(r.Path, "year=2024") || strings.Contains(r.Path, "month=1") && !strings.Contains(r.Path, "year=2023/month=1") {
			t.Errorf("request to a pruned file: %s %s", r.Path, r.Range)
		}
	}
	plan := mustExec(t, s, "EXPLAIN SELECT count(*) FROM 's3://bucket/hive/**/*.parquet' WHERE year = 2024").Explain
	if !strings.Contains(plan, "skipped by hive path") || !strings.Contains(plan, "(4.8 KiB)") {
		t.Errorf("EXPLAIN does not show pruned files with their listed size:\n%s", plan)
	}
}

// TestS3ExplainJSON checks the remote requests in EXPLAIN's JSON form.
func TestS3ExplainJSON(t *testing.T) {
	s, _ := s3Session(t)
	out := mustExec(t, s, "EXPLAIN (FORMAT JSON) SELECT * FROM 's3://bucket/fixtures/orders_sorted.parquet' WHERE order_id = 4242").Explain
	for _, want := range []string{`"remote": [`, `"url": "s3://bucket/fixtures/orders_sorted.parquet"`, `"purpose": "footer"`, `"planned_data": {`} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON lacks %s:\n%s", want, out)
		}
	}
}

// TestS3Cancel checks that cancelling a query ends its requests in
// flight at once.
func TestS3QueryCancel(t *testing.T) {
	s, srv := s3Session(t)
	srv.SetFaults(objtest.Faults{Latency: 10 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := s.Execute(ctx, "SELECT count(*) FROM 's3://bucket/fixtures/orders_*.parquet' WHERE quantity > 2")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("cancel took %v", d)
	}
}

// TestS3ReplacedMidQuery replaces the object when the query's first data
// request arrives, after its footer was read: the query fails clearly
// instead of mixing two versions.
func TestS3ReplacedMidQuery(t *testing.T) {
	s, srv := s3Session(t)
	other, err := os.ReadFile(filepath.Join(moduleRoot(t), "fixtures", "orders_shuffled.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	srv.OnRequest(func(n int64, r *http.Request) {
		if r.Header.Get("If-Match") != "" {
			once.Do(func() { srv.Put(t, "bucket", "fixtures/orders_sorted.parquet", other) })
		}
	})
	defer srv.OnRequest(nil)
	_, err = s.Execute(context.Background(), "SELECT sum(quantity) FROM 's3://bucket/fixtures/orders_sorted.parquet'")
	if !errors.Is(err, storage.ErrChanged) || !strings.Contains(err.Error(), "s3://bucket/fixtures/orders_sorted.parquet") {
		t.Fatalf("err = %v, want ErrChanged naming the file", err)
	}
}

// TestS3JoinOrder: the join order of files on object storage is chosen from
// their footers as it is for local files (the estimates once read local
// footers only, so a chain over S3 ran as written).
func TestS3JoinOrder(t *testing.T) {
	const q = `EXPLAIN SELECT a.order_id, b.status, s.city FROM 'fixtures/orders_sorted.parquet' a JOIN 'fixtures/orders_shuffled.parquet' b ON a.order_id = b.order_id JOIN 'fixtures/statistics.parquet' s ON s.order_id = b.order_id WHERE s.delta < 0`
	orderOf := func(s *Session, q string) string {
		for _, line := range strings.Split(mustExec(t, s, q).Explain, "\n") {
			if i := strings.Index(line, "join order:"); i >= 0 {
				return strings.TrimSpace(line[i:])
			}
		}
		t.Fatalf("no join order line in EXPLAIN of %s", q)
		return ""
	}
	t.Chdir(moduleRoot(t))
	local := orderOf(NewSession(), q)
	s, _ := s3Session(t)
	remote := orderOf(s, strings.ReplaceAll(q, "'fixtures/", "'s3://bucket/fixtures/"))
	if remote != local {
		t.Errorf("over S3: %q, locally: %q", remote, local)
	}
	if !strings.HasPrefix(local, "join order: s ") {
		t.Errorf("the filtered small input is not joined first: %q", local)
	}
}
