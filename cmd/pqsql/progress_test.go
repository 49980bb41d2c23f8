package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pqsql/pqsql/exec"
)

// lockedBuffer is a bytes.Buffer safe for the progress goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The progress line shows the bytes a session's statement read of those
// its plan reads, and is erased when the statement ends.
func TestStartProgress(t *testing.T) {
	s := exec.NewSession()
	s.Settings.Progress = &exec.Progress{}
	if _, err := s.Execute(context.Background(), "SELECT order_id FROM "+ordersFile(t)+" WHERE order_id > 19990"); err != nil {
		t.Fatal(err)
	}
	var out lockedBuffer
	stop := startProgress(&out, s.Settings.Progress, 0)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "100% · ") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	got := out.String()
	want := "\r▕" + strings.Repeat("█", progressBarWidth) + "▏ 100% · 1.0 of 1.0 KiB · "
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("progress output %q: want it to start with %q and end erased", got, want)
	}

	// Stopped before its delay, it prints nothing.
	var quiet lockedBuffer
	startProgress(&quiet, s.Settings.Progress, time.Hour)()
	if quiet.String() != "" {
		t.Errorf("progress stopped before its delay printed %q", quiet.String())
	}
}
