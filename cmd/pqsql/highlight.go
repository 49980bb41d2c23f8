package main

import (
	"strings"
	"unicode"

	"github.com/chzyer/readline"
)

// keywordColor is the ANSI colour of SQL keywords at the prompt.
const keywordColor = "\x1b[1;34m"

// keywordSet holds the keywords the prompt highlights, upper-cased.
var keywordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range sqlKeywords {
		m[k] = true
	}
	for _, k := range strings.Fields("COPY FORMAT HEADER DELIMITER VERBOSE VERIFY WITH BETWEEN") {
		m[k] = true
	}
	return m
}()

// A keywordPainter colours SQL keywords as the line is typed, outside
// strings, quoted names and comments. readline places the cursor by the
// unpainted line, so the colour codes cost no columns.
type keywordPainter struct{}

var _ readline.Painter = keywordPainter{}

// Paint returns line with its keywords coloured.
func (keywordPainter) Paint(line []rune, _ int) []rune {
	if len(line) > 0 && line[0] == '.' {
		return line // a dot command
	}
	return []rune(highlightKeywords(string(line)))
}

// highlightKeywords colours the keywords of one line of SQL.
func highlightKeywords(s string) string {
	var b strings.Builder
	runes := []rune(s)
	for i := 0; i < len(runes); {
		r := runes[i]
		switch {
		case r == '\'' || r == '"':
			j := i + 1
			for j < len(runes) && runes[j] != r {
				j++
			}
			j = min(j+1, len(runes))
			b.WriteString(string(runes[i:j]))
			i = j
		case r == '-' && i+1 < len(runes) && runes[i+1] == '-':
			b.WriteString(string(runes[i:]))
			i = len(runes)
		case unicode.IsLetter(r) || r == '_':
			j := i + 1
			for j < len(runes) && (unicode.IsLetter(runes[j]) || unicode.IsDigit(runes[j]) || runes[j] == '_') {
				j++
			}
			word := string(runes[i:j])
			if keywordSet[strings.ToUpper(word)] {
				b.WriteString(keywordColor + word + ansiReset)
			} else {
				b.WriteString(word)
			}
			i = j
		default:
			b.WriteRune(r)
			i++
		}
	}
	return b.String()
}
