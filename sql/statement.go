package sql

import (
	"sort"

	"github.com/pqsql/pqsql/sql/ast"
	"github.com/xwb1989/sqlparser"
)

// A Statement is one parsed pqsql statement: *Select, *Explain, *Describe, *Summarize,
// *CreateView, *DropView or *Set.
type Statement interface {
	stmt()
}

var (
	_ Statement = (*Select)(nil)
	_ Statement = (*Explain)(nil)
	_ Statement = (*Describe)(nil)
	_ Statement = (*Summarize)(nil)
	_ Statement = (*CreateView)(nil)
	_ Statement = (*DropView)(nil)
	_ Statement = (*Set)(nil)
	_ Statement = (*Reset)(nil)
)

func (*Select) stmt()     {}
func (*Explain) stmt()    {}
func (*Describe) stmt()   {}
func (*Summarize) stmt()  {}
func (*CreateView) stmt() {}
func (*DropView) stmt()   {}
func (*Set) stmt()        {}
func (*Reset) stmt()      {}

// A Select is a query: pqsql's syntax tree (package ast), in which every
// data source of every FROM clause (subqueries included) is a placeholder
// table name whose TableName.Source says what it reads.
type Select struct {
	// AST is *ast.Select, *ast.Union or *ast.ParenSelect, with DuckDB's
	// meanings as doc.go describes.
	AST ast.SelectStatement
	// Sources maps each placeholder table name (SourcePrefix + "0", ...) to
	// the source it stands for.
	Sources map[string]*Source
	// With lists the common table expressions of a leading WITH clause, in
	// the order written. FROM refers to them by name, as SourceView sources.
	With []*CTE
	// Recursive says WITH RECURSIVE was written.
	Recursive bool
	// Text is the query as written in the original text (its WITH clause
	// included).
	Text string
	// Pos is where the query starts.
	Pos Position

	// raw is the sqlparser tree the AST was converted from.
	raw *parsed
}

// parsed is a query as sqlparser parsed it, plus what the MySQL tree cannot
// say in side tables keyed by its nodes; convert turns it into the ast.
type parsed struct {
	AST sqlparser.SelectStatement
	// Sources maps each placeholder table name to the source it stands for.
	Sources map[string]*Source
	// Nulls holds the NULLS FIRST/LAST written after ORDER BY items, keyed by
	// the item's node in AST. Items without one are absent (NullsDefault).
	Nulls map[*sqlparser.Order]NullsOrder
	// Filters holds the FILTER (WHERE cond) written after a function call,
	// keyed by the call's node in AST (see FilterOf). The condition is not
	// part of the call's Exprs.
	Filters map[*sqlparser.FuncExpr]sqlparser.Expr
	// Windows holds the OVER clause of each window function call, keyed by
	// the call's node in AST, whose Qualifier is WindowQualifier (see
	// WindowOf).
	Windows map[*sqlparser.FuncExpr]*rawWindow
	// SubqueryColumns holds the column list of FROM (query) t(a, b).
	SubqueryColumns map[*sqlparser.AliasedTableExpr][]string
	// IgnoreNulls marks the window calls written with IGNORE NULLS.
	IgnoreNulls map[*sqlparser.FuncExpr]bool
	// DistinctOn holds the keys of SELECT DISTINCT ON (keys).
	DistinctOn map[*sqlparser.Select][]sqlparser.Expr
	// Percent marks the SELECTs whose LIMIT is a percentage.
	Percent map[*sqlparser.Select]bool
	// Stars holds the EXCLUDE and REPLACE lists written after a *.
	Stars map[*sqlparser.StarExpr]*rawStarOptions
	// Qualify holds the QUALIFY condition of each SELECT that has one.
	Qualify map[*sqlparser.Select]sqlparser.Expr
	// Samples holds the USING SAMPLE clause of each SELECT that has one.
	Samples map[*sqlparser.Select]*Sample

	castText map[*sqlparser.ConvertExpr]string
	// groupingSets holds the grouping sets of each SELECT whose GROUP BY
	// has them (GroupingSetsOf).
	groupingSets map[*sqlparser.Select][][]int
	// argOrders holds the ORDER BY written inside calls (ArgOrderOf).
	argOrders map[*sqlparser.FuncExpr][]rawArgOrder
	// pos holds the byte offsets in posText of the AST's nodes (PosOf),
	// posBase where posText starts in its script.
	pos     map[sqlparser.SQLNode]int
	posText string
	posBase Position
}

