package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// spinnerFrames animate the progress line.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// startProgress shows a spinner with the elapsed time on w once a statement
// has run for delay, and returns the function that stops and erases it.
// exec reports no progress yet, so time is all it can show.
func startProgress(w io.Writer, delay time.Duration) (stop func()) {
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
		for frame := 0; ; frame++ {
			fmt.Fprintf(w, "\r%s running %.1fs (Ctrl-C cancels)", spinnerFrames[frame%len(spinnerFrames)],
				time.Since(start).Seconds())
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
