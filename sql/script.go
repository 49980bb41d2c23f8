package sql

import (
	"strings"
	"unicode/utf8"
)

// A Piece is one statement of a script.
type Piece struct {
	// Text is the statement without comments, surrounding blanks and the
	// terminating ";".
	Text string
	// Line and Column (1-based, Column in runes) and Offset (0-based bytes)
	// locate the statement's first token in the script.
	Line, Column, Offset int

	raw string // the statement as written, comments included
}

// Parse parses the piece; positions in the result and in errors are
// relative to the whole script.
func (p Piece) Parse() (Statement, error) {
	return parseAt(p.raw, Position{Offset: p.Offset, Line: p.Line, Column: p.Column})
}

// SplitScript splits text into statements at each ";" outside strings,
// quoted identifiers and comments. Empty statements are dropped; the last
// statement needs no ";". It fails only on an unterminated string, quoted
// identifier or block comment.
func SplitScript(text string) ([]Piece, error) {
	toks, comments, err := lex(text)
	if err != nil {
		return nil, err
	}
	var pieces []Piece
	start := 0
	// Positions advance from the previous piece's, and comments are looked
	// at from the first that can touch the piece, so a script of n
	// statements splits in time linear in its length.
	var at Position
	at.Line, at.Column = 1, 1
	first := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && !(toks[i].kind == tkOp && toks[i].val == ";") {
			continue
		}
		if i > start {
			off, end := toks[start].off, toks[i-1].end
			pos := advance(text, at, off)
			at = pos
			for first < len(comments) && comments[first].end <= off {
				first++
			}
			pieces = append(pieces, Piece{
				Text:   stripComments(text, off, end, comments[first:]),
				Line:   pos.Line,
				Column: pos.Column,
				Offset: off,
				raw:    text[off:end],
			})
		}
		start = i + 1
	}
	return pieces, nil
}

// stripComments returns text[off:end] without the comments inside it. A
// comment between two tokens leaves a space so they stay apart; a line left
// blank by a removed comment is dropped.
func stripComments(text string, off, end int, comments []span) string {
	var b strings.Builder
	at := off
	removed := false
	for _, c := range comments {
		if c.off >= end {
			break // comments are in text order
		}
		if c.end <= off {
			continue
		}
		b.WriteString(text[at:c.off])
		b.WriteByte(' ')
		at = c.end
		removed = true
	}
	b.WriteString(text[at:end])
	if !removed {
		return b.String()
	}
	lines := strings.Split(b.String(), "\n")
	kept := lines[:0]
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// IsComplete reports whether a REPL buffer holds a finished statement: its
// last token, ignoring comments and blanks, is a ";" outside strings, quoted
// identifiers and comments.
func IsComplete(text string) bool {
	toks, _, err := lex(text)
	if err != nil || len(toks) == 0 {
		return false
	}
	last := toks[len(toks)-1]
	return last.kind == tkOp && last.val == ";"
}

// advance returns the position of byte off, at or after from (a position
// in text), counting only the bytes between them.
func advance(text string, from Position, off int) Position {
	line, col := from.Line, from.Column
	for i := from.Offset; i < off; {
		if text[i] == '\n' {
			line, col = line+1, 1
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(text[i:off])
		i += n
		col++
	}
	return Position{Offset: off, Line: line, Column: col}
}
