package exec

import (
	"fmt"
	"sync/atomic"
)

// A memTracker counts the bytes the operators of one statement hold (sort
// runs, hash tables, DISTINCT keys, buffered results) against
// memory_limit. Operators reserve before they grow and release what they
// drop; a sort or an aggregation that cannot reserve spills to disk, the
// others fail with an Out of Memory error. Batches in flight between the
// scan and its consumer are not counted: there are at most a few per
// worker, whatever the data's size. A nil tracker has no limit.
type memTracker struct {
	limit int64
	used  atomic.Int64
	peak  atomic.Int64
}

func newMemTracker(limit int64) *memTracker {
	if limit <= 0 {
		limit = defaultMemoryLimit()
	}
	return &memTracker{limit: limit}
}

// reserve counts n more bytes, or fails with an Out of Memory error naming
// the limit and leaves the count as it was.
func (m *memTracker) reserve(n int64) error {
	if m.tryReserve(n) {
		return nil
	}
	return m.errAllocate(n)
}

// tryReserve counts n more bytes and reports true, or reports false and
// counts nothing when they would pass the limit.
func (m *memTracker) tryReserve(n int64) bool {
	if m == nil || n <= 0 {
		return true
	}
	u := m.used.Add(n)
	if u > m.limit {
		m.used.Add(-n)
		return false
	}
	for p := m.peak.Load(); u > p && !m.peak.CompareAndSwap(p, u); p = m.peak.Load() {
	}
	return true
}

// force counts n bytes already allocated, past the limit if need be.
func (m *memTracker) force(n int64) {
	if m != nil {
		m.used.Add(n)
	}
}

// release uncounts n bytes reserved before.
func (m *memTracker) release(n int64) {
	if m != nil && n > 0 {
		m.used.Add(-n)
	}
}

// errAllocate is DuckDB's error for an allocation of n bytes the limit
// does not allow.
func (m *memTracker) errAllocate(n int64) error {
	return fmt.Errorf("%w: failed to allocate data of size %s (%s/%s used)",
		ErrOutOfMemory, humanBytes(n), humanBytes(m.used.Load()), humanBytes(m.limit))
}
