package planner

import (
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// decorrelate turns each conjunct of a WHERE that is a correlated
// EXISTS, NOT EXISTS, IN or NOT IN subquery into a semi or anti join of
// the FROM clause's rows with the subquery's FROM: the subquery's
// conditions that read the outer row become the join condition, the
// others stay a filter of its rows. In a WHERE a NULL condition drops the
// row as FALSE does, so x IN (subquery) is the semi join on x = its value
// and x NOT IN (subquery) the anti join on x = y being TRUE or NULL. It returns the new
// source, its columns (the outer ones first, at the same positions, then
// the subquery's, which no name reaches) and the WHERE left to bind.
// A subquery that binds on its own is left to Materialize.
func decorrelate(sel *sql.Select, where ast.Expr, scan *Scan, cols []Column, c buildCtx) (*Scan, []Column, ast.Expr, error) {
	var rest []ast.Expr
	for _, x := range astConjuncts(where) {
		j, icols, ok, err := correlatedJoin(sel, x, scan, cols, c)
		if err != nil {
			return nil, nil, nil, err
		}
		if !ok {
			rest = append(rest, x)
			continue
		}
		all := append(append([]Column(nil), cols...), icols...)
		scan = &Scan{Join: j, Source: "(join)"}
		for i := range icols {
			// The subquery's columns are NULL in a semi or anti join's
			// rows; the outer query cannot name them.
			all[len(cols)+i] = Column{Name: icols[i].Name, Type: icols[i].Type, Hidden: true}
		}
		cols = all
	}
	var out ast.Expr
	for _, x := range rest {
		if out == nil {
			out = x
		} else {
			out = &ast.AndExpr{Left: out, Right: x}
		}
	}
	return scan, cols, out, nil
}

// astConjuncts splits a parsed condition at its top-level ANDs.
func astConjuncts(x ast.Expr) []ast.Expr {
	switch e := x.(type) {
	case *ast.AndExpr:
		return append(astConjuncts(e.Left), astConjuncts(e.Right)...)
	case *ast.ParenExpr:
		if _, ok := e.Expr.(*ast.AndExpr); ok {
			return astConjuncts(e.Expr)
		}
	}
	return []ast.Expr{x}
}

// correlatedJoin plans conjunct x as a semi or anti join of the rows of
// scan (layout cols) when x is a correlated subquery of a form it knows;
// ok is false otherwise.
func correlatedJoin(sel *sql.Select, x ast.Expr, scan *Scan, cols []Column, c buildCtx) (*Join, []Column, bool, error) {
	kind := JoinSemi
	var sub *ast.Subquery
	var outerX ast.Expr
	cmpOp := "" // the comparison of a quantified subquery; "" for IN
	switch e := unparen(x).(type) {
	case *ast.ExistsExpr:
		sub = e.Subquery
	case *ast.NotExpr:
		ex, ok := unparen(e.Expr).(*ast.ExistsExpr)
		if !ok {
			return nil, nil, false, nil
		}
		sub, kind = ex.Subquery, JoinAnti
	case *ast.ComparisonExpr:
		s, ok := e.Right.(*ast.Subquery)
		if !ok {
			return nil, nil, false, nil
		}
		sub, outerX = s, e.Left
		switch op, all, quantified := sql.Quantified(e.Operator); {
		case e.Operator == ast.InStr:
		case e.Operator == ast.NotInStr:
			kind = JoinAnti
		case quantified && cmpOps[op] != "":
			// x op ANY: some y with x op y TRUE; x op ALL: none with it
			// FALSE or NULL.
			cmpOp = cmpOps[op]
			if all {
				kind = JoinAnti
			}
		default:
			return nil, nil, false, nil
		}
	default:
		return nil, nil, false, nil
	}
	s, ok := sub.Select.(*ast.Select)
	exists := outerX == nil
	if !ok || len(s.GroupBy) > 0 || s.Having != nil || s.Limit != nil && !(exists && keepsAnyRow(s.Limit)) || len(s.From) == 0 {
		return nil, nil, false, nil
	}
	for _, se := range s.SelectExprs {
		if ae, ok := se.(*ast.AliasedExpr); ok && hasAgg(ae.Expr) {
			return nil, nil, false, nil
		}
	}
	// Any failure below leaves the subquery to the uncorrelated path,
	// which reports its errors as before.
	iscan, icols, err := source(sel, s, c.enclosed(cols))
	if err != nil {
		return nil, nil, false, nil
	}
	n := len(cols)
	all := append(append([]Column(nil), cols...), icols...)
	sub2 := func(st ast.SelectStatement) (*Plan, error) { return build(sel, st, c.enclosed(all)) }
	both := &binder{cols: all, sel: sel, plan: sub2, outer: n}
	var conds, inner []Expr
	if s.Where != nil {
		if hasAgg(s.Where.Expr) {
			return nil, nil, false, nil
		}
		for _, y := range astConjuncts(s.Where.Expr) {
			b, err := both.boolean(y)
			if err != nil {
				return nil, nil, false, nil
			}
			if readsBelow(b, n) {
				conds = append(conds, b)
			} else {
				inner = append(inner, shiftColumns(b, -n))
			}
		}
	}
	if outerX != nil {
		if len(s.SelectExprs) != 1 {
			return nil, nil, false, nil
		}
		ae, ok := s.SelectExprs[0].(*ast.AliasedExpr)
		if !ok {
			return nil, nil, false, nil
		}
		r, err := both.bind(ae.Expr)
		if err != nil {
			return nil, nil, false, nil
		}
		if len(conds) == 0 && !readsBelow(r, n) {
			// Uncorrelated: an IN list, judged by pushdown.
			return nil, nil, false, nil
		}
		l, err := (&binder{cols: cols, sel: sel, plan: sub2}).bind(outerX)
		if err != nil {
			return nil, nil, false, nil
		}
		xs, err := unify(l, r)
		if err != nil {
			return nil, nil, false, nil
		}
		var eq Expr = &Binary{Op: "=", L: xs[0], R: xs[1], T: Type{ID: TypeBoolean}}
		switch {
		case cmpOp != "" && kind == JoinAnti:
			c := &Binary{Op: cmpOp, L: xs[0], R: xs[1], T: Type{ID: TypeBoolean}}
			eq = &Logic{Xs: []Expr{&Not{X: c}, &IsNull{X: c}}}
		case cmpOp != "":
			eq = &Binary{Op: cmpOp, L: xs[0], R: xs[1], T: Type{ID: TypeBoolean}}
		case kind == JoinAnti:
			// x NOT IN (...) is TRUE only when x = y is FALSE for every y:
			// a y making it NULL rules the row out as one equal to x does.
			eq = &Logic{Xs: []Expr{eq, &IsNull{X: eq}}}
		}
		conds = append(conds, eq)
	}
	if len(conds) == 0 {
		// Uncorrelated: run once, before the query.
		return nil, nil, false, nil
	}
	right := passThrough(iscan, icols)
	if len(inner) == 1 {
		right.Where = inner[0]
	} else if len(inner) > 1 {
		right.Where = &Logic{And: true, Xs: inner}
	}
	readsAll(iscan)
	readsAll(scan)
	j := &Join{Kind: kind, Left: passThrough(scan, cols), Right: right, LeftRows: -1, RightRows: -1}
	SplitJoinCondition(j, conds, n)
	return j, icols, true, nil
}

// readsAll marks every column of a files scan as read; the optimizer
// prunes them.
func readsAll(s *Scan) {
	for i := range s.Needed {
		s.Needed[i] = true
	}
}

// readsBelow reports whether x reads a column at a position below n.
func readsBelow(x Expr, n int) bool {
	if r, ok := x.(*ColRef); ok {
		return r.Index < n
	}
	for _, y := range Children(x) {
		if readsBelow(y, n) {
			return true
		}
	}
	return false
}

// shiftColumns returns x reading each column by positions further.
func shiftColumns(x Expr, by int) Expr {
	if r, ok := x.(*ColRef); ok {
		return &ColRef{Index: r.Index + by, Name: r.Name, T: r.T}
	}
	return Map(x, func(y Expr) Expr { return shiftColumns(y, by) })
}

// resolveScoped resolves a name in a subquery's scope, its own columns
// (from position b.outer on) before the outer query's: an unqualified
// name, or one whose table is the subquery's, is the subquery's when it
// has such a column.
func (b *binder) resolveScoped(e *ast.ColName) (int, error) {
	inner := &binder{cols: b.cols[b.outer:]}
	outer := &binder{cols: b.cols[:b.outer]}
	if !e.Qualifier.IsEmpty() {
		q := e.Qualifier.Name.String()
		if hasTable(inner.cols, q) {
			i, err := inner.resolveColumn(e)
			if i < 0 || err != nil {
				return i, err
			}
			return b.outer + i, nil
		}
		if hasTable(outer.cols, q) {
			return outer.resolveColumn(e)
		}
		return -1, unknownTable(b.cols, q)
	}
	if i, err := inner.resolveColumn(e); err != nil || i >= 0 {
		if i >= 0 {
			i += b.outer
		}
		return i, err
	}
	return outer.resolveColumn(e)
}

func hasTable(cols []Column, table string) bool {
	for _, c := range cols {
		if strings.EqualFold(c.Table, table) {
			return true
		}
	}
	return false
}

// keepsAnyRow reports whether a LIMIT keeps a row whenever there is one
// (LIMIT n, n > 0, without OFFSET), which changes no EXISTS.
func keepsAnyRow(l *ast.Limit) bool {
	v, ok := l.Rowcount.(*ast.SQLVal)
	if l.Offset != nil || !ok || v.Type != ast.IntVal {
		return false
	}
	n, err := strconv.ParseInt(string(v.Val), 10, 64)
	return err == nil && n > 0
}
