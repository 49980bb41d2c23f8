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
	// gcLimit is the soft memory limit last given to the Go runtime.
	gcLimit int64
	// stdout is standard output; out is where results go now: stdout, or
	// the file of .output or .once.
	stdout *bufio.Writer
	out    *bufio.Writer
	output *redirect
	errOut io.Writer
	opts   renderOptions
	timer  bool
	bail   bool
	// echo prints each statement and dot command before running it.
	echo bool
	// color paints errors red on a terminal without NO_COLOR.
	color bool
	// exitWith is the code .exit CODE asked for.
	exitWith *int
	// explainMap makes a plain EXPLAIN draw the map (.explain map).
	explainMap bool
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

// exitCode is the code of .exit CODE, else 1 if any statement or command
// failed, else 0.
func (sh *shell) exitCode() int {
	sh.out.Flush()
	sh.stdout.Flush()
	if sh.exitWith != nil {
		return *sh.exitWith
	}
	if sh.failed {
		return 1
	}
	return 0
}

// runScript runs a script: SQL statements split with package sql, and dot
// commands on lines of their own between statements. It reports each
// error with its line and returns true when the caller should stop (-bail
// after an error, or .quit).
func (sh *shell) runScript(ctx context.Context, text string) (stop bool) {
	// The buffer is always whole lines of text, text[bufStart:at], so it
	// is a slice of the script, never a copy; the Completer reads each of
	// its bytes once.
	var c sql.Completer
	bufStart, bufLine := 0, 0
	blank := true // the buffer holds no statement yet; once false, it stays until it runs
	lineNo := 0
	for at := 0; at < len(text); {
		lineStart := at
		if j := strings.IndexByte(text[at:], '\n'); j >= 0 {
			at += j + 1
		} else {
			at = len(text)
		}
		line := text[lineStart:at]
		lineNo++
		if blank && isDotCommand(line) {
			if sh.echo {
				sh.out.WriteString(strings.TrimRight(line, "\r\n") + "\n")
			}
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
			c.Reset()
			bufStart, bufLine = lineStart, lineNo
		}
		buf := text[bufStart:at]
		c.Feed(buf)
		blank = blank && blankSQL(&c, buf)
		// As in DuckDB's shell, a statement can end only on a line with
		// a ";".
		if !blank && strings.Contains(line, ";") && c.Complete() {
			if sh.runSQL(ctx, buf, bufLine) {
				return true
			}
			blank = true
		}
	}
	if !blank {
		return sh.runSQL(ctx, text[bufStart:], bufLine)
	}
	return false
}

// runSQL splits text, whose first line is line firstLine of its script, and
// runs each statement. It returns true when -bail stops the script.
func (sh *shell) runSQL(ctx context.Context, text string, firstLine int) (stop bool) {
	split := sql.NewSplitter(text)
	if err := split.Err(); err != nil {
		line := firstLine
		var se *sql.Error
		if errors.As(err, &se) && se.Line > 0 {
			line = firstLine + se.Line - 1
		}
		sh.reportAt(sh.lineFor(line), err, nil)
		return sh.bail
	}
	// Statements run as they are split: only the running one's text is
	// held beside the script.
	for split.Next() {
		p := split.Piece()
		if sh.echo {
			sh.out.WriteString(p.Text + "\n")
		}
		if err := sh.execute(ctx, p.Text); err != nil {
			sh.reportStatement(p.Text, firstLine+p.Line-1, err)
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

	defer sh.endOnce()
	sh.out.Flush()
	sh.applyMemoryLimit()
	defer sh.applyMemoryLimit() // after SET memory_limit
	start := startTimer()
	stopProgress := func() {}
	if sh.progress {
		sh.session.Settings.Progress.Reset()
		stopProgress = startProgress(sh.errOut, sh.session.Settings.Progress, time.Second)
	}
	var res *exec.Result
	var err error
	if c, ok, cerr := sql.ParseCopy(text); cerr != nil {
		err = cerr
	} else if ok {
		stopProgress()
		err = sh.copyTo(ctx, c)
	} else {
		// A map fits the terminal and is coloured there, not in a file.
		sh.session.Settings.MapWidth, sh.session.Settings.MapColor = 0, false
		if sh.out == sh.stdout {
			sh.session.Settings.MapColor = sh.opts.color
			if sh.termWidth != nil {
				sh.session.Settings.MapWidth = sh.termWidth()
			}
		}
		res, err = sh.session.Stream(ctx, sh.withExplainFormat(text))
		if err == nil {
			// The progress bar runs until the first rows are ready.
			err = res.Wait()
		}
	}
	if res != nil {
		defer res.Close()
	}
	stopProgress()
	if cerr := ctx.Err(); cerr != nil {
		return cerr // whatever the engine made of it, Ctrl-C is the cause
	}
	if err != nil {
		return err
	}
	if res != nil {
		if err := sh.print(ctx, res); err != nil {
			return err
		}
		sh.columns.add(res.Columns...)
	}
	if sh.timer {
		// The timing goes where results go, as DuckDB's does.
		sh.out.WriteString(start.report())
	}
	if err := sh.out.Flush(); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}

// print writes a result: the plan of an EXPLAIN, the rows of a query, then
// any message. Ctrl-C stops the rows part way.
func (sh *shell) print(ctx context.Context, res *exec.Result) error {
	switch {
	case res.Explain != "" && explainAsRows(sh.opts.mode):
		opts := sh.opts
		opts.color = opts.color && sh.out == sh.stdout
		render(sh.out, explainResult(res.Explain), opts)
	case res.Explain != "":
		sh.out.WriteString(res.Explain)
		if !strings.HasSuffix(res.Explain, "\n") {
			sh.out.WriteByte('\n')
		}
	case len(res.Columns) > 0:
		opts := sh.opts
		// Files get no colour, no "(1.23 million)" and no terminal's width.
		opts.color = opts.color && sh.out == sh.stdout
		opts.largeNumbers = opts.largeNumbers && sh.out == sh.stdout
		if sh.termWidth != nil && opts.maxWidth == 0 && sh.out == sh.stdout {
			opts.maxWidth = sh.termWidth()
		}
		if err := renderStreamed(ctx, sh.out, res, opts); err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			return err
		}
	}
	if res.Message != "" {
		sh.out.WriteString(res.Message)
		if !strings.HasSuffix(res.Message, "\n") {
			sh.out.WriteByte('\n')
		}
	}
	return nil
}

// withExplainFormat turns EXPLAIN into EXPLAIN (FORMAT MAP) after
// .explain map; an option list of the statement's own still wins.
func (sh *shell) withExplainFormat(text string) string {
	if !sh.explainMap {
		return text
	}
	t := strings.TrimLeft(text, " \t\r\n")
	if len(t) < 8 || !strings.EqualFold(t[:7], "explain") || !strings.ContainsAny(t[7:8], " \t\r\n(") {
		return text
	}
	return "EXPLAIN (FORMAT MAP) " + t[7:]
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

// blankSQL reports whether a buffer c has read holds no statement: only
// blanks, comments and semicolons. TrimSpace also drops the Unicode blanks
// (U+00A0) that the lexer reads as a word.
func blankSQL(c *sql.Completer, text string) bool {
	return c.Blank() || strings.TrimSpace(text) == ""
}
