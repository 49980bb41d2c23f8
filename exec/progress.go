package exec

import "sync/atomic"

// A Progress counts what the running statement has read of what its plans
// will read, for a progress bar. Set Settings.Progress to one; the scans
// add to it as they plan and read. Its methods may be called on nil.
type Progress struct {
	files, filesPlanned atomic.Int64
	planned, read       atomic.Int64
}

// Reset starts counting for a new statement.
func (p *Progress) Reset() {
	if p == nil {
		return
	}
	p.files.Store(0)
	p.filesPlanned.Store(0)
	p.planned.Store(0)
	p.read.Store(0)
}

// Bytes returns the data bytes read so far and the bytes the plans will
// read: those of the files planned, scaled up by the files not planned
// yet; total is 0 before any file is planned.
func (p *Progress) Bytes() (read, total int64) {
	if p == nil {
		return 0, 0
	}
	read, total = p.read.Load(), p.planned.Load()
	files, planned := p.files.Load(), p.filesPlanned.Load()
	if planned > 0 && files > planned {
		total = total * files / planned
	}
	return read, max(total, read)
}

func (p *Progress) addFiles(n int) {
	if p != nil {
		p.files.Add(int64(n))
	}
}

func (p *Progress) addPlanned(bytes int64) {
	if p != nil {
		p.filesPlanned.Add(1)
		p.planned.Add(bytes)
	}
}

// addPlannedBytes counts bytes of a plan made while its file is scanned,
// and addPlannedFile the file once its plan is complete.
func (p *Progress) addPlannedBytes(bytes int64) {
	if p != nil {
		p.planned.Add(bytes)
	}
}

func (p *Progress) addPlannedFile() {
	if p != nil {
		p.filesPlanned.Add(1)
	}
}

func (p *Progress) addRead(bytes int64) {
	if p != nil {
		p.read.Add(bytes)
	}
}
