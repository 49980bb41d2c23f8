//go:build !unix

package format

import "os"

// openNonBlocking opens path for reading; only Unix has FIFOs that block an
// open.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
