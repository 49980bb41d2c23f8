package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/storage"
)

// A Column is one column of a stage's rows: a name and a type, and in the
// rows of a FROM clause the table (alias) it comes from.
type Column struct {
	Name string
	Type Type
	// Table is the name a FROM item is known by (its alias, view or CTE
	// name, or a file's name without extension); empty in results.
	Table string
	// Hidden marks a column that only a qualified name reaches: the
	// duplicate of a USING or NATURAL join column, which * leaves out.
	Hidden bool
}

// A Plan is a logical plan for one SELECT, as a fixed pipeline of stages:
//
//	Scan -> Filter(Where) -> Aggregate(GroupBy, Aggs) -> Filter(Having)
//	     -> Project -> Distinct -> Sort(Order) -> Limit(Offset, Limit)
//
// Stages that are absent are zero (nil Where, no Aggs, ...).
type Plan struct {
	// Scan is where rows come from; its rows have Input's layout.
	Scan  *Scan
	Input []Column
	// Where filters input rows (nil: keep all). It is complete: pushdown only
	// prunes, so exec evaluates Where on every row it reads.
	Where Expr
	// Aggregate says GroupBy/Aggs apply. The aggregate stage's rows hold the
	// group keys and then the aggregates' values.
	Aggregate bool
	GroupBy   []Expr
	// GroupingSets, when set, lists the sets of GroupBy keys (positions)
	// the input is aggregated by, one after the other (GROUPING SETS,
	// ROLLUP, CUBE); see GroupingSetPlan.
	GroupingSets [][]int
	Aggs         []*AggCall
	Having       Expr
	// Windows are computed over the rows after Having (input or
	// aggregate rows, WindowWidth columns); their values are appended to
	// those rows, which Qualify filters and Project reads.
	Windows []*WindowCall
	Qualify Expr
	// Project computes the output columns over the input (or aggregate)
	// rows; the first len(Columns) are the result, the rest hidden sort keys.
	Project []Expr
	Columns []Column
	// Distinct removes duplicate result rows.
	Distinct bool
	// Order sorts by positions of Project.
	Order []SortKey
	// Limit is -1 when absent.
	Limit, Offset int64
	// LimitPercent, when HasPercent, keeps that percentage of the rows
	// (LIMIT n%) instead of Limit rows.
	LimitPercent float64
	HasPercent   bool
	// Single marks the source of a SELECT without FROM: one empty row.
	Single bool
	// Sample, when set, keeps a random sample of the plan's rows (USING
	// SAMPLE); the planner gives it to a plan that only passes its input
	// on, under the plan that filters and projects.
	Sample *sql.Sample
}

// A Scan reads either Parquet files or the result of a subquery (a view or
// a FROM subquery).
type Scan struct {
	// Files are the matched paths, globs expanded and sorted, less those
	// partition pruning dropped (see PrunedFiles).
	Files []string
	// Fields are the top-level fields of the first file, the first input
	// columns (hive partition columns may follow).
	Fields []*format.Field
	// Needed marks the input columns the query reads.
	Needed []bool
	// Pushdown is the predicate built from WHERE for pruning; nil when the
	// query has no WHERE.
	Pushdown pushdown.Expr
	// Subquery, when set, replaces the files.
	Subquery *Plan
	// Recursive, when set, replaces the files: the rows of a recursive
	// CTE. WorkTable, when set, replaces them with the rows its step
	// reads.
	Recursive *Recursive
	WorkTable *WorkTable
	// CTE identifies the common table expression Subquery is a reference
	// to (nil for other subqueries): references whose plans print alike
	// after optimization read the same rows, so the executor runs one.
	CTE *sql.CTE
	// SetOp, when set, replaces the files: the rows are the result of a
	// UNION, INTERSECT or EXCEPT.
	SetOp *SetOp
	// Function, when set, replaces the files: the rows are those of a
	// metadata table function (parquet_metadata, parquet_schema).
	Function *TableFunction
	// Join, when set, replaces the files: the rows are those of a join of
	// two plans, the left's columns then the right's.
	Join *Join
	// Partitions are the hive partition columns of a files scan; Needed
	// covers them too (it has one entry per input column). Their values
	// come from the paths, not from the files.
	Partitions []*Partition
	// HasRowNumber says input column RowNumber is read_parquet's
	// file_row_number: each row's 0-based position in its file, which
	// comes from the row groups' row counts, not from the file's values.
	HasRowNumber bool
	RowNumber    int
	// PrunedFiles are the files the WHERE ruled out by their partition
	// values: they are not in Files and are never opened.
	PrunedFiles []PrunedFile
	// fileIndex maps a path of Files to its position (partitioned scans).
	fileIndex map[string]int
	// store is the storage the files were listed from.
	store *storage.Store
	// footers are the footers binding read, for the scan to reuse.
	footers *keptFooters
	// Source is the source as written, for EXPLAIN.
	Source string
	// CountOnly says only the row count is needed (count(*) without WHERE),
	// so metadata answers it.
	CountOnly bool
	// Parts lists, for a struct column the plan reads only through field
	// access (s.f, s.f.g), the fields it reads as paths of child positions:
	// only their leaves need be read. A column not listed is read whole.
	Parts map[int][][]int
}

