package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// A backend sends one GET of an object.
type backend interface {
	// get fetches rng ("bytes=-N", "bytes=a-b", or "" for the whole
	// object); a non-empty validator makes the request conditional on the
	// object being the version read first.
	get(ctx context.Context, rng string, v validator) (*response, error)
}

// A validator identifies the version of an object a query reads.
type validator struct {
	etag    string
	lastMod string // only when the server sends no ETag
}

// A response is a successful GET.
type response struct {
	body         io.ReadCloser
	contentRange string // "" for a whole-object or multipart response
	contentType  string
	length       int64 // Content-Length; -1 unknown
	etag         string
	lastMod      string
}

// A statusError is an HTTP status other than 200 and 206.
type statusError struct {
	status int
	code   string // the S3 error code, when the server sent one
}

func (e *statusError) Error() string {
	text := http.StatusText(e.status)
	if e.code != "" {
		text = e.code
	}
	return fmt.Sprintf("HTTP %d (%s)", e.status, text)
}

func (e *statusError) Unwrap() error {
	switch e.status {
	case http.StatusForbidden, http.StatusUnauthorized:
		return ErrAccess
	case http.StatusNotFound:
		return ErrNotFound
	case http.StatusPreconditionFailed:
		return ErrChanged
	}
	return nil
}

// retryable reports whether a failed attempt may succeed when sent again.
func retryable(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		return se.status >= 500 || se.status == http.StatusTooManyRequests || se.status == http.StatusRequestTimeout
	}
	if errors.Is(err, ErrChanged) || errors.Is(err, context.Canceled) || errors.Is(err, errNoMultiRange) {
		return false
	}
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return false // a host that does not exist will not appear
	}
	// Timeouts, reset connections, bodies cut short.
	return true
}

// contentRange parses "bytes a-b/total".
func parseContentRange(s string) (start, end, total int64, ok bool) {
	s, found := strings.CutPrefix(strings.TrimSpace(s), "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	span, tot, found := strings.Cut(s, "/")
	if !found {
		return 0, 0, 0, false
	}
	a, b, found := strings.Cut(span, "-")
	if !found {
		return 0, 0, 0, false
	}
	var err1, err2, err3 error
	start, err1 = strconv.ParseInt(a, 10, 64)
	end, err2 = strconv.ParseInt(b, 10, 64)
	total, err3 = strconv.ParseInt(tot, 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || start < 0 || end < start || total <= end {
		return 0, 0, 0, false
	}
	return start, end, total, true
}

// httpBackend reads an http(s) URL with plain range requests.
type httpBackend struct {
	client *http.Client
	url    string
}

func (b *httpBackend) get(ctx context.Context, rng string, v validator) (*response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.url, nil)
	if err != nil {
		return nil, err
	}
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	switch {
	case v.etag != "":
		req.Header.Set("If-Match", v.etag)
	case v.lastMod != "":
		req.Header.Set("If-Unmodified-Since", v.lastMod)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusPartialContent {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		return nil, &statusError{status: resp.StatusCode}
	}
	r := &response{body: resp.Body, length: resp.ContentLength, etag: resp.Header.Get("ETag"),
		lastMod: resp.Header.Get("Last-Modified"), contentType: resp.Header.Get("Content-Type")}
	if resp.StatusCode == http.StatusPartialContent {
		r.contentRange = resp.Header.Get("Content-Range")
	}
	return r, nil
}
