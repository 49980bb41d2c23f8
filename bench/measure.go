package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"sync"
	"time"

	"github.com/pqsql/pqsql/exec"
)

// A procIO is the read counters of /proc/self/io: rchar counts every byte
// returned by read system calls (page cache hits included), readBytes the
// bytes the process caused to be fetched from storage (zero when the page
// cache holds the file).
type procIO struct {
	rchar, readBytes int64
}

// readProcIO reads the process's I/O counters; all threads, DuckDB's
// included, count towards them.
func readProcIO() (procIO, error) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return procIO{}, fmt.Errorf("%w: %w", errProc, err)
	}
	return parseProcIO(b)
}

func parseProcIO(b []byte) (procIO, error) {
	var io procIO
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, value, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok {
			continue
		}
		var dst *int64
		switch string(name) {
		case "rchar":
			dst = &io.rchar
		case "read_bytes":
			dst = &io.readBytes
		default:
			continue
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
		if err != nil {
			return procIO{}, fmt.Errorf("%w: /proc/self/io: %s: %w", errProc, name, err)
		}
		*dst = n
		found++
	}
	if found != 2 {
		return procIO{}, fmt.Errorf("%w: /proc/self/io lacks rchar or read_bytes", errProc)
	}
	return io, nil
}

// resetPeakRSS makes the kernel's peak resident set size (VmHWM) start again
// from the current RSS (clear_refs value 5, Linux 4.0 and later).
func resetPeakRSS() error {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("%w: reset peak RSS: %w", errProc, err)
	}
	return nil
}

// A memStatus is the resident set size now and its peak since the last
// resetPeakRSS, in bytes.
type memStatus struct {
	rss, hwm int64
}

func readMemStatus() (memStatus, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return memStatus{}, fmt.Errorf("%w: %w", errProc, err)
	}
	return parseMemStatus(b)
}

func parseMemStatus(b []byte) (memStatus, error) {
	var m memStatus
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, value, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok {
			continue
		}
		var dst *int64
		switch string(name) {
		case "VmRSS":
			dst = &m.rss
		case "VmHWM":
			dst = &m.hwm
		default:
			continue
		}
		kb, ok := bytes.CutSuffix(bytes.TrimSpace(value), []byte(" kB"))
		if !ok {
			return memStatus{}, fmt.Errorf("%w: /proc/self/status: %s is not in kB", errProc, name)
		}
		n, err := strconv.ParseInt(string(kb), 10, 64)
		if err != nil {
			return memStatus{}, fmt.Errorf("%w: /proc/self/status: %s: %w", errProc, name, err)
		}
		*dst = n << 10
		found++
	}
	if found != 2 {
		return memStatus{}, fmt.Errorf("%w: /proc/self/status lacks VmRSS or VmHWM", errProc)
	}
	return m, nil
}

// A heapSampler records the largest Go heap in use (live and not yet swept
// objects) seen while it runs, sampling every interval, less the heap in
// use when it started: the answers the runner keeps of earlier runs (a
// million rows of text, for the largest results) are not the query's.
// Only pqsql's memory is on the Go heap; DuckDB allocates outside it. The
// large tables of a GROUP BY that pqsql maps outside the Go heap
// (exec.TableMemory) are added to it.
type heapSampler struct {
	done chan struct{}
	peak chan uint64
}

const heapSampleInterval = time.Millisecond

func startHeapSampler() *heapSampler {
	h := &heapSampler{done: make(chan struct{}), peak: make(chan uint64, 1)}
	var started sync.WaitGroup
	started.Add(1)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak, base uint64
		t := time.NewTicker(heapSampleInterval)
		defer t.Stop()
		for first := true; ; first = false {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64()+uint64(exec.TableMemory()))
			if first {
				base = peak
				started.Done()
			}
			select {
			case <-h.done:
				metrics.Read(sample)
				h.peak <- max(peak, sample[0].Value.Uint64()+uint64(exec.TableMemory())) - base
				return
			case <-t.C:
			}
		}
	}()
	started.Wait()
	return h
}

// stop ends the sampling and returns the peak in bytes above the heap at
// the start.
func (h *heapSampler) stop() int64 {
	close(h.done)
	return int64(<-h.peak)
}
