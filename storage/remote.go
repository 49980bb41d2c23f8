package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pqsql/pqsql/format"
)

// A metaEntry is the session cache of one remote file: its version and
// the footer, head and index bytes read so far.
type metaEntry struct {
	size int64
	v    validator
	mu   sync.Mutex
	// chunks are disjoint or overlapping byte ranges with their bytes.
	chunks []chunk
}

type chunk struct {
	off int64
	b   []byte
}

// slice returns the cached bytes of [off, off+n), if one chunk holds them.
func (e *metaEntry) slice(off, n int64) ([]byte, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range e.chunks {
		if off >= c.off && off+n <= c.off+int64(len(c.b)) {
			return c.b[off-c.off : off-c.off+n], true
		}
	}
	return nil, false
}

func (e *metaEntry) add(off int64, b []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.chunks = append(e.chunks, chunk{off, b})
}

// A block is a prefetched range that later reads are served from; it is
// dropped once every byte asked for has been served.
type block struct {
	r    format.Range
	b    []byte
	need atomic.Int64
}

// An Object is a remote file open for one query. It is a format.Source.
type Object struct {
	st    *Store
	ctx   context.Context
	url   string
	be    backend
	entry *metaEntry

	mu     sync.Mutex
	blocks []*block
	stats  [NumPurposes]struct {
		requests, bytes, retries, wait, hits atomic.Int64
	}
}

var _ Source = (*Object)(nil)

// URL is the object's URL, as the query wrote it.
func (o *Object) URL() string { return o.url }

// Size is the object's size, from the footer read's Content-Range.
func (o *Object) Size() int64 { return o.entry.size }

// Close releases the prefetched blocks.
func (o *Object) Close() error {
	o.mu.Lock()
	o.blocks = nil
	o.mu.Unlock()
	return nil
}

// Stats returns the requests made so far, by purpose.
func (o *Object) Stats() [NumPurposes]PurposeStats {
	var out [NumPurposes]PurposeStats
	for i := range out {
		s := &o.stats[i]
		out[i] = PurposeStats{Requests: s.requests.Load(), Bytes: s.bytes.Load(), Retries: s.retries.Load(),
			Wait: time.Duration(s.wait.Load()), CacheHits: s.hits.Load()}
	}
	return out
}

// ReadAt reads as data.
func (o *Object) ReadAt(p []byte, off int64) (int, error) { return o.ReadPurpose(p, off, Data) }

// ReadPurpose reads len(p) bytes at off for purpose: from the session
// cache, a prefetched block, or one range request. It fills p completely
// or fails; past the end of the object it reads what there is and
// returns io.EOF, as io.ReaderAt says.
func (o *Object) ReadPurpose(p []byte, off int64, purpose Purpose) (int, error) {
	size := o.entry.size
	if off < 0 || off > size {
		return 0, io.EOF
	}
	n := int64(len(p))
	var eof error
	if off+n > size {
		n, eof = size-off, io.EOF
	}
	if n == 0 {
		return 0, eof
	}
	if b, ok := o.entry.slice(off, n); ok {
		tally{o, purpose}.record(0, 0, 0, 1, 0)
		return copy(p, b), eof
	}
	if b, ok := o.fromBlocks(off, n); ok {
		tally{o, purpose}.record(0, 0, 0, 1, 0)
		return copy(p, b), eof
	}
	r := format.Range{Offset: off, Length: n}
	var b []byte
	var err error
	if (purpose == Data || purpose == Dictionary) && !o.HasHead() && off >= headRange.End() {
		// A page read the reader will check the leading magic before
		// decoding: fetch the head in the same round.
		b, err = o.fetchWithHead(purpose, r)
	} else {
		b, err = o.fetch(o.ctx, purpose, r)
	}
	if err != nil {
		return 0, err
	}
	if purpose.cached() {
		o.entry.add(off, b)
	}
	return copy(p, b), eof
}

// fetchWithHead fetches r and the head, which goes to the session cache:
// in one request when r starts within the coalescing gap of the head,
// else in two in parallel. It fails if either fails.
func (o *Object) fetchWithHead(purpose Purpose, r format.Range) ([]byte, error) {
	if len(Coalesce([]format.Range{headRange, r}, o.st.Options().CoalesceGap)) == 1 {
		b, err := o.fetch(o.ctx, purpose, format.Range{Offset: 0, Length: r.End()})
		if err != nil {
			return nil, err
		}
		o.entry.add(headRange.Offset, append([]byte(nil), b[:headRange.Length]...))
		return b[r.Offset:], nil
	}
	headErr := make(chan error, 1)
	go func() {
		h, err := o.fetch(o.ctx, purpose, headRange)
		if err == nil {
			o.entry.add(headRange.Offset, h)
		}
		headErr <- err
	}()
	b, err := o.fetch(o.ctx, purpose, r)
	return b, errors.Join(err, <-headErr)
}

