package format

import (
	"math/bits"
	"sync"
)

// Fetched bytes come from pools of buffers by size class, powers of two
// from minPooled up to maxPooled: a scan reads chunk after chunk of about
// the same size, and a fresh buffer for each costs its zeroing, its page
// faults and, once collected, its return to the system. Small chunks are
// pooled too: it costs little, and a scan of small files reuses as much.
//
// The idle buffers outlive garbage collections (a sync.Pool would drop
// them at every other one, which a session's next query then pays for),
// up to maxIdleBytes in all.
const (
	minPooledBits = 12 // 4 KiB
	maxPooledBits = 26 // 64 MiB
	maxIdleBytes  = 32 << 20
)

var fetchPools struct {
	mu   sync.Mutex
	idle int64
	free [maxPooledBits + 1][][]byte
}

// fetchBuffer returns a buffer of n bytes, from the pool of its size class
// when it has one. Its bytes are not zeroed: the caller overwrites them all.
func fetchBuffer(n int64) []byte {
	if b := pooledBuffer(n); b != nil {
		return b
	}
	if c := sizeClass(n); c >= 0 {
		return make([]byte, n, 1<<c)
	}
	return make([]byte, n)
}

// pooledBuffer returns a pooled buffer of n bytes, or nil when the pool of
// its size class is empty.
func pooledBuffer(n int64) []byte {
	c := sizeClass(n)
	if c < 0 {
		return nil
	}
	fp := &fetchPools
	fp.mu.Lock()
	defer fp.mu.Unlock()
	free := fp.free[c]
	if len(free) == 0 {
		return nil
	}
	b := free[len(free)-1]
	free[len(free)-1] = nil
	fp.free[c] = free[:len(free)-1]
	fp.idle -= int64(cap(b))
	return b[:n]
}

// putFetchBuffer hands b back to the pool of the largest class it can
// serve: class c holds buffers of at least 1<<c bytes.
func putFetchBuffer(b []byte) {
	c := bits.Len64(uint64(cap(b))) - 1
	if c < minPooledBits || c > maxPooledBits {
		return
	}
	fp := &fetchPools
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if fp.idle+int64(cap(b)) > maxIdleBytes {
		return
	}
	fp.free[c] = append(fp.free[c], b[:cap(b)])
	fp.idle += int64(cap(b))
}

// sizeClass is the class whose buffers serve n bytes, -1 when buffers of
// that size are not pooled.
func sizeClass(n int64) int {
	if n <= 0 {
		return -1
	}
	c := bits.Len64(uint64(n - 1))
	if c < minPooledBits || c > maxPooledBits {
		return -1
	}
	return c
}

// Release hands f's buffers back for later Fetches to reuse, unless values
// decoded from them point into them: byte arrays of a page stored
// uncompressed are slices of the fetched bytes, and a PageReader that
// decodes such values pins f. The caller promises that nothing else it
// took from f (Slice) is still in use. f serves nothing after Release.
func (f *Fetched) Release() {
	if f == nil {
		return
	}
	keep := f.pinned.Load()
	for i, b := range f.data {
		if !keep {
			putFetchBuffer(b)
		}
		f.data[i] = nil
	}
	f.ranges = nil
}

// pin notes that decoded values point into f's bytes.
func (f *Fetched) pin() {
	if f != nil && !f.pinned.Load() {
		f.pinned.Store(true)
	}
}
