package planner

import (
	"fmt"
	"strings"
)

// dateCastError is DuckDB's error for text that does not convert to a
// DATE: text shaped like a date (digits, a separator, one or two digits,
// the same separator, one or two digits) whose fields are out of range
// ('2024-02-30') is "out of range"; any other text is "invalid date field
// format". What DuckDB reads and pqsql does not is refused as not
// implemented, never as bad input: "/", "." or " " between the fields,
// text after the date ('2024-1-1x'), and 'infinity', '-infinity', 'epoch'.
func dateCastError(s string) error {
	t := strings.TrimPrefix(strings.TrimSpace(s), "-")
	digits := func(min, max int) bool {
		n := 0
		for n < len(t) && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		t = t[n:]
		return n >= min && (max == 0 || n <= max)
	}
	shaped := digits(1, 0) && t != "" && strings.IndexByte("-/. ", t[0]) >= 0
	var sep byte
	if shaped {
		sep, t = t[0], t[1:]
		shaped = digits(1, 2) && t != "" && t[0] == sep
	}
	if shaped {
		t = t[1:]
		shaped = digits(1, 2)
	}
	switch low := strings.ToLower(strings.TrimSpace(s)); {
	case low == "infinity" || low == "-infinity" || low == "epoch":
		return fmt.Errorf("%w: DATE '%s'", ErrNotImplemented, low)
	case shaped && t != "" && t[0] != ' ' && t[0] != 'T':
		return fmt.Errorf("%w: text after a date: \"%s\"", ErrNotImplemented, s)
	case shaped && sep != '-':
		return fmt.Errorf("%w: dates with %q between their fields: \"%s\"", ErrNotImplemented, string(sep), s)
	case shaped:
		return fmt.Errorf("%w: date field value out of range: \"%s\"", ErrConversion, s)
	}
	return fmt.Errorf("%w: invalid date field format: \"%s\", expected format is (YYYY-MM-DD)", ErrConversion, s)
}
