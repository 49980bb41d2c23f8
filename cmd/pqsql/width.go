package main

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wideRanges are the East Asian wide and fullwidth blocks (and the emoji
// blocks terminals draw two columns wide), sorted.
var wideRanges = [][2]rune{
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC},
	{0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},
	{0xA000, 0xA4CF}, {0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF},
	{0xFE10, 0xFE19}, {0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6},
	{0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
}

// runeWidth is the number of terminal columns r takes.
func runeWidth(r rune) int {
	switch {
	case r < 0x20 || r == 0x7F:
		return 0
	case r < 0x300:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || (r >= 0xFE00 && r <= 0xFE0F):
		return 0
	}
	for _, w := range wideRanges {
		if r < w[0] {
			return 1
		}
		if r <= w[1] {
			return 2
		}
	}
	return 1
}

// displayWidth is the number of terminal columns s takes.
func displayWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7F {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += runeWidth(r)
		i += size
	}
	return n
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
	used := 0
	end := 0
	for i, r := range s {
		rw := runeWidth(r)
		if used+rw > width-1 {
			break
		}
		used += rw
		end = i + utf8.RuneLen(r)
	}
	return s[:end] + "…", used + 1
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
