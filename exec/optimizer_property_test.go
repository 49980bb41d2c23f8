package exec

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// The optimizer keeps every answer: random queries through views, CTEs,
// FROM subqueries, UNION ALL and UNION, aggregates, DISTINCT, sorted
// LIMITs and joins of every kind, with random filters at every level,
// answer the same with the optimizer on and off.
func TestOptimizerKeepsAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	rng := rand.New(rand.NewSource(4242))
	num := func() string { return strconv.Itoa(rng.Intn(20000)) }
	// Leaf predicates over the orders columns.
	preds := []string{"order_id < $n", "order_id > $n", "quantity = $n % 10", "city = 'Oslo'", "city IS NULL",
		"status <> 'shipped'", "amount > $n / 10", "order_id % 7 = $n % 7", "NOT (quantity > 5 AND city = 'Paris')",
		"(order_id < $n OR NULL)", "discount IS NOT NULL", "order_date < DATE '2024-02-15'", "note IS NULL OR quantity < 3"}
	pred := func() string {
		p := preds[rng.Intn(len(preds))]
		for strings.Contains(p, "$n") {
			p = strings.Replace(p, "$n", num(), 1)
		}
		return p
	}
	files := []string{"'fixtures/orders_sorted.parquet'", "'fixtures/orders_shuffled.parquet'", "'fixtures/orders_*.parquet'"}
	// source returns a FROM item with the orders columns, nested at random.
	var source func(depth int) string
	source = func(depth int) string {
		f := files[rng.Intn(len(files))]
		if depth == 0 {
			return f
		}
		switch rng.Intn(6) {
		case 0:
			return "(SELECT * FROM " + source(depth-1) + " WHERE " + pred() + ")"
		case 1:
			return "(SELECT * FROM " + source(depth-1) + " UNION ALL SELECT * FROM " + source(depth-1) + ")"
		case 2:
			return "(SELECT DISTINCT * FROM " + source(depth-1) + " WHERE " + pred() + ")"
		case 3:
			return "(SELECT * FROM " + source(depth-1) + " ORDER BY order_id, customer_id LIMIT " + strconv.Itoa(rng.Intn(3000)) + ")"
		case 4:
			return "(SELECT a.* FROM " + source(depth-1) + " a JOIN (SELECT order_id FROM " + f + " WHERE " + pred() + ") b USING (order_id))"
		}
		return "(SELECT a.* FROM " + source(depth-1) + " a LEFT JOIN (SELECT order_id AS o2, city AS c2 FROM " + f + " WHERE " + pred() + ") b ON a.order_id = b.o2 WHERE " + pred() + " AND (c2 IS NULL OR c2 <> 'Oslo'))"
	}
	n := 60
	if testing.Short() {
		n = 20
	}
	s := NewSession()
	nonEmpty := 0
	for i := range n {
		from := source(1 + rng.Intn(2))
		var q string
		switch i % 6 {
		case 3:
			not := []string{"", "NOT "}[rng.Intn(2)]
			q = "SELECT count(*), sum(o.quantity), max(o.order_id) FROM " + from + " o WHERE (" + pred() + ") AND " + not + "EXISTS (SELECT 1 FROM " +
				files[rng.Intn(len(files))] + " s WHERE s.customer_id = o.customer_id AND s.order_id <> o.order_id AND (" + pred() + "))"
		case 4:
			q = "SELECT o.city, count(*), sum((SELECT count(*) FROM " + files[rng.Intn(len(files))] + " s WHERE s.city = o.city AND s.quantity = o.quantity AND (" +
				pred() + "))) FROM " + from + " o WHERE (" + pred() + ") AND o.customer_id IN (SELECT s.customer_id FROM " + files[rng.Intn(len(files))] +
				" s WHERE s.status = o.status) GROUP BY o.city ORDER BY o.city NULLS FIRST"
		case 0:
			q = "SELECT count(*), sum(quantity), min(city), max(order_id) FROM " + from + " WHERE " + pred()
		case 1:
			q = "SELECT city, count(*), sum(amount) FROM " + from + " WHERE " + pred() + " GROUP BY city ORDER BY city NULLS FIRST"
		case 2:
			q = "SELECT * FROM (SELECT status, count(*) AS n FROM " + from + " GROUP BY status) WHERE status <> 'pending' AND n > 0 ORDER BY status"
		default:
			q = "WITH c AS (SELECT order_id, quantity, city FROM " + from + ") SELECT order_id, quantity FROM c WHERE order_id > " + num() + " AND (city IS NULL OR quantity < 5) ORDER BY order_id, quantity LIMIT 20"
		}
		s.Settings.Optimizer = true
		on := resultText(t, s, q)
		s.Settings.Optimizer = false
		off := resultText(t, s, q)
		if on != off {
			t.Errorf("%s:\noptimized:\n%s\nas written:\n%s", q, on, off)
		}
		if on != "" && !strings.HasPrefix(on, "0\t") {
			nonEmpty++
		}
	}
	if nonEmpty < n/3 {
		t.Errorf("only %d of %d queries have rows", nonEmpty, n)
	}
}
