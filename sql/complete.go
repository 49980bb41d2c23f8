package sql

import "strings"

// A Completer follows a buffer that grows line by line (a REPL's input, a
// script's statement) and tells whether it holds a finished statement or
// nothing at all. Each byte is read once however often it is asked, so a
// statement of many lines, or an unterminated string followed by a long
// script, costs time linear in its length. It reads the lexer's rules for
// strings, quoted identifiers and comments, and nothing else.
type Completer struct {
	done int // bytes of the buffer read
	// mode is 0 between tokens, the quote inside a string or quoted
	// identifier, '*' inside a block comment, '-' inside a line comment.
	mode  byte
	depth int // of nested block comments
	// semi says the last token is ";", some that a token other than ";"
	// was seen, pending that the last byte needs the next to be read.
	semi, some, pending bool
}

// Reset empties the buffer.
func (c *Completer) Reset() { *c = Completer{} }

// Feed reads buf, which is the buffer fed before with more appended.
func (c *Completer) Feed(buf string) {
	i := c.done
	c.pending = false
	for i < len(buf) {
		ch := buf[i]
		switch c.mode {
		case '-':
			j := strings.IndexByte(buf[i:], '\n')
			if j < 0 {
				i = len(buf)
				continue
			}
			i += j + 1
			c.mode = 0
		case '\'', '"', '`':
			j := strings.IndexByte(buf[i:], c.mode)
			if j < 0 {
				i = len(buf)
				continue
			}
			i += j
			if i+1 == len(buf) {
				c.pending = true // a doubled quote or the end?
				c.done = i
				return
			}
			if buf[i+1] == c.mode {
				i += 2
				continue
			}
			i++
			c.mode = 0
		case '*':
			if ch != '/' && ch != '*' {
				i++
				continue
			}
			if i+1 == len(buf) {
				c.pending = true
				c.done = i
				return
			}
			switch next := buf[i+1]; {
			case ch == '/' && next == '*':
				c.depth++
				i += 2
			case ch == '*' && next == '/':
				c.depth--
				i += 2
				if c.depth == 0 {
					c.mode = 0
				}
			default:
				i++
			}
		default:
			switch ch {
			case ' ', '\t', '\n', '\r', '\f', '\v':
				i++
				continue
			case ';':
				c.semi = true
				i++
				continue
			case '\'', '"', '`':
				c.mode = ch
			case '-', '/':
				if i+1 == len(buf) {
					c.pending = true
					c.done = i
					return
				}
				switch next := buf[i+1]; {
				case ch == '-' && next == '-':
					c.mode = '-'
					i += 2
					continue
				case ch == '/' && next == '*':
					c.mode, c.depth = '*', 1
					i += 2
					continue
				case ch == '/' && next == '/':
					// The operator "//": its second "/" starts no comment.
					i++
				}
			}
			c.semi, c.some = false, true
			i++
		}
	}
	c.done = i
}

// Complete reports whether the buffer's last token, ignoring comments and
// blanks, is a ";" outside strings, quoted identifiers and comments.
func (c *Completer) Complete() bool {
	return c.semi && !c.pending && (c.mode == 0 || c.mode == '-')
}

// Blank reports whether the buffer holds no statement: only blanks,
// comments and semicolons, with no string or comment left open.
func (c *Completer) Blank() bool {
	return !c.some && !c.pending && (c.mode == 0 || c.mode == '-')
}