// fromBlocks serves [off, off+n) from one prefetched block.
func (o *Object) fromBlocks(off, n int64) ([]byte, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, bl := range o.blocks {
		if off >= bl.r.Offset && off+n <= bl.r.End() {
			b := bl.b[off-bl.r.Offset : off-bl.r.Offset+n]
			if bl.need.Add(-n) <= 0 {
				o.blocks = append(o.blocks[:i], o.blocks[i+1:]...)
			}
			return b, true
		}
	}
	return nil, false
}

// inBlocks reports whether a prefetched block holds r.
func (o *Object) inBlocks(r format.Range) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, bl := range o.blocks {
		if r.Offset >= bl.r.Offset && r.End() <= bl.r.End() {
			return true
		}
	}
	return false
}

// DefersHead says that the leading magic is best read with the first
// page reads: Prefetch of pages fetches it with them, in the same round
// and, when the pages start near the head, in the same request.
func (o *Object) DefersHead() bool { return true }

var _ format.HeadDeferrer = (*Object)(nil)

// HasHead reports whether the leading magic has been read, so that no
// request will be made for it.
func (o *Object) HasHead() bool {
	_, ok := o.entry.slice(headRange.Offset, headRange.Length)
	return ok
}

// headRange is the leading magic's range.
var headRange = format.Range{Offset: 0, Length: 4}

// Prefetch fetches ranges for purpose in as few requests as the store's
// coalescing gap allows, all in parallel, so that the reads that follow
// are served without a request. Metadata purposes go to the session
// cache. A prefetch of pages also fetches the head, if not read yet,
// for the reader's check of the leading magic before it decodes them.
func (o *Object) Prefetch(ranges []format.Range, purpose Purpose) error {
	return o.prefetch(ranges, purpose, Coalesce)
}

// PrefetchWide is Prefetch merging every gap up to the store's coalescing
// gap, whatever it costs in bytes: for a round that fetches many files at
// once, where hundreds of page requests would queue behind the store's
// concurrency and cost more client and server work than the bytes between
// them.
func (o *Object) PrefetchWide(ranges []format.Range, purpose Purpose) error {
	return o.prefetch(ranges, purpose, format.Coalesce)
}

func (o *Object) prefetch(ranges []format.Range, purpose Purpose, coalesce func([]format.Range, int64) []format.Range) error {
	if len(ranges) == 0 {
		return nil
	}
	if purpose == Data || purpose == Dictionary {
		if !o.HasHead() && o.entry.size >= headRange.Length {
			ranges = append(ranges[:len(ranges):len(ranges)], headRange)
		}
	}
	exact := format.Coalesce(ranges, 0)
	var todo []format.Range
	for _, r := range exact {
		if _, ok := o.entry.slice(r.Offset, r.Length); !ok && !o.inBlocks(r) {
			todo = append(todo, r)
		}
	}
	gap := o.st.Options().CoalesceGap
	if purpose == Bloom {
		// Probed blocks are 32 bytes scattered over bitsets of hundreds of
		// kilobytes: the bytes between them are never worth a read, and
		// the requests of a round run in parallel.
		gap = 0
	}
	merged := coalesce(todo, gap)
	if len(merged) == 0 {
		return nil
	}
	blocks := make([]*block, len(merged))
	for i, r := range merged {
		bl := &block{r: r}
		for _, e := range todo {
			if e.Offset >= r.Offset && e.End() <= r.End() {
				bl.need.Add(e.Length)
			}
		}
		blocks[i] = bl
	}
	if err := o.fetchBlocks(purpose, blocks); err != nil {
		return err
	}
	if bl := blocks[0]; bl.r.Offset == 0 && bl.r.Length >= headRange.Length && !purpose.cached() {
		// The head goes to the session cache, which serves it before the
		// blocks: the block need not wait for it to be read.
		if _, ok := o.entry.slice(headRange.Offset, headRange.Length); !ok {
			o.entry.add(0, append([]byte(nil), bl.b[:headRange.Length]...))
		}
		if bl.need.Add(-headRange.Length) <= 0 && bl.r.Length == headRange.Length {
			blocks = blocks[1:]
		}
	}
	if purpose.cached() {
		for _, bl := range blocks {
			o.entry.add(bl.r.Offset, bl.b)
		}
		return nil
	}
	o.mu.Lock()
	o.blocks = append(o.blocks, blocks...)
	o.mu.Unlock()
	return nil
}

