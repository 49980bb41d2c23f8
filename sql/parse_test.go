package sql

import (
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"
)

// dump renders a statement in one line so a test table can state the whole
// expected structure: the lowered AST, each source and the NULLS orders.
func dump(st Statement) string {
	switch s := st.(type) {
	case *Select:
		var b strings.Builder
		if s.Recursive {
			b.WriteString("RECURSIVE ")
		}
		for _, c := range s.With {
			fmt.Fprintf(&b, "WITH %s", c.Name)
			if c.Columns != nil {
				fmt.Fprintf(&b, "%q", c.Columns)
			}
			fmt.Fprintf(&b, " AS [%s] ", dump(c.Query))
		}
		b.WriteString(sqlparser.String(s.raw.AST))
		for _, src := range s.SourceList() {
			fmt.Fprintf(&b, " | %s = %s", src.Placeholder, dumpSource(src))
		}
		var nulls []string
		for o, n := range s.raw.Nulls {
			nulls = append(nulls, fmt.Sprintf(" | %s %s", sqlparser.String(o), n))
		}
		sort.Strings(nulls)
		b.WriteString(strings.Join(nulls, ""))
		var filters []string
		for f, c := range s.raw.Filters {
			filters = append(filters, fmt.Sprintf(" | %s FILTER %s", sqlparser.String(f), sqlparser.String(c)))
		}
		sort.Strings(filters)
		b.WriteString(strings.Join(filters, ""))
		return b.String()
	case *Explain:
		var flags []string
		for _, f := range []struct {
			on   bool
			name string
		}{{s.Analyze, "analyze"}, {s.Verbose, "verbose"}, {s.Verify, "verify"}} {
			if f.on {
				flags = append(flags, f.name)
			}
		}
		return fmt.Sprintf("EXPLAIN %s format=%s: %s", strings.Join(flags, ","), s.Format, dump(s.Query))
	case *Describe:
		if s.Source != nil {
			return "DESCRIBE " + dumpSource(s.Source)
		}
		return "DESCRIBE query: " + dump(s.Query)
	case *CreateView:
		return fmt.Sprintf("CREATE VIEW %q replace=%v ifnotexists=%v temp=%v text=%q: %s",
			s.Name, s.OrReplace, s.IfNotExists, s.Temporary, s.Text, dump(s.Query))
	case *DropView:
		return fmt.Sprintf("DROP VIEW %q ifexists=%v", s.Name, s.IfExists)
	case *Set:
		return fmt.Sprintf("SET %s = %q (%s)", s.Name, s.Value, s.Kind)
	case *Reset:
		return "RESET " + s.Name
	}
	return fmt.Sprintf("unknown %T", st)
}

func dumpSource(src *Source) string {
	var b strings.Builder
	switch src.Kind {
	case SourceFiles:
		fmt.Fprintf(&b, "files%q", src.Paths)
	case SourceFunction:
		fmt.Fprintf(&b, "%s%q", src.Function, src.Paths)
	case SourceView:
		fmt.Fprintf(&b, "view %q", src.Name)
	}
	if src.HivePartitioning {
		b.WriteString(" hive")
	}
	if src.Alias != "" {
		fmt.Fprintf(&b, " alias=%s", src.Alias)
	}
	return b.String()
}

