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
	return renderTableCancellable(ctx, w, newTable(res), o)
}

// renderTableCancellable is renderCancellable for the rows of a table.
func renderTableCancellable(ctx context.Context, w *bufio.Writer, t *table, o renderOptions) error {
	cw := bufio.NewWriterSize(ctxWriter{ctx: ctx, w: w}, 16<<10)
	renderTableOf(cw, t, o)
	err := cw.Flush()
	if cerr := ctx.Err(); cerr != nil {
		// The rows printed so far end on a line of their own.
		w.WriteByte('\n')
		return cerr
	}
	return err
}

// renderStreamed prints a result whose rows come from Next as the query
// makes them (exec.Session.Stream). The modes that print a row at a time
// (csv, json, jsonlines, line, list, tabs, insert, quote, trash) print
// each batch as it arrives and flush it, so the first rows of a long scan
// show before it ends, in constant memory. Box mode keeps only the first
// and last rows it may show and counts the others; the modes that size
// columns over every row (table, column, markdown, html, latex, and box
// with .maxrows showing all) collect the rows first. An error part way
// (Ctrl-C, a damaged page, Out of Memory) ends the output after the rows
// printed so far.
func renderStreamed(ctx context.Context, w *bufio.Writer, res *exec.Result, o renderOptions) error {
	if !res.Streamed() || len(res.Columns) == 0 {
		return renderCancellable(ctx, w, res, o)
	}
	defer res.Close()
	switch o.mode {
	case modeCSV, modeJSON, modeJSONLines, modeLine, modeList, modeTabs, modeInsert, modeQuote, modeTrash:
		cw := bufio.NewWriterSize(ctxWriter{ctx: ctx, w: w}, 16<<10)
		err := renderChunks(cw, res, o, func() error {
			if err := cw.Flush(); err != nil {
				return err
			}
			return w.Flush()
		})
		if ferr := cw.Flush(); err == nil {
			err = ferr
		}
		if cerr := ctx.Err(); cerr != nil {
			w.WriteByte('\n')
			return cerr
		}
		return err
	case modeBox:
		if o.maxRows > 0 {
			// Eliding starts past maxRows+3 rows; then at most maxRows/2+1
			// rows show from each end.
			kept, err := keepEnds(res, o.maxRows+3)
			if err != nil {
				return err
			}
			return renderTableCancellable(ctx, w, kept, o)
		}
	}
	all, err := collect(res)
	if err != nil {
		return err
	}
	return renderCancellable(ctx, w, all, o)
}

// renderChunks prints res's batches one at a time in a mode that prints a
// row at a time, calling flush after each: the output is the one render
// gives for all the rows at once.
func renderChunks(w *bufio.Writer, res *exec.Result, o renderOptions, flush func() error) error {
	rows := 0
	if o.mode == modeJSON {
		w.WriteByte('[')
	}
	for {
		b, err := res.Next()
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		if b.Len == 0 {
			continue
		}
		t := newTable(&exec.Result{Columns: res.Columns, Types: res.Types, Batches: []*exec.Batch{b}})
		co := o
		if rows > 0 && o.mode != modeInsert {
			// The header went with the first rows; insert mode's column
			// names are part of every statement.
			co.noHeaders = true
		}
		switch o.mode {
		case modeJSON:
			if rows > 0 {
				w.WriteString(",\n")
			}
			renderJSONRows(w, t, true)
		case modeLine:
			if rows > 0 {
				w.WriteByte('\n')
			}
			renderLine(w, t, co)
		default:
			render(w, t.res, co)
		}
		rows += b.Len
		// Rendered: its storage may serve the batches still to come.
		res.Release(b)
		if err := flush(); err != nil {
			return err
		}
	}
	switch {
	case o.mode == modeJSON:
		w.WriteString("]\n")
	case rows == 0:
		// Headers of a result without rows.
		render(w, &exec.Result{Columns: res.Columns, Types: res.Types}, o)
	}
	return nil
}

// keepEnds reads res to its end, keeping the first keep rows and the last
// keep rows (whole batches, so a few more) and counting the others: what
// box mode shows of a result of any size.
func keepEnds(res *exec.Result, keep int) (*table, error) {
	var head, tail []*exec.Batch
	headRows, tailRows, total := 0, 0, 0
	for {
		b, err := res.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		if b.Len == 0 {
			continue
		}
		total += b.Len
		if headRows < keep {
			head = append(head, b)
			headRows += b.Len
			continue
		}
		tail = append(tail, b)
		tailRows += b.Len
		for len(tail) > 1 && tailRows-tail[0].Len >= keep {
			tailRows -= tail[0].Len
			tail[0] = nil
			tail = tail[1:]
		}
	}
	t := newTable(&exec.Result{Columns: res.Columns, Types: res.Types, Batches: append(head, tail...)})
	t.gapAt, t.gap = headRows, total-headRows-tailRows
	t.rows = total
	return t, nil
}

// collect reads all of res's batches into a result that holds them.
func collect(res *exec.Result) (*exec.Result, error) {
	out := &exec.Result{Columns: res.Columns, Types: res.Types, Message: res.Message}
	for {
		b, err := res.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			return out, nil
		}
		out.Batches = append(out.Batches, b)
	}
}
