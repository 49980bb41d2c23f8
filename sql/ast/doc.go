// Package ast is pqsql's syntax tree of a query, in DuckDB's dialect: what
// package sql produces and the planner reads. It is modelled on Go's go/ast
// and keeps the node and field names of the MySQL grammar sql parses with
// (Select, FuncExpr, ColName, ComparisonExpr, ...) where the meaning is the
// same. ast depends on the standard library only.
//
// # Nodes
//
// Every node that has a place in the text embeds At: Pos is where it
// starts, in the original text (line and column, as DuckDB locates binder
// errors); PosOf reads it, and is false for nodes the planner built.
// Identifiers (ColIdent, TableIdent), TableName, BoolVal, ValTuple and the
// list types (SelectExprs, Exprs, GroupBy, OrderBy, ...) are values without
// a position.
//
// DuckDB's constructs are fields and nodes, not markers:
//
//	agg(x) FILTER (WHERE c)              FuncExpr.Filter
//	agg(x ORDER BY k DESC NULLS FIRST)   FuncExpr.OrderBy ([]ArgOrder)
//	f(x) OVER (...), OVER w              FuncExpr.Over (*Window: partition, order, frame; named windows substituted)
//	ORDER BY k NULLS FIRST|LAST          Order.Nulls
//	QUALIFY c                            Select.Qualify
//	USING SAMPLE ...                     Select.Sample
//	SELECT DISTINCT ON (k)               Select.DistinctOn
//	LIMIT n% / LIMIT n PERCENT           Select.LimitPercent
//	GROUPING SETS, ROLLUP, CUBE          Select.GroupingSets (positions in GroupBy)
//	* EXCLUDE (c) REPLACE (e AS c)       StarExpr.Exclude, StarExpr.Replace
//	x::T, CAST, typed literals           ConvertExpr (Type canonical, TypeText as written)
//	TRY_CAST(x AS T)                     ConvertExpr with Try
//	x[i]                                 Subscript
//	x[a:b], x[a:b:step]                  Slice (a bound left out is nil)
//	(expr).f, x[i].f                     FieldAccess
//	[a, b], ARRAY[a, b]                  ListLiteral
//	{'k': v}, {k: v}, struct_pack(k := v) StructLiteral
//	MAP {k: v}                           MapLiteral
//	x -> body, (x, y) -> body, lambda x: body  Lambda
//	FROM 'f.parquet', read_parquet(...)  TableName whose Source says what it reads
//
// Operators DuckDB has and MySQL lacks (||, ILIKE, IS DISTINCT FROM,
// quantified comparisons, set operations beyond UNION) are spelled by
// constants of package sql, in the Operator, Type and Join fields.
//
// # Walking and printing
//
// Walk and Inspect visit every expression of the tree, the fields above
// included; ReplaceExpr swaps one node for another in place. The planner
// builds nodes directly (&ColName{...}, NewWhere, NewIntVal, ...).
//
// String prints a node in the MySQL spelling the tree was parsed from
// (lower-case keywords, backquoted identifiers). The planner's fallback
// column names and some messages use it; DuckDB's column names are built
// by the planner, not by String.
package ast
