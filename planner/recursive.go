package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/sql/ast"
)

// A Recursive is the result of a recursive CTE: Base's rows, then Step's
// run again and again over the rows the run before it added (read through
// Work), until a run adds none. Without All a row already in the result
// is not added again, which is what ends a walk over a cycle.
type Recursive struct {
	Base, Step *Plan
	All        bool
	Work       *WorkTable
}

// A WorkTable is the rows a recursive CTE's step reads: those the previous
// run added.
type WorkTable struct {
	Name    string
	Columns []Column
}

// buildRecursive plans a reference to a recursive CTE written as
// base UNION [ALL] step, where only the step refers to the CTE. ok is false
// for any other shape.
func buildRecursive(e *cteEnv, c buildCtx) (*Plan, bool, error) {
	q := e.cte.Query
	u, isUnion := q.AST.(*ast.Union)
	if !isUnion || len(u.OrderBy) > 0 || u.Limit != nil {
		return nil, false, nil
	}
	kind, ok := setOpKinds[u.Type]
	if !ok || kind.op != "UNION" {
		return nil, false, nil
	}
	c = c.deeper()
	c.env = &cteEnv{cte: e.cte, pending: true, recursive: false, next: e.def}
	base, err := build(q, u.Left, c)
	if err != nil {
		return nil, true, err
	}
	cols := make([]Column, len(base.Columns))
	for i, col := range base.Columns {
		cols[i] = Column{Name: col.Name, Type: col.Type}
		if i < len(e.cte.Columns) {
			cols[i].Name = e.cte.Columns[i]
		}
	}
	work := &WorkTable{Name: e.cte.Name, Columns: cols}
	c.env = &cteEnv{cte: e.cte, work: work, next: e.def}
	step, err := build(q, u.Right, c)
	if err != nil {
		return nil, true, err
	}
	if len(step.Columns) != len(cols) {
		return nil, true, binderError("Set operations can only apply to expressions with the same number of result columns")
	}
	if step, err = castColumns(step, cols); err != nil {
		return nil, true, err
	}
	r := &Recursive{Base: base, Step: step, All: kind.all, Work: work}
	return passThrough(&Scan{Recursive: r, Source: e.cte.Name}, cols), true, nil
}

func (r *Recursive) String() string {
	op := "RECURSIVE_CTE UNION"
	if r.All {
		op += " ALL"
	}
	return fmt.Sprintf("%s %s (%s)", op, r.Work.Name, columnNames(r.Work.Columns))
}

func columnNames(cols []Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}
