package exec

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/internal/objtest"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// remoteBenchQueries run on the 1M-row orders file, locally and over S3;
// {f} is the file, {g} a glob over 16 copies of it.
var remoteBenchQueries = []struct{ name, q string }{
	{"PointLookup", "SELECT * FROM {f} WHERE order_id = 500000"},
	{"AbsentCustomer", "SELECT * FROM {f} WHERE customer_id = 500001"},
	{"GlobPointLookup", "SELECT * FROM {g} WHERE order_id = 500000"},
	{"FullScanAggregate", "SELECT status, count(*), sum(amount), avg(quantity), min(order_date), max(discount) FROM {f} GROUP BY status"},
}

// BenchmarkRemote runs the queries on local files and over an S3 server
// on loopback with 0 and 20 ms of latency per request, and reports the
// requests, bytes and round trips (wall time over latency) of a query on
// a session whose cache is cold (cold) or holds the footers (warm).
func BenchmarkRemote(b *testing.B) {
	path := testcorpus.BenchOrdersFile(b)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	srv := objtest.NewS3(b)
	srv.Put(b, "bench", "orders.parquet", data)
	for i := 0; i < 16; i++ {
		srv.Put(b, "bench", fmt.Sprintf("glob/part%02d.parquet", i), data)
	}
	dir := b.TempDir()
	for i := 0; i < 16; i++ {
		if err := os.Symlink(path, fmt.Sprintf("%s/part%02d.parquet", dir, i)); err != nil {
			b.Fatal(err)
		}
	}
	gaps := []int64{-1}
	if g := os.Getenv("PQSQL_BENCH_GAPS"); g != "" {
		gaps = nil
		for _, s := range strings.Split(g, ",") {
			var n int64
			fmt.Sscan(s, &n)
			gaps = append(gaps, n)
		}
	}
	for _, bq := range remoteBenchQueries {
		for _, where := range []string{"local", "s3-0ms", "s3-20ms"} {
			for _, cache := range []string{"cold", "warm"} {
				for _, gap := range gaps {
					if where == "local" && (cache == "warm" || gap >= 0) {
						continue
					}
					name := bq.name + "/" + where + "/" + cache
					if gap >= 0 {
						name += fmt.Sprintf("/gap%d", gap)
					}
					b.Run(name, func(b *testing.B) {
						benchRemoteQuery(b, srv, bq.q, path, dir, where, cache == "warm", gap)
					})
				}
			}
		}
	}
}

func benchRemoteQuery(b *testing.B, srv *objtest.Server, q, path, dir, where string, warm bool, gap int64) {
	latency := time.Duration(0)
	if where == "s3-20ms" {
		latency = 20 * time.Millisecond
	}
	f, g := "'"+path+"'", "'"+dir+"/*.parquet'"
	if where != "local" {
		f, g = "'s3://bench/orders.parquet'", "'s3://bench/glob/*.parquet'"
	}
	q = strings.NewReplacer("{f}", f, "{g}", g).Replace(q)
	session := func() *Session {
		s := NewSession()
		if where == "local" {
			return s
		}
		stmts := []string{fmt.Sprintf(`CREATE SECRET (TYPE s3, KEY_ID '%s', SECRET '%s', ENDPOINT '%s', URL_STYLE 'path', USE_SSL false)`,
			objtest.KeyID, objtest.Secret, srv.Endpoint)}
		if gap >= 0 {
			stmts = append(stmts, fmt.Sprintf("SET remote_coalesce_gap = %d", gap))
		}
		for _, st := range stmts {
			if _, err := s.Execute(context.Background(), st); err != nil {
				b.Fatal(err)
			}
		}
		return s
	}
	srv.SetFaults(objtest.Faults{Latency: latency})
	defer srv.SetFaults(objtest.Faults{})
	s := session()
	if warm {
		if _, err := s.Execute(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
	var requests, bytes int64
	var elapsed time.Duration
	for b.Loop() {
		if !warm {
			b.StopTimer()
			s = session()
			b.StartTimer()
		}
		srv.Requests()
		start := time.Now()
		res, err := s.Execute(context.Background(), "EXPLAIN ANALYZE "+q)
		if err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		requests += int64(len(srv.Requests()))
		bytes += remoteBytes(res.Explain)
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
	b.ReportMetric(float64(bytes)/float64(b.N), "netbytes/op")
	if latency > 0 {
		b.ReportMetric(float64(elapsed)/float64(b.N)/float64(latency), "roundtrips/op")
	}
}

// remoteBytes sums the bytes of EXPLAIN ANALYZE's remote request lines.
func remoteBytes(explain string) int64 {
	var n int64
	for _, line := range strings.Split(explain, "\n") {
		var purpose string
		var reqs, bytes int64
		line = strings.TrimSpace(line)
		if i := strings.Index(line, ": "); i > 0 {
			purpose = line[:i]
			if _, err := fmt.Sscanf(line[i+2:], "%d request", &reqs); err != nil {
				continue
			}
			if j := strings.Index(line, ", "); j > 0 {
				fmt.Sscanf(line[j+2:], "%d bytes", &bytes)
			}
		}
		if purpose != "" && purpose != "bytes read" {
			n += bytes
		}
	}
	return n
}
