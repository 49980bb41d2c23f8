//go:build linux

package format

import (
	"os"
	"syscall"
	"time"
)

// statPath is os.Stat for OpenLocal without the FileInfo it allocates: a
// glob opens every file it lists, and the scan opens it again.
func statPath(path string) (localStat, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(path, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return localStat{}, &os.PathError{Op: "stat", Path: path, Err: err}
		}
		return localStatOf(&st), nil
	}
}

// statFile is f.Stat, as statPath is os.Stat. f was opened to be read
// with pread alone, so Fd taking it out of non-blocking mode changes
// nothing for it.
func statFile(f *os.File) (localStat, error) {
	var st syscall.Stat_t
	fd := int(f.Fd())
	for {
		err := syscall.Fstat(fd, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return localStat{}, &os.PathError{Op: "stat", Path: f.Name(), Err: err}
		}
		return localStatOf(&st), nil
	}
}

func localStatOf(st *syscall.Stat_t) localStat {
	var m os.FileMode
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		m = os.ModeDir
	case syscall.S_IFIFO:
		m = os.ModeNamedPipe
	case syscall.S_IFSOCK:
		m = os.ModeSocket
	case syscall.S_IFCHR:
		m = os.ModeDevice | os.ModeCharDevice
	case syscall.S_IFBLK:
		m = os.ModeDevice
	case syscall.S_IFLNK:
		m = os.ModeSymlink
	case syscall.S_IFREG:
	default:
		m = os.ModeIrregular
	}
	return localStat{mode: m, size: st.Size, mtime: time.Unix(st.Mtim.Unix())}
}
