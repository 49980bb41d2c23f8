package main

import (
	"fmt"
	"regexp"
	"strings"
)

// A query is one row of the benchmark. Its SQL names files by placeholder
// ({sorted}, {shuffled}, {parts}, {sorted10m}: see fileSet), bound to paths
// at run time.
type query struct {
	name string
	sql  string
	// ordered says the query fixes the order of its rows (a total ORDER
	// BY), so answers are compared in order; otherwise as multisets.
	ordered bool
	// csv writes the result to a CSV file instead of fetching it: DuckDB
	// with COPY ... TO, pqsql as its shell's csv mode prints.
	csv bool
	// scale marks the 10M-row rows, run only with -scale.
	scale bool
	// remote marks the rows over S3, run only with -s3.
	remote bool
}

// queries is the benchmark, grouped by what each group measures. To add a
// row, add it to its group; a new file goes into fileSet (data.go).
var queries = concat(
	// The rows of the table the typed vector engine is measured by, on the
	// 1M-row files. The orders schema has no country or amount_cents
	// column: status stands for country, quantity for amount_cents.
	[]query{
		{name: "point_lookup_sorted", sql: "SELECT * FROM {sorted} WHERE order_id = 424242", ordered: true},
		{name: "absent_customer_bloom", sql: "SELECT * FROM {shuffled} WHERE customer_id = 424242", ordered: true},
		{name: "count_city_dictionary", sql: "SELECT count(*) FROM {shuffled} WHERE city = 'Łódź'", ordered: true},
		{name: "amount_between", sql: "SELECT count(*), sum(amount) FROM {shuffled} WHERE amount BETWEEN 100.00 AND 200.00", ordered: true},
		{name: "sum_whole_file", sql: "SELECT sum(amount), sum(quantity) FROM {shuffled}", ordered: true},
		{name: "full_scan_every_column", sql: "SELECT count(order_id), sum(customer_id), min(order_date), max(shipped_at), min(status), max(city), sum(quantity), sum(amount), max(discount), sum(priority), max(note) FROM {shuffled}", ordered: true},
		{name: "group_by_status", sql: "SELECT status, count(*), sum(amount), sum(quantity) FROM {shuffled} GROUP BY status"},
		{name: "group_by_city", sql: "SELECT city, count(*), sum(amount), avg(quantity) FROM {shuffled} GROUP BY city"},
		{name: "note_like", sql: "SELECT count(*) FROM {shuffled} WHERE note LIKE '%door%'", ordered: true},
		{name: "top_amount", sql: "SELECT * FROM {shuffled} ORDER BY amount DESC LIMIT 10", ordered: true},
		{name: "top_order_id_sorted", sql: "SELECT * FROM {sorted} ORDER BY order_id DESC LIMIT 10", ordered: true},
		{name: "group_by_customer", sql: "SELECT customer_id, count(*), sum(amount) FROM {shuffled} GROUP BY customer_id"},
		{name: "count_distinct_city", sql: "SELECT count(DISTINCT city) FROM {shuffled}", ordered: true},
		{name: "distinct_city", sql: "SELECT DISTINCT city FROM {shuffled}"},
		// Two string keys: the groups of composite keys.
		{name: "group_by_status_city", sql: "SELECT status, city, count(*), sum(amount) FROM {shuffled} GROUP BY status, city"},
	},
	// Sorting and output.
	[]query{
		// Only the sort key is selected: notes repeat, so a wider row would
		// make the ten rows depend on how ties fall.
		{name: "order_by_note_limit", sql: "SELECT note FROM {shuffled} ORDER BY note LIMIT 10", ordered: true},
		{name: "csv_three_columns", sql: "SELECT order_id, status, amount FROM {shuffled}", ordered: true, csv: true},
	},
	// Point lookups, IN lists and OR across columns: the pruning rows.
	[]query{
		{name: "point_lookup_shuffled", sql: "SELECT * FROM {shuffled} WHERE order_id = 424242", ordered: true},
		{name: "frequent_customer", sql: "SELECT count(*), sum(amount) FROM {shuffled} WHERE customer_id = 314159", ordered: true},
		{name: "rare_city", sql: "SELECT order_id, city FROM {shuffled} WHERE city = 'Reykjavík'"},
		{name: "in_list_order_ids", sql: "SELECT * FROM {sorted} WHERE order_id IN (17, 250000, 500001, 999999)"},
		{name: "in_list_absent_customers", sql: "SELECT count(*) FROM {shuffled} WHERE customer_id IN (123456, 222222, 424242, 500000)", ordered: true},
		{name: "in_list_cities", sql: "SELECT order_id, city FROM {shuffled} WHERE city IN ('Reykjavík', 'Atlantis')"},
		{name: "or_across_columns", sql: "SELECT * FROM {sorted} WHERE order_id = 123 OR customer_id = 424242"},
		{name: "or_id_range_or_city", sql: "SELECT count(*) FROM {shuffled} WHERE order_id < 1000 OR city = 'Reykjavík'", ordered: true},
	},
	// The 16-file split of the sorted rows, read through a glob.
	[]query{
		{name: "glob_point_lookup", sql: "SELECT * FROM {parts} WHERE order_id = 424242", ordered: true},
		{name: "glob_absent_customer", sql: "SELECT count(*) FROM {parts} WHERE customer_id = 424242", ordered: true},
		{name: "glob_sum", sql: "SELECT count(*), sum(amount) FROM {parts}", ordered: true},
	},
	// Joins. A selective join: a small filtered side joined to the shuffled
	// file on customer_id; more join rows go here.
	[]query{
		{name: "join_selective", sql: "SELECT count(*), sum(o.amount) FROM (SELECT DISTINCT customer_id FROM {sorted} WHERE order_id <= 100) AS c JOIN {shuffled} AS o ON o.customer_id = c.customer_id", ordered: true},
	},
	// Remote files: rows over a loopback S3 server with latency injected,
	// run with -s3 alone (s3.go); {s3...} stand for the s3:// URLs of the
	// files of the same name without the prefix.
	[]query{
		{name: "s3_point_lookup_sorted", sql: "SELECT * FROM {s3sorted} WHERE order_id = 424242", ordered: true, remote: true},
		{name: "s3_absent_customer_bloom", sql: "SELECT * FROM {s3shuffled} WHERE customer_id = 424242", ordered: true, remote: true},
		{name: "s3_sum_whole_file", sql: "SELECT sum(amount), sum(quantity) FROM {s3shuffled}", ordered: true, remote: true},
		{name: "s3_glob_point_lookup", sql: "SELECT * FROM {s3parts} WHERE order_id = 424242", ordered: true, remote: true},
	},
	// Scaling: the same queries on the 1M- and the 10M-row sorted files.
	scaling(
		query{name: "sum", sql: "SELECT sum(amount), sum(quantity) FROM {f}", ordered: true},
		query{name: "streaming_group_by", sql: "SELECT status, count(*), sum(amount), max(city) FROM {f} GROUP BY status"},
		query{name: "point_lookup", sql: "SELECT * FROM {f} WHERE order_id = 424242", ordered: true},
		query{name: "top_order_id", sql: "SELECT * FROM {f} ORDER BY order_id DESC LIMIT 10", ordered: true},
		query{name: "group_by_customer", sql: "SELECT customer_id, count(*), sum(amount) FROM {f} GROUP BY customer_id"},
	),
)