// A SetOp is a set operation over the results of two queries. Both have
// the same number of columns, already cast to the result's column types
// (those of the plan scanning it), so rows compare column by column as
// GROUP BY keys do (NULL equals NULL).
type SetOp struct {
	// Op is "UNION", "INTERSECT" or "EXCEPT".
	Op string
	// All keeps duplicates: UNION ALL appends; INTERSECT ALL keeps a row
	// min(l, r) times and EXCEPT ALL max(l-r, 0) times, where l and r count
	// it on each side. Without All the result has no duplicate rows.
	All         bool
	Left, Right *Plan
}

// An AggCall is an aggregate function over input rows.
type AggCall struct {
	Func string // count_star, or an aggregate's name in the registry
	Arg  Expr   // nil for count_star
	// Params are the constant arguments after Arg (a quantile's fraction,
	// string_agg's separator).
	Params   []Expr
	Distinct bool
	T        Type
	// Filter is the FILTER (WHERE ...) condition over input rows, nil when
	// none was written. The planner has already folded it into Func and
	// Arg: agg(x) FILTER (WHERE c) is agg(CASE WHEN c THEN x END) and
	// count_star() FILTER (WHERE c) is count(CASE WHEN c THEN 1 END), exact
	// because every aggregate that takes FILTER skips NULLs. Exec need not
	// evaluate Filter; skipping rows where it is not TRUE as well changes
	// nothing.
	Filter Expr
	// Grouping, for grouping() and grouping_id(), lists the GroupBy keys
	// reported on, the first as the most significant bit; such a call has
	// no Arg and is a constant in each grouping set's rows.
	Grouping []int

	label string // String() as written, before the FILTER was folded in
	// order holds the ORDER BY keys written in the call until the binder
	// applies them (ordered.go).
	order []argKey
	// fn is the registry entry, found by Func when not set.
	fn *AggregateFunc
}

func (a *AggCall) String() string {
	if a.label != "" {
		return a.label
	}
	s := "count_star()"
	if a.Arg != nil {
		d := ""
		if a.Distinct {
			d = "DISTINCT "
		}
		s = a.Func + "(" + d + a.Arg.String()
		for _, p := range a.Params {
			s += ", " + p.String()
		}
		s += ")"
	}
	if a.Filter != nil {
		s += " FILTER (WHERE " + a.Filter.String() + ")"
	}
	return s
}

// foldFilter rewrites a into the equivalent call without FILTER, keeping
// its printed form.
func (a *AggCall) foldFilter() error {
	a.label = a.String()
	val := a.Arg
	if a.Func == "count_star" {
		a.Func = "count"
		val = &Const{Value: Datum{I: 1}, T: Type{ID: TypeInteger}}
	}
	x, err := fold(&Case{Whens: []When{{Cond: a.Filter, Val: val}}, T: val.Type()})
	if err != nil {
		return err
	}
	a.Arg = x
	return nil
}

// A SortKey orders by one projected column.
type SortKey struct {
	Index      int
	Desc       bool
	NullsFirst bool
}

// NeededLeaves returns the leaf indexes the scan reads, in schema order;
// a column a hive partition fills is not read.
func (s *Scan) NeededLeaves() []int {
	var out []int
	for i, f := range s.Fields {
		if s.Needed[i] && s.PartitionOf(i) == nil {
			for _, l := range f.Leaves {
				out = append(out, l.Index)
			}
		}
	}
	return out
}

// Explain renders the plan as an indented tree.
func (p *Plan) Explain() string {
	var b strings.Builder
	p.explain(&b, "")
	return b.String()
}

