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
	var toks []token
	var comments []span
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			j := strings.IndexByte(text[i:], '\n')
			end := len(text)
			if j >= 0 {
				end = i + j
			}
			comments = append(comments, span{i, end})
			i = end
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end, ok := blockCommentEnd(text, i)
			if !ok {
				return nil, nil, lexError(text, i, "unterminated /* comment: expected */")
			}
			comments = append(comments, span{i, end})
			i = end
		case c == '\'':
			val, end, ok := scanQuoted(text, i, '\'')
			if !ok {
				return nil, nil, lexError(text, i, "unterminated string: expected closing '")
			}
			toks = append(toks, token{kind: tkString, off: i, end: end, val: val})
			i = end
		case c == '"' || c == '`':
			val, end, ok := scanQuoted(text, i, c)
			if !ok {
				return nil, nil, lexError(text, i, "unterminated quoted identifier: expected closing "+string(c))
			}
			toks = append(toks, token{kind: tkQIdent, off: i, end: end, val: val})
			i = end
		case isIdentStart(c):
			j := i + 1
			for j < len(text) && isIdentPart(text[j]) {
				j++
			}
			w := text[i:j]
			if n := len(toks); n >= 2 && toks[n-1].kind == tkOp && toks[n-1].val == "." &&
				(toks[n-2].kind == tkWord || toks[n-2].kind == tkQIdent) {
				// After "name." a word is a name, keyword or not (o.from),
				// as in DuckDB's grammar.
				toks = append(toks, token{kind: tkQIdent, off: i, end: j, val: w})
				i = j
				continue
			}
			toks = append(toks, token{kind: tkWord, off: i, end: j, val: w, kw: strings.ToLower(w)})
			i = j
		case isDigit(c) || (c == '.' && i+1 < len(text) && isDigit(text[i+1])):
			j := scanNumber(text, i)
			toks = append(toks, token{kind: tkNumber, off: i, end: j, val: text[i:j]})
			i = j
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
				toks = append(toks, token{kind: tkOp, off: i, end: i + len(op), val: op})
				i += len(op)
				continue
			}
			// Keep a whole UTF-8 sequence together so the error shows a character.
			_, n := utf8.DecodeRuneInString(text[i:])
			toks = append(toks, token{kind: tkOther, off: i, end: i + n, val: text[i : i+n]})
			i += n
		}
	}
	return toks, comments, nil
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
// quote stands for one. DuckDB gives backslash no meaning inside quotes.
func scanQuoted(text string, i int, q byte) (string, int, bool) {
	var b strings.Builder
	j := i + 1
	for j < len(text) {
		k := strings.IndexByte(text[j:], q)
		if k < 0 {
			return "", 0, false
		}
		b.WriteString(text[j : j+k])
		j += k + 1
		if j < len(text) && text[j] == q {
			b.WriteByte(q)
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
