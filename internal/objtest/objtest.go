package objtest

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// The credentials the S3 server accepts.
const (
	KeyID  = "AKIAPQSQLTEST"
	Secret = "pqsql-test-secret-key-0123456789"
	Region = "us-east-1"
)

// A TB is what the servers need of a test, a benchmark or a benchmark
// program: testing.TB has it.
type TB interface {
	Fatal(args ...any)
	Cleanup(func())
}

// A Request is one request the server received.
type Request struct {
	Method, Path, Query, Range, IfMatch string
	// At is when the request arrived, Done when its answer was sent
	// (zero while it is served).
	At, Done time.Time
}

// Faults say which requests fail. The Nth request counts from 1; a field
// of 0 injects nothing.
type Faults struct {
	// Latency delays every request.
	Latency time.Duration
	// Every FailEvery-th request answers 500; every ResetEvery-th has its
	// connection closed before an answer; every ShortEvery-th GET sends
	// half its body, then closes.
	FailEvery, ResetEvery, ShortEvery int64
	// Status, when set, answers every request with it (a 503 storm).
	Status int
}

// A Server is an S3 or HTTP server on 127.0.0.1.
type Server struct {
	// URL is the base URL: http://127.0.0.1:port.
	URL string
	// Endpoint is the host:port, as CREATE SECRET's ENDPOINT takes it.
	Endpoint string

	backend   *s3mem.Backend
	mu        sync.Mutex
	faults    Faults
	requests  []*Request
	n         atomic.Int64
	inFlight  atomic.Int64
	maxIn     atomic.Int64
	onRequest func(n int64, r *http.Request)
}

// OnRequest sets a function run before each request is served, with the
// request's number; nil removes it.
func (s *Server) OnRequest(f func(n int64, r *http.Request)) {
	s.mu.Lock()
	s.onRequest = f
	s.mu.Unlock()
}

// NewS3 starts an S3 server checking signatures against KeyID and
// Secret; anonymous requests are refused.
func NewS3(t TB) *Server {
	s := &Server{backend: s3mem.New()}
	fake := gofakes3.New(s.backend)
	s.start(t, verifySigV4(fake.Server()))
	return s
}

// NewHTTP starts a file server over dir, with Range and multi-range
// support.
func NewHTTP(t TB, dir string) *Server {
	s := &Server{}
	s.start(t, http.FileServer(http.Dir(dir)))
	return s
}

func (s *Server) start(t TB, h http.Handler) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: s.wrap(h)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	s.Endpoint = ln.Addr().String()
	s.URL = "http://" + s.Endpoint
}

// SetFaults replaces the faults injected from now on.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	s.faults = f
	s.mu.Unlock()
	s.n.Store(0)
}

// Requests returns the requests received so far, and forgets them.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = *r
	}
	s.requests = nil
	return out
}

// MaxInFlight is the most requests the server held at once.
func (s *Server) MaxInFlight() int64 { return s.maxIn.Load() }

// Put stores an object, creating its bucket.
func (s *Server) Put(t TB, bucket, key string, data []byte) {
	if err := s.backend.CreateBucket(bucket); err != nil && !gofakes3.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	if _, err := s.backend.PutObject(bucket, key, map[string]string{}, bytes.NewReader(data), int64(len(data)), nil); err != nil {
		t.Fatal(err)
	}
}

// PutDir stores the files under dir matching the glob pattern (relative
// to dir) under prefix.
func (s *Server) PutDir(t TB, bucket, prefix, dir, pattern string) {
	matches, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, m)
		s.Put(t, bucket, prefix+filepath.ToSlash(rel), data)
	}
}

func (s *Server) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := s.n.Add(1)
		in := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for {
			m := s.maxIn.Load()
			if in <= m || s.maxIn.CompareAndSwap(m, in) {
				break
			}
		}
		s.mu.Lock()
		f := s.faults
		req := &Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			Range: r.Header.Get("Range"), IfMatch: r.Header.Get("If-Match"), At: time.Now()}
		s.requests = append(s.requests, req)
		hook := s.onRequest
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			req.Done = time.Now()
			s.mu.Unlock()
		}()
		if hook != nil {
			hook(n, r)
		}
		if f.Latency > 0 {
			time.Sleep(f.Latency)
		}
		switch {
		case f.Status != 0:
			w.WriteHeader(f.Status)
			return
		case f.FailEvery > 0 && n%f.FailEvery == 0:
			http.Error(w, "injected failure", http.StatusInternalServerError)
			return
		case f.ResetEvery > 0 && n%f.ResetEvery == 0:
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					if tc, ok := c.(*net.TCPConn); ok {
						tc.SetLinger(0) // a reset, not a clean close
					}
					c.Close()
					return
				}
			}
		case f.ShortEvery > 0 && n%f.ShortEvery == 0 && r.Method == http.MethodGet:
			rec := &recorder{header: http.Header{}}
			h.ServeHTTP(rec, r)
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.status)
			w.Write(rec.body.Bytes()[:rec.body.Len()/2])
			if hj, ok := w.(http.Hijacker); ok {
				if c, buf, err := hj.Hijack(); err == nil {
					buf.Flush()
					c.Close()
				}
			}
			return
		}
		h.ServeHTTP(w, r)
	})
}

// recorder buffers a response, to send it cut short.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
func (r *recorder) WriteHeader(s int) { r.status = s }

// verifySigV4 refuses requests whose SigV4 signature is not the one the
// SDK's signer computes with the server's key: the test of signing is
// against the real algorithm, not a copy of it.
func verifySigV4(next http.Handler) http.Handler {
	// S3 signs the path as sent, without escaping it a second time.
	signer := v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !validSignature(signer, r) {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error>`)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func validSignature(signer *v4.Signer, r *http.Request) bool {
	auth := r.Header.Get("Authorization")
	fields := map[string]string{}
	for _, part := range strings.Split(strings.TrimPrefix(auth, "AWS4-HMAC-SHA256 "), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		fields[k] = v
	}
	cred := strings.Split(fields["Credential"], "/")
	if len(cred) != 5 || cred[0] != KeyID {
		return false
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return false
	}
	clone := r.Clone(context.Background())
	clone.Header = http.Header{}
	for _, h := range strings.Split(fields["SignedHeaders"], ";") {
		if h == "host" {
			continue
		}
		if v, ok := r.Header[http.CanonicalHeaderKey(h)]; ok {
			clone.Header[http.CanonicalHeaderKey(h)] = v
		}
	}
	creds := aws.Credentials{AccessKeyID: KeyID, SecretAccessKey: Secret}
	if err := signer.SignHTTP(context.Background(), creds, clone, r.Header.Get("X-Amz-Content-Sha256"), "s3", cred[2], at); err != nil {
		return false
	}
	want := clone.Header.Get("Authorization")
	_, wantSig, _ := strings.Cut(want, "Signature=")
	return wantSig != "" && wantSig == fields["Signature"]
}
