package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/pqsql/pqsql/exec"
	"github.com/pqsql/pqsql/sql"
)

// maxReadDepth bounds nested .read commands, so a file reading itself ends.
const maxReadDepth = 16

// A shell runs statements and dot commands against one session and prints
// their results.
type shell struct {
	session *exec.Session
	out     *bufio.Writer
	errOut  io.Writer
	opts    renderOptions
	timer   bool
	bail    bool
	// progress enables the spinner on errOut for slow statements.
	progress bool
	columns  *nameCache
	// termWidth reports the width of the terminal stdout is on; nil when
	// stdout is not a terminal.
	termWidth func() int

	// interactive is set while the REPL runs: errors of typed statements
	// then carry no line number.
	interactive bool
	failed      bool
	quit        bool
	// halted is set when -bail stopped a .read file, to stop the scripts
	// around it too.
	halted    bool
	readDepth int

	mu     sync.Mutex
	cancel context.CancelFunc // of the running statement, for Ctrl-C
}

// exitCode is 1 if any statement or command failed, else 0.
func (sh *shell) exitCode() int {
	sh.out.Flush()
	if sh.failed {
		return 1
	}
	return 0
}

// report prints err as "Error: line N: ..." (without the line when line is
// 0) and marks the run failed.
func (sh *shell) report(line int, err error) {
	sh.failed = true
	sh.out.Flush()
	msg := err.Error()
	if errors.Is(err, context.Canceled) {
		msg = errInterrupted.Error()
	}
	if line > 0 {
		fmt.Fprintf(sh.errOut, "Error: line %d: %s\n", line, msg)
	} else {
		fmt.Fprintf(sh.errOut, "Error: %s\n", msg)
	}
}

// runScript runs a script: SQL statements split with package sql, and dot
// commands on lines of their own between statements. It reports each
// error with its line and returns true when the caller should stop (-bail
// after an error, or .quit).
func (sh *shell) runScript(ctx context.Context, text string) (stop bool) {
	var buf strings.Builder
	bufLine := 0
	blank := true // buf holds no statement yet; once false, it stays until buf runs
	for i, line := range strings.SplitAfter(text, "\n") {
		lineNo := i + 1
		if blank && isDotCommand(line) {
			buf.Reset()
			if err := sh.dot(ctx, line); err != nil {
				sh.report(lineNo, err)
				if sh.bail {
					return true
				}
			}
			if sh.quit || sh.halted {
				return true
			}
			continue
		}
		if blank {
			buf.Reset()
			bufLine = lineNo
		}
		buf.WriteString(line)
		blank = blank && isBlankSQL(buf.String())
		// A statement can end only on a line with a ";": looking for the
		// end on other lines would lex the buffer once per line.
		if !blank && strings.Contains(line, ";") && sql.IsComplete(buf.String()) {
			if sh.runSQL(ctx, buf.String(), bufLine) {
				return true
			}
			buf.Reset()
			blank = true
		}
	}
	if !blank {
		return sh.runSQL(ctx, buf.String(), bufLine)
	}
	return false
}

// runSQL splits text, whose first line is line firstLine of its script, and
// runs each statement. It returns true when -bail stops the script.
func (sh *shell) runSQL(ctx context.Context, text string, firstLine int) (stop bool) {
	pieces, err := sql.SplitScript(text)
	if err != nil {
		line := firstLine
		var se *sql.Error
		if errors.As(err, &se) && se.Line > 0 {
			line = firstLine + se.Line - 1
		}
		sh.report(sh.lineFor(line), err)
		return sh.bail
	}
	for _, p := range pieces {
		if err := sh.execute(ctx, p.Text); err != nil {
			sh.report(sh.lineFor(firstLine+p.Line-1), err)
			if sh.bail {
				return true
			}
		}
	}
	return false
}

// lineFor hides line numbers of statements typed at the REPL prompt.
func (sh *shell) lineFor(line int) int {
	if sh.interactive && sh.readDepth == 0 {
		return 0
	}
	return line
}

// execute runs one statement and prints its result.
func (sh *shell) execute(ctx context.Context, text string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sh.setCancel(cancel)
	defer sh.setCancel(nil)

	sh.out.Flush()
	start := time.Now()
	stopProgress := func() {}
	if sh.progress {
		stopProgress = startProgress(sh.errOut, time.Second)
	}
	res, err := sh.session.Execute(ctx, text)
	stopProgress()
	if cerr := ctx.Err(); cerr != nil {
		return cerr // whatever the engine made of it, Ctrl-C is the cause
	}
	if err != nil {
		return err
	}
	if res != nil {
		sh.print(res)
		sh.columns.add(res.Columns...)
	}
	if sh.timer {
		fmt.Fprintf(sh.out, "Run Time (s): real %.3f\n", time.Since(start).Seconds())
	}
	if err := sh.out.Flush(); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}

// print writes a result: the plan of an EXPLAIN, the rows of a query, then
// any message.
func (sh *shell) print(res *exec.Result) {
	switch {
	case res.Explain != "":
		sh.out.WriteString(res.Explain)
		if !strings.HasSuffix(res.Explain, "\n") {
			sh.out.WriteByte('\n')
		}
	case len(res.Columns) > 0:
		opts := sh.opts
		if sh.termWidth != nil {
			opts.maxWidth = sh.termWidth()
		}
		render(sh.out, res, opts)
	}
	if res.Message != "" {
		sh.out.WriteString(res.Message)
		if !strings.HasSuffix(res.Message, "\n") {
			sh.out.WriteByte('\n')
		}
	}
}

// setCancel records the cancel function of the running statement.
func (sh *shell) setCancel(c context.CancelFunc) {
	sh.mu.Lock()
	sh.cancel = c
	sh.mu.Unlock()
}

// interrupt cancels the running statement, if any.
func (sh *shell) interrupt() {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.cancel != nil {
		sh.cancel()
	}
}

// isDotCommand reports whether a line is a dot command such as ".mode csv".
func isDotCommand(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), ".")
}

// isBlankSQL reports whether text holds no statement: only blanks,
// comments and semicolons.
func isBlankSQL(text string) bool {
	if strings.TrimSpace(text) == "" {
		return true
	}
	pieces, err := sql.SplitScript(text)
	return err == nil && len(pieces) == 0
}
