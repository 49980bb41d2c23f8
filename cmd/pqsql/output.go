package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/pqsql/pqsql/exec"
)

// A redirect is the file results go to after .output FILE or .once FILE.
type redirect struct {
	f    *os.File
	w    *bufio.Writer
	once bool // ends after the next statement
}

// setOutput sends results to path (standard output when path is empty or
// "stdout"), for every statement or, with once, for the next one only.
func (sh *shell) setOutput(path string, once bool) error {
	if err := sh.closeOutput(); err != nil {
		return err
	}
	if path == "" || path == "stdout" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("cannot open %q: %w", path, err)
	}
	sh.output = &redirect{f: f, w: bufio.NewWriterSize(f, 64<<10), once: once}
	sh.out = sh.output.w
	return nil
}

// closeOutput flushes and closes the file of .output or .once, if any, and
// sends results to standard output again.
func (sh *shell) closeOutput() error {
	r := sh.output
	if r == nil {
		return nil
	}
	sh.output, sh.out = nil, sh.stdout
	err := r.w.Flush()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", r.f.Name(), err)
	}
	return nil
}

// endOnce ends a .once redirection after its statement.
func (sh *shell) endOnce() {
	if sh.output != nil && sh.output.once {
		if err := sh.closeOutput(); err != nil {
			sh.reportAt(0, err, nil)
		}
	}
}

// ctxWriter fails writes once ctx is done, so Ctrl-C stops a result that
// is being printed.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// renderCancellable renders res to w through a writer that fails once ctx
// is cancelled: Ctrl-C stops the printing within one chunk.
func renderCancellable(ctx context.Context, w *bufio.Writer, res *exec.Result, o renderOptions) error {
	cw := bufio.NewWriterSize(ctxWriter{ctx: ctx, w: w}, 16<<10)
	render(cw, res, o)
	err := cw.Flush()
	if cerr := ctx.Err(); cerr != nil {
		// The rows printed so far end on a line of their own.
		w.WriteByte('\n')
		return cerr
	}
	return err
}
