package sql

import (
	"strings"
	"unicode/utf8"
)

// tokKind classifies the tokens of pqsql's own lexer, which reads DuckDB's
// lexical rules (not MySQL's) before anything reaches sqlparser.
type tokKind int

const (
	tkEOF    tokKind = iota
	tkWord           // bare identifier or keyword
	tkQIdent         // "double-quoted" (or `backquoted`) identifier
	tkString         // 'single-quoted' string
	tkNumber         // numeric literal
	tkOp             // operator or punctuation
	tkOther          // a character pqsql gives no meaning; rejected by Parse, kept by SplitScript
)

// A token is one lexeme of the original text.
type token struct {
	kind     tokKind
	off, end int    // byte span in the original text
	val      string // words and numbers as written; strings and identifiers unescaped; operators
	kw       string // lower-cased val for tkWord, "" otherwise
}

// A span is a byte range [off, end) of the original text.
type span struct{ off, end int }

// operators lists the multi-character operators, longest first so the lexer
// takes the longest match.
var operators = []string{
	"->>", "::", ":=", "<=", ">=", "<>", "!=", "==", "||", "//", "**", "<<", ">>", "->", "&&",
}

// singleOps are the one-character operators and punctuation.
const singleOps = "(),;.=<>+-*/%^|&~![]:{}"

// lex splits text into tokens, dropping blanks and comments (whose spans it
// returns for SplitScript). It fails only on unterminated strings, quoted
// identifiers and block comments: meaning is judged later.
func lex(text string) ([]token, []span, *Error) {
	lx := lexer{text: text}
	var toks []token
	for {
		tok, err := lx.next()
		if err != nil {
			return nil, nil, err
		}
		if tok.kind == tkEOF {
			return toks, lx.comments, nil
		}
		toks = append(toks, tok)
	}
}

// A lexer reads the tokens of text one at a time, so that splitting a
// script holds one statement's tokens, not the whole script's.
type lexer struct {
	text string
	i    int
	// comments collects the spans of the comments passed; its owner may
	// truncate it between tokens.
	comments []span
	// spansOnly leaves val of strings and identifiers, and kw, empty: a
	// splitter needs only kinds, spans and operators, and then lexing
	// allocates nothing.
	spansOnly bool
	// last and beforeLast are the two tokens before the next one, for the
	// rule that a word after "name." is a name.
	last, beforeLast token
}

// next returns the next token, or one of kind tkEOF at the end of text.
func (lx *lexer) next() (token, *Error) {
	tok, err := lx.scan()
	if err == nil && tok.kind != tkEOF {
		lx.beforeLast, lx.last = lx.last, tok
	}
	return tok, err
}

func (lx *lexer) scan() (token, *Error) {
	text := lx.text
	for lx.i < len(text) {
		i := lx.i
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.i++
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			j := strings.IndexByte(text[i:], '\n')
			end := len(text)
			if j >= 0 {
				end = i + j
			}
			lx.comments = append(lx.comments, span{i, end})
			lx.i = end
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end, ok := blockCommentEnd(text, i)
			if !ok {
				return token{}, lexError(text, i, "unterminated /* comment: expected */")
			}
			lx.comments = append(lx.comments, span{i, end})
			lx.i = end
		case c == '\'':
			val, end, ok := scanQuoted(text, i, '\'', !lx.spansOnly)
			if !ok {
				return token{}, lexError(text, i, "unterminated string: expected closing '")
			}
			lx.i = end
			return token{kind: tkString, off: i, end: end, val: val}, nil
		case c == '"' || c == '`':
			val, end, ok := scanQuoted(text, i, c, !lx.spansOnly)
			if !ok {
				return token{}, lexError(text, i, "unterminated quoted identifier: expected closing "+string(c))
			}
			lx.i = end
			return token{kind: tkQIdent, off: i, end: end, val: val}, nil
		case isIdentStart(c):
			j := i + 1
			for j < len(text) && isIdentPart(text[j]) {
				j++
			}
			lx.i = j
			w := text[i:j]
			if lx.last.kind == tkOp && lx.last.val == "." &&
				(lx.beforeLast.kind == tkWord || lx.beforeLast.kind == tkQIdent) {
				// After "name." a word is a name, keyword or not (o.from),
				// as in DuckDB's grammar.
				return token{kind: tkQIdent, off: i, end: j, val: w}, nil
			}
			kw := ""
			if !lx.spansOnly {
				kw = strings.ToLower(w)
			}
			return token{kind: tkWord, off: i, end: j, val: w, kw: kw}, nil
		case isDigit(c) || (c == '.' && i+1 < len(text) && isDigit(text[i+1])):
			j := scanNumber(text, i)
			lx.i = j
			return token{kind: tkNumber, off: i, end: j, val: text[i:j]}, nil
		default:
			op := ""
			for _, o := range operators {
				if strings.HasPrefix(text[i:], o) {
					op = o
					break
				}
			}
			if op == "" && strings.IndexByte(singleOps, c) >= 0 {
				op = text[i : i+1]
			}
			if op != "" {
				lx.i = i + len(op)
				return token{kind: tkOp, off: i, end: i + len(op), val: op}, nil
			}
			// Keep a whole UTF-8 sequence together so the error shows a character.
			_, n := utf8.DecodeRuneInString(text[i:])
			lx.i = i + n
			return token{kind: tkOther, off: i, end: i + n, val: text[i : i+n]}, nil
		}
	}
	return token{kind: tkEOF, off: len(text), end: len(text)}, nil
}

