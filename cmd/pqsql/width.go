package main

import (
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
)

// widthCond measures text as a terminal with East Asian ambiguous
// characters narrow does, grapheme cluster by grapheme cluster, so emoji
// (🚀, flags, ZWJ sequences) take two columns and combining marks none.
var widthCond = func() *runewidth.Condition {
	c := runewidth.NewCondition()
	c.EastAsianWidth = false
	return c
}()

// displayWidth is the number of terminal columns s takes. Control
// characters take none: the renderers spell them out before measuring.
func displayWidth(s string) int {
	return widthCond.StringWidth(s)
}

// truncateWidth cuts s to at most width columns, ending it with "…" when
// something was cut. It returns the text and its width.
func truncateWidth(s string, width int) (string, int) {
	if w := displayWidth(s); w <= width {
		return s, w
	}
	if width <= 0 {
		return "", 0
	}
	t := widthCond.Truncate(s, width, "…")
	return t, displayWidth(t)
}

// escapeControl spells control characters out (\n, \t, \27 ...) so a value
// stays on one line of a table, as DuckDB's box renderer does.
func escapeControl(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('\\')
		switch c {
		case 7:
			b.WriteByte('a')
		case 8:
			b.WriteByte('b')
		case 9:
			b.WriteByte('t')
		case 10:
			b.WriteByte('n')
		case 11:
			b.WriteByte('v')
		case 12:
			b.WriteByte('f')
		case 13:
			b.WriteByte('r')
		case 27:
			b.WriteByte('e')
		default:
			b.WriteString(strconv.Itoa(int(c)))
		}
	}
	return b.String()
}
