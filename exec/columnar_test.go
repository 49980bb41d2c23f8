package exec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// answer renders a query's result (or error) as text, cell by cell.
func answer(res *Result, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%v %v\n", res.Columns, res.Types)
	for i := 0; i < res.NumRows(); i++ {
		for c := range res.Columns {
			text, null := res.Cell(i, c)
			if null {
				text = "NULL"
			}
			b.WriteString(text)
			b.WriteByte('|')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// refAnswer runs q through the reference executor and renders it as
// result() did before batches.
func refAnswer(q string, s Settings) string {
	st, err := planner.Parse(q)
	if err != nil {
		return "error: " + err.Error()
	}
	sel, ok := st.(*planner.Select)
	if !ok {
		return "not a select"
	}
	p, err := planner.Build(sel, nil)
	if err != nil {
		return "error: " + err.Error()
	}
	x := &refExecutor{settings: s}
	rows, err := x.refRun(context.Background(), p)
	if err != nil {
		return answer(nil, err)
	}
	res := &Result{}
	for _, c := range p.Columns {
		res.Columns = append(res.Columns, c.Name)
		res.Types = append(res.Types, c.Type)
	}
	for start := 0; start < len(rows); start += BatchSize {
		end := min(start+BatchSize, len(rows))
		b := &Batch{Len: end - start}
		for c, t := range res.Types {
			v := newResultVector(t, end-start)
			for _, r := range rows[start:end] {
				v.appendDatum(r[c])
			}
			b.Vectors = append(b.Vectors, v)
		}
		res.Batches = append(res.Batches, b)
	}
	return answer(res, nil)
}

// newAnswer runs q through the executor.
func newAnswer(q string, s Settings) (string, *executor) {
	st, err := planner.Parse(q)
	if err != nil {
		return "error: " + err.Error(), nil
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		return "error: " + err.Error(), nil
	}
	x := &executor{settings: s}
	res, err := x.result(context.Background(), p)
	return answer(res, err), x
}

// settingsVariants are the thread counts and pushdown switches the
// differential tests run under.
func settingsVariants() []Settings {
	all := NewSession().Settings
	none := Settings{}
	var out []Settings
	for _, th := range []int{1, 2, 5} {
		s := all
		s.Threads = th
		out = append(out, s)
	}
	none.Threads = 3
	out = append(out, none)
	noPage := all
	noPage.PageIndex = false
	noPage.Threads = 2
	out = append(out, noPage)
	return out
}

const (
	sorted   = "'fixtures/orders_sorted.parquet'"
	shuffled = "'fixtures/orders_shuffled.parquet'"
	both     = "'fixtures/orders_*.parquet'"
	statsF   = "'fixtures/statistics.parquet'"
	typesF   = "'fixtures/types.parquet'"
	nestedF  = "'fixtures/nested.parquet'"
)

// differentialQueries cover the WHERE shapes the filter vectorizes (and
// the ones it leaves to planner.Eval), aggregates of every kind, sorting,
// limits, subqueries and multi-file scans.
var differentialQueries = []string{
	// Filters.
	"SELECT * FROM {s} WHERE order_id > 19990",
	"SELECT * FROM {u} WHERE order_id < 40 OR order_id > 19990",
	"SELECT order_id, city FROM {s} WHERE city = 'Oslo' AND quantity > 50",
	"SELECT order_id, discount FROM {s} WHERE discount = 'NaN'::DOUBLE",
	"SELECT order_id, discount FROM {u} WHERE discount > 0.2",
	"SELECT order_id, discount FROM {s} WHERE discount = 0",
	"SELECT order_id, discount FROM {s} WHERE discount <= 0 AND order_id < 6000",
	"SELECT order_id, discount FROM {s} WHERE discount >= 'NaN'::DOUBLE",
	"SELECT order_id, discount FROM {s} WHERE discount < 'NaN'::DOUBLE AND order_id < 300",
	"SELECT order_id, discount FROM {s} WHERE discount != 0.1 AND order_id % 97 = 3",
	"SELECT order_id FROM {s} WHERE discount IS NULL AND order_id < 500",
	"SELECT order_id, note FROM {s} WHERE note IS NOT NULL",
	"SELECT order_id, city FROM {u} WHERE city IN ('Oslo', 'Reykjavík', NULL)",
	"SELECT order_id, city FROM {u} WHERE city NOT IN ('Oslo', 'Paris') AND order_id < 200",
	"SELECT order_id, city FROM {u} WHERE city NOT IN ('Oslo', NULL)",
	"SELECT order_id FROM {s} WHERE order_id IN (1, 5, 4000, 4001, 19999, 30000)",
	"SELECT order_id, quantity FROM {s} WHERE quantity BETWEEN 10 AND 12 AND order_id < 3000",
	"SELECT order_id, quantity FROM {u} WHERE quantity NOT BETWEEN 2 AND 98",
	"SELECT order_id, city FROM {s} WHERE city LIKE 'Z%'",
	"SELECT order_id, city FROM {s} WHERE city LIKE '%ø' AND order_id < 5000",
	"SELECT order_id, city FROM {s} WHERE city LIKE '%ri%' AND order_id < 2000",
	"SELECT order_id, city FROM {s} WHERE city LIKE 'O_lo' AND order_id < 2000",
	"SELECT order_id, city FROM {s} WHERE city NOT LIKE '%o%' AND order_id < 1000",
	"SELECT order_id, city FROM {s} WHERE city ILIKE 'z%' AND order_id < 6000",
	"SELECT order_id, city FROM {s} WHERE city LIKE 'Oslo' OR city LIKE '%'",
	"SELECT order_id, city FROM {s} WHERE starts_with(city, 'B') AND order_id < 3000",
	"SELECT order_id, city FROM {s} WHERE contains(city, 'ö')",
	"SELECT order_id, city FROM {s} WHERE lower(city) = 'oslo' AND order_id > 15000",
	"SELECT order_id FROM {u} WHERE order_id % 7 = 3 AND status = 'returned'",
	"SELECT order_id FROM {s} WHERE NOT (order_id > 5)",
	"SELECT order_id FROM {s} WHERE NOT (city = 'Oslo') AND order_id < 100",
	"SELECT order_id, city FROM {s} WHERE NOT (city IS NULL OR order_id > 30)",
	"SELECT count(*) FROM {s} WHERE city = 'Oslo' AND city IS NULL",
	"SELECT order_id, order_date FROM {s} WHERE order_date = DATE '2024-01-01'",
	"SELECT order_id, order_date FROM {s} WHERE order_date BETWEEN '2024-03-01' AND '2024-03-02'",
	"SELECT order_id, shipped_at FROM {s} WHERE shipped_at < TIMESTAMP '2024-01-02 00:00:00'",
	"SELECT order_id, shipped_at FROM {s} WHERE shipped_at > order_date AND order_id < 50",
	"SELECT order_id, amount FROM {u} WHERE amount < -40000",
	"SELECT order_id, amount FROM {u} WHERE amount > 40000.5",
	"SELECT order_id, amount FROM {s} WHERE amount = 961.02",
	"SELECT order_id, amount FROM {s} WHERE amount BETWEEN 100 AND 100.5",
	"SELECT order_id, quantity FROM {s} WHERE quantity > 98.5",
	"SELECT order_id, quantity FROM {s} WHERE quantity = 99.0",
	"SELECT order_id, priority FROM {u} WHERE priority = 255",
	"SELECT order_id, priority FROM {u} WHERE priority > 250 AND priority < 253",
	"SELECT order_id FROM {s} WHERE customer_id = 314159",
	"SELECT order_id FROM {s} WHERE customer_id = 403180",
	"SELECT order_id FROM {s} WHERE order_id = customer_id OR order_id < 3",
	"SELECT order_id FROM {s} WHERE quantity + 1 > 99",
	"SELECT order_id FROM {s} WHERE CASE WHEN city IS NULL THEN true ELSE false END AND order_id < 400",
	"SELECT order_id FROM {s} WHERE coalesce(discount, -1) < 0 AND order_id < 300",
	"SELECT order_id FROM {s} WHERE true AND order_id < 3",
	"SELECT order_id FROM {s} WHERE false OR order_id < 3",
	"SELECT order_id FROM {s} WHERE NULL OR order_id < 3",
	"SELECT order_id FROM {s} WHERE note = ''",
	"SELECT order_id, length(note) FROM {s} WHERE length(note) > 100",
	"SELECT * FROM {s} WHERE order_id > 3990 AND order_id < 4010",
	// Projections.
	"SELECT order_id, amount * 2, discount + 1, upper(status) FROM {s} WHERE order_id < 20",
	"SELECT 1, 'x', order_id FROM {s} WHERE order_id < 3",
	"SELECT order_id, CAST(quantity AS DOUBLE) / 3 FROM {u} LIMIT 5",
	// Limits.
	"SELECT * FROM {s} LIMIT 3",
	"SELECT order_id FROM {u} LIMIT 5 OFFSET 4998",
	"SELECT order_id FROM {s} WHERE city = 'Oslo' LIMIT 7 OFFSET 3",
	"SELECT order_id FROM {s} LIMIT 0",
	"SELECT order_id FROM {s} WHERE order_id > 5 LIMIT 2050",
	"SELECT order_id FROM {b} LIMIT 3 OFFSET 19999",
	// Sorting and DISTINCT.
	"SELECT order_id, amount FROM {u} ORDER BY amount DESC LIMIT 3",
	"SELECT order_id FROM {u} ORDER BY order_id DESC LIMIT 2 OFFSET 1",
	"SELECT order_id, city FROM {s} WHERE order_id <= 5 ORDER BY city NULLS FIRST",
	"SELECT city, order_id FROM {u} WHERE order_id < 100 ORDER BY city, order_id DESC",
	"SELECT DISTINCT status FROM {u}",
	"SELECT DISTINCT city, status FROM {s} WHERE order_id < 1000",
	"SELECT DISTINCT discount FROM {s} ORDER BY 1",
	"SELECT order_id, discount FROM {s} WHERE order_id < 200 ORDER BY discount DESC, order_id LIMIT 10",
	// Aggregates.
	"SELECT count(*) FROM {s}",
	"SELECT count(*) FROM {b}",
	"SELECT count(*) FROM {s} WHERE order_id > 500",
	"SELECT count(*) FROM {s} WHERE order_id > 4000 AND order_id <= 16000",
	"SELECT count(*) FROM {u} WHERE quantity >= 1",
	"SELECT count(*) FROM {s} WHERE city IS NOT NULL OR order_id > 5",
	"SELECT count(*), count(city), count(DISTINCT city), count(discount) FROM {u}",
	"SELECT sum(quantity), sum(amount), sum(discount), sum(priority), sum(order_id) FROM {s}",
	"SELECT avg(quantity), avg(amount), avg(discount), avg(priority) FROM {u}",
	"SELECT min(order_id), max(order_id), min(amount), max(amount), min(customer_id) FROM {u}",
	"SELECT min(city), max(city), min(status), max(note) FROM {s}",
	"SELECT min(discount), max(discount) FROM {s}",
	"SELECT min(discount), max(discount) FROM {s} WHERE discount < 1",
	"SELECT min(order_date), max(order_date), min(shipped_at), max(shipped_at) FROM {u}",
	"SELECT min(priority), max(priority), sum(DISTINCT priority) FROM {u}",
	"SELECT count(*), sum(amount) FROM {s} WHERE order_id > 20000",
	"SELECT status, count(*), count(DISTINCT status) FROM {s} GROUP BY status",
	"SELECT status, sum(amount) FROM {u} GROUP BY 1",
	"SELECT status, count(*) AS n FROM {s} GROUP BY status HAVING count(*) > 2000",
	"SELECT city, count(*) AS n FROM {u} WHERE city IS NOT NULL GROUP BY city ORDER BY n DESC, city LIMIT 3",
	"SELECT city, count(*), min(discount), max(discount), avg(discount) FROM {u} GROUP BY city",
	"SELECT month(order_date) AS m, count(*) FROM {s} GROUP BY m ORDER BY m",
	"SELECT quantity, count(*) FROM {u} GROUP BY quantity",
	"SELECT discount, count(*) FROM {u} GROUP BY discount",
	"SELECT status, city, count(*), sum(quantity) FROM {u} GROUP BY status, city",
	"SELECT customer_id, count(*) FROM {s} WHERE customer_id < 101000 GROUP BY customer_id",
	"SELECT amount, count(*) FROM {s} WHERE order_id < 3000 GROUP BY amount",
	"SELECT priority > 127, count(*) FROM {u} GROUP BY 1",
	"SELECT note, count(*) FROM {s} GROUP BY note",
	"SELECT sum(quantity * 2), max(amount / 3) FROM {u}",
	// Groups found by a key computed as a vector in some batches and row by
	// row in others (a zero divisor), partial aggregates merged, and the
	// switch from partial aggregates to batches when groups are many.
	"SELECT quantity % (CAST(priority AS INTEGER) - 100) AS k, count(*), sum(order_id) FROM {u} GROUP BY 1 ORDER BY 1",
	"SELECT customer_id, count(*), sum(amount), min(city), max(discount) FROM {u} GROUP BY customer_id",
	"SELECT order_id % 3, count(*), min(status), max(shipped_at) FROM {b} GROUP BY 1",
	"SELECT status, sum(discount), avg(discount), count(DISTINCT city) FROM {b} GROUP BY status",
	"SELECT city, status, count(*) FROM {b} WHERE order_id % 11 = 0 GROUP BY city, status",
	"SELECT sum(order_id * order_id * order_id), sum(amount * 1000000) FROM {s}",
	"SELECT order_id * 1000000000000 FROM {s} WHERE order_id > 19990",
	"SELECT order_id, quantity * 1000 * 1000 FROM {s} WHERE order_id < 5",
	"SELECT count(*) FROM {s} WHERE quantity * 400 > 32000",
	"SELECT count(*) FROM {s} WHERE order_id // (quantity - 5) > 1000",
	"SELECT count(*), sum(discount * 2), min(discount / 0), max(discount % 0.3) FROM {s}",
	"SELECT count(*) FROM (SELECT status FROM {s} GROUP BY status) AS t",
	"SELECT count(*), sum(order_id) FROM {b}",
	"SELECT status, count(*) FROM {b} WHERE order_id % 1000 = 0 GROUP BY status",
	"SELECT min(order_id), max(order_id) FROM {b}",
	// Subqueries.
	"SELECT order_id FROM (SELECT order_id, city FROM {s} WHERE order_id < 100) AS t WHERE city = 'Oslo'",
	"SELECT n FROM (SELECT count(*) AS n FROM {s}) AS t WHERE n > 5",
	"SELECT s, c FROM (SELECT status AS s, count(*) AS c FROM {u} GROUP BY status) AS t ORDER BY c",
	"SELECT x FROM (SELECT order_id * 2 AS x FROM {s} LIMIT 5) AS t WHERE x > 4",
	"SELECT 1 + 1, 7 / 2",
	"SELECT count(*) FROM (SELECT 1) AS t",
	// Errors.
	"SELECT CAST(city AS INTEGER) FROM {s}",
	"SELECT order_id FROM {s} WHERE CAST(city AS INTEGER) > 3",
	"SELECT CAST(city AS INTEGER) FROM {s} LIMIT 0",
	"SELECT order_id, CAST(note AS INTEGER) FROM {s} WHERE order_id > 19000 LIMIT 3",
	"SELECT sum(CAST(city AS INTEGER)) FROM {s}",
	"SELECT order_id FROM 'fixtures/nope_*.parquet'",
	// statistics.parquet.
	"SELECT * FROM {st}",
	"SELECT count(*) FROM {st} WHERE customer_id > 2147483647",
	"SELECT max(customer_id), min(customer_id), min(delta), max(delta) FROM {st}",
	"SELECT count(*) FROM {st} WHERE delta < 0",
	"SELECT count(*) FROM {st} WHERE city > 'Z'",
	"SELECT count(*) FROM {st} WHERE temp_c > 100",
	"SELECT count(*) FROM {st} WHERE temp_c = 0",
	"SELECT order_id, temp_c FROM {st} WHERE temp_c <= 0",
	"SELECT count(*) FROM {st} WHERE ratio > 2",
	"SELECT count(*) FROM {st} WHERE coupon IS NULL",
	"SELECT sum(amount), min(amount), max(amount), min(amount_ba), max(amount_ba) FROM {st}",
	"SELECT min(temp_c), max(temp_c), min(ratio), max(ratio), count(ratio) FROM {st}",
	"SELECT min(city), max(city), min(coupon), max(coupon), min(note) FROM {st}",
	"SELECT count(*) FROM {st} WHERE amount < 0",
	"SELECT order_id, city FROM {st} WHERE amount = 99.99",
	"SELECT count(*) FROM {st} WHERE order_id > 4",
	"SELECT count(*) FROM {st} WHERE order_id >= 1 AND customer_id > 0",
	"SELECT count(*) FROM {st} WHERE order_id < 9",
	"SELECT temp_c, count(*) FROM {st} GROUP BY temp_c",
	"SELECT ratio, count(*) FROM {st} GROUP BY ratio ORDER BY 1",
	// types.parquet and nested.parquet.
	"SELECT * FROM {t}",
	"SELECT * FROM {t} WHERE id > 3",
	"SELECT id FROM {t} WHERE float_col > 0 OR double_col < 0",
	"SELECT id FROM {t} WHERE float_col = 'NaN'::FLOAT OR double_col = 0",
	"SELECT id, uint64_col FROM {t} WHERE uint64_col > 100",
	"SELECT id FROM {t} WHERE uint32_col = 4294967295 OR int8_col = -128",
	"SELECT id FROM {t} WHERE dec9_2 > 0 AND dec18_4 < 100",
	"SELECT id FROM {t} WHERE dec38_10 > 0",
	"SELECT id FROM {t} WHERE string_col LIKE '%ü%' OR string_col = ''",
	"SELECT id FROM {t} WHERE bool_col",
	"SELECT id FROM {t} WHERE NOT bool_col",
	"SELECT id FROM {t} WHERE date_col < DATE '2000-01-01'",
	"SELECT id FROM {t} WHERE ts_us > TIMESTAMP '2000-01-01'",
	"SELECT id FROM {t} WHERE binary_col IS NULL",
	"SELECT id, list_col FROM {t} WHERE list_col IS NOT NULL",
	"SELECT min(int8_col), max(uint64_col), min(float16_col), max(float16_col), min(dec38_10), max(dec38_10) FROM {t}",
	"SELECT sum(int64_col), sum(uint64_col), sum(dec38_10), avg(dec9_2), sum(float_col) FROM {t}",
	"SELECT min(date_col), max(ts_ns), min(time_ms), max(string_col), min(uuid_col), max(binary_col) FROM {t}",
	"SELECT bool_col, count(*) FROM {t} GROUP BY bool_col",
	"SELECT uint64_col, count(*) FROM {t} GROUP BY uint64_col",
	"SELECT dec38_10, count(*) FROM {t} GROUP BY dec38_10",
	"SELECT struct_col, count(*) FROM {t} GROUP BY struct_col",
	"SELECT * FROM {n}",
	"SELECT id, tags, address FROM {n} WHERE id > 2",
	"SELECT id FROM {n} WHERE address IS NULL",
	"SELECT count(*), count(tags), count(items) FROM {n}",
	"SELECT id, deep FROM {n} ORDER BY id DESC LIMIT 2",
}

func expandQuery(q string) string {
	r := strings.NewReplacer("{s}", sorted, "{u}", shuffled, "{b}", both, "{st}", statsF, "{t}", typesF, "{n}", nestedF)
	return r.Replace(q)
}

func TestColumnarMatchesRowAtATime(t *testing.T) {
	t.Chdir(moduleRoot(t))
	for _, raw := range differentialQueries {
		q := expandQuery(raw)
		// The reference reads sequentially: its answer depends on the
		// pushdown switches only.
		wants := map[Settings]string{}
		for _, s := range settingsVariants() {
			key := s
			key.Threads = 0
			want, ok := wants[key]
			if !ok {
				want = refAnswer(q, s)
				wants[key] = want
			}
			got, _ := newAnswer(q, s)
			if got != want {
				t.Errorf("%s (threads %d, statistics %v, page index %v):\n got: %.2000s\nwant: %.2000s", q, s.Threads, s.Statistics, s.PageIndex, got, want)
			}
		}
	}
}

// TestColumnarCorpus reads every file of the parquet-testing corpus whole
// and counts it, with both executors.
func TestColumnarCorpus(t *testing.T) {
	root := moduleRoot(t)
	data := filepath.Join(root, "..", "shared", "parquet-testing", "data")
	if _, err := os.Stat(data); err != nil {
		t.Skip("the parquet-testing corpus (../shared/parquet-testing) is absent")
	}
	files, _ := filepath.Glob(filepath.Join(data, "*.parquet"))
	bad, _ := filepath.Glob(filepath.Join(data, "..", "bad_data", "*.parquet"))
	variants, _ := filepath.Glob(filepath.Join(data, "..", "shredded_variant", "*.parquet"))
	files = append(append(files, bad...), variants...)
	t.Logf("%d files", len(files))
	if testing.Short() && len(files) > 20 {
		files = files[:20]
	}
	s := NewSession().Settings
	s.Threads = 2
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "large_string_map") {
			continue // two 1 GiB strings: a test of format, slow here
		}
		for _, q := range []string{"SELECT * FROM '%s'", "SELECT count(*) FROM '%s'", "SELECT * FROM '%s' LIMIT 3"} {
			q := fmt.Sprintf(q, f)
			want := refAnswer(q, s)
			got, _ := newAnswer(q, s)
			if got != want {
				t.Errorf("%s:\n got: %.1000s\nwant: %.1000s", q, got, want)
			}
		}
	}
}
