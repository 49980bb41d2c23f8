package planner

// bindConcatOperator types a || b as DuckDB does: lists concatenate as
// list_concat, two BLOBs concatenate as bytes, anything else as text.
func bindConcatOperator(l, r Expr) (Expr, error) {
	lt, rt := l.Type(), r.Type()
	if lt.ID == TypeNull || rt.ID == TypeNull {
		// A NULL operand makes the whole expression a NULL constant.
		return &Const{Value: NullDatum, T: Type{ID: TypeNull}}, nil
	}
	if isListType(lt) || isListType(rt) {
		le, _ := listElem(lt)
		re, _ := listElem(rt)
		if le != re && (le.ID == TypeVarchar) != (re.ID == TypeVarchar) && le.ID != TypeNull && re.ID != TypeNull {
			// DuckDB will not turn numbers into text to concatenate lists.
			return nil, binderError("Cannot concatenate lists of types %s and %s - an explicit cast is required", lt, rt)
		}
		return listConcatOperator.Bind(listConcatOperator, []Expr{l, r})
	}
	t := Type{ID: TypeVarchar}
	if lt.ID == TypeBlob && lt.Name == "" && rt.ID == TypeBlob && rt.Name == "" {
		t = Type{ID: TypeBlob}
	}
	var err error
	if l, err = castTo(l, t); err != nil {
		return nil, err
	}
	if r, err = castTo(r, t); err != nil {
		return nil, err
	}
	return &Binary{Op: "||", L: l, R: r, T: t}, nil
}

// listConcatOperator is list_concat as the || operator binds it: unlike the
// function, a NULL list makes the result NULL.
var listConcatOperator = &ScalarFunc{Name: "list_concat", Bind: bindListConcat, Eval: evalListConcat}
