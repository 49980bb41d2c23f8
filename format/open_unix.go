//go:build unix

package format

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading with O_NONBLOCK, so that a FIFO
// swapped in after the stat cannot block the open; the flag has no effect
// on reads of a regular file.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
