package sql

import (
	"strconv"
	"strings"
	"testing"
)

// The front end's cost must grow linearly with the text; compare ns/op of
// the two sizes of each benchmark (go test ./sql -run XXX -bench . -benchmem).

// BenchmarkSplitScript splits n statements written on one line, as the
// shell does: one statement at a time (B/op stays flat per statement).
func BenchmarkSplitScript(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		text := strings.Repeat("SELECT 1 AS a /* c */; ", n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				s := NewSplitter(text)
				count := 0
				for s.Next() {
					count++
				}
				if s.Err() != nil || count != n {
					b.Fatalf("%d pieces, %v", count, s.Err())
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

// BenchmarkManyRewrites parses select lists of n casts, typed literals and
// EXTRACTs, each of which a lowering pass rewrites.
func BenchmarkManyRewrites(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		var sb strings.Builder
		sb.WriteString("SELECT ")
		for i := range n {
			if i > 0 {
				sb.WriteString(", ")
			}
			switch i % 4 {
			case 0:
				sb.WriteString("x::INTEGER")
			case 1:
				sb.WriteString("CAST(x AS VARCHAR)")
			case 2:
				sb.WriteString("DATE '2024-01-01'")
			default:
				sb.WriteString("extract(year FROM d)")
			}
		}
		text := sb.String() + " FROM t"
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := Parse(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
