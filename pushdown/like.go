package pushdown

import (
	"unicode/utf8"
)

// likeToken is one element of a LIKE pattern: a literal character, '_'
// (any one character) or '%' (any run of characters).
type likeToken struct {
	kind byte // 'c' literal, '_' or '%'
	lit  []byte
}

// parseLike splits a pattern into tokens. escape (0 for none) makes the next
// character literal; an escape at the very end stands for itself.
func parseLike(pattern string, escape rune) []likeToken {
	var toks []likeToken
	p := []byte(pattern)
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case escape != 0 && r == escape && i+n < len(p):
			_, m := utf8.DecodeRune(p[i+n:])
			toks = append(toks, likeToken{kind: 'c', lit: p[i+n : i+n+m]})
			i += n + m
			continue
		case r == '%':
			toks = append(toks, likeToken{kind: '%'})
		case r == '_':
			toks = append(toks, likeToken{kind: '_'})
		default:
			toks = append(toks, likeToken{kind: 'c', lit: p[i : i+n]})
		}
		i += n
	}
	return toks
}

// A likeShape is what pruning can use of a pattern: the literal bytes every
// match starts with, whether the pattern is that literal alone (an
// equality), and whether it is that literal followed only by '%' (a prefix
// test, exactly).
type likeShape struct {
	prefix     []byte
	exact      bool
	prefixOnly bool
}

func shapeOf(pattern string, escape rune) likeShape {
	toks := parseLike(pattern, escape)
	var s likeShape
	i := 0
	for ; i < len(toks) && toks[i].kind == 'c'; i++ {
		s.prefix = append(s.prefix, toks[i].lit...)
	}
	if s.prefix == nil {
		s.prefix = []byte{}
	}
	if i == len(toks) {
		s.exact = true
		return s
	}
	s.prefixOnly = true
	for _, t := range toks[i:] {
		if t.kind != '%' {
			s.prefixOnly = false
		}
	}
	return s
}

// likeMatch reports whether s matches the pattern. '_' matches one UTF-8
// character (one byte where s is not valid UTF-8), as DuckDB's LIKE does.
func likeMatch(s []byte, pattern string, escape rune) bool {
	return matchTokens(s, parseLike(pattern, escape))
}

func matchTokens(s []byte, toks []likeToken) bool {
	si, ti := 0, 0
	starTok, starS := -1, 0
	for si < len(s) {
		if ti < len(toks) {
			t := toks[ti]
			switch t.kind {
			case '%':
				starTok, starS = ti, si
				ti++
				continue
			case '_':
				_, n := utf8.DecodeRune(s[si:])
				si += n
				ti++
				continue
			default:
				if len(s)-si >= len(t.lit) && string(s[si:si+len(t.lit)]) == string(t.lit) {
					si += len(t.lit)
					ti++
					continue
				}
			}
		}
		if starTok < 0 {
			return false
		}
		// Let the last '%' swallow one more character and retry after it.
		_, n := utf8.DecodeRune(s[starS:])
		starS += n
		si, ti = starS, starTok+1
	}
	for ti < len(toks) && toks[ti].kind == '%' {
		ti++
	}
	return ti == len(toks)
}

// prefixEnd is the smallest byte string greater than every string that
// starts with p, or nil when there is none (p is empty or all 0xff).
func prefixEnd(p []byte) []byte {
	end := append([]byte{}, p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
