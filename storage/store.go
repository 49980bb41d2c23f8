package storage

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pqsql/pqsql/format"
)

// Options tune remote reads; SET changes them.
type Options struct {
	// Retries is how many times a failed request is tried again
	// (http_retries).
	Retries int
	// RetryWait is the wait before the first retry (http_retry_wait_ms);
	// each later wait is Backoff times longer (http_retry_backoff).
	RetryWait time.Duration
	Backoff   float64
	// Timeout bounds one attempt of a request, body included
	// (http_timeout, in seconds).
	Timeout time.Duration
	// CoalesceGap is the largest gap between two ranges that Prefetch
	// reads through rather than sending another request
	// (remote_coalesce_gap, in bytes).
	CoalesceGap int64
	// Concurrency bounds the requests in flight per store
	// (remote_concurrency).
	Concurrency int
	// FooterGuess is the size of the first suffix request of a file; it
	// grows to fit the largest footer seen.
	FooterGuess int64
}

// DefaultOptions are DuckDB's http_* defaults, a coalescing gap of 32 KiB
// and 256 requests in flight.
//
// The gap was measured with `PQSQL_BENCH_GAPS=0,8192,32768,131072,1048576
// go test ./exec -run XXX -bench 'Remote/PointLookup/s3-20ms/cold'
// -benchtime 8x` (1M-row file, 20 ms per request, 2 CPUs at load 28):
// gaps of 0, 8 KiB and 32 KiB sent 19, 15 and 14 requests for 529, 545 and
// 563 KB, in 368, 128 and 87 ms; 128 KiB and 1 MiB made the same requests
// as 32 KiB (Coalesce spends at most a tenth of the bytes on gaps) in 54
// and 147 ms, which is the machine's noise. The requests of a round run in
// parallel, so a merge saves no round trip; it saves the client's and the
// server's work per request, which on a loaded machine is what the times
// show. 32 KiB is the smallest gap that makes every merge the budget
// allows on that file.
//
// 256 in flight lets a 16-file glob send its data (a dozen page requests
// a file) in one round; at 64 the requests queued into three.
var DefaultOptions = Options{
	Retries:     3,
	RetryWait:   100 * time.Millisecond,
	Backoff:     4,
	Timeout:     30 * time.Second,
	CoalesceGap: 32 << 10,
	Concurrency: 256,
	FooterGuess: 64 << 10,
}

// maxCached bounds the files whose footers and indexes a session keeps.
const maxCached = 1024

// A Store opens and lists files for one session. It is safe for
// concurrent use.
type Store struct {
	mu      sync.Mutex
	opts    Options
	secrets map[string]*Secret
	s3      Secret         // the s3_* settings
	clients map[string]any // S3 clients by configuration
	meta    map[string]*metaEntry
	order   []string         // meta's keys, oldest first
	sizes   map[string]int64 // object sizes learned from listings
	noMulti map[string]bool  // hosts that refused a multi-range request
	sem     chan struct{}
	client  *http.Client
}

// NewStore returns a store with default options and no secrets.
func NewStore() *Store {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	tr.DisableCompression = true // ranges are of the stored bytes
	tr.DialContext = (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	st := &Store{
		opts:    DefaultOptions,
		secrets: map[string]*Secret{},
		s3:      Secret{Type: "s3", Provider: "config"},
		clients: map[string]any{},
		meta:    map[string]*metaEntry{},
		sizes:   map[string]int64{},
		noMulti: map[string]bool{},
		client:  &http.Client{Transport: tr},
	}
	st.sem = make(chan struct{}, st.opts.Concurrency)
	return st
}

// SetOptions replaces the store's options.
func (st *Store) SetOptions(o Options) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.opts = o
	if o.Concurrency < 1 {
		st.opts.Concurrency = 1
	}
	st.sem = make(chan struct{}, st.opts.Concurrency)
}

// Options returns the store's options.
func (st *Store) Options() Options {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.opts
}

// SetTransport replaces the HTTP transport, for tests that route
// requests through a proxy.
func (st *Store) SetTransport(rt http.RoundTripper) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.client = &http.Client{Transport: rt}
	st.clients = map[string]any{}
}

// Set applies a SET of a storage setting. It reports false for a name it
// does not know. Values of key settings never appear in its errors.
func (st *Store) Set(name, value string) (bool, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	num := func() (float64, error) {
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || f < 0 {
			return 0, fmt.Errorf("%w: SET %s expects a non-negative number, found %s", ErrSecret, name, value)
		}
		return f, nil
	}
	changed := true
	switch name {
	case "s3_region":
		st.s3.Region = value
	case "s3_endpoint":
		st.s3.Endpoint = value
	case "s3_access_key_id":
		st.s3.KeyID = value
	case "s3_secret_access_key":
		st.s3.Secret = value
	case "s3_session_token":
		st.s3.SessionToken = value
	case "s3_url_style":
		v := strings.ToLower(value)
		if v != "path" && v != "vhost" && v != "" {
			return true, fmt.Errorf("%w: SET s3_url_style expects 'path' or 'vhost'", ErrSecret)
		}
		st.s3.URLStyle = v
	case "s3_use_ssl":
		b, err := parseBool(value)
		if err != nil {
			return true, fmt.Errorf("%w: SET s3_use_ssl expects true or false", ErrSecret)
		}
		st.s3.UseSSL = &b
	default:
		changed = false
	}
	if changed {
		st.clients = map[string]any{}
		return true, nil
	}
	f, err := num()
	switch name {
	case "http_retries", "http_retry_wait_ms", "http_retry_backoff", "http_timeout", "remote_coalesce_gap", "remote_concurrency":
		if err != nil {
			return true, err
		}
	default:
		return false, nil
	}
	switch name {
	case "http_retries":
		st.opts.Retries = int(f)
	case "http_retry_wait_ms":
		st.opts.RetryWait = time.Duration(f * float64(time.Millisecond))
	case "http_retry_backoff":
		st.opts.Backoff = f
	case "http_timeout":
		st.opts.Timeout = time.Duration(f * float64(time.Second))
	case "remote_coalesce_gap":
		st.opts.CoalesceGap = int64(f)
	case "remote_concurrency":
		st.opts.Concurrency = max(1, int(f))
		st.sem = make(chan struct{}, st.opts.Concurrency)
	}
	return true, nil
}

// A Source is an open file: local, or a remote *Object.
type Source interface {
	format.Source
	Close() error
}

// Open opens the file at path for one query; ctx bounds every request the
// file makes, so cancelling it cancels requests in flight.
func (st *Store) Open(ctx context.Context, path string) (Source, error) {
	loc := Parse(path)
	if loc.Scheme == "" {
		return openLocal(path)
	}
	return st.openRemote(ctx, loc)
}

// Size returns a file's size without a request to it: local files are
// stat'ed; remote ones are known from a listing or an earlier open, else
// 0.
func (st *Store) Size(path string) int64 {
	loc := Parse(path)
	if loc.Scheme == "" {
		if s, err := statLocal(path); err == nil {
			return s
		}
		return 0
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if e, ok := st.meta[loc.url()]; ok {
		return e.size
	}
	return st.sizes[loc.url()]
}

// acquire takes a slot of the store's request concurrency.
func (st *Store) acquire(ctx context.Context) (func(), error) {
	st.mu.Lock()
	sem := st.sem
	st.mu.Unlock()
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
