package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/internal/objtest"
)

const fixture = "../fixtures/orders_sorted.parquet"

// s3Store returns a store whose default s3 secret reaches srv.
func s3Store(t *testing.T, srv *objtest.Server, secret string) *Store {
	t.Helper()
	st := NewStore()
	f := false
	sec := &Secret{Name: "t", Type: "s3", Provider: "config", KeyID: objtest.KeyID, Secret: secret,
		Region: objtest.Region, Endpoint: srv.Endpoint, URLStyle: "path", UseSSL: &f}
	if err := st.CreateSecret(sec, false, false); err != nil {
		t.Fatal(err)
	}
	o := st.Options()
	o.RetryWait = time.Millisecond
	st.SetOptions(o)
	return st
}

func putFixture(t *testing.T, srv *objtest.Server) []byte {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	srv.Put(t, "bucket", "fixtures/orders_sorted.parquet", data)
	return data
}

const fixtureURL = "s3://bucket/fixtures/orders_sorted.parquet"

// TestS3FooterOneRequest checks that opening sends one suffix request
// and no request for the head, that later requests carry If-Match, and
// that a second open sends nothing.
func TestS3FooterOneRequest(t *testing.T) {
	srv := objtest.NewS3(t)
	data := putFixture(t, srv)
	st := s3Store(t, srv, objtest.Secret)
	ctx := context.Background()
	src, err := st.Open(ctx, fixtureURL)
	if err != nil {
		t.Fatal(err)
	}
	obj := src.(*Object)
	if obj.Size() != int64(len(data)) {
		t.Fatalf("size %d, want %d", obj.Size(), len(data))
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Range != "bytes=-65536" {
		t.Fatalf("open sent %+v, want the 64 KiB suffix alone", reqs)
	}
	f, err := format.OpenSource(src, "orders_sorted.parquet", format.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("decoding the footer sent %d requests, want 0", n)
	}
	r, err := f.ChunkRange(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, r.Length)
	if _, err := src.ReadAt(buf, r.Offset); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf, data[r.Offset:r.End()]) {
		t.Fatal("data read differs from the file")
	}
	// The first chunk starts next to the head: one request brings both.
	reqs = srv.Requests()
	if len(reqs) != 1 || reqs[0].IfMatch == "" || reqs[0].Range != fmt.Sprintf("bytes=0-%d", r.End()-1) {
		t.Fatalf("data read sent %+v, want one request from the head with If-Match", reqs)
	}
	src.Close()
	if _, err := st.Open(ctx, fixtureURL); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("second open sent %d requests, want 0 (cached)", n)
	}
}

