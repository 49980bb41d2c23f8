package exec

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms that
// have them.
const hugePage = 2 << 20

// mapTable maps size bytes of zeroed memory, rounded up to whole huge
// pages and aligned to one, and asks for huge pages; nil when the kernel
// refuses. Raw system calls: syscall.Mmap keeps a record of each mapping,
// and cannot unmap a part of one.
func mapTable(size int) []byte {
	size = (size + hugePage - 1) &^ (hugePage - 1)
	whole := uintptr(size + hugePage)
	p, _, errno := syscall.Syscall6(syscall.SYS_MMAP, 0, whole, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS, ^uintptr(0), 0)
	if errno != 0 {
		return nil
	}
	// Give back what lies outside the aligned middle.
	start := (p + hugePage - 1) &^ (hugePage - 1)
	if head := start - p; head > 0 {
		syscall.Syscall(syscall.SYS_MUNMAP, p, head, 0)
	}
	if tail := p + whole - (start + uintptr(size)); tail > 0 {
		syscall.Syscall(syscall.SYS_MUNMAP, start+uintptr(size), tail, 0)
	}
	// Only a hint: without transparent huge pages the memory is the same.
	syscall.Syscall(syscall.SYS_MADVISE, start, uintptr(size), 14 /* MADV_HUGEPAGE */)
	// The address is not Go memory, so the collector never moves or
	// frees it; read through a pointer, as vet cannot know that.
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&start))), size)
}

func unmapTable(b []byte) {
	syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), 0)
}
