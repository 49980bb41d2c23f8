package storage

import (
	"context"
	"sync"
	"time"
)

// A Ledger records the requests one statement makes, by file and purpose,
// whichever Object made them: the planner's open of a file and the
// scan's count together, as EXPLAIN ANALYZE reports them.
type Ledger struct {
	mu    sync.Mutex
	files map[string]*[NumPurposes]PurposeStats
}

type ledgerKey struct{}

// WithLedger returns ctx carrying l; opens under it record into l.
func WithLedger(ctx context.Context, l *Ledger) context.Context {
	return context.WithValue(ctx, ledgerKey{}, l)
}

func ledgerFrom(ctx context.Context) *Ledger {
	if ctx == nil {
		return nil
	}
	l, _ := ctx.Value(ledgerKey{}).(*Ledger)
	return l
}

// File returns the requests recorded for a URL.
func (l *Ledger) File(url string) [NumPurposes]PurposeStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := l.files[url]; s != nil {
		return *s
	}
	return [NumPurposes]PurposeStats{}
}

func (l *Ledger) add(url string, p Purpose, requests, bytes, retries, hits int64, wait time.Duration) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.files == nil {
		l.files = map[string]*[NumPurposes]PurposeStats{}
	}
	s := l.files[url]
	if s == nil {
		s = &[NumPurposes]PurposeStats{}
		l.files[url] = s
	}
	s[p].Requests += requests
	s[p].Bytes += bytes
	s[p].Retries += retries
	s[p].CacheHits += hits
	s[p].Wait += wait
}

// Ledger returns the ledger of the statement that opened the object, or
// nil.
func (o *Object) Ledger() *Ledger { return ledgerFrom(o.ctx) }
