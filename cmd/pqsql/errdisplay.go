package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/pqsql/pqsql/sql"
)

// ANSI sequences for a terminal without NO_COLOR.
const (
	ansiRed   = "\x1b[31m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiReset = "\x1b[0m"
)

// maxExcerpt bounds the statement excerpt an error shows, in columns
// (DuckDB's MAX_LINE_RENDER_WIDTH).
const maxExcerpt = 120

// report prints err as "Error: line N: ..." (without the line when line is
// 0) and marks the run failed.
func (sh *shell) report(line int, err error) { sh.reportAt(line, err, nil) }

// An excerpt is the line of a statement an error points into, and the
// column (1-based, in runes) the caret goes under.
type excerpt struct {
	line   int // the script's line number; 0 at the prompt
	text   string
	column int
}

// reportAt prints err, with the excerpt and its caret when there is one,
// and marks the run failed.
func (sh *shell) reportAt(line int, err error, ex *excerpt) {
	sh.failed = true
	sh.out.Flush()
	if sh.out != sh.stdout {
		sh.stdout.Flush()
	}
	var b strings.Builder
	if sh.color {
		b.WriteString(ansiRed + ansiBold + "Error:" + ansiReset + ansiRed)
	} else {
		b.WriteString("Error:")
	}
	if line > 0 {
		fmt.Fprintf(&b, " line %d:", line)
	}
	b.WriteString(" " + userMessage(err))
	if sh.color {
		b.WriteString(ansiReset)
	}
	b.WriteByte('\n')
	if ex != nil {
		b.WriteString(ex.render())
	}
	fmt.Fprint(sh.errOut, b.String())
}

// reportStatement reports an error of the statement text, which starts on
// line firstLine of its script: an error located in the text (a parse
// error, or a binder error at the column, call or operator it is about)
// gets the script's line of its position (one number, not the
// statement's and the script's) and an excerpt with a caret under the
// position, as DuckDB shows them.
func (sh *shell) reportStatement(text string, firstLine int, err error) {
	pos, shown, ok := located(err)
	if !ok || pos.Line <= 0 {
		sh.reportAt(sh.lineFor(firstLine), err, nil)
		return
	}
	line := sh.lineFor(firstLine + pos.Line - 1)
	lines := strings.Split(text, "\n")
	var ex *excerpt
	if pos.Line <= len(lines) {
		ex = &excerpt{line: firstLine + pos.Line - 1, text: strings.TrimSuffix(lines[pos.Line-1], "\r"), column: pos.Column}
		if line == 0 {
			ex.line = pos.Line
		}
	}
	sh.reportAt(line, shown, ex)
}

// A locatedError is an error that knows where in its statement it is
// (the planner's errors).
type locatedError interface {
	error
	Position() (sql.Position, bool)
}

// located returns the position err points at, and err as it is told
// beside the excerpt: a parse error without its "at line L, column C".
func located(err error) (sql.Position, error, bool) {
	var se *sql.Error
	var le locatedError
	switch {
	case errors.As(err, &le):
		pos, ok := le.Position()
		return pos, err, ok
	case errors.As(err, &se):
		return se.Pos(), &positionless{se}, true
	}
	return sql.Position{}, err, false
}

// positionless is a parse error told without its "at line L, column C",
// which the excerpt shows.
type positionless struct{ e *sql.Error }

func (p *positionless) Error() string {
	kind := sql.ErrSyntax
	if p.e.Err != nil {
		kind = p.e.Err
	}
	s := kind.Error()
	if p.e.Token == "" {
		s += " at end of input"
	} else {
		s += fmt.Sprintf(" near %q", p.e.Token)
	}
	if p.e.Msg != "" {
		s += ": " + p.e.Msg
	}
	return s
}

func (p *positionless) Unwrap() error { return p.e }

// render draws the excerpt as DuckDB does:
//
//	LINE 3: SELECT * FORM t
//	                 ^
//
// A long line is cut to about maxExcerpt/2 columns either side of the
// caret, at a space or punctuation mark when one is within four
// characters of the cut, and "..." marks each cut.
func (ex *excerpt) render() string {
	runes := []rune(strings.ReplaceAll(ex.text, "\t", " "))
	col := min(max(ex.column-1, 0), len(runes))
	widths := make([]int, len(runes))
	for i, r := range runes {
		widths[i] = displayWidth(string(r))
	}
	start, end := 0, len(runes)
	// Backwards from the caret (its own character included) ...
	w := 0
	for i := col; i > 0; i-- {
		if i < len(runes) {
			w += widths[i]
		}
		if w >= maxExcerpt/2 {
			start = naturalBreak(runes, max(i-4, 0), min(i+4, col), i)
			break
		}
	}
	// ... and forwards from it.
	w = 0
	for i := col; i < len(runes); i++ {
		w += widths[i]
		if w >= maxExcerpt/2 {
			end = naturalBreak(runes, max(i-4, col), min(i+4, len(runes)), i)
			break
		}
	}
	prefix, suffix := "", ""
	if start > 0 {
		prefix = "..."
	}
	if end < len(runes) {
		suffix = "..."
	}
	head := fmt.Sprintf("LINE %d: %s", ex.line, prefix)
	pad := displayWidth(head)
	for _, cw := range widths[start:col] {
		pad += cw
	}
	return fmt.Sprintf("\n%s%s%s\n%s^\n", head, string(runes[start:end]), suffix, strings.Repeat(" ", pad))
}

// naturalBreak returns the first index in [lo, hi) of a space or
// punctuation mark, a better place to cut a line than at, or at.
func naturalBreak(runes []rune, lo, hi, at int) int {
	for k := lo; k < hi; k++ {
		r := runes[k]
		space := r == ' ' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
		mark := r < 0x80 && r != '_' && (unicode.IsPunct(r) || unicode.IsSymbol(r))
		if space || mark {
			return k
		}
	}
	return at
}

// packagePrefix matches the name of a Go package of pqsql where an error
// message begins or a wrapped one starts; a user reads what went wrong
// and where (file, row group, column, page), not which package said so.
var packagePrefix = regexp.MustCompile(`(^|: )(format|pushdown|planner|exec|sql): `)

// userMessage is err's text as a user reads it.
func userMessage(err error) string {
	if errors.Is(err, context.Canceled) {
		return errInterrupted.Error()
	}
	msg := err.Error()
	for {
		next := packagePrefix.ReplaceAllString(msg, "$1")
		if next == msg {
			return msg
		}
		msg = next
	}
}
