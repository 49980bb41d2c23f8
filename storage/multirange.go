package storage

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"strings"
)

// errNoMultiRange means the server answered a multi-range request with
// anything but the parts asked for; the ranges are then read one by one.
var errNoMultiRange = errors.New("server does not serve multi-range requests")

// maxParts bounds the ranges of one multi-range request, keeping its
// Range header well under servers' header limits.
const maxParts = 64

// multiRange reports whether multi-range requests may be tried on the
// host of u: until one fails there.
func (st *Store) multiRange(u string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return !st.noMulti[hostOf(u)]
}

func (st *Store) noMultiRange(u string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.noMulti[hostOf(u)] = true
}

func hostOf(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Host
	}
	return u
}

// fetchMulti reads blocks with multi-range requests (Range: bytes=a-b,
// c-d), as many as maxParts at a time, and checks that every part holds
// exactly the bytes of one block.
func (o *Object) fetchMulti(purpose Purpose, blocks []*block) error {
	for len(blocks) > 0 {
		n := min(len(blocks), maxParts)
		if err := o.fetchParts(purpose, blocks[:n]); err != nil {
			return err
		}
		blocks = blocks[n:]
	}
	return nil
}

func (o *Object) fetchParts(purpose Purpose, blocks []*block) error {
	specs := make([]string, len(blocks))
	for i, bl := range blocks {
		specs[i] = fmt.Sprintf("%d-%d", bl.r.Offset, bl.r.End()-1)
	}
	rng := "bytes=" + strings.Join(specs, ",")
	return o.st.do(o.ctx, o.be, o.url, rng, o.entry.v, tally{o, purpose}, func(resp *response) error {
		mt, params, err := mime.ParseMediaType(resp.contentType)
		if resp.contentRange != "" || err != nil || mt != "multipart/byteranges" {
			return errNoMultiRange
		}
		got := map[int64][]byte{}
		mr := multipart.NewReader(resp.body, params["boundary"])
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("%w: multipart body: %w", ErrShortRead, err)
			}
			start, end, total, ok := parseContentRange(part.Header.Get("Content-Range"))
			if !ok {
				return fmt.Errorf("%w: part without Content-Range", ErrShortRead)
			}
			if total != o.entry.size {
				return fmt.Errorf("%w: size is now %d bytes, was %d", ErrChanged, total, o.entry.size)
			}
			b, err := readFull(part, end-start+1)
			if err != nil {
				return err
			}
			got[start] = b
		}
		for _, bl := range blocks {
			b, ok := got[bl.r.Offset]
			if !ok || int64(len(b)) != bl.r.Length {
				return fmt.Errorf("%w: no part for bytes %d-%d", ErrShortRead, bl.r.Offset, bl.r.End()-1)
			}
			bl.b = b
		}
		return nil
	})
}
