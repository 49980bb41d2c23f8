package exec

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// TestGroupByStringKeysMatchesReference compares GROUP BY answers on two
// and three string keys over five copies of the orders fixture (dictionary
// strings, whose addresses find the groups; NULL cities and notes; and
// thousands of combinations with customer ids as text, so that rows of
// different keys meet in a slot of the cache) with a reference aggregated
// here from the raw rows.
func TestGroupByStringKeysMatchesReference(t *testing.T) {
	t.Chdir(moduleRoot(t))
	for _, keys := range []string{"status, city", "city, status, note", "status, city, customer_id::VARCHAR"} {
		nk := strings.Count(keys, ",") + 1
		raw := "SELECT " + keys + ", amount FROM " + ordersTimes5
		type agg struct {
			rows, n int64
			sum     big.Rat
		}
		ref := map[string]*agg{}
		for _, line := range resultLines(t, NewSession(), raw) {
			f := strings.Split(line, "|")
			k := strings.Join(f[:nk], "|")
			g := ref[k]
			if g == nil {
				g = &agg{}
				ref[k] = g
			}
			g.rows++
			if x := f[nk]; x != "NULL" {
				r, ok := new(big.Rat).SetString(x)
				if !ok {
					t.Fatalf("%q is no number", x)
				}
				g.n++
				g.sum.Add(&g.sum, r)
			}
		}
		var want []string
		for k, g := range ref {
			sum := "NULL"
			if g.n > 0 {
				sum = g.sum.FloatString(2)
			}
			want = append(want, fmt.Sprintf("%s|%d|%s", k, g.rows, sum))
		}
		q := "SELECT " + keys + ", count(*), sum(amount) FROM " + ordersTimes5 + " GROUP BY " + keys
		for _, threads := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s, threads %d", keys, threads), func(t *testing.T) {
				s := NewSession()
				mustExec(t, s, fmt.Sprintf("SET threads = %d", threads))
				got := sortedLines(strings.Join(resultLines(t, s, q), "\n"))
				if w := sortedLines(strings.Join(want, "\n")); got != w {
					t.Fatalf("answers differ\ngot:\n%s\nwant:\n%s", firstLines(got, 10), firstLines(w, 10))
				}
			})
		}
	}
}

// An empty string and NULL are different keys, in every position.
func TestGroupByStringKeysEmptyAndNull(t *testing.T) {
	q := "SELECT a, b, count(*) FROM (VALUES ('', 'x'), (NULL, 'x'), ('', 'x'), ('x', ''), ('x', NULL), ('x', ''), ('', ''), (NULL, NULL), ('', NULL)) t(a, b) GROUP BY a, b"
	got := sortedLines(strings.Join(resultLines(t, NewSession(), q), "\n"))
	want := sortedLines(strings.Join([]string{"|x|2", "NULL|x|1", "x||2", "x|NULL|1", "||1", "NULL|NULL|1", "|NULL|1"}, "\n"))
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
