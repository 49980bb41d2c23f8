package planner

// foldNullArgument folds an operator or function call with a constant NULL
// argument (or an integer // by 0) to a NULL constant, without evaluating
// its other arguments, as DuckDB's function binder does for functions that
// propagate NULL:
// NULL::DOUBLE - cos('inf') is NULL, not an error. Where DuckDB computes
// the result type from the arguments' types (DECIMAL arithmetic, round and
// floor of a DECIMAL, the || operator) the constant has DuckDB's NULL type,
// which then takes no part in choosing a common type: greatest(-7.005 +
// NULL::DECIMAL(18,3), -0.25) is -0.25, a DECIMAL(3,2).
func foldNullArgument(x Expr) (Expr, bool) {
	if b, ok := x.(*Binary); ok && b.Op == "div" && b.T.IsInteger() {
		// DuckDB's arithmetic simplification: an integer // by a constant
		// 0 is NULL, its left operand never evaluated.
		if c, ok := b.R.(*Const); ok && !c.Value.Null && bigOf(c.Value, c.T).Sign() == 0 {
			return &Const{Value: NullDatum, T: b.T}, true
		}
	}
	var args []Expr
	switch x := x.(type) {
	case *Binary:
		args = []Expr{x.L, x.R}
		if cmpOpNames[x.Op] {
			// DuckDB's comparison simplification looks at the first
			// operand that is constant (the left one if both are): if
			// that is NULL the comparison is NULL; if it fails, nothing
			// folds, so CAST('a' AS TIMESTAMP) < NULL::TIMESTAMP fails.
			args = []Expr{x.R}
			if constantTree(x.L) {
				args = []Expr{x.L}
			}
		}
	case *Neg:
		args = []Expr{x.X}
	case *Call:
		f := x.fn
		if f == nil || f.SeesNulls || f.Lazy != nil {
			return nil, false
		}
		args = x.Args
	default:
		return nil, false
	}
	for _, a := range args {
		if cst, ok := a.(*Cast); ok {
			// DATE arithmetic casts its DATE operand to a day number
			// without folding: NULL::DATE + 3 >= make_date(1970, 13, 1)
			// is NULL too.
			a = cst.X
		}
		if c, ok := a.(*Const); ok && c.Value.Null {
			t := x.Type()
			if b, ok := x.(*Binary); t.ID == TypeDecimal || ok && b.Op == "||" {
				t = Type{ID: TypeNull}
			}
			return &Const{Value: NullDatum, T: t}, true
		}
	}
	return nil, false
}

// settleConstant evaluates a whole expression made of constants that fold
// left standing because a part of it failed. Evaluation stops where SQL
// stops (false AND, coalesce, CASE), so true OR CAST('x' AS DOUBLE) > 0 is
// true; a failure it reaches fails the statement now, as DuckDB's would on
// the one row a FROM-less SELECT has.
func settleConstant(x Expr) (Expr, error) {
	if _, ok := x.(*Const); ok || !constantTree(x) {
		return x, nil
	}
	d, err := Eval(x, nil)
	if err != nil {
		return nil, err
	}
	return &Const{Value: d, T: x.Type()}, nil
}

// constantTree reports whether fold would fold x and all of its parts,
// were none to fail.
func constantTree(x Expr) bool {
	switch x.(type) {
	case *Const:
		return true
	case *ColRef, *LambdaParam, *Lambda:
		return false
	}
	if _, ok := IsUnnest(x); ok || hasSubquery(x) {
		return false
	}
	for _, c := range Children(x) {
		if !constantTree(c) {
			return false
		}
	}
	return true
}

// cmpOpNames are the comparison operators of a Binary.
var cmpOpNames = map[string]bool{"=": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// isNullConst reports whether x is a NULL constant of DuckDB's NULL type.
func isNullConst(x Expr) bool {
	c, ok := x.(*Const)
	return ok && c.Value.Null && c.T.ID == TypeNull
}
