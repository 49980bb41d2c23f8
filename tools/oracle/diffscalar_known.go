package main

import "strings"

// DuckDB 1.5.6 answers two kinds of generated scalar queries wrongly, and
// pqsql does not copy the wrong answers:
//
//   - printf's %f of a number with more than 17 significant digits before
//     the point prints digits past the 17th that are not the double's
//     (printf('%.2f', 1e300) is 100000000000000005253241397440433502...,
//     the double is 100000000000000005250476025520442024...): its fixed
//     notation continues an approximation's digits once the error bound
//     it checks has overflowed. pqsql prints the exact expansion, as C's
//     printf does.
//   - A TIMESTAMPTZ cast to VARCHAR and compared with a constant string is
//     compared as a timestamp with the string cast to TIMESTAMPTZ, and a
//     string that is no timestamp becomes NULL: 'x' <>
//     CAST(to_timestamp(1) AS VARCHAR) is NULL, and the timestamp is never
//     computed, so to_timestamp('NaN'::DOUBLE) there is no error. pqsql
//     compares the text.
//
// Each check is narrow: the first needs a printf in the query and answers
// that agree but for digits after the 17th significant one of a long
// number; the second needs such a comparison in the query.

// duckDBBug reports whether q's difference is one of DuckDB's wrong
// answers above.
func (q scalarQuery) duckDBBug(duck, pq answer) bool {
	if strings.Contains(q.SQL(), "printf(") && duck.err == nil && pq.err == nil && printfDigitsOnly(duck.cells, pq.cells) {
		return true
	}
	for _, e := range q.exprs {
		if comparesTimestampText(e) {
			return true
		}
	}
	return false
}

// printfDigitsOnly reports whether a and b differ only in digits that
// follow at least 17 significant digits of the same run of digits.
func printfDigitsOnly(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	sig := 0 // significant digits so far in the current run
	for i := range len(a) {
		isDigit := a[i] >= '0' && a[i] <= '9'
		if a[i] != b[i] && (!isDigit || b[i] < '0' || b[i] > '9' || sig < 17) {
			return false
		}
		switch {
		case !isDigit:
			sig = 0
		case sig > 0 || a[i] != '0':
			sig++
		}
	}
	return true
}

// timestampText is the generator's TIMESTAMPTZ rendered as text.
const timestampText = "CAST(to_timestamp(?) AS VARCHAR)"

// comparesTimestampText reports whether e holds a comparison or IN list
// of a TIMESTAMPTZ's text with a constant.
func comparesTimestampText(e *sexpr) bool {
	if e.sig == nil {
		return false
	}
	if isComparison(e.sig.form) {
		for i, k := range e.kids {
			if k.sig == nil || k.sig.form != timestampText {
				continue
			}
			for j, o := range e.kids {
				if j != i && isConstant(o) {
					return true
				}
			}
		}
	}
	for _, k := range e.kids {
		if comparesTimestampText(k) {
			return true
		}
	}
	return false
}

func isComparison(form string) bool {
	for _, op := range []string{"(? = ?)", "(? <> ?)", "(? < ?)", "(? <= ?)", "(? > ?)", "(? >= ?)", "(? IN (", "(? NOT IN ("} {
		if strings.HasPrefix(form, op) {
			return true
		}
	}
	return false
}

// isConstant reports whether e refers to no column.
func isConstant(e *sexpr) bool {
	if e.sig == nil {
		return !strings.HasPrefix(e.leaf, `"`)
	}
	for _, k := range e.kids {
		if !isConstant(k) {
			return false
		}
	}
	return true
}
