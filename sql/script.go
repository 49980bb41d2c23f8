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
	var pieces []Piece
	s := NewSplitter(text)
	for s.Next() {
		pieces = append(pieces, s.Piece())
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	return pieces, nil
}

// A Splitter yields the statements of a script one at a time, as
// SplitScript splits them, holding only the current statement's comments:
// its memory is bounded by the largest statement, not the script.
type Splitter struct {
	lx    lexer
	at    Position // where the previous piece starts, to count lines from
	piece Piece
	err   error
	done  bool
}

// NewSplitter prepares to split text. A script that fails to split fails
// before its first statement, as SplitScript does, so it is lexed once in
// full here (allocating nothing) before Next hands out statements.
func NewSplitter(text string) *Splitter {
	s := &Splitter{lx: lexer{text: text, spansOnly: true}}
	s.at.Line, s.at.Column = 1, 1
	check := lexer{text: text, spansOnly: true}
	for {
		tok, err := check.next()
		if err != nil {
			s.err, s.done = err, true
			break
		}
		if tok.kind == tkEOF {
			break
		}
		check.comments = check.comments[:0]
	}
	return s
}

// Next moves to the next statement, reporting false at the end of the
// script or on an error (see Err).
func (s *Splitter) Next() bool {
	for !s.done {
		s.lx.comments = s.lx.comments[:0]
		off, end := -1, -1
		for {
			tok, err := s.lx.next()
			if err != nil {
				// Unreachable after NewSplitter's check; kept so a
				// Splitter never hands out a statement past a bad one.
				s.err, s.done = err, true
				return false
			}
			if tok.kind == tkEOF {
				s.done = true
				break
			}
			if tok.kind == tkOp && tok.val == ";" {
				break
			}
			if off < 0 {
				off = tok.off
			}
			end = tok.end
		}
		if off < 0 {
			continue // an empty statement
		}
		text := s.lx.text
		// Positions advance from the previous piece's, so a script of n
		// statements splits in time linear in its length.
		pos := advance(text, s.at, off)
		s.at = pos
		s.piece = Piece{
			Text:   stripComments(text, off, end, s.lx.comments),
			Line:   pos.Line,
			Column: pos.Column,
			Offset: off,
			raw:    text[off:end],
		}
		return true
	}
	return false
}

// Piece is the statement Next moved to.
func (s *Splitter) Piece() Piece { return s.piece }

// Err is the error that ended the splitting, if any.
func (s *Splitter) Err() error { return s.err }

// stripComments returns text[off:end] without the comments inside it. A
// comment between two tokens leaves a space so they stay apart; a line left
// blank by a removed comment is dropped.
func stripComments(text string, off, end int, comments []span) string {
	inside := false
	for _, c := range comments {
		if c.off < end && c.end > off {
			inside = true
			break
		}
	}
	if !inside {
		return text[off:end]
	}
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
	var c Completer
	c.Feed(text)
	return c.Complete()
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
