package planner

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pqsql/pqsql/pushdown"
)

// LikeMatch reports whether s matches a LIKE pattern ('%' any run, '_' one
// character) without an escape character. It is pushdown's matcher, the
// one pruning uses, so a row and a page are judged alike.
func LikeMatch(s, p string) bool { return pushdown.LikeMatch(s, p, 0) }

// likeEscape reads an ESCAPE string as DuckDB does: empty means none, more
// than one character is an error.
func likeEscape(esc string) (rune, error) {
	switch utf8.RuneCountInString(esc) {
	case 0:
		return 0, nil
	case 1:
		r, _ := utf8.DecodeRuneInString(esc)
		return r, nil
	}
	return 0, fmt.Errorf("%w: Invalid escape string. Escape string must be empty or one character.", ErrSyntax)
}

// checkLikePattern refuses a pattern whose last character is an unescaped
// escape character, as DuckDB does.
func checkLikePattern(p string, esc rune) error {
	if esc == 0 {
		return nil
	}
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		i += n
		if r != esc {
			continue
		}
		if i == len(p) {
			return fmt.Errorf("%w: Like pattern must not end with escape character!", ErrSyntax)
		}
		_, m := utf8.DecodeRuneInString(p[i:])
		i += m
	}
	return nil
}

// compileLike prepares e's matcher when its pattern and escape are constant,
// so rows do not split the pattern again.
func compileLike(e *Like) error {
	p, ok := e.Pattern.(*Const)
	if !ok || p.Value.Null {
		return nil
	}
	esc := rune(0)
	if e.Escape != nil {
		c, ok := e.Escape.(*Const)
		if !ok || c.Value.Null {
			return nil
		}
		r, err := likeEscape(c.Value.S)
		if err != nil {
			return err
		}
		esc = r
	}
	pat := p.Value.S
	if e.Fold {
		pat = strings.ToLower(pat)
	}
	if err := checkLikePattern(pat, esc); err != nil {
		return err
	}
	e.compiled = pushdown.CompileLike(pat, esc)
	return nil
}

func evalLike(e *Like, row []Datum) (Datum, error) {
	x, err := Eval(e.X, row)
	if err != nil || x.Null {
		return NullDatum, err
	}
	s := x.S
	if e.Fold {
		s = strings.ToLower(s)
	}
	if e.compiled != nil {
		return Datum{B: e.compiled.Match(s) != e.Not}, nil
	}
	p, err := Eval(e.Pattern, row)
	if err != nil || p.Null {
		return NullDatum, err
	}
	esc := rune(0)
	if e.Escape != nil {
		d, err := Eval(e.Escape, row)
		if err != nil || d.Null {
			return NullDatum, err
		}
		if esc, err = likeEscape(d.S); err != nil {
			return Datum{}, err
		}
	}
	pat := p.S
	if e.Fold {
		pat = strings.ToLower(pat)
	}
	if err := checkLikePattern(pat, esc); err != nil {
		return Datum{}, err
	}
	return Datum{B: pushdown.LikeMatch(s, pat, esc) != e.Not}, nil
}

// LikeEscape is e's escape character when it is a constant (0 for none),
// and false when it is not constant or NULL.
func LikeEscape(e *Like) (rune, bool) {
	if e.Escape == nil {
		return 0, true
	}
	c, ok := e.Escape.(*Const)
	if !ok || c.Value.Null {
		return 0, false
	}
	r, err := likeEscape(c.Value.S)
	return r, err == nil
}
