package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// madvPopulateRead is MADV_POPULATE_READ (Linux 5.14): fault the pages of
// a range in as reads would, without reading them one by one.
const madvPopulateRead = 22

// A fileMapping is one readable range of a file mapped into the process.
type fileMapping struct {
	start, end uintptr
	path       string
}

// mappedFiles lists the readable file mappings of /proc/self/maps: the
// program's own binary, which holds both engines' code, and its shared
// libraries.
func mappedFiles() ([]fileMapping, error) {
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errProc, err)
	}
	var out []fileMapping
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		// address perms offset dev inode [path]
		if len(f) < 6 || f[4] == "0" || strings.HasPrefix(f[5], "[") || f[1][0] != 'r' {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			return nil, fmt.Errorf("%w: /proc/self/maps: %q", errProc, sc.Text())
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			return nil, fmt.Errorf("%w: /proc/self/maps: %q", errProc, sc.Text())
		}
		out = append(out, fileMapping{start: uintptr(start), end: uintptr(end), path: f[5]})
	}
	return out, sc.Err()
}

// residentCode makes every page of the files the process maps resident, so
// that a query's peak RSS Δ counts the memory the query makes, not the code
// pages it happens to touch first: how many of those are resident at the
// baseline varies from one process of the same binary to the next by
// megabytes (the kernel maps a faulting page's neighbours only when the
// page cache holds them), more than the queries' own memory. Both engines
// live in this one binary, so each is measured the same way.
func residentCode() error {
	ms, err := mappedFiles()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, madvPopulateRead); errno != 0 {
			return fmt.Errorf("%w: madvise(MADV_POPULATE_READ) on %s: %w", errProc, m.path, errno)
		}
	}
	return nil
}