var valid = []struct {
	src, want string
}{
	// Sources.
	{`SELECT * FROM 'data/x.parquet'`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["data/x.parquet"]`},
	{`SELECT * FROM 'dir/*.parquet';`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["dir/*.parquet"]`},
	{`select * from 'data/**/*.parquet' ;; `,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["data/**/*.parquet"]`},
	{`SELECT * FROM read_parquet('g/*.parquet')`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["g/*.parquet"]`},
	{`SELECT * FROM parquet_scan('g/*.parquet')`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["g/*.parquet"]`},
	{`SELECT * FROM read_parquet(['a.parquet', 'b.parquet'])`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["a.parquet" "b.parquet"]`},
	{`SELECT * FROM READ_PARQUET('t/**/*.parquet', hive_partitioning = true)`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["t/**/*.parquet"] hive`},
	{`SELECT * FROM read_parquet('t/*/*.parquet', hive_partitioning=1) AS h`,
		`select * from __pqsql_src_0 as h | __pqsql_src_0 = files["t/*/*.parquet"] hive alias=h`},
	{`SELECT * FROM read_parquet(['a.parquet'], hive_partitioning := false)`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["a.parquet"]`},
	{`SELECT o.a FROM 'orders.parquet' AS o`,
		`select o.a from __pqsql_src_0 as o | __pqsql_src_0 = files["orders.parquet"] alias=o`},
	{`SELECT o.a FROM 'orders.parquet' o`,
		`select o.a from __pqsql_src_0 as o | __pqsql_src_0 = files["orders.parquet"] alias=o`},
	{`SELECT * FROM parquet_metadata('f.parquet')`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = parquet_metadata["f.parquet"]`},
	{`SELECT name, type FROM parquet_schema('f.parquet') WHERE name <> 'schema'`,
		`select name, type from __pqsql_src_0 where name != 'schema' | __pqsql_src_0 = parquet_schema["f.parquet"]`},
	{`SELECT * FROM myview v`,
		`select * from __pqsql_src_0 as v | __pqsql_src_0 = view "myview" alias=v`},
	{`SELECT * FROM "My View"`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = view "My View"`},
	{`SELECT * FROM 'a.parquet' a JOIN 'b.parquet' b ON a.id = b.id`,
		`select * from __pqsql_src_0 as a join __pqsql_src_1 as b on a.id = b.id | __pqsql_src_0 = files["a.parquet"] alias=a | __pqsql_src_1 = files["b.parquet"] alias=b`},
	{`SELECT * FROM 'a.parquet' LEFT OUTER JOIN read_parquet('b.parquet') USING (id), v`,
		`select * from __pqsql_src_0 left join __pqsql_src_1 using (id), __pqsql_src_2 | __pqsql_src_0 = files["a.parquet"] | __pqsql_src_1 = files["b.parquet"] | __pqsql_src_2 = view "v"`},
	{`SELECT * FROM 'a.parquet' a FULL OUTER JOIN 'b.parquet' b ON a.id = b.id FULL JOIN 'c.parquet' c ON c.id = b.id`,
		`select * from __pqsql_src_0 as a straight_join __pqsql_src_1 as b on a.id = b.id straight_join __pqsql_src_2 as c on c.id = b.id | __pqsql_src_0 = files["a.parquet"] alias=a | __pqsql_src_1 = files["b.parquet"] alias=b | __pqsql_src_2 = files["c.parquet"] alias=c`},
	{"SELECT straight_join FROM 'a.parquet'",
		"select `straight_join` from __pqsql_src_0 | __pqsql_src_0 = files[\"a.parquet\"]"},
	{`SELECT * FROM ('a.parquet' JOIN 'b.parquet' ON true)`,
		`select * from (__pqsql_src_0 join __pqsql_src_1 on true) | __pqsql_src_0 = files["a.parquet"] | __pqsql_src_1 = files["b.parquet"]`},
	{`SELECT s.a FROM (SELECT a FROM 'in.parquet' WHERE a > 0) AS s`,
		`select s.a from (select a from __pqsql_src_0 where a > 0) as s | __pqsql_src_0 = files["in.parquet"]`},
	{`SELECT a FROM 'x.parquet' WHERE a IN (SELECT b FROM 'y.parquet') AND EXISTS (SELECT 1 FROM v)`,
		`select a from __pqsql_src_0 where a in (select b from __pqsql_src_1) and exists (select 1 from __pqsql_src_2) | __pqsql_src_0 = files["x.parquet"] | __pqsql_src_1 = files["y.parquet"] | __pqsql_src_2 = view "v"`},
	{`SELECT extract(year FROM d) FROM 'x.parquet'`,
		`select main.date_part('year', d) from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`SELECT EXTRACT('month' FROM d) FROM 'x.parquet'`,
		`select main.date_part('month', d) from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`FROM 'x.parquet'`,
		`select * from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`FROM 'x.parquet' SELECT a WHERE a > 1 LIMIT 2`,
		`select a from __pqsql_src_0 where a > 1 limit 2 | __pqsql_src_0 = files["x.parquet"]`},

	// Identifiers and literals.
	{`SELECT "My Col", "a""b" FROM t`,
		"select `My Col`, `a\"b` from __pqsql_src_0 | __pqsql_src_0 = view \"t\""},
	{`SELECT a FROM t WHERE s = "abc"`,
		`select a from __pqsql_src_0 where s = abc | __pqsql_src_0 = view "t"`},
	{`SELECT 'it''s', 'C:\dir' FROM t`,
		`select 'it\'s', 'C:\\dir' from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT key, index, values, replace(a, 'x', 'y'), if(c, 1, 2) FROM t`,
		"select `key`, `index`, `values`, replace(a, 'x', 'y'), if(c, 1, 2) from __pqsql_src_0 | __pqsql_src_0 = view \"t\""},
	{`SELECT café, "naïve col" FROM t`,
		"select `café`, `naïve col` from __pqsql_src_0 | __pqsql_src_0 = view \"t\""},
	{`SELECT 1, -2, 1.5e3, .5, true, false, NULL FROM t`,
		`select 1, -2, 1.5e3, .5, true, false, null from __pqsql_src_0 | __pqsql_src_0 = view "t"`},

	// Casts and typed literals.
	{`SELECT x::INTEGER FROM t`,
		`select convert(x, INTEGER) from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT t.x::int8, (a + b)::VARCHAR::INT, count(*)::double FROM t`,
		`select convert(t.x, BIGINT), convert(convert((a + b), VARCHAR), INTEGER), convert(count(*), DOUBLE) from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT CAST(a AS TEXT), CAST(b AS DOUBLE PRECISION), c::timestamp with time zone FROM t`,
		`select convert(a, VARCHAR), convert(b, DOUBLE), convert(c, TIMESTAMP WITH TIME ZONE) from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT a::DECIMAL(10,2), CAST(a AS NUMERIC), a::DECIMAL(5), a::VARCHAR(20) FROM t`,
		`select convert(a, DECIMAL(10, 2)), convert(a, DECIMAL(18, 3)), convert(a, DECIMAL(5, 0)), convert(a, VARCHAR) from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT -1::INT, CASE WHEN a THEN 1 ELSE 2 END::SMALLINT FROM t`,
		`select -convert(1, INTEGER), convert(case when a then 1 else 2 end, SMALLINT) from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT * FROM 'x.parquet' WHERE d = DATE '2024-01-01' AND ts < TIMESTAMP '2024-01-01 10:00:00'`,
		`select * from __pqsql_src_0 where d = convert('2024-01-01', DATE) and ts < convert('2024-01-01 10:00:00', TIMESTAMP) | __pqsql_src_0 = files["x.parquet"]`},
	{`SELECT TIME '10:00', TIMESTAMPTZ '2024-01-01 00:00:00+00', INTERVAL '1 day', INTERVAL 2 DAY FROM t`,
		`select convert('10:00', TIME), convert('2024-01-01 00:00:00+00', TIMESTAMP WITH TIME ZONE), convert('1 day', INTERVAL), interval 2 DAY from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT date, timestamp FROM t WHERE date > DATE '2020-01-01'::DATE`,
		"select `date`, `timestamp` from __pqsql_src_0 where `date` > convert(convert('2020-01-01', DATE), DATE) | __pqsql_src_0 = view \"t\""},

	// Operators.
	{`SELECT a || b || 'c', a // 2, a ** 2, a % 3 FROM t WHERE a == 1`,
		`select a || b || 'c', a div 2, a ^ 2, a % 3 from __pqsql_src_0 where a = 1 | __pqsql_src_0 = view "t"`},
	{`SELECT a FROM t WHERE s ILIKE 'a%' AND s NOT ILIKE 'b%' || 'c'`,
		`select a from __pqsql_src_0 where s ilike 'a%' and s not ilike 'b%' || 'c' | __pqsql_src_0 = view "t"`},
	{`SELECT a FROM t WHERE b IS NOT NULL AND c IS NULL AND d LIKE 'x%' AND e NOT IN (1, 2) AND f NOT BETWEEN 1 AND 5`,
		`select a from __pqsql_src_0 where b is not null and c is null and d like 'x%' and e not in (1, 2) and f not between 1 and 5 | __pqsql_src_0 = view "t"`},
	{`SELECT CASE a WHEN 1 THEN 'one' ELSE 'many' END FROM t`,
		`select case a when 1 then 'one' else 'many' end from __pqsql_src_0 | __pqsql_src_0 = view "t"`},

	// Clauses.
	{`SELECT DISTINCT a FROM t`,
		`select distinct a from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT a, count(*), count(DISTINCT b) FROM 'f.parquet' GROUP BY a HAVING count(*) > 1`,
		`select a, count(*), count(distinct b) from __pqsql_src_0 group by a having count(*) > 1 | __pqsql_src_0 = files["f.parquet"]`},
	{`SELECT a FROM t ORDER BY a DESC NULLS FIRST, b NULLS LAST, c LIMIT 10 OFFSET 5`,
		`select a from __pqsql_src_0 order by a desc, b asc, c asc limit 5, 10 | __pqsql_src_0 = view "t" | a desc NULLS FIRST | b asc NULLS LAST`},
	{`SELECT a FROM t ORDER BY a::INT + 1 ASC NULLS LAST`,
		`select a from __pqsql_src_0 order by convert(a, INTEGER) + 1 asc | __pqsql_src_0 = view "t" | convert(a, INTEGER) + 1 asc NULLS LAST`},
	{`SELECT a FROM 'x.parquet' ORDER BY (SELECT max(b) FROM 'y.parquet' ORDER BY b NULLS FIRST LIMIT 1) DESC NULLS LAST`,
		`select a from __pqsql_src_0 order by (select max(b) from __pqsql_src_1 order by b asc limit 1) desc | __pqsql_src_0 = files["x.parquet"] | __pqsql_src_1 = files["y.parquet"] | (select max(b) from __pqsql_src_1 order by b asc limit 1) desc NULLS LAST | b asc NULLS FIRST`},
	{`SELECT nulls FROM t ORDER BY nulls, t.nulls DESC NULLS LAST`,
		`select nulls from __pqsql_src_0 order by nulls asc, t.nulls desc | __pqsql_src_0 = view "t" | t.nulls desc NULLS LAST`},
	{`SELECT a FROM t UNION ALL SELECT b FROM 'u.parquet' ORDER BY 1 NULLS FIRST LIMIT 3`,
		`select a from __pqsql_src_0 union all select b from __pqsql_src_1 order by 1 asc limit 3 | __pqsql_src_0 = view "t" | __pqsql_src_1 = files["u.parquet"] | 1 asc NULLS FIRST`},

	// FILTER, substr, LIMIT forms, unnamed subqueries, set operations.
	{`SELECT count(*) FILTER (WHERE a > 1), sum(b) FILTER (c = 'x'), count(DISTINCT x) FILTER (WHERE y ILIKE 'a'), count() FILTER (true) FROM t`,
		`select count(*), sum(b), count(distinct x), count() from __pqsql_src_0 | __pqsql_src_0 = view "t" | count() FILTER true | count(*) FILTER a > 1 | count(distinct x) FILTER y ilike 'a' | sum(b) FILTER c = 'x'`},
	{`SELECT max(a) FILTER (WHERE b::INT IN (SELECT c FROM 'y.parquet')) FROM 'x.parquet'`,
		`select max(a) from __pqsql_src_1 | __pqsql_src_0 = files["y.parquet"] | __pqsql_src_1 = files["x.parquet"] | max(a) FILTER convert(b, INTEGER) in (select c from __pqsql_src_0)`},
	{`SELECT substr('hello', 2), substring('hello' FROM 2 FOR 3), substring(x FROM 2), substring('a' FOR 2), SUBSTR(a || 'b', 1, 2) FROM t`,
		`select substr('hello', 2), substring('hello', 2, 3), substring(x, 2), substring('a', 1, 2), SUBSTR(a || 'b', 1, 2) from __pqsql_src_0 | __pqsql_src_0 = view "t"`},
	{`SELECT a FROM t ORDER BY a OFFSET 3`,
		`select a from __pqsql_src_0 order by a asc limit 3, null | __pqsql_src_0 = view "t"`},
	{`SELECT a FROM t LIMIT ALL`, `select a from __pqsql_src_0 limit null | __pqsql_src_0 = view "t"`},
	{`SELECT a FROM t LIMIT ALL OFFSET 2`, `select a from __pqsql_src_0 limit 2, null | __pqsql_src_0 = view "t"`},
	{`SELECT a FROM t OFFSET 2 LIMIT 5`, `select a from __pqsql_src_0 limit 2, 5 | __pqsql_src_0 = view "t"`},
	{`SELECT * FROM (SELECT a FROM t OFFSET 1) OFFSET 2`,
		`select * from (select a from __pqsql_src_0 limit 1, null) limit 2, null | __pqsql_src_0 = view "t"`},
	{`SELECT * FROM (SELECT 1) WHERE true`, `select * from (select 1 from dual) where true`},
	{`FROM (SELECT 1)`, `select * from (select 1 from dual)`},
	{`SELECT * FROM (SELECT 1), (SELECT 2) AS b, (SELECT 3) c JOIN (SELECT 4) ON true`,
		`select * from (select 1 from dual), (select 2 from dual) as b, (select 3 from dual) as c join (select 4 from dual) on true`},
	{`SELECT 1 INTERSECT SELECT 2`, `select 1 from dual intersect select 2 from dual`},
	{`SELECT 1 INTERSECT DISTINCT SELECT 2 INTERSECT ALL (SELECT 3)`,
		`select 1 from dual intersect select 2 from dual intersect all (select 3 from dual)`},
	{`SELECT 1 EXCEPT ALL (SELECT 2 INTERSECT ALL SELECT 3) UNION DISTINCT SELECT 4 EXCEPT SELECT 5 ORDER BY 1 LIMIT 2`,
		`select 1 from dual except all (select 2 from dual intersect all select 3 from dual) union distinct select 4 from dual except select 5 from dual order by 1 asc limit 2`},

	// Common table expressions.
	{`WITH a AS (SELECT 1 AS x), b(y) AS MATERIALIZED (SELECT x + 1 FROM a) SELECT * FROM b`,
		`WITH a AS [select 1 as x from dual] WITH b["y"] AS [select x + 1 from __pqsql_src_0 | __pqsql_src_0 = view "a"] select * from __pqsql_src_1 | __pqsql_src_1 = view "b"`},
	{`with recursive "A b" (p, "q r") as not materialized (with c as (select 1) from c) from "A b"`,
		`RECURSIVE WITH A b["p" "q r"] AS [WITH c AS [select 1 from dual] select * from __pqsql_src_0 | __pqsql_src_0 = view "c"] select * from __pqsql_src_1 | __pqsql_src_1 = view "A b"`},
	{`EXPLAIN WITH a AS (SELECT 1) SELECT * FROM a`,
		`EXPLAIN  format=text: WITH a AS [select 1 from dual] select * from __pqsql_src_0 | __pqsql_src_0 = view "a"`},
	{`CREATE VIEW v AS WITH a AS (SELECT 1) FROM a`,
		`CREATE VIEW "v" replace=false ifnotexists=false temp=false text="WITH a AS (SELECT 1) FROM a": WITH a AS [select 1 from dual] select * from __pqsql_src_0 | __pqsql_src_0 = view "a"`},

	// Other statements.
	{`EXPLAIN SELECT 1`, `EXPLAIN  format=text: select 1 from dual`},
	{`EXPLAIN ANALYZE SELECT * FROM 'x.parquet'`,
		`EXPLAIN analyze format=text: select * from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`explain verbose select * from 'x.parquet'`,
		`EXPLAIN verbose format=text: select * from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`EXPLAIN VERIFY SELECT a FROM 'x.parquet' WHERE a = 1`,
		`EXPLAIN verify format=text: select a from __pqsql_src_0 where a = 1 | __pqsql_src_0 = files["x.parquet"]`},
	{`EXPLAIN (FORMAT JSON) SELECT * FROM 'x.parquet'`,
		`EXPLAIN  format=json: select * from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`EXPLAIN (FORMAT MAP) ANALYZE SELECT * FROM 'x.parquet'`,
		`EXPLAIN analyze format=map: select * from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`EXPLAIN (FORMAT json, ANALYZE, VERBOSE false) FROM 'x.parquet'`,
		`EXPLAIN analyze format=json: select * from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`DESCRIBE 'x.parquet'`, `DESCRIBE files["x.parquet"]`},
	{`DESCRIBE read_parquet(['a.parquet', 'b/*.parquet'], hive_partitioning = true)`,
		`DESCRIBE files["a.parquet" "b/*.parquet"] hive`},
	{`DESCRIBE parquet_schema('f.parquet')`, `DESCRIBE parquet_schema["f.parquet"]`},
	{`DESCRIBE v;`, `DESCRIBE view "v"`},
	{`DESCRIBE SELECT a FROM 'x.parquet'`,
		`DESCRIBE query: select a from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`CREATE VIEW v AS SELECT * FROM 'x.parquet';`,
		`CREATE VIEW "v" replace=false ifnotexists=false temp=false text="SELECT * FROM 'x.parquet'": select * from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
	{`CREATE OR REPLACE TEMP VIEW "Big V" AS SELECT a FROM read_parquet('d/*.parquet')`,
		`CREATE VIEW "Big V" replace=true ifnotexists=false temp=true text="SELECT a FROM read_parquet('d/*.parquet')": select a from __pqsql_src_0 | __pqsql_src_0 = files["d/*.parquet"]`},
	{`create view if not exists w as from v`,
		`CREATE VIEW "w" replace=false ifnotexists=true temp=false text="from v": select * from __pqsql_src_0 | __pqsql_src_0 = view "v"`},
	{`DROP VIEW v`, `DROP VIEW "v" ifexists=false`},
	{`DROP VIEW IF EXISTS "My V"`, `DROP VIEW "My V" ifexists=true`},
	{`SET threads = 4`, `SET threads = "4" (number)`},
	{`SET Memory_Limit TO '1GB'`, `SET memory_limit = "1GB" (string)`},
	{`SET enable_progress_bar = TRUE`, `SET enable_progress_bar = "true" (bool)`},
	{`SET x = -1.5`, `SET x = "-1.5" (number)`},
	{`SET default_null_order TO nulls_first`, `SET default_null_order = "nulls_first" (identifier)`},
	{`RESET Threads`, `RESET threads`},
	{`RESET SESSION memory_limit;`, `RESET memory_limit`},
	{`SELECT name FROM duckdb_settings()`, `select name from __pqsql_src_0 | __pqsql_src_0 = duckdb_settings[]`},

	// Comments are not part of the statement.
	{"-- count\nSELECT /* all */ count(*) FROM 'x.parquet' -- done\n;",
		`select count(*) from __pqsql_src_0 | __pqsql_src_0 = files["x.parquet"]`},
}

func TestParseValid(t *testing.T) {
	for _, tc := range valid {
		st, err := Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		if got := dump(st); got != tc.want {
			t.Errorf("Parse(%q)\n got: %s\nwant: %s", tc.src, got, tc.want)
		}
	}
}

var invalid = []struct {
	src          string
	line, column int
	token        string
	kind         error
	msg          string
}{
	{`RESET`, 1, 6, ``, ErrSyntax, `expected a setting name`},
	{`RESET threads now`, 1, 15, `now`, ErrSyntax, `expected end of statement`},
	{`SELECT * FROM duckdb_settings(1)`, 1, 31, `1`, ErrSyntax, `expected ")": duckdb_settings() takes no arguments`},
	{`SELECT a, b FORM t`, 1, 18, `t`, ErrSyntax, `expected ",", FROM, WHERE, GROUP BY, HAVING, ORDER BY, ...`},
	{`SELECT * FORM 'x.parquet'`, 1, 10, `FORM`, ErrSyntax, `expected ",", FROM, WHERE, GROUP BY, HAVING, ORDER BY, ...`},
	{`SELECT * FROM`, 1, 14, ``, ErrSyntax, expectSource},
	{`SELECT * FROM WHERE a = 1`, 1, 15, `WHERE`, ErrSyntax, expectSource},
	{"SELECT *\nFROM 'x.parquet'\nWHERE", 3, 6, ``, ErrSyntax, `expected expression`},
	{"SELECT count(*\n  FROM t", 2, 3, `FROM`, ErrSyntax, `expected ")" or ","`},
	{`SELECT a FROM t ORDER a`, 1, 23, `a`, ErrSyntax, `expected BY`},
	{`SELECT a,, b FROM t`, 1, 10, `,`, ErrSyntax, `expected expression`},
	{`SELECT * FROM t WHERE a = 1 b`, 1, 29, `b`, ErrSyntax, `expected GROUP BY, HAVING, ORDER BY, LIMIT or end of input`},
	{`SELECT "My Col" FROM 'x.parquet' WHERE "My Col" = = 1`, 1, 51, `=`, ErrSyntax, `expected expression`},
	{`SELECT x::INT FROM 'f.parquet' GROUP a`, 1, 38, `a`, ErrSyntax, `expected BY`},
	{`SELECT 'abc`, 1, 8, `'abc`, ErrSyntax, `unterminated string: expected closing '`},
	{"SELECT \"abc\nFROM t", 1, 8, `"abc`, ErrSyntax, `unterminated quoted identifier: expected closing "`},
	{`SELECT 1 /* never closed`, 1, 10, `/* never closed`, ErrSyntax, `unterminated /* comment: expected */`},
	{`SELECT "" FROM t`, 1, 8, `""`, ErrSyntax, `zero-length quoted identifier`},
	{`SELECT a || b | c FROM t`, 1, 15, `|`, ErrUnsupported, `bitwise | and string concatenation || in one query are not supported: use concat() for one of them`},
	{`SELECT * FROM t WHERE x = ?`, 1, 27, `?`, ErrUnsupported, `prepared statement parameters are not supported`},
	{`SELECT * FROM t WHERE x = $1`, 1, 27, `$`, ErrUnsupported, `prepared statement parameters are not supported`},
	{`SELECT a # b FROM t`, 1, 10, `#`, ErrSyntax, `unexpected character`},
	{`SELECT l[1:2:3:4] FROM t`, 1, 15, `:`, ErrSyntax, `a slice takes at most three parts: x[begin:end:step]`},
	{`SELECT l[1:2:] FROM t`, 1, 13, `:`, ErrSyntax, `expected a slice step after the second ":"`},
	{`SELECT x::FOO FROM t`, 1, 11, `FOO`, ErrUnsupported, `unknown or unsupported type`},
	{`SELECT x:: FROM t`, 1, 12, `FROM`, ErrSyntax, `expected a type name`},
	{`SELECT ::INT FROM t`, 1, 8, `::`, ErrSyntax, `expected an expression before ::`},
	{`SELECT CAST(a AS INT[3]) FROM t`, 1, 21, `[`, ErrUnsupported, `fixed-size array types are not supported`},
	{`SELECT CAST(a INT) FROM t`, 1, 18, `)`, ErrSyntax, `expected AS`},
	{`SELECT a::DECIMAL(40, 2) FROM t`, 1, 11, `DECIMAL`, ErrSyntax, `DECIMAL width must be 1 to 38 and scale at most the width`},
	{`SELECT a::INTEGER(3) FROM t`, 1, 18, `(`, ErrSyntax, `type INTEGER takes no parameters here`},
	{`SELECT TRY_CAST(a INT) FROM t`, 1, 22, `)`, ErrSyntax, `expected AS`},
	{`SELECT * FROM foo('x')`, 1, 15, `foo`, ErrUnsupported, `unknown table function: expected read_parquet, parquet_scan, parquet_metadata, parquet_schema, parquet_file_metadata or parquet_kv_metadata`},
	{`SELECT * FROM main.t`, 1, 19, `.`, ErrUnsupported, `qualified names are not supported: expected an unqualified view name`},
	{`SELECT * FROM read_parquet()`, 1, 28, `)`, ErrSyntax, `expected a path string or a list of path strings`},
	{`SELECT * FROM read_parquet([])`, 1, 29, `]`, ErrSyntax, `expected at least one path in the list`},
	{`SELECT * FROM read_parquet(['a.parquet' 'b.parquet'])`, 1, 41, `'b.parquet'`, ErrSyntax, `expected "," or "]"`},
	{`SELECT * FROM read_parquet('a', binary_as_text = true)`, 1, 33, `binary_as_text`, ErrUnsupported, `unknown option: expected hive_partitioning, filename, file_row_number or union_by_name`},
	{`SELECT * FROM read_parquet('a', union_by_name = yes)`, 1, 49, `yes`, ErrSyntax, `expected true, false, 1 or 0`},
	{`SELECT * FROM read_parquet('a', filename = maybe)`, 1, 44, `maybe`, ErrSyntax, `expected true, false, 1, 0 or a column name`},
	{`SELECT * FROM read_parquet('a', hive_partitioning = maybe)`, 1, 53, `maybe`, ErrSyntax, `expected true, false, 1 or 0`},
	{`SELECT * FROM read_parquet('a', hive_partitioning = 1, hive_partitioning = 0)`, 1, 56, `hive_partitioning`, ErrSyntax, `option given twice`},
	{`SELECT * FROM read_parquet('a' hive_partitioning = 1)`, 1, 32, `hive_partitioning`, ErrSyntax, `expected "," or ")"`},
	{`SELECT * FROM parquet_metadata('a', x = 1)`, 1, 37, `x`, ErrUnsupported, `unknown option: parquet_metadata takes no options`},
	{`SELECT * FROM ''`, 1, 15, `''`, ErrSyntax, `expected a non-empty path`},
	{`SELECT * FROM 'a.parquet' POSITIONAL JOIN 'b.parquet'`, 1, 27, `POSITIONAL`, ErrUnsupported, `POSITIONAL JOIN is not supported`},
	{`SELECT * FROM t WHERE a NULLS LAST`, 1, 25, `NULLS`, ErrSyntax, `NULLS FIRST/LAST is only allowed after an ORDER BY item`},
	{`SELECT a FROM t ORDER BY NULLS LAST`, 1, 26, `NULLS`, ErrSyntax, `expected an expression before NULLS`},
	{`SELECT a FROM t ORDER BY a DESC NULLS`, 1, 38, ``, ErrSyntax, `expected FIRST or LAST`},
	{`SELECT a FROM t ORDER BY a NULLS MIDDLE`, 1, 34, `MIDDLE`, ErrSyntax, `expected FIRST or LAST`},
	{`SELECT "__pqsql_src_0" FROM t`, 1, 8, `"__pqsql_src_0"`, ErrUnsupported, `names starting with __pqsql_ are reserved by pqsql`},
	{`SELECT (x) FILTER (WHERE y) FROM t`, 1, 12, `FILTER`, ErrSyntax, `FILTER must follow an aggregate function call`},
	{`SELECT count(*) FILTER (WHERE) FROM t`, 1, 30, `)`, ErrSyntax, `expected a condition`},
	{`SELECT count(*) FILTER (WHERE a FROM t`, 1, 39, ``, ErrSyntax, `expected ")"`},
	{`SELECT 1 EXCEPT SELECT 2 INTERSECT SELECT 3`, 1, 26, `INTERSECT`, ErrUnsupported, `INTERSECT mixed with UNION or EXCEPT needs parentheses`},
	{`SELECT * FROM t TABLESAMPLE 10%`, 1, 17, `TABLESAMPLE`, ErrUnsupported, `TABLESAMPLE is not supported: write USING SAMPLE after the FROM clause`},
	{`SELECT * FROM t USING SAMPLE ten ROWS`, 1, 30, `ten`, ErrSyntax, `expected a sample size: a number of rows or a percentage`},
	{`SELECT * FROM t USING SAMPLE 10 REPEATABLE 3`, 1, 44, `3`, ErrSyntax, `expected REPEATABLE (seed) with an integer seed`},
	{`SELECT * FROM t USING SAMPLE 10% (system, x)`, 1, 43, `x`, ErrSyntax, `expected an integer seed`},
	{`SELECT 1 INTERSECT BY NAME SELECT 2`, 1, 20, `BY`, ErrSyntax, `syntax error at or near "BY"`},
	{`SELECT 1 UNION ALL BY SELECT 2`, 1, 20, `BY`, ErrSyntax, `syntax error at or near "BY"`},
	{`SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a)`, 1, 16, `WITH`, ErrUnsupported, `WITH inside a subquery is not supported: put the common table expressions before the outer SELECT`},
	{`WITH a AS (SELECT 1), A AS (SELECT 2) SELECT 1`, 1, 23, `A`, ErrSyntax, `duplicate CTE name "A"`},
	{`WITH a AS (SELECT 1 SELECT 2`, 1, 29, ``, ErrSyntax, `expected ")"`},
	{`WITH a AS (SELECT 1 +) SELECT 1`, 1, 22, `)`, ErrSyntax, `expected expression`},
	{`WITH a AS (1) SELECT 1`, 1, 12, `1`, ErrSyntax, `expected SELECT`},
	{`WITH a AS SELECT 1`, 1, 11, `SELECT`, ErrSyntax, `expected "("`},
	{`WITH a (SELECT 1) SELECT 1`, 1, 9, `SELECT`, ErrSyntax, `expected column name`},
	{`WITH a(x y) AS (SELECT 1) SELECT 1`, 1, 10, `y`, ErrSyntax, `expected "," or ")"`},
	{`WITH a AS (SELECT 1) a`, 1, 22, `a`, ErrSyntax, `expected "," or SELECT`},
	{`WITH a AS (SELECT 1)`, 1, 21, ``, ErrSyntax, `expected "," or SELECT`},
	{`WITH __pqsql_x AS (SELECT 1) SELECT 1`, 1, 6, `__pqsql_x`, ErrUnsupported, `names starting with __pqsql_ are reserved by pqsql`},
	{`SELECT 1; SELECT 2`, 1, 9, `;`, ErrSyntax, `expected end of statement: Parse takes one statement, SplitScript splits scripts`},
	{``, 1, 1, ``, ErrEmpty, `expected a statement`},
	{"  -- just a comment\n ;", 1, 1, ``, ErrEmpty, `expected a statement`},
	{`SELEC 1`, 1, 1, `SELEC`, ErrSyntax, expectStatement},
	{`INSERT INTO t VALUES (1)`, 1, 1, `INSERT`, ErrUnsupported, `INSERT statements are not supported: ` + expectStatement},
	{`EXPLAIN DESCRIBE t`, 1, 9, `DESCRIBE`, ErrSyntax, `expected SELECT, FROM, ANALYZE, VERBOSE, VERIFY or an option list`},
	{`EXPLAIN (FORMAT HTML) SELECT 1`, 1, 17, `HTML`, ErrSyntax, `expected TEXT, JSON or MAP`},
	{`EXPLAIN (COSTS) SELECT 1`, 1, 10, `COSTS`, ErrSyntax, `expected FORMAT, ANALYZE, VERBOSE or VERIFY`},
	{`EXPLAIN (FORMAT JSON SELECT 1`, 1, 22, `SELECT`, ErrSyntax, `expected "," or ")"`},
	{`DESCRIBE`, 1, 9, ``, ErrSyntax, expectSource},
	{`DESCRIBE 'x.parquet' extra`, 1, 22, `extra`, ErrSyntax, `expected end of statement after the source`},
	{`CREATE VIEW v(a) AS SELECT 1`, 1, 14, `(`, ErrUnsupported, `view column lists are not supported: expected AS`},
	{`CREATE TABLE t AS SELECT 1`, 1, 8, `TABLE`, ErrUnsupported, `CREATE TABLE is not supported: expected VIEW`},
	{`CREATE VIEW v SELECT 1`, 1, 15, `SELECT`, ErrSyntax, `expected AS`},
	{`CREATE VIEW AS SELECT 1`, 1, 13, `AS`, ErrSyntax, `expected view name`},
	{`CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1`, 1, 24, `IF`, ErrSyntax, `OR REPLACE and IF NOT EXISTS cannot both be given`},
	{`CREATE VIEW v AS SELECT * FORM 'x.parquet'`, 1, 27, `FORM`, ErrSyntax, `expected ",", FROM, WHERE, GROUP BY, HAVING, ORDER BY, ...`},
	{`DROP VIEW`, 1, 10, ``, ErrSyntax, `expected view name`},
	{`DROP TABLE t`, 1, 6, `TABLE`, ErrUnsupported, `DROP TABLE is not supported: expected VIEW`},
	{`DROP VIEW IF v`, 1, 14, `v`, ErrSyntax, `expected EXISTS`},
	{`DROP VIEW a b`, 1, 13, `b`, ErrSyntax, `expected end of statement`},
	{`SET = 1`, 1, 5, `=`, ErrSyntax, `expected a setting name`},
	{`SET x 1`, 1, 7, `1`, ErrSyntax, `expected "=" or TO`},
	{`SET x =`, 1, 8, ``, ErrSyntax, `expected a number, string, true, false or identifier`},
	{`SET x = 1 2`, 1, 11, `2`, ErrSyntax, `expected end of statement`},
	{`SET x = -abc`, 1, 10, `abc`, ErrSyntax, `expected a number`},
}

func TestParseInvalid(t *testing.T) {
	for _, tc := range invalid {
		st, err := Parse(tc.src)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", tc.src, dump(st))
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): error %T %v is not an *Error", tc.src, err, err)
			continue
		}
		if e.Line != tc.line || e.Column != tc.column || e.Token != tc.token || e.Msg != tc.msg {
			t.Errorf("Parse(%q):\n got: %d:%d %q %q\nwant: %d:%d %q %q",
				tc.src, e.Line, e.Column, e.Token, e.Msg, tc.line, tc.column, tc.token, tc.msg)
		}
		if !errors.Is(err, tc.kind) {
			t.Errorf("Parse(%q): error %v is not %v", tc.src, err, tc.kind)
		}
	}
}

