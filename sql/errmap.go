package sql

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// posRe finds the byte position in sqlparser's "... at position N near 'x'".
var posRe = regexp.MustCompile(`^(.*) at position (\d+)`)

// mapError maps sqlparser's error back to the original token and asks
// sqlparser what it would have accepted there.
func (p *parser) mapError(out []otok, starts []int, perr error) error {
	m := posRe.FindStringSubmatch(perr.Error())
	if m == nil {
		return p.errOut(out, 0, ErrInternal, perr.Error())
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return p.errOut(out, 0, ErrInternal, perr.Error())
	}
	k := tokenEndingAt(out, starts, n-1) // sqlparser's position is 1 past the offending token
	if m[1] != "syntax error" {
		return p.errOut(out, k, ErrUnsupported, m[1])
	}
	return p.errOut(out, k, ErrSyntax, expected(out, k))
}

// tokenEndingAt returns the token whose text ends at byte pe of the emitted
// text, or len(out) for end of input.
func tokenEndingAt(out []otok, starts []int, pe int) int {
	for k := range out {
		if starts[k]+len(out[k].text) == pe {
			return k
		}
	}
	for k := len(out) - 1; k >= 0; k-- {
		if starts[k] < pe && starts[k]+len(out[k].text) > pe {
			return k
		}
	}
	return len(out)
}

// A probe is a token tried at the error position to learn what sqlparser
// expected there (its tables are unexported and its messages say only
// "syntax error").
type probe struct{ show, text string }

var probes = []probe{
	{`")"`, ")"}, {`","`, ","}, {"BY", "by"}, {"FROM", "from"}, {"AS", "as"}, {"ON", "on"},
	{"THEN", "then"}, {"WHEN", "when"}, {"END", "end"}, {"expression", "1"}, {"identifier", "x"},
	{`"("`, "("}, {"WHERE", "where"}, {"GROUP BY", "group by"}, {"HAVING", "having"},
	{"ORDER BY", "order by"}, {"LIMIT", "limit"}, {"end of input", ""},
}

const maxExpected = 6

// expected returns "expected A, B or C" for the probes that sqlparser takes
// in place of token k.
func expected(out []otok, k int) string {
	prefix, _ := emit(out[:k])
	var got []string
	hasExpr := false
	for _, pr := range probes {
		s := prefix + pr.text + " "
		threshold := len(prefix) + len(pr.text)
		if pr.text == "" {
			s, threshold = prefix, len(prefix)
		}
		if !accepts(s, threshold) {
			continue
		}
		switch pr.show {
		case "expression":
			hasExpr = true
		case "identifier", `"("`:
			if hasExpr {
				continue
			}
		}
		got = append(got, pr.show)
	}
	if len(got) == 0 {
		if k >= len(out) {
			return "unexpected end of input"
		}
		return "unexpected token"
	}
	if len(got) > maxExpected {
		return "expected " + strings.Join(got[:maxExpected], ", ") + ", ..."
	}
	if len(got) == 1 {
		return "expected " + got[0]
	}
	return "expected " + strings.Join(got[:len(got)-1], ", ") + " or " + got[len(got)-1]
}

// accepts reports whether sqlparser reads s without error up to byte
// threshold, i.e. fails (if at all) only at end of input.
func accepts(s string, threshold int) bool {
	_, err := sqlparser.Parse(s)
	if err == nil {
		return true
	}
	m := posRe.FindStringSubmatch(err.Error())
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(m[2])
	return n-1 > threshold
}
