package planner

import (
	"sync"

	"github.com/pqsql/pqsql/format"
)

// A Footer is a local file's footer as binding read and decoded it, kept
// for the scan of the same statement, which then neither reads nor decodes
// it again.
type Footer struct {
	File *format.File
	// Read is what opening the file read (its magic, tail and footer), for
	// the scan to account as its own footer reads.
	Read format.IOStats
}

// Binding keeps the first file's footer, whatever its size (the scan holds
// it as long anyway), and more while they stay within these bounds: the
// footers of a glob are held from binding until the scan reaches each file.
const (
	maxKeptFooters     = 64
	maxKeptFooterBytes = 1 << 20
)

// keptFooters are the footers binding opened for a scan, by path, until
// the scan takes them. Files binding opens in parallel keep theirs from
// several goroutines.
type keptFooters struct {
	mu     sync.Mutex
	byPath map[string]*Footer
	bytes  int64
}

// keep holds f, opened by openFile, for the scan, within the bounds unless
// first. A remote file's footer is not kept: its store caches the bytes,
// and its reads are accounted by purpose as the scan makes them.
func (k *keptFooters) keep(path string, f *format.File, first bool) {
	cs, local := f.Source.(*format.CountingSource)
	if !local {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !first && (len(k.byPath) >= maxKeptFooters || k.bytes+f.FooterSize > maxKeptFooterBytes) {
		return
	}
	if k.byPath == nil {
		k.byPath = map[string]*Footer{}
	}
	k.byPath[path] = &Footer{File: f, Read: cs.Stats()}
	k.bytes += f.FooterSize
}

// peek returns the footer kept of path, keeping it.
func (k *keptFooters) peek(path string) *Footer {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.byPath[path]
}

// TakeFooter returns the footer binding kept of path, once: a scan run
// again (a correlated subquery) opens the file itself. Nil when none was
// kept.
func (s *Scan) TakeFooter(path string) *Footer {
	k := s.footers
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	fo := k.byPath[path]
	if fo != nil {
		delete(k.byPath, path)
		k.bytes -= fo.File.FooterSize
	}
	return fo
}