func TestErrorString(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`SELECT * FROM t FORM x`,
			`syntax error at line 1, column 22 near "x": expected ",", WHERE, GROUP BY, HAVING, ORDER BY, LIMIT, ...`},
		{`SELECT * FROM`,
			`syntax error at line 1, column 14, at end of input: ` + expectSource},
		{`SELECT a || b | c FROM t`,
			`unsupported at line 1, column 15 near "|": bitwise | and string concatenation || in one query are not supported: use concat() for one of them`},
	} {
		_, err := Parse(tc.src)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) error:\n got: %v\nwant: %s", tc.src, err, tc.want)
		}
	}
}

// TestDetails checks what the dump does not show: decoded values, positions
// and the exact cast types.
func TestDetails(t *testing.T) {
	st, err := Parse("SELECT a::DECIMAL(10,2), 'C:\\dir'\nFROM  read_parquet('x.parquet') AS r")
	if err != nil {
		t.Fatal(err)
	}
	sel := st.(*Select)
	exprs := sel.raw.AST.(*sqlparser.Select).SelectExprs
	conv, ok := exprs[0].(*sqlparser.AliasedExpr).Expr.(*sqlparser.ConvertExpr)
	if !ok {
		t.Fatalf("first expression is %T, want *sqlparser.ConvertExpr", exprs[0].(*sqlparser.AliasedExpr).Expr)
	}
	if conv.Type.Type != TypeDecimal || string(conv.Type.Length.Val) != "10" || string(conv.Type.Scale.Val) != "2" || conv.Type.Charset != "" {
		t.Errorf("cast type = %+v, want DECIMAL(10,2)", *conv.Type)
	}
	if v := exprs[1].(*sqlparser.AliasedExpr).Expr.(*sqlparser.SQLVal); v.Type != sqlparser.StrVal || string(v.Val) != `C:\dir` {
		t.Errorf("string literal = %q, want C:\\dir", v.Val)
	}
	src := sel.Sources[SourcePrefix+"0"]
	if src == nil {
		t.Fatalf("no source %s0 in %v", SourcePrefix, sel.Sources)
	}
	wantPos := Position{Offset: 40, Line: 2, Column: 7}
	if src.Pos != wantPos || src.Text != "read_parquet('x.parquet')" || src.Alias != "r" {
		t.Errorf("source = %+v, want Pos %v, Text read_parquet('x.parquet'), Alias r", *src, wantPos)
	}
	from := sel.raw.AST.(*sqlparser.Select).From[0].(*sqlparser.AliasedTableExpr).Expr.(sqlparser.TableName)
	if sel.raw.SourceOf(from) != src {
		t.Errorf("SourceOf(%v) is not the source", from)
	}
	if sel.raw.SourceOf(sqlparser.TableName{Name: sqlparser.NewTableIdent("other")}) != nil {
		t.Errorf("SourceOf(other) should be nil")
	}
	if sel.Pos != (Position{Offset: 0, Line: 1, Column: 1}) {
		t.Errorf("select Pos = %v", sel.Pos)
	}

	st, err = Parse(`SELECT a FROM t ORDER BY a DESC NULLS FIRST, b`)
	if err != nil {
		t.Fatal(err)
	}
	sel = st.(*Select)
	order := sel.raw.AST.(*sqlparser.Select).OrderBy
	if sel.raw.NullsOf(order[0]) != NullsFirst || sel.raw.NullsOf(order[1]) != NullsDefault {
		t.Errorf("nulls = %v, %v; want NULLS FIRST, default", sel.raw.NullsOf(order[0]), sel.raw.NullsOf(order[1]))
	}
	if order[0].Direction != sqlparser.DescScr {
		t.Errorf("direction = %q, want desc", order[0].Direction)
	}

	st, err = Parse(`SELECT a FROM t WHERE s ILIKE 'x' AND a || b = 'c'`)
	if err != nil {
		t.Fatal(err)
	}
	and := st.(*Select).raw.AST.(*sqlparser.Select).Where.Expr.(*sqlparser.AndExpr)
	if op := and.Left.(*sqlparser.ComparisonExpr).Operator; op != ILikeStr {
		t.Errorf("ILIKE operator = %q, want %q", op, ILikeStr)
	}
	if op := and.Right.(*sqlparser.ComparisonExpr).Left.(*sqlparser.BinaryExpr).Operator; op != ConcatStr {
		t.Errorf("|| operator = %q, want %q", op, ConcatStr)
	}
}

