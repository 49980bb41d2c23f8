package exec

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/pqsql/pqsql/planner"
)

// A Batch is up to BatchSize rows of a result, one Vector per column.
type Batch struct {
	Vectors []*Vector
	Len     int
	// from is the scan's batch whose vectors these are, when no one else
	// holds them (Release).
	from *batch
}

// BatchSize is the number of rows the executor moves at a time.
const BatchSize = 2048

// A Result is the answer to one statement.
type Result struct {
	// Columns and Types name and type the result's columns.
	Columns []string
	Types   []Type
	// Batches hold the rows in order; for a streamed result (see
	// Session.Stream), Next hands them out instead.
	Batches []*Batch
	// Message is set instead of rows for statements that only act, such as
	// SET or CREATE VIEW, when there is something to say.
	Message string
	// Explain is set for EXPLAIN: the plan as text (or JSON), printed as is.
	Explain string

	stream *resultStream
	next   int
}

// NumRows counts the rows of all batches.
func (r *Result) NumRows() int {
	n := 0
	for _, b := range r.Batches {
		n += b.Len
	}
	return n
}

// Cell returns row's value in column col as DuckDB's text; null is true for NULL.
func (r *Result) Cell(row, col int) (text string, null bool) {
	for _, b := range r.Batches {
		if row < b.Len {
			v := b.Vectors[col]
			if v.IsNull(row) {
				return "", true
			}
			return string(AppendText(nil, v, row)), false
		}
		row -= b.Len
	}
	return "", true
}

// Next returns the result's next batch, or nil after the last. A streamed
// result's batches are made as the query runs, a few ahead of the caller;
// an error part way through the rows (a damaged page, Ctrl-C, Out of
// Memory) comes from Next, after the batches before it. Next of a
// result that is not streamed walks its Batches.
func (r *Result) Next() (*Batch, error) {
	if r.stream == nil {
		if r.next >= len(r.Batches) {
			return nil, nil
		}
		r.next++
		return r.Batches[r.next-1], nil
	}
	return r.stream.next()
}

// Release says the caller is done with b, a batch Next returned, and with
// its vectors: their storage may serve the batches that follow, so a
// stream of a million rows reuses a few batches' worth. A caller that keeps
// a batch, or any of its vectors or values other than strings, must not
// release it.
func (r *Result) Release(b *Batch) {
	if r.stream == nil || b == nil || b.from == nil {
		return
	}
	b.from.release()
	b.from, b.Vectors, b.Len = nil, nil, 0
}

// Close stops a streamed result's query, if it still runs, and waits until
// it has ended and its temporary files are gone. Close of a result that is
// not streamed does nothing.
func (r *Result) Close() {
	if r.stream != nil {
		r.stream.close()
	}
}

// Wait blocks until a streamed result's first batch is ready, or its
// query has ended, and returns the query's error if it ended with one
// before any row; Next still returns that first batch. Blocking
// operators (a sort, an aggregation) do their work before Wait returns.
func (r *Result) Wait() error {
	if r.stream == nil {
		return nil
	}
	return r.stream.wait()
}

// Streamed reports whether the result's batches come from Next as the
// query runs rather than from Batches.
func (r *Result) Streamed() bool { return r.stream != nil }

// streamBuffer is how many batches a streamed query may get ahead of its
// reader.
const streamBuffer = 4

// A resultStream runs a query in a goroutine of its own and passes its
// batches to the result's reader.
type resultStream struct {
	ch     chan *Batch
	cancel context.CancelFunc
	// err is the query's error, set before ch closes.
	err  error
	once sync.Once
	// sent counts the batches handed to ch; ended is set once the query
	// has returned.
	sent  atomic.Int64
	ended atomic.Bool
	// waited holds the batch Wait took (nil: the end), for Next.
	waited    *Batch
	hasWaited bool
}

func (rs *resultStream) wait() error {
	if rs.hasWaited {
		return nil
	}
	b, err := rs.next()
	if err != nil {
		return err
	}
	rs.waited, rs.hasWaited = b, true
	return nil
}

// startStream runs p with x, handing its visible columns' batches to the
// stream; x's temporary files are removed when the query ends. run wraps
// the query so that a panic in it becomes the stream's error.
func startStream(ctx context.Context, x *executor, p *planner.Plan, run func(func() error) error) *resultStream {
	inner, cancel := context.WithCancel(ctx)
	ctx = streamCtx{Context: inner, caller: ctx}
	rs := &resultStream{ch: make(chan *Batch, streamBuffer), cancel: cancel}
	x.countCTERefs(p)
	x.root = p
	go func() {
		err := run(func() error {
			return x.stream(ctx, p, func(b *batch) (bool, error) {
				if b.n == 0 {
					return false, nil
				}
				x.stats.RowsReturned += int64(b.n)
				out := &Batch{Vectors: b.cols[:min(len(p.Columns), len(b.cols))], Len: b.n}
				if b.pooled {
					out.from = b
				}
				select {
				case rs.ch <- out:
					rs.sent.Add(1)
					return false, nil
				case <-ctx.Done():
					return true, ctx.Err()
				}
			})
		})
		if cerr := x.close(); err == nil {
			err = cerr
		}
		rs.err = err
		rs.ended.Store(true)
		close(rs.ch)
	}()
	return rs
}

func (rs *resultStream) next() (*Batch, error) {
	if rs.hasWaited {
		rs.hasWaited = false
		if rs.waited != nil {
			b := rs.waited
			rs.waited = nil
			return b, nil
		}
	}
	b, ok := <-rs.ch
	if !ok {
		return nil, rs.err
	}
	return b, nil
}

func (rs *resultStream) close() {
	rs.once.Do(func() {
		rs.cancel()
		for range rs.ch {
		}
	})
}

// A streamCtx is the caller's context that Close can also cancel. Err asks
// the caller's context first, so the query sees the caller's own error
// (its deadline, its cancellation) as it would without the stream.
type streamCtx struct {
	context.Context
	caller context.Context
}

func (c streamCtx) Err() error {
	if err := c.caller.Err(); err != nil {
		return err
	}
	return c.Context.Err()
}