// A CTE is one "name [(columns)] AS (query)" of a WITH clause.
type CTE struct {
	// Name is as written; DuckDB matches it case-insensitively.
	Name string
	// Columns renames the query's first columns; nil when not given.
	Columns []string
	// Query is the CTE's body, parsed on its own: its sources and side
	// tables are its own.
	Query *Select
	// Pos is where the name starts.
	Pos Position
	// NotMaterialized is set by AS NOT MATERIALIZED: every reference
	// runs the query on its own rather than sharing one result.
	NotMaterialized bool
}

// FilterOf returns the FILTER condition written after a function call of
// the AST, or nil.
func (s *parsed) FilterOf(f *sqlparser.FuncExpr) sqlparser.Expr {
	return s.Filters[f]
}

// CastTypeText returns a cast's target type as DuckDB prints it in a column
// name: as written up to aliases, some names double-quoted (CAST(x AS
// "DOUBLE"), CAST(x AS DECIMAL(10, 2)), CAST(x AS DECIMAL)). It falls back to
// the canonical Type for a cast the parser did not make.
func (s *parsed) CastTypeText(c *sqlparser.ConvertExpr) string {
	if t, ok := s.castText[c]; ok {
		return t
	}
	if c.Type == nil {
		return ""
	}
	return c.Type.Type
}

// SourceOf returns the source a table name of the AST stands for, or nil when
// the name is not one of this query's placeholders.
func (s *parsed) SourceOf(t sqlparser.TableName) *Source {
	if !t.Qualifier.IsEmpty() {
		return nil
	}
	return s.Sources[t.Name.String()]
}

// SourceList returns the sources in the order they appear in the text.
func (s *Select) SourceList() []*Source {
	list := make([]*Source, 0, len(s.Sources))
	for _, src := range s.Sources {
		list = append(list, src)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Pos.Offset < list[j].Pos.Offset })
	return list
}

// NullsOf returns the NULLS FIRST/LAST written after an ORDER BY item.
func (s *parsed) NullsOf(o *sqlparser.Order) NullsOrder {
	return s.Nulls[o]
}

// NullsOrder is the NULLS FIRST/LAST clause of an ORDER BY item.
type NullsOrder = ast.NullsOrder

// NULLS FIRST/LAST of an ORDER BY item.
const (
	NullsDefault = ast.NullsDefault
	NullsFirst   = ast.NullsFirst
	NullsLast    = ast.NullsLast
)

// SourceKind says what a Source reads.
type SourceKind = ast.SourceKind

// Source kinds.
const (
	SourceFiles    = ast.SourceFiles
	SourceFunction = ast.SourceFunction
	SourceView     = ast.SourceView
)

// A Source is one data source of a FROM clause (or of DESCRIBE).
type Source = ast.Source

// An Explain is EXPLAIN [ANALYZE] [VERBOSE] [VERIFY] [(options)] query.
type Explain struct {
	Analyze bool   // run the query and report actual rows, bytes and times
	Verbose bool   // include pruning decisions per row group and page
	Verify  bool   // also run without pruning and compare results
	Format  string // "text" (default), "json" or "map"
	Query   *Select
}

// A Describe is DESCRIBE source or DESCRIBE query; exactly one of Source and
// Query is set.
type Describe struct {
	Source *Source
	Query  *Select
}

// A Summarize is SUMMARIZE source or SUMMARIZE query: one row of
// statistics per column. Exactly one of Source and Query is set.
type Summarize struct {
	Source *Source
	Query  *Select
}

// A CreateView is CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS] name AS query.
type CreateView struct {
	Name        string // as written
	OrReplace   bool
	IfNotExists bool
	Temporary   bool
	Query       *Select
	// Text is the query part as written; storing it lets a view be re-parsed.
	Text string
}

// A DropView is DROP VIEW [IF EXISTS] name.
type DropView struct {
	Name     string // as written
	IfExists bool
}

// A Set is SET name = value or SET name TO value.
type Set struct {
	Name  string // lower-cased: DuckDB setting names ignore case
	Value string // numbers as written, strings unquoted, booleans "true"/"false", identifiers as written
	Kind  ValueKind
}

// A Reset is RESET name: the setting goes back to its default.
type Reset struct {
	Name string // lower-cased, as Set's
}

// ValueKind is the lexical kind of a SET value.
type ValueKind int

const (
	// ValueNumber is a numeric literal, possibly signed.
	ValueNumber ValueKind = iota + 1
	// ValueString is a single-quoted string.
	ValueString
	// ValueBool is true or false (any case).
	ValueBool
	// ValueIdent is a bare or double-quoted identifier.
	ValueIdent
)

// String returns "number", "string", "bool" or "identifier".
func (k ValueKind) String() string {
	switch k {
	case ValueNumber:
		return "number"
	case ValueString:
		return "string"
	case ValueBool:
		return "bool"
	case ValueIdent:
		return "identifier"
	}
	return "unknown"
}
