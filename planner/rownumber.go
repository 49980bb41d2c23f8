package planner

import "github.com/pqsql/pqsql/pushdown"

// pushdownOf builds the scan's pruning predicate of a WHERE: over the
// file's columns, and over file_row_number when the scan has it.
func (s *Scan) pushdownOf(where Expr) pushdown.Expr {
	rn := -1
	if s.HasRowNumber {
		rn = s.RowNumber
	}
	return pushExpr(where, s.fileFields(), rn)
}

// rowNumberPush turns a comparison of input column rn (file_row_number)
// with integer constants into pushdown's RowNumber leaves, which the row
// groups' row counts decide exactly; nil for anything else.
func rowNumberPush(x Expr, rn int) pushdown.Expr {
	if rn < 0 {
		return nil
	}
	isRN := func(x Expr) bool {
		c, ok := x.(*ColRef)
		return ok && c.Index == rn
	}
	leaf := func(op string, v Expr) (*pushdown.RowNumber, bool) {
		n, ok := positionConst(v)
		o, ok2 := pushOps[op]
		if !ok || !ok2 {
			return nil, false
		}
		return &pushdown.RowNumber{Op: o, Value: n}, true
	}
	switch e := x.(type) {
	case *Binary:
		if isRN(e.L) {
			if l, ok := leaf(e.Op, e.R); ok {
				return l
			}
		}
		if isRN(e.R) {
			if l, ok := leaf(e.Op, e.L); ok {
				l.Op = l.Op.Flip()
				return l
			}
		}
	case *Between:
		lo, ok1 := positionConst(e.Lo)
		hi, ok2 := positionConst(e.Hi)
		if !isRN(e.X) || !ok1 || !ok2 {
			break
		}
		if e.Not {
			return &pushdown.Or{Xs: []pushdown.Expr{&pushdown.RowNumber{Op: pushdown.Lt, Value: lo}, &pushdown.RowNumber{Op: pushdown.Gt, Value: hi}}}
		}
		return &pushdown.And{Xs: []pushdown.Expr{&pushdown.RowNumber{Op: pushdown.Ge, Value: lo}, &pushdown.RowNumber{Op: pushdown.Le, Value: hi}}}
	case *InList:
		if !isRN(e.X) || len(e.List) > maxPushList {
			break
		}
		xs := make([]pushdown.Expr, len(e.List))
		for i, y := range e.List {
			n, ok := positionConst(y)
			if !ok {
				return nil
			}
			op := pushdown.Eq
			if e.Not {
				op = pushdown.Ne
			}
			xs[i] = &pushdown.RowNumber{Op: op, Value: n}
		}
		if e.Not {
			return &pushdown.And{Xs: xs}
		}
		return &pushdown.Or{Xs: xs}
	case *IsNull:
		if isRN(e.X) {
			// A position is never NULL.
			if e.Not {
				return &pushdown.Const{Value: pushdown.True}
			}
			return &pushdown.Const{Value: pushdown.False}
		}
	}
	return nil
}

// positionConst is the value of a non-NULL constant of a signed integer
// type, as a position is compared with it.
func positionConst(x Expr) (int64, bool) {
	c, ok := x.(*Const)
	if !ok || c.Value.Null || !c.T.IsInteger() || c.T.ID == TypeUBigInt || c.T.ID == TypeHugeInt {
		return 0, false
	}
	return c.Value.I, true
}
