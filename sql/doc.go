// Package sql turns the SQL text pqsql users type (DuckDB's dialect) into
// statements the planner consumes.
//
// Queries are parsed by github.com/xwb1989/sqlparser, a MySQL grammar. This
// package lexes the text itself, by DuckDB's rules, and lowers the
// DuckDB-isms onto forms sqlparser parses, marking what MySQL cannot say;
// fixAST reads the marks back into side tables keyed by sqlparser's nodes,
// and convert.go then turns that tree and its side tables, at once, into
// pqsql's own tree (package sql/ast), in which every node carries its
// position and DuckDB's constructs are fields and nodes. Select.AST is that
// tree: nothing outside this package sees sqlparser. sql imports only
// sqlparser, sql/ast, errclass and the standard library.
//
// # Entry points
//
//	Parse(text) (Statement, error)       one statement; trailing ";" allowed
//	SplitScript(text) ([]Piece, error)   split a script; Piece.Parse parses one
//	NewSplitter(text) *Splitter          the same, one statement at a time
//	IsComplete(text) bool                is a REPL buffer a finished statement?
//	Completer                            the same for a buffer growing by lines
//
// A Statement is one of *Select, *Explain, *Describe, *CreateView, *DropView
// or *Set. Every error is an *Error with the Line, Column and Token of the
// ORIGINAL text (not of the lowered text) and wraps ErrSyntax,
// ErrUnsupported, ErrEmpty, ErrInternal, ErrExpressionDepth or
// ErrInvalidUTF8, each of which also matches its errclass class.
//
// # Hostile input
//
// Text that is not UTF-8 is refused at its first bad byte. An expression
// nested deeper than DuckDB's max_expression_depth (1000, counted as DuckDB
// counts: parentheses add no level, a chain of AND or of OR is one level)
// fails right after parsing, before any recursive walk of the tree, and
// parentheses nested past that depth fail right after lexing. Chains of AND
// and of OR of any length are rebuilt as balanced trees, so the planner's
// recursive walks stay shallow. Every lowering pass and SplitScript run in
// time linear in the text (benchmarks in bench_test.go).
//
// # Sources
//
// Every data source of every FROM clause, subqueries and joins included, is
// replaced in the AST by a placeholder table name SourcePrefix+"0",
// SourcePrefix+"1", ... in text order, whose ast.TableName.Source is the
// *Source it stands for (Select.Sources maps the names too):
//
//	FROM 'f.parquet'                        SourceFiles, Paths ["f.parquet"]
//	FROM 'dir/*.parquet', 'a/**/*.parquet'  SourceFiles, globs kept as written
//	FROM read_parquet('g') / parquet_scan   SourceFiles
//	read_parquet(['a.parquet','b.parquet']) SourceFiles, two Paths
//	read_parquet('g', hive_partitioning = true|false|1|0)  HivePartitioning, HivePartitioningSet
//	read_parquet('g', filename = true|'col')      Filename (the column's name)
//	read_parquet('g', file_row_number = true)     FileRowNumber
//	read_parquet('g', union_by_name = true)       UnionByName
//	FROM parquet_metadata('f'), parquet_schema('f'),
//	     parquet_file_metadata('f'), parquet_kv_metadata('f')  SourceFunction
//	FROM range(3), generate_series(1, 9, 2)          SourceFunction, Args
//	FROM v, FROM "My View"                  SourceView, Name as written
//
// Table aliases (FROM 'f.parquet' AS o, FROM 'f.parquet' o) stay in the AST
// (AliasedTableExpr.As) and are copied to Source.Alias. Joins, comma joins
// and subqueries are kept as parsed; the planner decides what
// it supports; FULL [OUTER] JOIN ... ON, which the grammar lacks, is a
// JoinTableExpr whose Join is FullJoinStr (with ON or USING), and NATURAL
// FULL [OUTER] JOIN one whose Join is NaturalFullJoinStr (no condition);
// NATURAL INNER JOIN is NATURAL JOIN. A FROM counts only where a SELECT is at the same nesting, so
// EXTRACT(YEAR FROM d) is untouched.
//
// # What the AST means
//
// The AST is package ast's, with these DuckDB meanings (node and field
// names follow sqlparser's, the MySQL grammar's):
//
//   - Identifiers: "My Col" (DuckDB) reaches the AST as the identifier My Col;
//     names keep their case (DuckDB matches them case-insensitively). Words
//     MySQL reserves but DuckDB does not (key, index, values, replace, ...)
//     are plain identifiers.
//   - Strings: single-quoted, ” is a quote and a backslash is just a
//     character, as in DuckDB. SQLVal holds the decoded bytes.
//   - Casts: x::T, CAST(x AS T) and the typed literals DATE '...',
//     TIME '...', TIMESTAMP '...', TIMESTAMPTZ '...' and INTERVAL '...' are
//     all *ast.ConvertExpr whose Type.Type is a canonical DuckDB type
//     name (the Type* constants; INT is INTEGER, TEXT is VARCHAR, ...). A
//     typed literal is the cast of its string, exactly as in DuckDB. DECIMAL
//     always carries Length (width) and Scale, with DuckDB's defaults (18,3)
//     and (p,0) filled in. TRY_CAST(x AS T) is the cast with Try set.
//   - INTERVAL <value> <unit> (INTERVAL 1 DAY, INTERVAL '2' HOURS, units
//     singular or plural) is an *ast.IntervalExpr; the ranged form
//     INTERVAL '1-2' YEAR TO MONTH is refused, as DuckDB refuses it.
//   - ILIKE / NOT ILIKE: ComparisonExpr with Operator ILikeStr / NotILikeStr.
//   - a || b: BinaryExpr with Operator ConcatStr (string concatenation).
//     Bitwise a | b, a & b, a << b, a >> b are BinaryExprs "|", "&", "<<",
//     ">>", grouped as DuckDB groups them (one precedence level with ||,
//     below + and -, leaning left; bitwise.go); | and || in one query are
//     refused. Prefix ~x is a UnaryExpr "~" over the arithmetic after it.
//   - ^ and ** are BinaryExpr "^", which means power (DuckDB), not XOR;
//     // is BinaryExpr "div" (integer division); == is "=".
//   - ORDER BY ... NULLS FIRST|LAST: Order.Nulls. Order.Direction is
//     "asc" when none was written.
//   - LIMIT n OFFSET m: Limit{Rowcount: n, Offset: m}. OFFSET m
//     LIMIT n is the same. LIMIT ALL is LIMIT NULL (DuckDB's own "no
//     limit"), and a lone OFFSET m is LIMIT NULL OFFSET m: Rowcount is an
//     *ast.NullVal.
//   - EXTRACT(part FROM x) is FuncExpr main.date_part('part', x) (Qualifier
//     main, as DuckDB names the column), part a word or a string.
//   - substr(...) and substring(...) are plain FuncExprs, with any first
//     argument; substring(s FROM a FOR b) is
//     substring(s, a, b) and substring(s FOR b) is substring(s, 1, b).
//   - FROM src [AS] t(a, b): Source.Columns holds the column list, which
//     renames src's first columns; the tree has the alias alone. For a
//     FROM subquery, (query) [AS] t(a, b), the list is in
//     AliasedTableExpr.Columns.
//   - POSITION(needle IN haystack) is the FuncExpr position(haystack,
//     needle); position with a comma is a syntax error, as in DuckDB.
//   - percentile_cont(f) WITHIN GROUP (ORDER BY x) and percentile_disc are
//     quantile_cont(f ORDER BY x) and quantile_disc(f ORDER BY x), as
//     DuckDB rewrites them.
//   - agg(...) FILTER (WHERE cond) (WHERE may be left out): the call's
//     FuncExpr with the condition in Filter. FILTER after anything but a
//     function call is a syntax error; the planner rejects it on scalar
//     functions.
//   - agg(args ORDER BY k [ASC|DESC] [NULLS FIRST|LAST], ...): the call's
//     FuncExpr with the keys in OrderBy. group_concat is an ordinary call.
//   - A FROM subquery without an alias (DuckDB allows it) has an empty
//     AliasedTableExpr.As.
//   - INTERSECT [ALL|DISTINCT] and EXCEPT [ALL|DISTINCT] are an *ast.Union
//     whose Type is IntersectStr, IntersectAllStr, ExceptStr or ExceptAllStr
//     (UNION has ast's UnionStr, UnionAllStr, UnionDistinctStr). INTERSECT binds tighter than UNION
//     and EXCEPT in DuckDB while sqlparser reads every chain left to right,
//     so mixing them without parentheses is unsupported. UNION [ALL] BY
//     NAME is a Union whose Type is UnionByNameStr or UnionAllByNameStr.
//   - Casts keep how their type was written for column names:
//     ConvertExpr.TypeText is "DOUBLE" (quoted), DECIMAL(10, 2), DECIMAL,
//     VARCHAR(1) for CHAR, ... as DuckDB prints them.
//   - FROM-first queries: "FROM src" is SELECT * FROM src and
//     "FROM src SELECT list ..." is SELECT list FROM src ....
//   - f(args) OVER (PARTITION BY ... ORDER BY ... frame) and OVER name: the
//     call's FuncExpr with the clause in Over (*ast.Window); named WINDOW
//     clauses are substituted and removed. ROWS/RANGE/GROUPS name columns
//     unless a frame follows them.
//   - QUALIFY cond: ast.Select.Qualify; the condition is not in the select
//     list.
//   - USING SAMPLE spec: ast.Select.Sample. TABLESAMPLE is refused.
//   - GROUP BY ALL and ORDER BY ALL: a single item, the column AllMarker.
//     A query's ORDER BY * is ORDER BY ALL, as in DuckDB.
//   - GROUP BY with GROUPING SETS, ROLLUP, CUBE, () or a parenthesized
//     list: GroupBy holds each expression once and ast.Select.GroupingSets
//     the sets, by position in GroupBy, expanded as DuckDB does (a cross
//     product of the items' sets; at most 65535).
//   - * EXCLUDE (cols) REPLACE (expr AS col): the StarExpr, with its lists
//     in Exclude and Replace.
//   - SELECT DISTINCT ON (keys): keys in ast.Select.DistinctOn, no DISTINCT.
//   - a IS [NOT] DISTINCT FROM b: ComparisonExpr with Operator
//     IsDistinctFromStr or IsNotDistinctFromStr.
//   - x op ANY (subquery), x op SOME (subquery) and x op ALL (subquery):
//     ComparisonExpr with Operator op+AnySuffix or op+AllSuffix ("> any",
//     "!= all"; see Quantified) and the Subquery as Right.
//   - LIMIT n% and LIMIT n PERCENT: LIMIT n, with ast.Select.LimitPercent.
//   - A trailing comma before a clause or the end of a select list is
//     dropped.
//   - VALUES (...), (...) at the start of a query or as a FROM subquery
//     is the UNION ALL of one SELECT per row, its columns col0, col1, ...
//     or those of the alias's column list (FROM (VALUES ...) t(x, y)).
//   - FROM range(...) and generate_series(...) with one to three integer
//     literals are SourceFunction sources with Args; with other arguments
//     (timestamps and an INTERVAL, expressions) they are the subquery
//     (SELECT unnest(__pqsql_table_range(...)) AS range), the list form
//     under a name the planner binds with the table function's errors.
//   - Nested values (nested.go) are nodes the planner binds by type: x[i]
//     is an ast.Subscript and x[a:b] an ast.Slice (a bound left out is
//     nil); (expr).f and x[1].f are an ast.FieldAccess; [a, b] and
//     ARRAY[a, b] an ast.ListLiteral (a call of list_value stays a
//     FuncExpr); {'k': v}, {k: v} and struct_pack(k := v) an
//     ast.StructLiteral whose names are string literals; MAP {k: v} an
//     ast.MapLiteral; T[] in a cast is the type name "T[]".
//   - Lambdas x -> body, (x, y) -> body and lambda x, y: body, allowed only
//     as function arguments, are an ast.Lambda.
//   - a && b is a ComparisonExpr with Operator BBoxOverlapStr.
//   - FROM unnest(list) [alias] is the subquery
//     (SELECT unnest(list) AS unnest) [alias].
//
// # Positions
//
// Every node of the AST carries where it starts in the original text
// (ast.PosOf): column references, function calls, literals, stars, casts
// (CAST at CAST, x::T at "::"), operators, CASE, subqueries and the nested
// syntax, as DuckDB locates its binder errors. sqlparser keeps no
// positions; they are recovered by matching its tree, in the order it was
// written, against the lowered tokens, which remember the original token
// each came from (positions.go), and turned into lines and columns in one
// sweep of the text when the tree is converted (convert.go).
//
// A SELECT without FROM has FROM dual (a plain TableName "dual", not a
// placeholder).
//
// # Common table expressions
//
// "WITH [RECURSIVE] name [(col, ...)] AS [[NOT] MATERIALIZED] (query), ...
// query" parses each CTE's query on its own (its own Sources and tree)
// into Select.With, in the order written; the main query's FROM
// names a CTE as a SourceView, and the planner resolves it (CTEs before
// views). Select.Text covers the WITH clause. A CTE's query may start with
// its own WITH; a WITH inside a FROM or expression subquery is unsupported.
//
// # Statements
//
//	[WITH ...] SELECT ...         *Select (UNION, INTERSECT, EXCEPT give AST *ast.Union)
//	EXPLAIN [ANALYZE] [VERBOSE] [VERIFY] [(FORMAT JSON|TEXT|MAP, ANALYZE, ...)] query
//	DESCRIBE source | DESCRIBE query
//	SUMMARIZE source | SUMMARIZE query
//	CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS] name AS query   (query may have WITH)
//	DROP VIEW [IF EXISTS] name
//	SET name = value | SET name TO value
//
// # Scripts
//
// SplitScript splits at ";" outside strings, quoted identifiers and
// comments (-- to end of line, and nesting /* */), drops empty statements
// and strips comments from Piece.Text; Piece.Parse reports positions in
// script coordinates. IsComplete tells the REPL whether to run its buffer.
// The shell splits with a Splitter, which holds one statement's comments
// and no tokens, and follows its buffer with a Completer, which reads each
// byte once: a script's memory beyond its text is bounded by its largest
// statement, and its time is linear.
//
// Names starting with "__pqsql_" are reserved for the lowering's markers.
package sql
