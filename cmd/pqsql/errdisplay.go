package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/pqsql/pqsql/sql"
)

// ANSI sequences for a terminal without NO_COLOR.
const (
	ansiRed   = "\x1b[31m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiReset = "\x1b[0m"
)

// maxExcerpt bounds the statement excerpt an error shows, in columns.
const maxExcerpt = 100

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
// line firstLine of its script: a parse error gets the script's line of
// its position (one number, not the statement's and the script's) and an
// excerpt with a caret under the position, as DuckDB shows them.
func (sh *shell) reportStatement(text string, firstLine int, err error) {
	var se *sql.Error
	if !errors.As(err, &se) || se.Line <= 0 {
		sh.reportAt(sh.lineFor(firstLine), err, nil)
		return
	}
	line := sh.lineFor(firstLine + se.Line - 1)
	lines := strings.Split(text, "\n")
	var ex *excerpt
	if se.Line <= len(lines) {
		ex = &excerpt{line: firstLine + se.Line - 1, text: lines[se.Line-1], column: se.Column}
		if line == 0 {
			ex.line = se.Line
		}
	}
	sh.reportAt(line, &positionless{se}, ex)
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
func (ex *excerpt) render() string {
	text := strings.ReplaceAll(ex.text, "\t", " ")
	runes := []rune(text)
	col := min(max(ex.column-1, 0), len(runes))
	// A long line is cut to a window around the caret.
	before, after := runes[:col], runes[col:]
	prefix, suffix := "", ""
	for displayWidth(string(before)) > maxExcerpt/2 {
		before = before[1:]
		prefix = "..."
	}
	for displayWidth(string(after)) > maxExcerpt/2 {
		after = after[:len(after)-1]
		suffix = "..."
	}
	head := fmt.Sprintf("LINE %d: %s", ex.line, prefix)
	return fmt.Sprintf("\n%s%s%s%s\n%s^\n", head, string(before), string(after), suffix,
		strings.Repeat(" ", displayWidth(head)+displayWidth(string(before))))
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