// blockCommentEnd returns the end of the /* comment starting at i. Comments
// nest, as in PostgreSQL and DuckDB.
func blockCommentEnd(text string, i int) (int, bool) {
	depth := 0
	for i+1 < len(text) {
		switch {
		case text[i] == '/' && text[i+1] == '*':
			depth++
			i += 2
		case text[i] == '*' && text[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i, true
			}
		default:
			i++
		}
	}
	return 0, false
}

// scanQuoted reads a quoted lexeme starting at text[i] == q, where a doubled
// quote stands for one; without value it finds only the end. DuckDB gives
// backslash no meaning inside quotes.
func scanQuoted(text string, i int, q byte, value bool) (string, int, bool) {
	var b strings.Builder
	j := i + 1
	for j < len(text) {
		k := strings.IndexByte(text[j:], q)
		if k < 0 {
			return "", 0, false
		}
		if value {
			b.WriteString(text[j : j+k])
		}
		j += k + 1
		if j < len(text) && text[j] == q {
			if value {
				b.WriteByte(q)
			}
			j++
			continue
		}
		return b.String(), j, true
	}
	return "", 0, false
}

// scanNumber returns the end of the number starting at i: digits, an optional
// fraction and an optional exponent.
func scanNumber(text string, i int) int {
	j := i
	for j < len(text) && isDigit(text[j]) {
		j++
	}
	if j < len(text) && text[j] == '.' {
		j++
		for j < len(text) && isDigit(text[j]) {
			j++
		}
	}
	if j < len(text) && (text[j] == 'e' || text[j] == 'E') {
		k := j + 1
		if k < len(text) && (text[k] == '+' || text[k] == '-') {
			k++
		}
		if k < len(text) && isDigit(text[k]) {
			for k < len(text) && isDigit(text[k]) {
				k++
			}
			j = k
		}
	}
	return j
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isIdentStart accepts ASCII letters, '_' and any byte of a multi-byte UTF-8
// sequence, so unquoted non-ASCII identifiers work as in DuckDB.
func isIdentStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

// lexError builds the *Error for a lexeme that never ends; the token shown is
// the rest of its first line, shortened.
func lexError(text string, off int, msg string) *Error {
	tok := text[off:]
	if j := strings.IndexByte(tok, '\n'); j >= 0 {
		tok = tok[:j]
	}
	tok = shorten(tok, 24)
	p := positionAt(text, off, Position{})
	return &Error{Line: p.Line, Column: p.Column, Offset: p.Offset, Token: tok, Msg: msg, Err: ErrSyntax}
}

// shorten cuts s to at most n runes, marking the cut with "...".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}

// positionAt converts a byte offset of text into a Position, shifted by base
// when text is itself a part of a larger script (base.Line == 0 means none).
func positionAt(text string, off int, base Position) Position {
	if off > len(text) {
		off = len(text)
	}
	line, lineStart := 1, 0
	for i := 0; i < off; i++ {
		if text[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	p := Position{Offset: off, Line: line, Column: utf8.RuneCountInString(text[lineStart:off]) + 1}
	if base.Line > 0 {
		if p.Line == 1 {
			p.Column += base.Column - 1
		}
		p.Line += base.Line - 1
		p.Offset += base.Offset
	}
	return p
}
