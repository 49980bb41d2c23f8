package main

import (
	"bytes"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// A ptySession is pqsql running on a pseudo-terminal, with everything it
// printed so far.
type ptySession struct {
	t    *testing.T
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	seen int // output before this offset has been matched
	done chan struct{}
}

func (p *ptySession) send(s string) {
	p.t.Helper()
	if _, err := p.tty.Write([]byte(s)); err != nil {
		p.t.Fatalf("write %q: %v", s, err)
	}
}

// tryExpect is expect that reports a timeout instead of failing.
func (p *ptySession) tryExpect(want string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		p.mu.Lock()
		rest := p.out.String()[p.seen:]
		if i := strings.Index(rest, want); i >= 0 {
			p.seen += i + len(want)
			p.mu.Unlock()
			return true
		}
		p.mu.Unlock()
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// expect waits until want appears in the output after the last match.
func (p *ptySession) expect(want string, timeout time.Duration) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		p.mu.Lock()
		rest := p.out.String()[p.seen:]
		if i := strings.Index(rest, want); i >= 0 {
			p.seen += i + len(want)
			p.mu.Unlock()
			return rest[:i+len(want)]
		}
		p.mu.Unlock()
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out waiting for %q; output since last match:\n%s", want, rest)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestREPL drives the real binary through a pseudo-terminal: multi-line
// input, a dot command, the history file, Ctrl-C at the prompt and during a
// query, and Ctrl-D to leave.
func TestREPL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	root := moduleRoot(t)
	bin := filepath.Join(t.TempDir(), "pqsql")
	build := osexec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir()
	cmd := osexec.Command(bin)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+home, "TERM=xterm")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatalf("start on a pty: %v", err)
	}
	defer tty.Close()
	p := &ptySession{t: t, tty: tty, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	}()

	const wait = 15 * time.Second
	p.expect(`Enter ".help" for usage hints.`, wait)

	// A statement over two lines: the second prompt is the continuation one.
	p.send("SELECT count(*)\r")
	p.expect(promptMore, wait)
	p.send("FROM 'fixtures/orders_sorted.parquet';\r")
	p.expect("│        20000 │", wait)

	p.send(".mode csv\r")
	p.send("SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id = 7;\r")
	p.expect("order_id\r\n7\r\n", wait)

	// Ctrl-C while typing drops the unfinished statement and keeps the REPL.
	p.send("SELECT 1\r")
	p.expect(promptMore, wait)
	p.send("\x03")
	p.expect("^C", wait)
	p.send(".mode\r")
	p.expect("current output mode: csv", wait)

	// Ctrl-C during a long query cancels it and keeps the REPL. The query
	// scans one fixture through many symlinks; the progress line shows it
	// is running before Ctrl-C is sent.
	many := t.TempDir()
	for i := range 200 {
		link := filepath.Join(many, fmt.Sprintf("o%03d.parquet", i))
		if err := os.Symlink(filepath.Join(root, "fixtures", "orders_sorted.parquet"), link); err != nil {
			t.Fatal(err)
		}
	}
	p.send("SELECT city, count(*), sum(amount) FROM '" + many + "/*.parquet' GROUP BY city;\r")
	if p.tryExpect("running", 10*time.Second) {
		p.send("\x03")
		p.expect("Error: interrupted", wait)
		t.Log("Ctrl-C cancelled the running query")
	} else {
		t.Log("the long query finished before its progress line showed; Ctrl-C goes to the prompt")
		p.send("\x03")
		p.expect("^C", wait)
	}
	p.send(".mode line\r.mode\r")
	p.expect("current output mode: line", wait)

	// Tab completes a keyword in the case it was typed.
	p.send("sel\t")
	p.expect("select", wait)
	p.send("\x03")
	p.expect("^C", wait)

	// Ctrl-D on an empty line leaves with exit code 0.
	p.send("\x04")
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after Ctrl-D: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("pqsql did not exit after Ctrl-D")
	}

	history, err := os.ReadFile(filepath.Join(home, historyName))
	if err != nil {
		t.Fatalf("history file: %v", err)
	}
	for _, want := range []string{
		"SELECT count(*) FROM 'fixtures/orders_sorted.parquet';\n",
		".mode csv\n",
		"SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id = 7;\n",
	} {
		if !strings.Contains(string(history), want) {
			t.Errorf("history lacks %q:\n%s", want, history)
		}
	}
	if strings.Contains(string(history), "SELECT 1") {
		t.Errorf("history holds the statement dropped with Ctrl-C:\n%s", history)
	}
	tty.Close()
	select {
	case <-p.done:
	case <-time.After(wait):
	}
}
