//go:build !linux

package format

import "os"

// statPath is what OpenLocal needs of os.Stat.
func statPath(path string) (localStat, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return localStat{}, err
	}
	return localStat{mode: fi.Mode().Type(), size: fi.Size(), mtime: fi.ModTime()}, nil
}

// statFile is what OpenLocal needs of f.Stat.
func statFile(f *os.File) (localStat, error) {
	fi, err := f.Stat()
	if err != nil {
		return localStat{}, err
	}
	return localStat{mode: fi.Mode().Type(), size: fi.Size(), mtime: fi.ModTime()}, nil
}