// TestS3HeadWithPages checks that the leading magic, which open does not
// read, comes with the first prefetch of pages: in the same request when
// the pages start next to it, in the same parallel round otherwise; the
// reader's check of it then sends nothing, and a file whose head is not
// Parquet still fails before a page is decoded.
func TestS3HeadWithPages(t *testing.T) {
	srv := objtest.NewS3(t)
	data := putFixture(t, srv)
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		rg       int
		requests int
	}{{"first chunk", 0, 1}, {"far chunk", 4, 2}} {
		t.Run(c.name, func(t *testing.T) {
			st := s3Store(t, srv, objtest.Secret)
			src, err := st.Open(ctx, fixtureURL)
			if err != nil {
				t.Fatal(err)
			}
			f, err := format.OpenSource(src, "orders_sorted.parquet", format.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			r, err := f.ChunkRange(c.rg, 0)
			if err != nil {
				t.Fatal(err)
			}
			srv.Requests()
			srv.SetFaults(objtest.Faults{Latency: 30 * time.Millisecond}) // rounds apart
			defer srv.SetFaults(objtest.Faults{})
			if err := src.(*Object).Prefetch([]format.Range{r}, Data); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != c.requests {
				t.Fatalf("prefetch sent %+v, want %d requests", reqs, c.requests)
			}
			if rounds := objtest.Rounds(reqs); rounds != 1 {
				t.Fatalf("prefetch took %d rounds, want 1", rounds)
			}
			if _, err := f.ReadColumn(c.rg, 0); err != nil {
				t.Fatal(err)
			}
			if reqs := srv.Requests(); len(reqs) != 0 {
				t.Fatalf("checking the head and decoding sent %+v, want nothing", reqs)
			}
		})
	}
	t.Run("far read", func(t *testing.T) {
		// A page read without a prefetch (a dictionary read while planning)
		// brings the head in the same round.
		st := s3Store(t, srv, objtest.Secret)
		src, err := st.Open(ctx, fixtureURL)
		if err != nil {
			t.Fatal(err)
		}
		f, err := format.OpenSource(src, "orders_sorted.parquet", format.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := f.ChunkRange(4, 1)
		srv.Requests()
		srv.SetFaults(objtest.Faults{Latency: 30 * time.Millisecond})
		defer srv.SetFaults(objtest.Faults{})
		buf := make([]byte, r.Length)
		if _, err := src.(*Object).ReadPurpose(buf, r.Offset, Dictionary); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || objtest.Rounds(reqs) != 1 || !src.(*Object).HasHead() {
			t.Fatalf("read sent %+v, want the range and the head in one round", reqs)
		}
		if !bytes.Equal(buf, data[r.Offset:r.End()]) {
			t.Fatal("read differs from the file")
		}
	})
	t.Run("not Parquet", func(t *testing.T) {
		bad := append([]byte("XXXX"), data[4:]...)
		srv.Put(t, "bucket", "fixtures/bad_head.parquet", bad)
		st := s3Store(t, srv, objtest.Secret)
		src, err := st.Open(ctx, "s3://bucket/fixtures/bad_head.parquet")
		if err != nil {
			t.Fatal(err)
		}
		f, err := format.OpenSource(src, "bad_head.parquet", format.DefaultLimits)
		if err != nil {
			t.Fatalf("open checks the head lazily, got %v", err)
		}
		r, _ := f.ChunkRange(0, 0)
		if err := src.(*Object).Prefetch([]format.Range{r}, Data); err != nil {
			t.Fatal(err)
		}
		if _, err := f.ReadColumn(0, 0); !errors.Is(err, format.ErrNotParquet) {
			t.Fatalf("decoding a file with a bad head: %v, want ErrNotParquet", err)
		}
	})
}

// TestS3WrongKey checks a clear 403 that never shows the secret.
func TestS3WrongKey(t *testing.T) {
	srv := objtest.NewS3(t)
	putFixture(t, srv)
	const wrong = "wrong-secret-do-not-print"
	st := s3Store(t, srv, wrong)
	_, err := st.Open(context.Background(), fixtureURL)
	if !errors.Is(err, ErrAccess) {
		t.Fatalf("err = %v, want ErrAccess", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, fixtureURL) || !strings.Contains(msg, "403") || !strings.Contains(msg, "bytes=") {
		t.Fatalf("error %q does not name URL, status and range", msg)
	}
	if strings.Contains(msg, wrong) {
		t.Fatalf("error %q shows the secret", msg)
	}
	// One attempt: 403 is not retried.
	if n := len(srv.Requests()); n > 2 {
		t.Fatalf("%d requests for a 403, want no retries", n)
	}
}

func TestS3NotFound(t *testing.T) {
	srv := objtest.NewS3(t)
	putFixture(t, srv)
	st := s3Store(t, srv, objtest.Secret)
	_, err := st.Open(context.Background(), "s3://bucket/none.parquet")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "404") {
		t.Fatalf("err = %v, want ErrNotFound naming 404", err)
	}
}

// TestS3Faults checks retries on 500s, resets and short bodies, and a
// clear error after the last retry.
func TestS3Faults(t *testing.T) {
	srv := objtest.NewS3(t)
	data := putFixture(t, srv)
	for _, f := range []objtest.Faults{{FailEvery: 2}, {ResetEvery: 2}, {ShortEvery: 2}} {
		st := s3Store(t, srv, objtest.Secret)
		srv.SetFaults(f)
		src, err := st.Open(context.Background(), fixtureURL)
		if err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		buf := make([]byte, 100000)
		if _, err := src.ReadAt(buf, 1000); err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		if !bytes.Equal(buf, data[1000:101000]) {
			t.Fatalf("%+v: wrong bytes", f)
		}
		var retries int64
		for _, s := range src.(*Object).Stats() {
			retries += s.Retries
		}
		// The transport resends a GET whose reused connection was reset
		// before any answer, so a reset need not cost a retry of ours.
		if retries == 0 && f.ResetEvery == 0 {
			t.Fatalf("%+v: no retry counted", f)
		}
	}
	srv.SetFaults(objtest.Faults{Status: 503})
	st := s3Store(t, srv, objtest.Secret)
	_, err := st.Open(context.Background(), fixtureURL)
	if !errors.Is(err, ErrRequest) || !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), fixtureURL) || !strings.Contains(err.Error(), "4 attempts") {
		t.Fatalf("err = %v, want ErrRequest naming 503, the URL and 4 attempts", err)
	}
	srv.SetFaults(objtest.Faults{ShortEvery: 1})
	st = s3Store(t, srv, objtest.Secret)
	o := st.Options()
	o.Retries = 0
	st.SetOptions(o)
	_, err = st.Open(context.Background(), fixtureURL)
	if !errors.Is(err, ErrShortRead) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want ErrShortRead", err)
	}
}

// TestS3Replaced checks that a file replaced between two requests of a
// query fails the read clearly.
func TestS3Replaced(t *testing.T) {
	srv := objtest.NewS3(t)
	data := putFixture(t, srv)
	st := s3Store(t, srv, objtest.Secret)
	src, err := st.Open(context.Background(), fixtureURL)
	if err != nil {
		t.Fatal(err)
	}
	changed := append([]byte(nil), data...)
	changed[100] ^= 0xff
	srv.Put(t, "bucket", "fixtures/orders_sorted.parquet", changed)
	_, err = src.ReadAt(make([]byte, 10), 100)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
}

