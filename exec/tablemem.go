package exec

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A tableMem holds the large arrays of a GROUP BY's groups (colPart: its
// slot tables and blocks of rows) outside the Go heap, in memory mapped for
// them and backed by huge pages where the kernel has them. A table of tens
// of megabytes is touched for the first time as it fills, and each first
// touch of a 4 KiB page is a page fault: on a virtual machine about as
// costly as the probes themselves. A huge page takes one fault per 2 MiB.
// The arrays hold no pointers, so the collector need not see them; they
// are unmapped when the groups are done (release), or, for groups an error
// abandoned, when the collector finds their colPart unreachable.
type tableMem struct {
	mu sync.Mutex
	// own are the mappings of one array each, chunks those row blocks
	// are cut from; chunk is what is left of the last.
	own, chunks [][]byte
	chunk       []byte
}

// tableMemBytes is the memory mapped for tables now, which a process's Go
// heap statistics do not count: the benchmark adds it to them.
var tableMemBytes atomic.Int64

// TableMemory is the memory GROUP BY tables hold outside the Go heap now.
func TableMemory() int64 { return tableMemBytes.Load() }

const (
	// ownMapping: an array at least this large is mapped on its own, and
	// unmapped as soon as it is replaced (a slot table that doubled).
	ownMapping = 1 << 20
	// chunkBytes is the mapping row blocks are cut from.
	chunkBytes = 4 << 20
)

// newTableMem returns the table memory of c, unmapped when c is dropped
// unreleased.
func newTableMem(c *colPart) *tableMem {
	m := &tableMem{}
	runtime.AddCleanup(c, func(m *tableMem) { m.release() }, m)
	return m
}

// words returns n zero words, outside the Go heap where the platform
// allows, else from it.
func (m *tableMem) words(n int) []int64 {
	size := n * 8
	m.mu.Lock()
	defer m.mu.Unlock()
	if size >= ownMapping {
		if b := m.mapped(size, &m.own); b != nil {
			return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(b))), n)
		}
		return make([]int64, n)
	}
	if len(m.chunk) < size {
		b := m.mapped(chunkBytes, &m.chunks)
		if b == nil {
			return make([]int64, n)
		}
		m.chunk = b
	}
	b := m.chunk[:size:size]
	m.chunk = m.chunk[size:]
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// mapped maps size bytes and notes the mapping in list, or returns nil;
// m.mu is held.
func (m *tableMem) mapped(size int, list *[][]byte) []byte {
	b := mapTable(size)
	if b == nil {
		return nil
	}
	*list = append(*list, b)
	tableMemBytes.Add(int64(len(b)))
	return b
}

// drop unmaps the array w, when it has a mapping of its own; nothing may
// use it afterwards.
func (m *tableMem) drop(w []int64) {
	if cap(w) == 0 {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(w))
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, b := range m.own {
		if unsafe.Pointer(unsafe.SliceData(b)) == p {
			unmapTable(b)
			tableMemBytes.Add(-int64(len(b)))
			m.own = append(m.own[:i], m.own[i+1:]...)
			return
		}
	}
}

// release unmaps everything; nothing may use the arrays afterwards.
func (m *tableMem) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, list := range [][][]byte{m.own, m.chunks} {
		for _, b := range list {
			unmapTable(b)
			tableMemBytes.Add(-int64(len(b)))
		}
	}
	m.own, m.chunks, m.chunk = nil, nil, nil
}