// fetchBlocks fills blocks: over HTTP with one multi-range request where
// the server supports them, else one request per block, in parallel.
func (o *Object) fetchBlocks(purpose Purpose, blocks []*block) error {
	if hb, ok := o.be.(*httpBackend); ok && len(blocks) > 1 && o.st.multiRange(hb.url) {
		err := o.fetchMulti(purpose, blocks)
		if !errors.Is(err, errNoMultiRange) {
			return err
		}
		o.st.noMultiRange(hb.url)
	}
	errs := make([]error, len(blocks))
	var wg sync.WaitGroup
	for i, bl := range blocks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bl.b, errs[i] = o.fetch(o.ctx, purpose, bl.r)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// fetch reads exactly the range r with retries.
func (o *Object) fetch(ctx context.Context, purpose Purpose, r format.Range) ([]byte, error) {
	rng := fmt.Sprintf("bytes=%d-%d", r.Offset, r.End()-1)
	var out []byte
	err := o.st.do(ctx, o.be, o.url, rng, o.entry.v, tally{o, purpose}, func(resp *response) error {
		start, end, total, ok := parseContentRange(resp.contentRange)
		if !ok {
			if resp.contentRange != "" || resp.length != o.entry.size {
				return fmt.Errorf("%w: expected Content-Range for %s, got %q", ErrShortRead, rng, resp.contentRange)
			}
			// The server ignored the range and sent the whole object.
			all, err := readFull(resp.body, o.entry.size)
			if err != nil {
				return err
			}
			out = all[r.Offset:r.End()]
			return nil
		}
		if total != o.entry.size {
			return fmt.Errorf("%w: size is now %d bytes, was %d", ErrChanged, total, o.entry.size)
		}
		if start != r.Offset || end != r.End()-1 {
			return fmt.Errorf("%w: asked for %s, got bytes %d-%d", ErrShortRead, rng, start, end)
		}
		b, err := readFull(resp.body, r.Length)
		out = b
		return err
	})
	return out, err
}

// readFull reads exactly n bytes of body: fewer is ErrShortRead, never
// zero-filled bytes.
func readFull(body io.Reader, n int64) ([]byte, error) {
	b := make([]byte, n)
	got, err := io.ReadFull(body, b)
	if err != nil {
		return nil, fmt.Errorf("%w: %d of %d bytes: %w", ErrShortRead, got, n, io.ErrUnexpectedEOF)
	}
	return b, nil
}

// A tally records a request's outcome in its object's counters and in the
// statement's ledger.
type tally struct {
	o *Object
	p Purpose
}

func (t tally) record(requests, bytes, retries, hits int64, wait time.Duration) {
	c := &t.o.stats[t.p]
	c.requests.Add(requests)
	c.bytes.Add(bytes)
	c.retries.Add(retries)
	c.hits.Add(hits)
	c.wait.Add(int64(wait))
	ledgerFrom(t.o.ctx).add(t.o.url, t.p, requests, bytes, retries, hits, wait)
}

// countingBody counts the bytes read of a response body.
type countingBody struct {
	io.ReadCloser
	n int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n += int64(n)
	return n, err
}

// do sends one GET with retries; check reads and checks the response.
func (st *Store) do(ctx context.Context, be backend, url, rng string, v validator, c tally, check func(*response) error) error {
	opts := st.Options()
	backoff := opts.RetryWait
	for attempt := 0; ; attempt++ {
		release, err := st.acquire(ctx)
		if err != nil {
			return fmt.Errorf("storage: GET %s (%s): %w", url, rng, err)
		}
		actx, cancel := context.WithTimeout(ctx, opts.Timeout)
		t0 := time.Now()
		resp, err := be.get(actx, rng, v)
		var body *countingBody
		if err == nil {
			body = &countingBody{ReadCloser: resp.body}
			resp.body = body
			if v.etag != "" && resp.etag != "" && resp.etag != v.etag {
				err = fmt.Errorf("%w: ETag is now %s, was %s", ErrChanged, resp.etag, v.etag)
			} else {
				err = check(resp)
			}
			resp.body.Close()
		}
		cancel()
		release()
		spent := time.Since(t0)
		if err == nil {
			c.record(1, body.n, 0, 0, spent)
			return nil
		}
		c.record(0, 0, 0, 0, spent)
		if ctx.Err() != nil {
			return fmt.Errorf("storage: GET %s (%s): %w", url, rng, ctx.Err())
		}
		if !retryable(err) {
			return fmt.Errorf("storage: GET %s (%s): %w", url, rng, err)
		}
		if attempt >= opts.Retries {
			return fmt.Errorf("storage: GET %s (%s): %w after %d attempts: %w", url, rng, ErrRequest, attempt+1, err)
		}
		c.record(0, 0, 1, 0, 0)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return fmt.Errorf("storage: GET %s (%s): %w", url, rng, ctx.Err())
		}
		backoff = time.Duration(float64(backoff) * max(opts.Backoff, 1))
	}
}

