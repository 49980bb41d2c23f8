package format

import (
	"fmt"
	"sync"
)

// A HeadDeferrer is a Source that would rather serve the leading magic
// with the first page reads than as a read of its own at open: for a
// remote object, four bytes at offset 0 are a request, while the first
// data request can carry them. OpenSource then checks the magic before
// the first page is decoded instead of at open.
type HeadDeferrer interface {
	DefersHead() bool
}

// A headCheck checks a file's leading magic once.
type headCheck struct {
	once sync.Once
	err  error
}

// check reads and checks the leading magic, the first time it is called;
// it returns the same outcome every time.
func (h *headCheck) check(src Source) error {
	h.once.Do(func() {
		var b [4]byte
		if err := readFull(src, b[:], 0); err != nil {
			h.err = fmt.Errorf("reading header: %w", err)
			return
		}
		if string(b[:]) != magic && string(b[:]) != encryptedMagic {
			h.err = fmt.Errorf("%w: file does not start with PAR1 magic", ErrNotParquet)
		}
	})
	return h.err
}

// checkHead checks the leading magic before any page of the file is
// trusted. A File built without OpenSource has nothing to check.
func (f *File) checkHead() error {
	if f.head == nil {
		return nil
	}
	if err := f.head.check(f.Source); err != nil {
		return fmt.Errorf("format: file %s: %w", f.Name, err)
	}
	return nil
}
