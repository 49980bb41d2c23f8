package pushdown

import (
	"bytes"
	"strings"
	"testing"
)

func TestLikeMatch(t *testing.T) {
	tests := []struct {
		s, pattern string
		escape     rune
		want       bool
	}{
		{"abc", "abc", 0, true},
		{"abc", "ab", 0, false},
		{"abc", "a%", 0, true},
		{"abc", "%c", 0, true},
		{"abc", "%b%", 0, true},
		{"abc", "a_c", 0, true},
		{"abc", "a__c", 0, false},
		{"", "%", 0, true},
		{"", "_", 0, false},
		{"aXbXc", "a%b%c", 0, true},
		{"aXbX", "a%b%c", 0, false},
		{"Łódź", "_ódź", 0, true}, // '_' is one character, two bytes here
		{"Łódź", "__ódź", 0, false},
		{"🦆a🦆", "_a_", 0, true},
		{"a%b", `a\%b`, '\\', true},
		{"aXb", `a\%b`, '\\', false},
		{"a_b", `a\_b`, '\\', true},
		{"mississippi", "%iss%ppi", 0, true},
		{"mississippi", "%iss%ppx", 0, false},
		{"abc", "ABC", 0, false}, // LIKE is case sensitive
	}
	for _, tt := range tests {
		if got := likeMatch([]byte(tt.s), tt.pattern, tt.escape); got != tt.want {
			t.Errorf("%q LIKE %q (escape %q) = %v, want %v", tt.s, tt.pattern, tt.escape, got, tt.want)
		}
	}
}

func TestLikeShape(t *testing.T) {
	tests := []struct {
		pattern           string
		escape            rune
		prefix            string
		exact, prefixOnly bool
	}{
		{"abc", 0, "abc", true, false},
		{"abc%", 0, "abc", false, true},
		{"abc%%", 0, "abc", false, true},
		{"abc%d", 0, "abc", false, false},
		{"ab_c", 0, "ab", false, false},
		{"%abc", 0, "", false, false},
		{"%", 0, "", false, true},
		{`a\%b%`, '\\', "a%b", false, true},
		{`50\%`, '\\', "50%", true, false},
	}
	for _, tt := range tests {
		s := shapeOf(tt.pattern, tt.escape)
		if string(s.prefix) != tt.prefix || s.exact != tt.exact || s.prefixOnly != tt.prefixOnly {
			t.Errorf("shapeOf(%q) = {%q exact=%v prefixOnly=%v}, want {%q %v %v}", tt.pattern, s.prefix, s.exact, s.prefixOnly, tt.prefix, tt.exact, tt.prefixOnly)
		}
	}
}

func TestPrefixEnd(t *testing.T) {
	tests := []struct{ in, want []byte }{
		{[]byte("abc"), []byte("abd")},
		{[]byte("ab\xff"), []byte("ac")},
		{[]byte("\xff\xff"), nil},
		{[]byte{}, nil},
	}
	for _, tt := range tests {
		if got := prefixEnd(tt.in); !bytes.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("prefixEnd(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLikeMatchSteps holds the matcher to (len(s)+1) * (tokens+1) steps on
// patterns that make a backtracking matcher try every way of splitting the
// string among its '%'s (exponentially many for a string of one letter).
func TestLikeMatchSteps(t *testing.T) {
	tests := []struct {
		s, pattern string
		want       bool
	}{
		{strings.Repeat("a", 42), strings.Repeat("%a", 8) + "%b", false},
		{strings.Repeat("a", 2000), strings.Repeat("%a", 60) + "%b", false},
		{strings.Repeat("a", 2000) + "b", strings.Repeat("%a", 60) + "%b", true},
		{strings.Repeat("ab", 1000), strings.Repeat("%a_", 100) + "c%", false},
		{strings.Repeat("ab", 1000), strings.Repeat("%a_", 100) + "%", true},
		{strings.Repeat("é", 500), strings.Repeat("%é", 30) + "_", true},
	}
	for _, tt := range tests {
		toks := parseLike(tt.pattern, 0)
		got, steps := matchTokens(tt.s, toks)
		if got != tt.want {
			t.Errorf("%d-byte string LIKE %q = %v, want %v", len(tt.s), tt.pattern, got, tt.want)
		}
		if bound := (len(tt.s) + 1) * (len(toks) + 1); steps > bound {
			t.Errorf("%d-byte string LIKE %q took %d steps, more than %d", len(tt.s), tt.pattern, steps, bound)
		}
		if b, _ := matchTokens([]byte(tt.s), toks); b != got {
			t.Errorf("%q: string and byte matchers disagree", tt.pattern)
		}
	}
}

// BenchmarkLikeMatch matches a 4,000-character string against a pattern
// of 20 '%'s that never matches, the shape that made a backtracking
// matcher exponential.
func BenchmarkLikeMatch(b *testing.B) {
	s := strings.Repeat("a", 4000)
	p := CompileLike(strings.Repeat("%a", 20)+"%b", 0)
	for b.Loop() {
		if p.Match(s) {
			b.Fatal("matched")
		}
	}
}
