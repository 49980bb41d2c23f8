package planner

import "testing"

// TestColumnNames checks the names of unaliased select items against the
// names DuckDB 1.5.6 printed for the same items (read off its result
// columns; orders_sorted.parquet plus two columns named "My Col" and
// "select").
func TestColumnNames(t *testing.T) {
	chdirRoot(t)
	const from = ` FROM (SELECT *, 1 AS "My Col", 2 AS "select" FROM 'fixtures/orders_sorted.parquet')`
	tests := []struct{ expr, name string }{
		{`order_id`, "order_id"},
		{`CITY`, "city"},
		{`"city"`, "city"},
		{`order_id + 1`, "(order_id + 1)"},
		{`(order_id + 1)`, "(order_id + 1)"},
		{`order_id * 2 + 1`, "((order_id * 2) + 1)"},
		{`-order_id`, "-(order_id)"},
		{`- 1`, "-1"},
		{`-1.5`, "-1.5"},
		{`+quantity`, "+(quantity)"},
		{`NOT true`, "(NOT CAST('t' AS BOOLEAN))"},
		{`order_id // 2`, "(order_id // 2)"},
		{`order_id % 2`, "(order_id % 2)"},
		{`2 ^ 3`, "(2 ^ 3)"},
		{`order_id / 2`, "(order_id / 2)"},
		{`'a' || 'b'`, "('a' || 'b')"},
		{`'it''s'`, "'it''s'"},
		{`NULL`, "NULL"},
		{`true`, "CAST('t' AS BOOLEAN)"},
		{`1e3`, "1000.0"},
		{`1.50`, "1.50"},
		{`CAST(order_id AS INTEGER)`, "CAST(order_id AS INTEGER)"},
		{`order_id::BIGINT`, "CAST(order_id AS BIGINT)"},
		{`CAST(amount AS DECIMAL(10,2))`, "CAST(amount AS DECIMAL(10, 2))"},
		{`CAST(1.5 AS DOUBLE)`, "CAST(1.5 AS \"DOUBLE\")"},
		{`1::float8`, "CAST(1 AS \"DOUBLE\")"},
		{`1::tinyint`, "CAST(1 AS \"TINYINT\")"},
		{`1::decimal`, "CAST(1 AS DECIMAL)"},
		{`1::numeric(5)`, "CAST(1 AS DECIMAL(5))"},
		{`1::char`, "CAST(1 AS VARCHAR(1))"},
		{`'x'::text`, "CAST('x' AS VARCHAR)"},
		{`DATE '2024-01-01'`, "CAST('2024-01-01' AS \"DATE\")"},
		{`TIMESTAMP '2024-01-01'`, "CAST('2024-01-01' AS TIMESTAMP)"},
		{`TIMESTAMPTZ '2024-01-01'`, "CAST('2024-01-01' AS \"TIMESTAMP WITH TIME ZONE\")"},
		{`'2024-01-01'::datetime`, "CAST('2024-01-01' AS TIMESTAMP)"},
		{`1::uinteger`, "CAST(1 AS \"UINTEGER\")"},
		{`1::int8`, "CAST(1 AS BIGINT)"},
		{`1::real`, "CAST(1 AS FLOAT)"},
		{`1::hugeint`, "CAST(1 AS \"HUGEINT\")"},
		{`CASE WHEN order_id > 1 THEN 'a' ELSE 'b' END`, "CASE  WHEN ((order_id > 1)) THEN ('a') ELSE 'b' END"},
		{`CASE status WHEN 'x' THEN 1 END`, "CASE  WHEN ((status = 'x')) THEN (1) ELSE NULL END"},
		{`CASE WHEN true THEN 1 WHEN false THEN 2 END`, "CASE  WHEN (CAST('t' AS BOOLEAN)) THEN (1) WHEN (CAST('f' AS BOOLEAN)) THEN (2) ELSE NULL END"},
		{`order_id <> 1`, "(order_id != 1)"},
		{`order_id == 1`, "(order_id = 1)"},
		{`city LIKE 'a%'`, "(city ~~ 'a%')"},
		{`city NOT LIKE 'a%'`, "(city !~~ 'a%')"},
		{`city ILIKE 'a%'`, "(city ~~* 'a%')"},
		{`city NOT ILIKE 'a'`, "(city !~~* 'a')"},
		{`order_id IN (1, 2)`, "(order_id IN (1, 2))"},
		{`order_id NOT IN (1, 2)`, "(order_id NOT IN (1, 2))"},
		{`order_id BETWEEN 1 AND 2`, "(order_id BETWEEN 1 AND 2)"},
		{`order_id NOT BETWEEN 1 AND 2`, "(NOT (order_id BETWEEN 1 AND 2))"},
		{`order_id IS NULL`, "(order_id IS NULL)"},
		{`order_id IS NOT NULL`, "(order_id IS NOT NULL)"},
		{`order_id > 1 AND order_id < 5 AND order_id <> 3`, "((order_id > 1) AND (order_id < 5) AND (order_id != 3))"},
		{`order_id = 1 OR order_id = 2 OR order_id = 3`, "((order_id = 1) OR (order_id = 2) OR (order_id = 3))"},
		{`(order_id > 1 AND order_id < 5) OR order_id = 9`, "(((order_id > 1) AND (order_id < 5)) OR (order_id = 9))"},
		{`NOT order_id > 1`, "(order_id <= 1)"},
		{`NOT (order_id = 1)`, "(order_id != 1)"},
		{`NOT order_id IN (1)`, "(order_id NOT IN (1))"},
		{`NOT city LIKE 'a'`, "(NOT (city ~~ 'a'))"},
		{`NOT order_id IS NULL`, "(NOT (order_id IS NULL))"},
		{`NOT NOT true`, "(NOT (NOT CAST('t' AS BOOLEAN)))"},
		{`(order_id > 1) IS TRUE`, "(CAST((order_id > 1) AS BOOLEAN) IS NOT DISTINCT FROM true)"},
		{`(order_id > 1) IS NOT TRUE`, "(CAST((order_id > 1) AS BOOLEAN) IS DISTINCT FROM true)"},
		{`(order_id > 1) IS FALSE`, "(CAST((order_id > 1) AS BOOLEAN) IS NOT DISTINCT FROM false)"},
		{`(order_id > 1) IS NOT FALSE`, "(CAST((order_id > 1) AS BOOLEAN) IS DISTINCT FROM false)"},
		{`lower(city)`, "lower(city)"},
		{`UPPER(city)`, "upper(city)"},
		{`length(city)`, "length(city)"},
		{`substr(city, 1, 2)`, "substr(city, 1, 2)"},
		{`substr('hello', 2)`, "substr('hello', 2)"},
		{`substring(city, 1, 2)`, "main.\"substring\"(city, 1, 2)"},
		{`substring(city FROM 2 FOR 3)`, "main.\"substring\"(city, 2, 3)"},
		{`coalesce(city, 'x')`, "COALESCE(city, 'x')"},
		{`ifnull(city, 'x')`, "COALESCE(city, 'x')"},
		{`abs(-1)`, "abs(-1)"},
		{`round(amount, 1)`, "round(amount, 1)"},
		{`year(order_date)`, "\"year\"(order_date)"},
		{`month(order_date)`, "\"month\"(order_date)"},
		{`Day(order_date)`, "\"day\"(order_date)"},
		{`date_part('year', order_date)`, "date_part('year', order_date)"},
		{`extract(year FROM order_date)`, "main.date_part('year', order_date)"},
		{`date_trunc('month', order_date)`, "date_trunc('month', order_date)"},
		{`typeof(1)`, "typeof(1)"},
		{`concat('a', 1)`, "concat('a', 1)"},
		{`starts_with(city, 'a')`, "starts_with(city, 'a')"},
		{`-(-order_id)`, "-(-(order_id))"},
		{`-(order_id + 1)`, "-((order_id + 1))"},
		{`"My Col"`, "My Col"},
		{`"select" + 1`, "(\"select\" + 1)"},
		// Aggregates.
		{`count(*)`, "count_star()"},
		{`COUNT(*)`, "count_star()"},
		{`count(order_id)`, "count(order_id)"},
		{`count(DISTINCT city)`, "count(DISTINCT city)"},
		{`Sum(quantity)`, "sum(quantity)"},
		{`mean(quantity)`, "mean(quantity)"},
		{`count(*) FILTER (WHERE order_id > 1)`, "count_star() FILTER (WHERE (order_id > 1))"},
		{`count(*) FILTER (WHERE 1)`, "count_star() FILTER (WHERE 1)"},
		{`sum(quantity) FILTER (WHERE city = 'x' AND order_id > 2)`, "sum(quantity) FILTER (WHERE ((city = 'x') AND (order_id > 2)))"},
		{`count(DISTINCT city) FILTER (WHERE true)`, "count(DISTINCT city) FILTER (WHERE CAST('t' AS BOOLEAN))"},
		{`sum(quantity) * 2`, "(sum(quantity) * 2)"},
		{`count(*) + 1`, "(count_star() + 1)"},
		{`avg(amount)::INTEGER`, "CAST(avg(amount) AS INTEGER)"},
		{`max(order_id) - min(order_id)`, "(max(order_id) - min(order_id))"},
	}
	for _, tc := range tests {
		p, err := plan(t, "SELECT "+tc.expr+from)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		if got := p.Columns[0].Name; got != tc.name {
			t.Errorf("%s: name %q, want %q", tc.expr, got, tc.name)
		}
	}
}

// TestDedupNames checks the renaming of repeated column names against the
// names DuckDB 1.5.6 gave files written with these schemas.
func TestDedupNames(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"a", "b"}, []string{"a", "b"}},
		{[]string{"x", "x"}, []string{"x", "x_1"}},
		{[]string{"x", "X", "x_1", "x", "y"}, []string{"x", "X_1", "x_1_1", "x_2", "y"}},
		{[]string{"x", "x", "x", "x"}, []string{"x", "x_1", "x_2", "x_3"}},
		{[]string{"x_1", "x", "x"}, []string{"x_1", "x", "x_2"}},
	}
	for _, tt := range tests {
		cols := make([]Column, len(tt.in))
		for i, n := range tt.in {
			cols[i].Name = n
		}
		dedupNames(cols)
		for i := range cols {
			if cols[i].Name != tt.want[i] {
				t.Errorf("dedupNames(%q): column %d is %q, want %q", tt.in, i, cols[i].Name, tt.want[i])
			}
		}
	}
}
