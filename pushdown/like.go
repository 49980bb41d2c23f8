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

// likeShape is the shape of a LikeOp or NotLikeOp's pattern: the one the
// condition was resolved with, judged against every page's bounds, or one
// parsed now for a condition built otherwise.
func (c *Cond) likeShape() likeShape {
	if c.like != nil {
		return *c.like
	}
	return shapeOf(c.Pattern, c.Escape)
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
	ok, _ := matchTokens(s, parseLike(pattern, escape))
	return ok
}

// A LikePattern is a LIKE pattern split once into its tokens, for matching
// many strings. Matching takes at most (len(s)+1) * (tokens+1) steps: a
// failed attempt after a '%' restarts only from the last '%', never from an
// earlier one, because the last '%' can absorb whatever an earlier one could.
type LikePattern struct{ toks []likeToken }

// CompileLike splits pattern into its tokens; escape (0 for none) makes the
// character after it literal.
func CompileLike(pattern string, escape rune) *LikePattern {
	return &LikePattern{toks: parseLike(pattern, escape)}
}

// Match reports whether s matches the pattern.
func (p *LikePattern) Match(s string) bool {
	ok, _ := matchTokens(s, p.toks)
	return ok
}

// LikeMatch reports whether s matches a LIKE pattern: the one matcher
// pruning, the planner and the executor share.
func LikeMatch(s, pattern string, escape rune) bool {
	ok, _ := matchTokens(s, parseLike(pattern, escape))
	return ok
}

// decodeRune is utf8.DecodeRune for either a string or a byte slice.
func decodeRune[T string | []byte](s T) int {
	if len(s) > 0 && s[0] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(string(s))
	return n
}

// matchTokens matches s against toks and also returns the number of steps
// it took, which the tests bound.
func matchTokens[T string | []byte](s T, toks []likeToken) (bool, int) {
	si, ti, steps := 0, 0, 0
	starTok, starS := -1, 0
	for si < len(s) {
		steps++
		if ti < len(toks) {
			t := toks[ti]
			switch t.kind {
			case '%':
				starTok, starS = ti, si
				ti++
				continue
			case '_':
				si += decodeRune(s[si:])
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
			return false, steps
		}
		// Let the last '%' swallow one more character and retry after it.
		starS += decodeRune(s[starS:])
		si, ti = starS, starTok+1
	}
	for ti < len(toks) && toks[ti].kind == '%' {
		ti++
	}
	return ti == len(toks), steps
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