// FuzzParse checks that no input makes Parse panic or return an error that is
// not an *Error.
func FuzzParse(f *testing.F) {
	for _, tc := range valid {
		f.Add(tc.src)
	}
	for _, tc := range invalid {
		f.Add(tc.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		st, err := Parse(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q): %T is not an *Error", src, err)
			}
			if errors.Is(err, ErrInternal) {
				t.Fatalf("Parse(%q): %v", src, err)
			}
			return
		}
		if st == nil {
			t.Fatalf("Parse(%q) returned neither statement nor error", src)
		}
	})
}

// TestRandomTokenSequences parses random sequences of SQL tokens, which reach
// the lowering passes far more often than random bytes do: no input may cause
// an internal error or leave a lowering marker in the result.
func TestRandomTokenSequences(t *testing.T) {
	vocab := strings.Fields(`SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET JOIN LEFT ON USING AS , ( ) ( )
		'a.parquet' read_parquet parquet_metadata [ ] hive_partitioning = := true 1 2.5 a b "c d" :: INT
		DECIMAL ( 10 ) CAST DATE '2020-01-01' NULLS FIRST LAST DESC ASC ILIKE NOT LIKE || + - * / CASE
		WHEN THEN ELSE END IN BETWEEN AND OR IS NULL DISTINCT count extract year UNION ALL . ; x t
		INTERVAL day FILTER FILTER ( WITH a AS RECURSIVE MATERIALIZED INTERSECT EXCEPT substr substring
		FOR ALL OFFSET LIMIT sum`)
	starts := []string{"SELECT", "FROM", "SELECT * FROM", "EXPLAIN SELECT", "DESCRIBE"}
	starts = append(starts, "WITH a AS (SELECT 1)", "SELECT count(*) FILTER (", "SELECT * FROM (SELECT 1)")
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 20000; n++ {
		parts := []string{starts[r.Intn(len(starts))]}
		for k := 1 + r.Intn(14); k > 0; k-- {
			parts = append(parts, vocab[r.Intn(len(vocab))])
		}
		src := strings.Join(parts, " ")
		st, err := Parse(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || errors.Is(err, ErrInternal) {
				t.Fatalf("Parse(%q): %v", src, err)
			}
			continue
		}
		d := strings.ReplaceAll(dump(st), SourcePrefix, "")
		if strings.Contains(d, reservedPrefix) || strings.Contains(d, "regexp") {
			t.Fatalf("Parse(%q) left a marker: %s", src, d)
		}
	}
}

