package planner

import (
	"github.com/pqsql/pqsql/sql"
)

// globFunc is DuckDB's GLOB operator (~~~): * any run of characters, ? one
// character, [...] one of a set ([!...] none of it), case-sensitive.
var globFunc = &ScalarFunc{Name: "~~~", Eval: func(_ *Call, a []Datum) (Datum, error) {
	return Datum{B: globMatch([]rune(a[0].S), []rune(a[1].S))}, nil
}}

// patternMatch binds a GLOB b and a [NOT] SIMILAR TO b, the latter
// being regexp_full_match, as in DuckDB.
func patternMatch(op string, l, r Expr) (Expr, error) {
	args := []Expr{l, r}
	if err := castArgs(args, tVarchar); err != nil {
		return nil, err
	}
	var x Expr
	switch op {
	case sql.GlobStr:
		x = newCall(globFunc, args, tBool)
	default:
		var err error
		if x, err = call("regexp_full_match", args); err != nil {
			return nil, err
		}
	}
	if op == sql.NotSimilarToStr {
		x = &Not{X: x}
	}
	return fold(x)
}

// globMatch matches s against a glob pattern in time O(len(s)*len(p)) at
// worst: a later * makes an earlier one's choice irrelevant, so only the
// last * is ever backtracked to.
func globMatch(s, p []rune) bool {
	si, pi := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch p[pi] {
			case '*':
				star, mark = pi, si
				pi++
				continue
			case '?':
				si, pi = si+1, pi+1
				continue
			case '[':
				// An unclosed [ matches nothing.
				if ok, next := globClass(s[si], p, pi); ok {
					si, pi = si+1, next
					continue
				}
			default:
				if p[pi] == s[si] {
					si, pi = si+1, pi+1
					continue
				}
			}
		}
		if star < 0 {
			return false
		}
		mark++
		si, pi = mark, star+1
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// globClass matches c against the class starting at p[i] == '[' and
// returns the index after it, or 0 when the class is not closed.
func globClass(c rune, p []rune, i int) (bool, int) {
	j := i + 1
	neg := j < len(p) && p[j] == '!'
	if neg {
		j++
	}
	match := false
	for first := true; j < len(p); first = false {
		if p[j] == ']' && !first {
			return match != neg, j + 1
		}
		if j+2 < len(p) && p[j+1] == '-' && p[j+2] != ']' {
			if p[j] <= c && c <= p[j+2] {
				match = true
			}
			j += 3
			continue
		}
		if p[j] == c {
			match = true
		}
		j++
	}
	return false, 0
}