// scaling makes a 1M-row and a 10M-row row of each query, {f} standing for
// the sorted file.
func scaling(qs ...query) []query {
	var out []query
	for _, q := range qs {
		for _, size := range []struct{ suffix, file string }{{"1m", "{sorted}"}, {"10m", "{sorted10m}"}} {
			r := q
			r.name = "scale_" + q.name + "_" + size.suffix
			r.sql = strings.ReplaceAll(q.sql, "{f}", size.file)
			r.scale = true
			out = append(out, r)
		}
	}
	return out
}

func concat(groups ...[]query) []query {
	var out []query
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// selectQueries returns the queries to run: those whose name matches filter
// (nil: all), the scaling rows only when scale is set.
func selectQueries(all []query, filter *regexp.Regexp, scale bool) []query {
	var out []query
	for _, q := range all {
		if q.scale && !scale {
			continue
		}
		if filter != nil && !filter.MatchString(q.name) {
			continue
		}
		out = append(out, q)
	}
	return out
}

// A boundQuery is a query with its files' paths in place.
type boundQuery struct {
	query
	// template is the SQL with its placeholders, as the report shows it.
	template string
	// csvOut is the file a CSV query writes, one per engine.
	csvOut string
}

var placeholder = regexp.MustCompile(`\{[a-z0-9]+\}`)

// bind replaces q's placeholders with the quoted paths of files.
func bind(q query, files map[string]string) (boundQuery, error) {
	var missing []string
	text := placeholder.ReplaceAllStringFunc(q.sql, func(p string) string {
		path, ok := files[p]
		if !ok {
			missing = append(missing, p)
			return p
		}
		return quoteSQL(path)
	})
	if len(missing) > 0 {
		return boundQuery{}, fmt.Errorf("%w: query %s names %s, which no file stands for", errUsage, q.name, strings.Join(missing, ", "))
	}
	b := boundQuery{query: q, template: q.sql}
	b.sql = text
	return b, nil
}
