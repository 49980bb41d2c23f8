package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/pqsql/pqsql/exec"
	"github.com/pqsql/pqsql/pushdown"
)

// progressBarWidth is the bar's width in cells.
const progressBarWidth = 30

// startProgress shows, once a statement has run for delay, a progress line
// on w: a bar and "37% · 24.1 of 65.0 MiB · 1.6s" from the bytes the plans
// will read and those read so far, or the time alone before any file is
// planned. It returns the function that stops and erases it.
func startProgress(w io.Writer, p *exec.Progress, delay time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		select {
		case <-done:
			return
		case <-time.After(delay):
		}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			read, total := p.Bytes()
			fmt.Fprint(w, "\r"+progressLine(read, total, time.Since(start))+"\x1b[K")
			select {
			case <-done:
				fmt.Fprint(w, "\r\x1b[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// progressLine is the progress line's text: "▕██████░░░░▏ 37% · 24.1 of
// 65.0 MiB · 1.6s", or "running · 1.6s" while nothing is planned.
func progressLine(read, total int64, elapsed time.Duration) string {
	secs := fmt.Sprintf("%.1fs", elapsed.Seconds())
	if total <= 0 {
		return "running · " + secs
	}
	frac := min(float64(read)/float64(total), 1)
	full := int(frac * progressBarWidth)
	bar := "▕" + strings.Repeat("█", full) + strings.Repeat("░", progressBarWidth-full) + "▏"
	return fmt.Sprintf("%s %d%% · %s · %s", bar, int(frac*100), bytesOf(read, total), secs)
}

// bytesOf renders read of total in total's unit: "24.1 of 65.0 MiB".
func bytesOf(read, total int64) string {
	t := pushdown.HumanBytes(total)
	num, unit, ok := strings.Cut(t, " ")
	if !ok || unit == "bytes" || unit == "byte" {
		return fmt.Sprintf("%d of %s", read, t)
	}
	var scale float64 = 1
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		scale *= 1024
		if u == unit {
			break
		}
	}
	return fmt.Sprintf("%.1f of %s %s", float64(read)/scale, num, unit)
}
