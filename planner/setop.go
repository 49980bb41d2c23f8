package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// setOpKinds maps ast.Union.Type (UNION, and package sql's INTERSECT,
// EXCEPT and BY NAME kinds) to SetOp.Op and All.
var setOpKinds = map[string]struct {
	op          string
	all, byName bool
}{
	ast.UnionStr: {"UNION", false, false}, ast.UnionDistinctStr: {"UNION", false, false},
	ast.UnionAllStr:  {"UNION", true, false},
	sql.IntersectStr: {"INTERSECT", false, false}, sql.IntersectAllStr: {"INTERSECT", true, false},
	sql.ExceptStr: {"EXCEPT", false, false}, sql.ExceptAllStr: {"EXCEPT", true, false},
	sql.UnionByNameStr: {"UNION", false, true}, sql.UnionAllByNameStr: {"UNION", true, true},
}

// buildSetOp plans a set operation as a plan that scans a SetOp; the
// operation's ORDER BY and LIMIT belong to that plan.
func buildSetOp(sel *sql.Select, u *ast.Union, c buildCtx) (*Plan, error) {
	kind, ok := setOpKinds[u.Type]
	if !ok {
		return nil, fmt.Errorf("%w: set operation %s", ErrNotImplemented, u.Type)
	}
	// The branches of a set operation nest as deep as the text does (a
	// UNION of n queries is n-1 levels), so they do not count as views.
	left, err := build(sel, u.Left, c)
	if err != nil {
		return nil, err
	}
	right, err := build(sel, u.Right, c)
	if err != nil {
		return nil, err
	}
	if kind.byName {
		if left, right, err = alignByName(left, right); err != nil {
			return nil, err
		}
	}
	left, right, cols, err := setOpSides(left, right)
	if err != nil {
		return nil, err
	}
	// DuckDB orders a set operation by its columns only, named or numbered.
	for _, o := range u.OrderBy {
		switch e := o.Expr.(type) {
		case *ast.ColName:
			if !e.Qualifier.IsEmpty() {
				return nil, binderError("Could not ORDER BY column \"%s\": add the expression/function to every SELECT, or move the UNION into a FROM clause.", ast.String(e))
			}
		case *ast.SQLVal:
			if e.Type != ast.IntVal {
				return nil, binderError("Could not ORDER BY column \"%s\": add the expression/function to every SELECT, or move the UNION into a FROM clause.", ast.String(e))
			}
		default:
			return nil, binderError("Could not ORDER BY column \"%s\": add the expression/function to every SELECT, or move the UNION into a FROM clause.", nameOf(sel, o.Expr))
		}
	}
	scan := &Scan{SetOp: &SetOp{Op: kind.op, All: kind.all, Left: left, Right: right}, Source: "(" + strings.ToLower(kind.op) + ")"}
	outer := &ast.Select{
		SelectExprs: ast.SelectExprs{&ast.StarExpr{}},
		OrderBy:     u.OrderBy,
		Limit:       u.Limit,
	}
	return finishSelect(sel, outer, scan, cols, c)
}

// setOpSides returns a set operation's sides with their columns cast to
// the result's types, and the result's columns (named by the left side).
func setOpSides(left, right *Plan) (*Plan, *Plan, []Column, error) {
	if len(left.Columns) != len(right.Columns) {
		return nil, nil, nil, binderError("Set operations can only apply to expressions with the same number of result columns")
	}
	cols := make([]Column, len(left.Columns))
	for i := range cols {
		t, err := setOpType(left.Columns[i].Type, right.Columns[i].Type)
		if err != nil {
			return nil, nil, nil, err
		}
		cols[i] = Column{Name: left.Columns[i].Name, Type: t}
	}
	left, err := castColumns(left, cols)
	if err != nil {
		return nil, nil, nil, err
	}
	if right, err = castColumns(right, cols); err != nil {
		return nil, nil, nil, err
	}
	return left, right, cols, nil
}

// setOpType is the type a column of a set operation takes when its two
// sides have types a and b: VARCHAR absorbs any other type, as in DuckDB.
func setOpType(a, b Type) (Type, error) {
	switch {
	case a.ID == TypeVarchar && b.ID != TypeNested:
		return Type{ID: TypeVarchar}, nil
	case b.ID == TypeVarchar && a.ID != TypeNested:
		return Type{ID: TypeVarchar}, nil
	case a.ID == TypeBoolean && b.IsNumeric():
		return b, nil
	case b.ID == TypeBoolean && a.IsNumeric():
		return a, nil
	}
	t, ok := commonType(a, b)
	if !ok {
		return Type{}, fmt.Errorf("%w: Unimplemented type for cast (%s -> %s)", ErrConversion, a, b)
	}
	return t, nil
}

// castColumns returns p with its result columns cast to the types of cols,
// wrapping it in a projection when any differs; p's own ORDER BY still
// sorts by the values before the cast.
func castColumns(p *Plan, cols []Column) (*Plan, error) {
	same := true
	for i, c := range cols {
		same = same && p.Columns[i].Type == c.Type
	}
	if same {
		return p, nil
	}
	w := &Plan{Scan: &Scan{Subquery: p, Source: "(subquery)"}, Input: p.Columns, Limit: -1}
	for i, c := range cols {
		x, err := castTo(&ColRef{Index: i, Name: p.Columns[i].Name, T: p.Columns[i].Type}, c.Type)
		if err != nil {
			return nil, err
		}
		w.Project = append(w.Project, x)
		w.Columns = append(w.Columns, Column{Name: p.Columns[i].Name, Type: c.Type})
	}
	return w, nil
}
