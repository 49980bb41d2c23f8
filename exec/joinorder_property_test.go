package exec

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// Reordering a chain of joins keeps every answer: random chains of three
// and four inputs of different sizes, joined INNER, by comma, CROSS and
// LEFT, on integer and string keys (NULLs and duplicates among them), with
// filters on every input and across inputs, answer the same with the
// optimizer on and off, row for row and in the written column order.
func TestJoinOrderKeepsAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	rng := rand.New(rand.NewSource(20251201))
	type input struct {
		from       string
		ints, strs []string // columns usable as keys
	}
	inputs := []input{
		{"(SELECT order_id, customer_id, city, quantity FROM 'fixtures/orders_sorted.parquet' WHERE order_id <= 40)",
			[]string{"order_id", "quantity"}, []string{"city"}},
		{"(SELECT order_id, city, status, quantity FROM 'fixtures/orders_shuffled.parquet' WHERE order_id % 1000 = 1 OR order_id < 20)",
			[]string{"order_id", "quantity"}, []string{"city", "status"}},
		{"(SELECT order_id, delta, city, coupon FROM 'fixtures/statistics.parquet')",
			[]string{"order_id", "delta"}, []string{"city", "coupon"}},
		{"(SELECT id, int8_col, string_col FROM 'fixtures/types.parquet')",
			[]string{"id", "int8_col"}, []string{"string_col"}},
		{"(SELECT order_id, customer_id, city FROM 'fixtures/orders_shuffled.parquet' WHERE quantity = 1 AND order_id < 300)",
			[]string{"order_id"}, []string{"city"}},
	}
	filters := map[string][]string{
		"order_id": {"> 5", "< 30", "% 3 = 0", "IS NOT NULL"}, "quantity": {"> 2", "= 1"},
		"delta": {"< 0", "> -100"}, "id": {"> 1", "<> 4"}, "int8_col": {"IS NULL", "> 0"},
		"city": {"IS NULL", "<> 'Oslo'", "LIKE 'A%'"}, "status": {"= 'shipped'"}, "coupon": {"IS NOT NULL"},
		"string_col": {"IS NOT NULL"},
	}
	n := 60
	if testing.Short() {
		n = 20
	}
	on, off := NewSession(), NewSession()
	off.Settings.Optimizer = false
	nonEmpty := 0
	for range n {
		k := 3 + rng.Intn(2)
		perm := rng.Perm(len(inputs))[:k]
		alias := func(j int) string { return fmt.Sprintf("t%d", j) }
		// key returns an equality of input j with an earlier one.
		key := func(j int) string {
			p := rng.Intn(j)
			a, b := inputs[perm[p]], inputs[perm[j]]
			if rng.Intn(4) == 0 {
				return alias(p) + "." + a.strs[rng.Intn(len(a.strs))] + " = " + alias(j) + "." + b.strs[rng.Intn(len(b.strs))]
			}
			return alias(p) + "." + a.ints[rng.Intn(len(a.ints))] + " = " + alias(j) + "." + b.ints[rng.Intn(len(b.ints))]
		}
		var from strings.Builder
		var where []string
		from.WriteString(inputs[perm[0]].from + " " + alias(0))
		// A comma binds looser than JOIN: a chain is all commas or none.
		commas := rng.Intn(3) == 0
		for j := 1; j < k; j++ {
			in := inputs[perm[j]]
			switch r := rng.Intn(10); {
			case commas:
				fmt.Fprintf(&from, ", %s %s", in.from, alias(j))
				if r < 8 {
					where = append(where, key(j))
				}
			case r < 6:
				fmt.Fprintf(&from, " JOIN %s %s ON %s", in.from, alias(j), key(j))
			case r < 8:
				fmt.Fprintf(&from, " LEFT JOIN %s %s ON %s", in.from, alias(j), key(j))
			default:
				fmt.Fprintf(&from, " CROSS JOIN %s %s", in.from, alias(j))
				if rng.Intn(2) == 0 {
					where = append(where, key(j))
				}
			}
		}
		if rng.Intn(3) == 0 {
			// A condition across two inputs that is no key.
			p, j := rng.Intn(k-1), k-1
			a, b := inputs[perm[p]], inputs[perm[j]]
			where = append(where, alias(p)+"."+a.ints[rng.Intn(len(a.ints))]+" < "+alias(j)+"."+b.ints[rng.Intn(len(b.ints))])
		}
		var cols []string
		for j := range k {
			in := inputs[perm[j]]
			c := append(append([]string{}, in.ints...), in.strs...)[rng.Intn(len(in.ints)+len(in.strs))]
			cols = append(cols, alias(j)+"."+c)
			if fs := filters[c]; rng.Intn(4) == 0 && fs != nil {
				where = append(where, alias(j)+"."+c+" "+fs[rng.Intn(len(fs))])
			}
		}
		q := "SELECT " + strings.Join(cols, ", ") + " FROM " + from.String()
		if len(where) > 0 {
			q += " WHERE " + strings.Join(where, " AND ")
		}
		if rng.Intn(3) == 0 {
			q = "SELECT count(*), count(DISTINCT " + cols[0] + "), min(" + cols[k-1] + ") FROM " + strings.TrimPrefix(q, "SELECT "+strings.Join(cols, ", ")+" FROM ")
		} else {
			q += " ORDER BY ALL LIMIT 200"
		}
		want, got := resultText(t, off, q), resultText(t, on, q)
		if want != got {
			t.Errorf("%s:\noptimized:\n%s\nas written:\n%s", q, got, want)
		}
		if want != "" && !strings.HasPrefix(want, "0\t") {
			nonEmpty++
		}
	}
	if nonEmpty < n/3 {
		t.Errorf("only %d of %d queries had rows: the test checks too little", nonEmpty, n)
	}
}