// TestClauseDetails checks the side tables and AST shapes of the clause
// lowerings: FILTER, cast spellings, LIMIT NULL, unnamed subqueries and CTEs.
func TestClauseDetails(t *testing.T) {
	st, err := Parse("WITH a(x) AS (SELECT 1), b AS (SELECT 2)\nSELECT count(*) FILTER (WHERE y > 1), CAST(z AS DOUBLE), z::DECIMAL, z::numeric(5), z::char, DATE '2024-01-01', z::int8\nFROM (SELECT 1) OFFSET 2")
	if err != nil {
		t.Fatal(err)
	}
	sel := st.(*Select)
	if len(sel.With) != 2 || sel.With[0].Name != "a" || sel.With[1].Pos != (Position{Offset: 25, Line: 1, Column: 26}) ||
		sel.With[0].Query.Text != "SELECT 1" || sel.Pos.Offset != 0 || !strings.HasPrefix(sel.Text, "WITH a(x)") {
		t.Errorf("CTEs: %+v %+v, text %q", sel.With[0], sel.With[1], sel.Text)
	}
	s := sel.raw.AST.(*sqlparser.Select)
	exprs := s.SelectExprs
	count := exprs[0].(*sqlparser.AliasedExpr).Expr.(*sqlparser.FuncExpr)
	if f := sel.raw.FilterOf(count); f == nil || sqlparser.String(f) != "y > 1" || len(count.Exprs) != 1 {
		t.Errorf("FILTER of %s = %v", sqlparser.String(count), f)
	}
	want := []string{`"DOUBLE"`, "DECIMAL", "DECIMAL(5)", "VARCHAR(1)", `"DATE"`, "BIGINT"}
	for i, w := range want {
		c := exprs[i+1].(*sqlparser.AliasedExpr).Expr.(*sqlparser.ConvertExpr)
		if got := sel.raw.CastTypeText(c); got != w {
			t.Errorf("CastTypeText(%s) = %s, want %s", sqlparser.String(c), got, w)
		}
	}
	if got := sel.raw.CastTypeText(&sqlparser.ConvertExpr{Type: &sqlparser.ConvertType{Type: TypeDate}}); got != TypeDate {
		t.Errorf("CastTypeText of a foreign cast = %s", got)
	}
	if _, ok := s.Limit.Rowcount.(*sqlparser.NullVal); !ok || sqlparser.String(s.Limit.Offset) != "2" {
		t.Errorf("OFFSET 2 = %s", sqlparser.String(s.Limit))
	}
	if at := s.From[0].(*sqlparser.AliasedTableExpr); !at.As.IsEmpty() {
		t.Errorf("unnamed subquery has alias %q", at.As.String())
	}
}
