package optimizer

import "github.com/pqsql/pqsql/planner"

// A joinSide says which side's columns an expression over a joined row
// reads.
type joinSide int

const (
	sideNone joinSide = iota
	sideLeft
	sideRight
	sideBoth
)

// sideOf classifies e over a join whose left side has nl columns.
func sideOf(e planner.Expr, nl int) joinSide {
	s := sideNone
	for i := range columnsOf(e) {
		t := sideLeft
		if i >= nl {
			t = sideRight
		}
		if s != sideNone && s != t {
			return sideBoth
		}
		s = t
	}
	return s
}

// pushIntoJoin moves condition c over j's joined rows into j: to the side
// it reads when that side's rows are only ever dropped by it, or into the
// join condition when it reads both sides of an inner join. fromWhere says
// c filters the join's output (a WHERE), not pairs (an ON condition). It
// reports whether c went in; a condition left out stays where it was.
func pushIntoJoin(j *planner.Join, c planner.Expr, fromWhere bool) bool {
	nl := len(j.Left.Columns)
	inner := j.Kind == planner.JoinInner || j.Kind == planner.JoinCross
	// A semi or anti join's rows are left rows: a WHERE on them drops the
	// same rows below it. In its condition, one reading the right side
	// only just narrows the rows looked in, one reading the left side only
	// may go below a semi join (no match without it) but not an anti join
	// (which keeps the rows it fails on).
	filtering := j.Kind == planner.JoinSemi || j.Kind == planner.JoinAnti
	switch sideOf(c, nl) {
	case sideLeft:
		// Above the join, a condition on the left side drops the same
		// rows below it unless the left side is NULL-extended (RIGHT,
		// FULL). In an ON condition, only where no left row is kept
		// unmatched (INNER, RIGHT).
		ok := inner || fromWhere && j.Kind == planner.JoinLeft || !fromWhere && j.Kind == planner.JoinRight ||
			filtering && (fromWhere || j.Kind == planner.JoinSemi)
		if !ok {
			return false
		}
		j.Left = acceptOrWrap(j.Left, c)
		deriveAcrossKeys(j, c, true)
		return true
	case sideRight:
		ok := inner || fromWhere && j.Kind == planner.JoinRight || !fromWhere && j.Kind == planner.JoinLeft ||
			filtering && !fromWhere
		if !ok {
			return false
		}
		j.Right = acceptOrWrap(j.Right, shift(c, -nl))
		deriveAcrossKeys(j, c, false)
		return true
	case sideBoth:
		if !inner || !fromWhere {
			return false
		}
		planner.SplitJoinCondition(j, []planner.Expr{c}, nl)
		j.Kind = planner.JoinInner
		return true
	}
	return false
}

// pushJoinCondition moves the parts of j's residual condition that read
// one side only into that side, where the join kind allows it.
func pushJoinCondition(j *planner.Join) {
	if j.Residual == nil {
		return
	}
	var kept []planner.Expr
	for _, c := range conjuncts(j.Residual) {
		if isVolatile(c) || !pushIntoJoin(j, c, false) {
			kept = append(kept, c)
		}
	}
	j.Residual = and(kept...)
}

// deriveAcrossKeys adds to the other side of an inner join the condition c
// reads on one side when c reads a single column that a key equates with a
// column of the other side: a.k = b.k AND a.k < 5 gives b.k < 5. Both
// columns have the key's type, so c means the same on either.
func deriveAcrossKeys(j *planner.Join, c planner.Expr, fromLeft bool) {
	if j.Kind != planner.JoinInner {
		return
	}
	cols := columnsOf(c)
	if len(cols) != 1 || isVolatile(c) {
		return
	}
	var col int
	for i := range cols {
		col = i
	}
	nl := len(j.Left.Columns)
	for _, k := range j.Keys {
		l, okL := k.L.(*planner.ColRef)
		r, okR := k.R.(*planner.ColRef)
		if !okL || !okR || l.T != r.T {
			continue
		}
		switch {
		case fromLeft && l.Index == col:
			j.Right = acceptOrWrap(j.Right, replaceColumns1(c, col, r, -nl))
			return
		case !fromLeft && r.Index == col:
			j.Left = acceptOrWrap(j.Left, replaceColumns1(c, col, l, 0))
			return
		}
	}
}

// replaceColumns1 returns c reading column to (shifted by by) in place of
// column from.
func replaceColumns1(c planner.Expr, from int, to *planner.ColRef, by int) planner.Expr {
	return substitute(c, func(r *planner.ColRef) planner.Expr {
		if r.Index == from {
			return &planner.ColRef{Index: to.Index + by, Name: to.Name, T: to.T}
		}
		return r
	})
}

// shift returns e with every column position moved by by.
func shift(e planner.Expr, by int) planner.Expr {
	return substitute(e, func(r *planner.ColRef) planner.Expr {
		return &planner.ColRef{Index: r.Index + by, Name: r.Name, T: r.T}
	})
}
