package format

import (
	"math/bits"
	"sync"
)

// Fetched bytes come from pools of buffers by size class: a scan reads
// chunk after chunk of about the same size, and a fresh buffer for each
// costs its zeroing, its page faults and, once collected, its return to
// the system. Small chunks are pooled too: it costs little, and a scan of
// small files reuses as much.
//
// The classes are eight a doubling, from 4 KiB up to 64 MiB, so that a
// buffer holds at most an eighth more than asked for: a column chunk of
// 650 KiB costs 704 KiB rather than a megabyte, and the first query of a
// process, which makes each buffer it holds, holds that much less. A
// request is served by any idle buffer of up to four times its class, as
// powers of two served one of up to four times its size, so that buffers
// are reused as widely.
//
// The idle buffers outlive garbage collections (a sync.Pool would drop
// them at every other one, which a session's next query then pays for),
// up to maxIdleBytes in all.
const (
	minPooledBits = 12 // 4 KiB
	maxPooledBits = 26 // 64 MiB
	maxIdleBytes  = 32 << 20
	// classSteps is how many classes divide each doubling; a power of two.
	classSteps = 8
	classShift = 3 // log2(classSteps)
	// numClasses: 4 KiB is class 0, 64 MiB the last.
	numClasses = (maxPooledBits-minPooledBits)*classSteps + 1
	// reuseSpan: a request takes an idle buffer of its class or of the
	// classes up to four times its size above it.
	reuseSpan = 2 * classSteps
)

var fetchPools struct {
	mu   sync.Mutex
	idle int64
	free [numClasses][][]byte
}

// classSize is the size of the buffers class c makes.
func classSize(c int) int64 {
	k := minPooledBits + c/classSteps
	return int64(1)<<k + int64(c%classSteps)<<(k-classShift)
}

// fetchBuffer returns a buffer of n bytes, from the pools when one serves
// it. Its bytes are not zeroed: the caller overwrites them all.
func fetchBuffer(n int64) []byte {
	if b := pooledBuffer(n); b != nil {
		return b
	}
	if c := sizeClass(n); c >= 0 {
		return make([]byte, n, classSize(c))
	}
	return make([]byte, n)
}

// pooledBuffer returns a pooled buffer of n bytes, the smallest idle one of
// n's class or the reuseSpan classes above it, or nil when they have none.
func pooledBuffer(n int64) []byte {
	c := sizeClass(n)
	if c < 0 {
		return nil
	}
	fp := &fetchPools
	fp.mu.Lock()
	defer fp.mu.Unlock()
	for i := c; i < min(c+reuseSpan+1, numClasses); i++ {
		free := fp.free[i]
		if len(free) == 0 {
			continue
		}
		b := free[len(free)-1]
		free[len(free)-1] = nil
		fp.free[i] = free[:len(free)-1]
		fp.idle -= int64(cap(b))
		return b[:n]
	}
	return nil
}

// putFetchBuffer hands b back to the pool of the largest class it can
// serve: class c holds buffers of at least classSize(c) bytes.
func putFetchBuffer(b []byte) {
	c := floorClass(int64(cap(b)))
	if c < 0 {
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

// sizeClass is the smallest class whose buffers serve n bytes, -1 when
// buffers of that size are not pooled.
func sizeClass(n int64) int {
	if n <= 0 {
		return -1
	}
	k := bits.Len64(uint64(n-1)) - 1 // 1<<k < n <= 1<<(k+1)
	if k+1 < minPooledBits || k+1 > maxPooledBits {
		return -1
	}
	if k < minPooledBits {
		return 0
	}
	step := int64(1) << (k - classShift)
	j := (n - int64(1)<<k + step - 1) >> (k - classShift)
	return (k-minPooledBits)*classSteps + int(j)
}

// floorClass is the largest class whose size is at most n bytes, -1 when
// there is none.
func floorClass(n int64) int {
	if n < 1<<minPooledBits {
		return -1
	}
	k := bits.Len64(uint64(n)) - 1 // 1<<k <= n < 1<<(k+1)
	switch {
	case k > maxPooledBits:
		return -1
	case k == maxPooledBits:
		return numClasses - 1
	}
	j := (n - int64(1)<<k) >> (k - classShift)
	return (k-minPooledBits)*classSteps + int(j)
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