func (p *Plan) explain(b *strings.Builder, ind string) {
	line := func(format string, args ...any) {
		fmt.Fprintf(b, ind+format+"\n", args...)
		ind += "  "
	}
	switch {
	case p.Limit >= 0:
		line("LIMIT %d OFFSET %d", p.Limit, p.Offset)
	case p.Offset > 0:
		line("OFFSET %d", p.Offset)
	}
	if len(p.Order) > 0 {
		parts := make([]string, len(p.Order))
		for i, k := range p.Order {
			dir := "ASC"
			if k.Desc {
				dir = "DESC"
			}
			nulls := "NULLS LAST"
			if k.NullsFirst {
				nulls = "NULLS FIRST"
			}
			parts[i] = fmt.Sprintf("%s %s %s", p.Project[k.Index], dir, nulls)
		}
		line("ORDER BY %s", strings.Join(parts, ", "))
	}
	if p.Distinct {
		line("DISTINCT")
	}
	if p.Sample != nil {
		line("USING SAMPLE %s", p.Sample)
	}
	parts := make([]string, len(p.Project))
	for i, x := range p.Project {
		parts[i] = x.String()
		if i < len(p.Columns) && p.Columns[i].Name != x.String() {
			parts[i] += " AS " + p.Columns[i].Name
		}
	}
	line("PROJECTION %s", strings.Join(parts, ", "))
	p.explainWindows(line) // window.go
	if p.Having != nil {
		line("FILTER (HAVING) %s", p.Having)
	}
	if p.Aggregate {
		keys := make([]string, len(p.GroupBy))
		for i, k := range p.GroupBy {
			keys[i] = k.String()
		}
		aggs := make([]string, len(p.Aggs))
		for i, a := range p.Aggs {
			aggs[i] = a.String()
		}
		sets := ""
		if p.GroupingSets != nil {
			sets = p.groupingSetsString()
		}
		line("AGGREGATE groups [%s]%s aggregates [%s]", strings.Join(keys, ", "), sets, strings.Join(aggs, ", "))
	}
	if p.Where != nil {
		line("FILTER %s", p.Where)
	}
	s := p.Scan
	if s.Join != nil {
		line("%s", s.Join)
		if s.Join.Order != "" {
			fmt.Fprintf(b, "%sjoin order: %s\n", ind, s.Join.Order)
		}
		s.Join.Left.explain(b, ind)
		s.Join.Right.explain(b, ind)
		return
	}
	if s.SetOp != nil {
		all := ""
		if s.SetOp.All {
			all = " ALL"
		}
		line("%s%s", s.SetOp.Op, all)
		s.SetOp.Left.explain(b, ind)
		s.SetOp.Right.explain(b, ind)
		return
	}
	if s.Recursive != nil {
		line("%s", s.Recursive)
		s.Recursive.Base.explain(b, ind)
		s.Recursive.Step.explain(b, ind)
		return
	}
	if s.WorkTable != nil {
		line("WORK_TABLE %s", s.WorkTable.Name)
		return
	}
	if s.Function != nil {
		line("TABLE_FUNCTION %s (%d file(s))", s.Function.Name, len(s.Function.Files))
		return
	}
	if s.Subquery != nil && s.Subquery.Single {
		line("DUMMY_SCAN")
		return
	}
	if s.Subquery != nil {
		line("SUBQUERY %s", s.Source)
		s.Subquery.explain(b, ind)
		return
	}
	var cols, keys []string
	for i, f := range s.Fields {
		if s.Needed[i] && s.PartitionOf(i) == nil {
			cols = append(cols, partNames(f, s.Parts[i])...)
		}
	}
	for _, p := range s.Partitions {
		keys = append(keys, p.Key)
	}
	line("PARQUET_SCAN %s (%d file(s)) columns [%s]", s.Source, len(s.Files), strings.Join(cols, ", "))
	if len(keys) > 0 {
		fmt.Fprintf(b, "%shive partitions [%s]\n", ind, strings.Join(keys, ", "))
	}
	if n := len(s.PrunedFiles); n > 0 {
		fmt.Fprintf(b, "%shive path pruning: %d of %d file(s) skipped, %d bytes\n", ind, n, n+len(s.Files), s.PrunedBytes())
	}
	if s.Pushdown != nil {
		fmt.Fprintf(b, "%spushdown: %s\n", ind, s.Pushdown)
	}
	if s.CountOnly {
		fmt.Fprintf(b, "%scount from metadata\n", ind)
	}
}
