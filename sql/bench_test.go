package sql

import (
	"strconv"
	"strings"
	"testing"
)

// The front end's cost must grow linearly with the text; compare ns/op of
// the two sizes of each benchmark (go test ./sql -run XXX -bench . -benchmem).

// BenchmarkSplitScript splits n statements written on one line.
func BenchmarkSplitScript(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		text := strings.Repeat("SELECT 1 AS a /* c */; ", n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				pieces, err := SplitScript(text)
				if err != nil || len(pieces) != n {
					b.Fatalf("%d pieces, %v", len(pieces), err)
				}
			}
		})
	}
}

// BenchmarkNestedParens parses parentheses nested past the depth limit:
// the statement fails before any lowering pass walks the nesting.
func BenchmarkNestedParens(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		text := "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := Parse(text); err == nil {
					b.Fatal("no error")
				}
			}
		})
	}
}
