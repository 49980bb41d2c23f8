package optimizer

import "github.com/pqsql/pqsql/planner"

// simplifyOuterJoin turns j, the source of a plan whose WHERE conjuncts
// are conds, into a join that NULL-extends fewer sides when a conjunct
// rejects the NULL-extended rows anyway: WHERE b.x > 3 over a LEFT JOIN b
// drops every left row without a match, so the join is an INNER join, and
// filters can then go below it (DuckDB does the same). A FULL join becomes
// LEFT, RIGHT or INNER. A join checking for one match (Single) is left
// alone.
func simplifyOuterJoin(j *planner.Join, conds []planner.Expr) {
	if j.Single || j.Kind != planner.JoinLeft && j.Kind != planner.JoinRight && j.Kind != planner.JoinFull {
		return
	}
	nl := len(j.Left.Columns)
	nr := len(j.Right.Columns)
	inLeft := func(i int) bool { return i < nl }
	inRight := func(i int) bool { return i >= nl && i < nl+nr }
	var leftKept, rightKept bool // rows with the left (right) side NULL-extended are dropped
	for _, c := range conds {
		if isVolatile(c) {
			continue
		}
		leftKept = leftKept || rejectsNull(c, inLeft)
		rightKept = rightKept || rejectsNull(c, inRight)
	}
	switch j.Kind {
	case planner.JoinLeft:
		if rightKept {
			j.Kind = planner.JoinInner
		}
	case planner.JoinRight:
		if leftKept {
			j.Kind = planner.JoinInner
		}
	case planner.JoinFull:
		switch {
		case leftKept && rightKept:
			j.Kind = planner.JoinInner
		case rightKept:
			// Unmatched left rows (right side NULL) are dropped; unmatched
			// right rows stay.
			j.Kind = planner.JoinRight
		case leftKept:
			j.Kind = planner.JoinLeft
		}
	}
}

// rejectsNull reports whether condition c is never TRUE when every column
// in side is NULL: it is a comparison, IN, BETWEEN, LIKE or IS NOT NULL of
// an expression that is NULL when such a column is (strict), an AND with
// one such part or an OR of them only. Anything else (CASE, COALESCE,
// functions, IS NULL, NOT) proves nothing.
func rejectsNull(c planner.Expr, side func(int) bool) bool {
	switch e := c.(type) {
	case *planner.Binary:
		switch e.Op {
		case "=", "!=", "<", "<=", ">", ">=":
			return strict(e.L, side) || strict(e.R, side)
		}
	case *planner.IsNull:
		return e.Not && strict(e.X, side)
	case *planner.InList:
		return strict(e.X, side)
	case *planner.Between:
		return strict(e.X, side)
	case *planner.Like:
		return strict(e.X, side) || strict(e.Pattern, side)
	case *planner.Logic:
		if e.And {
			for _, x := range e.Xs {
				if rejectsNull(x, side) {
					return true
				}
			}
			return false
		}
		for _, x := range e.Xs {
			if !rejectsNull(x, side) {
				return false
			}
		}
		return len(e.Xs) > 0
	}
	return false
}

// strict reports whether x is NULL whenever a column in side is: the
// column itself, a cast of a strict expression, or arithmetic with a
// strict operand.
func strict(x planner.Expr, side func(int) bool) bool {
	switch e := x.(type) {
	case *planner.ColRef:
		return side(e.Index)
	case *planner.Cast:
		return strict(e.X, side)
	case *planner.Neg:
		return strict(e.X, side)
	case *planner.Binary:
		switch e.Op {
		case "+", "-", "*", "/", "%", "//":
			return strict(e.L, side) || strict(e.R, side)
		}
	}
	return false
}