// openRemote opens a remote file: from the session cache, or with one
// suffix request for the footer. The 4-byte head, whose magic the reader
// checks, comes with the footer when the suffix holds the whole object,
// else with the first page reads (DefersHead).
func (st *Store) openRemote(ctx context.Context, loc Location) (*Object, error) {
	be, err := st.backendFor(ctx, loc)
	if err != nil {
		return nil, err
	}
	o := &Object{st: st, ctx: ctx, url: loc.Raw, be: be}
	key := loc.url()
	st.mu.Lock()
	e, ok := st.meta[key]
	guess := st.opts.FooterGuess
	st.mu.Unlock()
	if ok {
		o.entry = e
		return o, nil
	}
	e, err = st.readFooter(ctx, o, guess)
	if errors.Is(err, ErrNotFound) {
		// As for a local path: the pattern matched no file.
		return nil, fmt.Errorf("%w \"%s\" (%w)", ErrNoFiles, loc.Raw, err)
	}
	if err != nil {
		return nil, err
	}
	o.entry = e
	st.mu.Lock()
	if _, ok := st.meta[key]; !ok {
		st.order = append(st.order, key)
	}
	st.meta[key] = e
	for len(st.order) > maxCached {
		// The oldest file read goes first; a footer is a request away.
		delete(st.meta, st.order[0])
		st.order = st.order[1:]
	}
	st.mu.Unlock()
	return o, nil
}

// Forget drops a file from the session cache, after it was found changed.
func (st *Store) Forget(path string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	key := Parse(path).url()
	delete(st.meta, key)
	for i, k := range st.order {
		if k == key {
			st.order = append(st.order[:i], st.order[i+1:]...)
			break
		}
	}
}

func (st *Store) readFooter(ctx context.Context, o *Object, guess int64) (*metaEntry, error) {
	c := tally{o, Footer}
	e := &metaEntry{}
	var tailOff int64
	var tail []byte
	read := func(rng string) error {
		return st.do(ctx, o.be, o.url, rng, validator{}, c, func(resp *response) error {
			e.v = validator{etag: resp.etag}
			if resp.etag == "" {
				e.v.lastMod = resp.lastMod
			}
			if resp.contentRange == "" {
				if resp.length < 0 {
					b, err := io.ReadAll(resp.body)
					tailOff, tail, e.size = 0, b, int64(len(b))
					return err
				}
				b, err := readFull(resp.body, resp.length)
				tailOff, tail, e.size = 0, b, resp.length
				return err
			}
			start, end, total, ok := parseContentRange(resp.contentRange)
			if !ok {
				return fmt.Errorf("%w: bad Content-Range %q", ErrShortRead, resp.contentRange)
			}
			b, err := readFull(resp.body, end-start+1)
			tailOff, tail, e.size = start, b, total
			return err
		})
	}
	err := read(fmt.Sprintf("bytes=-%d", guess))
	var se *statusError
	if errors.As(err, &se) && se.status == 416 {
		// Some servers refuse a suffix longer than the object instead of
		// sending all of it.
		err = read("")
	}
	if err != nil {
		return nil, err
	}
	if n := int64(len(tail)); n >= 8 && tailOff > 0 {
		footer := int64(binary.LittleEndian.Uint32(tail[n-8:])) + 8
		st.mu.Lock()
		if g := footer + footer/2; g > st.opts.FooterGuess {
			st.opts.FooterGuess = g // the next file likely has a footer as long
		}
		st.mu.Unlock()
		if need := e.size - footer; need < tailOff && need >= 0 {
			// The footer is longer than the guess: one more request for
			// the rest.
			o.entry = e
			rest, err := o.fetch(ctx, Footer, format.Range{Offset: need, Length: tailOff - need})
			if err != nil {
				return nil, err
			}
			tail, tailOff = append(rest, tail...), need
		}
	}
	e.add(tailOff, tail)
	return e, nil
}

// retry runs fn with the store's retries and backoff, for requests other
// than range reads (listings).
func (st *Store) retry(ctx context.Context, fn func(context.Context) error) error {
	opts := st.Options()
	wait := opts.RetryWait
	for attempt := 0; ; attempt++ {
		release, err := st.acquire(ctx)
		if err != nil {
			return err
		}
		actx, cancel := context.WithTimeout(ctx, opts.Timeout)
		err = fn(actx)
		cancel()
		release()
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case !retryable(err):
			return err
		case attempt >= opts.Retries:
			return fmt.Errorf("%w after %d attempts: %w", ErrRequest, attempt+1, err)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
		wait = time.Duration(float64(wait) * max(opts.Backoff, 1))
	}
}
