package main

import (
	"bytes"
	"errors"
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
	bin := buildBinary(t)
	home := t.TempDir()
	p, cmd, exited := startPTY(t, bin, root, home)
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	}()
	tty := p.tty

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
	if p.tryExpect("% · ", 10*time.Second) {
		// The progress bar counts the bytes the plans will read.
		p.expect(" of ", wait)
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

// buildBinary builds pqsql into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pqsql")
	build := osexec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startPTY starts bin with args on a pseudo-terminal 120 columns wide, in
// dir, with HOME set to home; exited receives its exit.
func startPTY(t *testing.T, bin, dir, home string, args ...string) (*ptySession, *osexec.Cmd, chan error) {
	t.Helper()
	return startPTYEnv(t, bin, dir, home, []string{"NO_COLOR=1"}, args...)
}

// startPTYEnv is startPTY with env added to the environment.
func startPTYEnv(t *testing.T, bin, dir, home string, env []string, args ...string) (*ptySession, *osexec.Cmd, chan error) {
	t.Helper()
	cmd := osexec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "HOME="+home, "TERM=xterm"), env...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatalf("start on a pty: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
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
	return p, cmd, exited
}

// TestShellOnTerminal drives the shell on a pseudo-terminal: ~/.pqsqlrc
// runs at start (and -init replaces it), .once and .output send results to
// files and not to the terminal, and Ctrl-C stops a result being printed.
func TestShellOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	const wait = 15 * time.Second
	root := moduleRoot(t)
	bin := buildBinary(t)
	home := t.TempDir()
	rc := filepath.Join(home, rcName)
	if err := os.WriteFile(rc, []byte(".mode csv\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	orders := "'" + filepath.Join(root, "fixtures", "orders_sorted.parquet") + "'"

	p, cmd, exited := startPTY(t, bin, work, home)
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	}()
	p.expect("-- Loading resources from "+rc, wait)
	p.expect(`Enter ".help" for usage hints.`, wait)
	p.send(".mode\r")
	p.expect("current output mode: csv", wait)

	p.send(".once once.csv\rSELECT 41 AS a;\rSELECT 42 AS b;\r")
	p.expect("b\r\n42\r\n", wait)
	p.send(".output all.csv\rSELECT 43 AS c;\r.output\rSELECT 44 AS d;\r")
	p.expect("d\r\n44\r\n", wait)
	for name, want := range map[string]string{"once.csv": "a\n41\n", "all.csv": "c\n43\n"} {
		got, err := os.ReadFile(filepath.Join(work, name))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	p.mu.Lock()
	screen := p.out.String()
	p.mu.Unlock()
	if strings.Contains(screen, "a\r\n41\r\n") || strings.Contains(screen, "c\r\n43\r\n") {
		t.Errorf("a result sent to a file reached the terminal:\n%s", screen)
	}

	// Ctrl-C while a long result prints stops it: the prompt comes back
	// long before 400,000 rows are through.
	var union []string
	for range 20 {
		union = append(union, "SELECT order_id, city, note FROM "+orders)
	}
	p.send(strings.Join(union, " UNION ALL ") + ";\r")
	p.expect("order_id,city,note\r\n", wait)
	p.send("\x03")
	p.expect("Error: interrupted", wait)
	p.send(".mode\r")
	p.expect("current output mode: csv", wait)
	p.send(".exit 4\r")
	select {
	case err := <-exited:
		var ee *osexec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 4 {
			t.Errorf("exit after .exit 4: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("pqsql did not exit after .exit 4")
	}

	// -init replaces ~/.pqsqlrc; -init /dev/null runs nothing.
	initFile := filepath.Join(work, "init.sql")
	if err := os.WriteFile(initFile, []byte(".mode line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// On a terminal without NO_COLOR: keywords are coloured as typed, the
	// types row faint, errors red.
	p, cmd, exited = startPTYEnv(t, bin, work, home, []string{"NO_COLOR="}, "-init", os.DevNull)
	p.expect(`Enter ".help" for usage hints.`, wait)
	p.send("SELECT 1 AS x;\r")
	p.expect(keywordColor+"SELECT"+ansiReset, wait)
	p.expect(ansiDim+"int32"+ansiReset, wait)
	p.send("SELEC 1;\r")
	p.expect(ansiRed+ansiBold+"Error:"+ansiReset+ansiRed, wait)
	p.send("\x04")
	select {
	case <-exited:
	case <-time.After(wait):
		cmd.Process.Kill()
		t.Fatal("pqsql did not exit after Ctrl-D")
	}

	for _, tc := range []struct{ init, mode string }{{initFile, "line"}, {os.DevNull, "box"}} {
		p, cmd, exited := startPTY(t, bin, work, home, "-init", tc.init)
		p.expect(`Enter ".help" for usage hints.`, wait)
		p.send(".mode\r")
		p.expect("current output mode: "+tc.mode, wait)
		p.send("\x04")
		select {
		case <-exited:
		case <-time.After(wait):
			cmd.Process.Kill()
			t.Fatal("pqsql did not exit after Ctrl-D")
		}
	}
}
