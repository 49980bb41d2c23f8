package planner

import (
	"fmt"

	"github.com/pqsql/pqsql/sql/ast"
)

// unnest(list) in a SELECT list makes one row per element, the other
// columns repeated. The planner binds it as a call of the element type;
// the executor's projection expands the rows (IsUnnest tells it which
// columns), so the call itself never evaluates.
func init() {
	registerScalar(&ScalarFunc{Name: "unnest", Bind: bindUnnest, Eval: evalUnnest, SeesNulls: true})
}

func bindUnnest(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, binderError("UNNEST requires a single list as input")
	}
	t := args[0].Type()
	if t.ID == TypeNull {
		return newCall(f, args, Type{ID: TypeNull}), nil
	}
	et, ok := listElem(t)
	if !ok {
		return nil, binderError("UNNEST requires a single list as input")
	}
	return newCall(f, args, et), nil
}

func evalUnnest(*Call, []Datum) (Datum, error) {
	return Datum{}, fmt.Errorf("%w: unnest in a query with aggregates, or outside the SELECT list", ErrNotImplemented)
}

// IsUnnest reports whether e is unnest(list), and returns the list.
func IsUnnest(e Expr) (Expr, bool) {
	c, ok := e.(*Call)
	if !ok || c.Name != "unnest" || len(c.Args) != 1 {
		return nil, false
	}
	return c.Args[0], true
}

// ListElems reads a LIST datum of type t as its elements' datums; a NULL
// list has none.
func ListElems(d Datum, t Type) ([]Datum, error) {
	if d.Null || t.ID == TypeNull {
		return nil, nil
	}
	et, ok := listElem(t)
	if !ok {
		return nil, fmt.Errorf("%w: unnest of %s", ErrConversion, t)
	}
	return listDatums(d, et)
}

// hasUnnest reports whether an aggregate's arguments call unnest, which
// DuckDB refuses: a row's elements are not rows of the group.
func hasUnnest(args ast.SelectExprs) bool {
	found := false
	for _, a := range args {
		ast.Inspect(a, func(n ast.Node) bool {
			if f, ok := n.(*ast.FuncExpr); ok && f.Name.Lowered() == "unnest" {
				found = true
			}
			return !found
		})
	}
	return found
}
