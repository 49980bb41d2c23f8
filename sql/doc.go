// Package sql turns the SQL text pqsql users type (DuckDB's dialect) into
// statements the planner consumes.
//
// Queries are parsed by github.com/xwb1989/sqlparser, a MySQL grammar. This
// package lexes the text itself, by DuckDB's rules, and lowers the
// DuckDB-isms onto forms sqlparser parses; the planner then reads a
// sqlparser AST plus the side tables of a Select. sql imports only
// sqlparser and the standard library.
//
// # Entry points
//
//	Parse(text) (Statement, error)       one statement; trailing ";" allowed
//	SplitScript(text) ([]Piece, error)   split a script; Piece.Parse parses one
//	IsComplete(text) bool                is a REPL buffer a finished statement?
//
// A Statement is one of *Select, *Explain, *Describe, *CreateView, *DropView
// or *Set. Every error is an *Error with the Line, Column and Token of the
// ORIGINAL text (not of the lowered text) and wraps ErrSyntax,
// ErrUnsupported, ErrEmpty or ErrInternal.
//
// # Sources
//
// Every data source of every FROM clause, subqueries and joins included, is
// replaced in the AST by a placeholder table name SourcePrefix+"0",
// SourcePrefix+"1", ... in text order. Select.Sources (or Select.SourceOf on
// a sqlparser.TableName) maps a placeholder back to its *Source:
//
//	FROM 'f.parquet'                        SourceFiles, Paths ["f.parquet"]
//	FROM 'dir/*.parquet', 'a/**/*.parquet'  SourceFiles, globs kept as written
//	FROM read_parquet('g') / parquet_scan   SourceFiles
//	read_parquet(['a.parquet','b.parquet']) SourceFiles, two Paths
//	read_parquet('g', hive_partitioning = true|false|1|0)  HivePartitioning
//	FROM parquet_metadata('f'), parquet_schema('f')  SourceFunction
//	FROM v, FROM "My View"                  SourceView, Name as written
//
// Table aliases (FROM 'f.parquet' AS o, FROM 'f.parquet' o) stay in the AST
// (AliasedTableExpr.As) and are copied to Source.Alias. Joins, comma joins
// and subqueries are kept as sqlparser parses them; the planner decides what
// it supports. A FROM counts only where a SELECT is at the same nesting, so
// EXTRACT(YEAR FROM d) is untouched.
//
// # What the AST means
//
// The AST is sqlparser's, with these DuckDB meanings:
//
//   - Identifiers: "My Col" (DuckDB) reaches the AST as the identifier My Col;
//     names keep their case (DuckDB matches them case-insensitively). Words
//     MySQL reserves but DuckDB does not (key, index, values, replace, ...)
//     are plain identifiers.
//   - Strings: single-quoted, ” is a quote and a backslash is just a
//     character, as in DuckDB. SQLVal holds the decoded bytes.
//   - Casts: x::T, CAST(x AS T) and the typed literals DATE '...',
//     TIME '...', TIMESTAMP '...', TIMESTAMPTZ '...' and INTERVAL '...' are
//     all *sqlparser.ConvertExpr whose Type.Type is a canonical DuckDB type
//     name (the Type* constants; INT is INTEGER, TEXT is VARCHAR, ...). A
//     typed literal is the cast of its string, exactly as in DuckDB. DECIMAL
//     always carries Length (width) and Scale, with DuckDB's defaults (18,3)
//     and (p,0) filled in.
//   - ILIKE / NOT ILIKE: ComparisonExpr with Operator ILikeStr / NotILikeStr.
//   - a || b: BinaryExpr with Operator ConcatStr (string concatenation).
//     DuckDB's bitwise | is rejected as unsupported.
//   - ^ and ** are BinaryExpr "^", which means power (DuckDB), not XOR;
//     // is BinaryExpr "div" (integer division); == is "=".
//   - ORDER BY ... NULLS FIRST|LAST: the clause is removed from the AST and
//     recorded in Select.Nulls, keyed by the *sqlparser.Order (see NullsOf).
//     Order.Direction is sqlparser's ("asc" when none was written).
//   - LIMIT n OFFSET m: sqlparser's Limit{Rowcount: n, Offset: m}.
//   - EXTRACT(part FROM x) is FuncExpr date_part('part', x), as in DuckDB.
//   - FROM-first queries: "FROM src" is SELECT * FROM src and
//     "FROM src SELECT list ..." is SELECT list FROM src ....
//
// A SELECT without FROM gets sqlparser's FROM dual (a plain TableName
// "dual", not a placeholder). Beware: sqlparser.Walk does not visit a
// Union's OrderBy and Limit.
//
// # Statements
//
//	SELECT ...                    *Select (UNION gives AST *sqlparser.Union)
//	EXPLAIN [ANALYZE] [VERBOSE] [VERIFY] [(FORMAT JSON|TEXT, ANALYZE, ...)] query
//	DESCRIBE source | DESCRIBE query
//	CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS] name AS query
//	DROP VIEW [IF EXISTS] name
//	SET name = value | SET name TO value
//
// # Scripts
//
// SplitScript splits at ";" outside strings, quoted identifiers and
// comments (-- to end of line, and nesting /* */), drops empty statements
// and strips comments from Piece.Text; Piece.Parse reports positions in
// script coordinates. IsComplete tells the REPL whether to run its buffer.
//
// Names starting with "__pqsql_" are reserved for the lowering's markers.
package sql