// TestS3Cancel checks that cancelling the context ends requests in flight.
func TestS3Cancel(t *testing.T) {
	srv := objtest.NewS3(t)
	putFixture(t, srv)
	st := s3Store(t, srv, objtest.Secret)
	srv.SetFaults(objtest.Faults{Latency: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := st.Open(ctx, fixtureURL)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancel took %v", d)
	}
}

// TestPrefetchCoalesces checks that ranges closer than the gap share one
// request and that the reads that follow send none.
func TestPrefetchCoalesces(t *testing.T) {
	srv := objtest.NewS3(t)
	data := putFixture(t, srv)
	st := s3Store(t, srv, objtest.Secret)
	src, err := st.Open(context.Background(), fixtureURL)
	if err != nil {
		t.Fatal(err)
	}
	srv.Requests()
	obj := src.(*Object)
	// The first two are 96 bytes apart, within the gap and a tenth of
	// the ranges' bytes.
	ranges := []format.Range{{Offset: 4, Length: 1000}, {Offset: 1100, Length: 1000}, {Offset: 400000, Length: 500}}
	if err := obj.Prefetch(ranges, Data); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("prefetch sent %d requests, want 2 (two ranges coalesced)", n)
	}
	for _, r := range ranges {
		b := make([]byte, r.Length)
		if _, err := obj.ReadAt(b, r.Offset); err != nil || !bytes.Equal(b, data[r.Offset:r.End()]) {
			t.Fatalf("range %+v: %v", r, err)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("reads after prefetch sent %d requests", n)
	}
	obj.mu.Lock()
	left := len(obj.blocks)
	obj.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d prefetched blocks kept after every byte was served", left)
	}
}

// TestHTTP reads a file over plain HTTP with range requests.
func TestHTTP(t *testing.T) {
	srv := objtest.NewHTTP(t, "../fixtures")
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStore()
	src, err := st.Open(context.Background(), srv.URL+"/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if src.Size() != int64(len(data)) {
		t.Fatalf("size %d", src.Size())
	}
	b := make([]byte, 5000)
	if _, err := src.ReadAt(b, 12345); err != nil || !bytes.Equal(b, data[12345:17345]) {
		t.Fatalf("read: %v", err)
	}
	_, err = st.Open(context.Background(), srv.URL+"/missing.parquet")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	srv.SetFaults(objtest.Faults{Status: http.StatusForbidden})
	_, err = NewStore().Open(context.Background(), srv.URL+"/orders_sorted.parquet")
	if !errors.Is(err, ErrAccess) {
		t.Fatalf("err = %v, want ErrAccess", err)
	}
}

// TestHTTPMultiRange checks that prefetching over HTTP sends one
// multi-range request, and falls back to one request per range on a
// server that answers it with the whole file.
func TestHTTPMultiRange(t *testing.T) {
	srv := objtest.NewHTTP(t, "../fixtures")
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	ranges := []format.Range{{Offset: 100, Length: 50}, {Offset: 200000, Length: 1000}, {Offset: 400000, Length: 3000}}
	for _, whole := range []bool{false, true} {
		st := NewStore()
		if whole {
			// A server that ignores multi-range requests sends 200 and
			// the whole file.
			st.SetTransport(stripMultiRange{http.DefaultTransport})
		}
		src, err := st.Open(context.Background(), srv.URL+"/orders_sorted.parquet")
		if err != nil {
			t.Fatal(err)
		}
		srv.Requests()
		obj := src.(*Object)
		if err := obj.Prefetch(ranges, Data); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		if want := map[bool]int{false: 1, true: 4}[whole]; len(reqs) != want {
			t.Fatalf("whole %v: %d requests, want %d: %+v", whole, len(reqs), want, reqs)
		}
		for _, r := range ranges {
			b := make([]byte, r.Length)
			if _, err := obj.ReadAt(b, r.Offset); err != nil || !bytes.Equal(b, data[r.Offset:r.End()]) {
				t.Fatalf("whole %v: range %+v: %v", whole, r, err)
			}
		}
		if n := len(srv.Requests()); n != 0 {
			t.Fatalf("whole %v: reads after prefetch sent %d requests", whole, n)
		}
	}
}

// stripMultiRange drops multi-range Range headers, so that the server
// answers with the whole file, as servers without multi-range support do.
type stripMultiRange struct{ rt http.RoundTripper }

func (s stripMultiRange) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.Contains(r.Header.Get("Range"), ",") {
		r = r.Clone(r.Context())
		r.Header.Del("Range")
	}
	return s.rt.RoundTrip(r)
}
