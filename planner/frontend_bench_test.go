package planner

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/sql"
)

// The front end's cost must grow linearly with the text: these benchmarks
// parse and bind large inputs at two sizes each (compare ns/op across the
// sizes; -benchmem shows the bytes).
//
//	go test ./planner -run XXX -bench FrontEnd -benchmem

// bigOr is a WHERE of n OR'ed comparisons (DuckDB flattens them: no depth).
func bigOr(n int) string {
	var b strings.Builder
	b.WriteString("SELECT 1 AS a WHERE ")
	for i := range n {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString("1 = ")
		b.WriteString(strconv.Itoa(i))
	}
	return b.String()
}

// bigIn is an IN list of n constants.
func bigIn(n int) string {
	var b strings.Builder
	b.WriteString("SELECT 1 IN (")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString(") AS a")
	return b.String()
}

// wideStar is SELECT * over a subquery of n columns.
func wideStar(n int) string {
	var b strings.Builder
	b.WriteString("SELECT * FROM (SELECT ")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("1 AS c")
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString(")")
	return b.String()
}

// bigSum is 1+1+...+1 of n terms: deeper than the expression depth limit
// once n passes it, so it must fail early and cheaply.
func bigSum(n int) string {
	return "SELECT " + strings.Repeat("1+", n-1) + "1"
}

// nestedParens is n parentheses around 1.
func nestedParens(n int) string {
	return "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n)
}

func benchPlan(b *testing.B, q string, wantErr bool) {
	b.SetBytes(int64(len(q)))
	for b.Loop() {
		st, err := sql.Parse(q)
		if err == nil {
			_, err = Build(st.(*sql.Select), nil)
		}
		if (err != nil) != wantErr {
			b.Fatalf("err = %v, want error: %v", err, wantErr)
		}
	}
}

func BenchmarkFrontEnd(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run("or/"+strconv.Itoa(n), func(b *testing.B) { benchPlan(b, bigOr(n), false) })
		b.Run("in/"+strconv.Itoa(n), func(b *testing.B) { benchPlan(b, bigIn(n), false) })
		b.Run("star/"+strconv.Itoa(n/10*8), func(b *testing.B) { benchPlan(b, wideStar(n/10*8), false) })
		// The outer star binds the inner one's columns by qualified name.
		b.Run("star2/"+strconv.Itoa(n/10*8), func(b *testing.B) {
			benchPlan(b, "SELECT * FROM ("+wideStar(n/10*8)+")", false)
		})
	}
	for _, n := range []int{100_000, 1_000_000} {
		b.Run("sum/"+strconv.Itoa(n), func(b *testing.B) { benchPlan(b, bigSum(n), true) })
		b.Run("parens/"+strconv.Itoa(n/50), func(b *testing.B) { benchPlan(b, nestedParens(n/50), true) })
	}
}
