package optimizer

import "github.com/pqsql/pqsql/planner"

// simplifyExpressions folds constant subexpressions and simplifies AND, OR
// and NOT under three-valued logic, in every expression of every plan. A
// WHERE or HAVING that becomes TRUE goes away.
func simplifyExpressions(root *planner.Plan) *planner.Plan {
	eachPlan(root, func(p *planner.Plan) {
		p.Where = simplifyFilter(p.Where)
		p.Having = simplifyFilter(p.Having)
		for i, x := range p.Project {
			p.Project[i] = simplify(x)
		}
		for i, x := range p.GroupBy {
			p.GroupBy[i] = simplify(x)
		}
		for _, a := range p.Aggs {
			if a.Arg != nil {
				a.Arg = simplify(a.Arg)
			}
		}
	})
	return root
}

// simplifyFilter simplifies a filter condition; nil when it keeps every row.
// A filter keeps the rows where it is TRUE, so there a NULL conjunct is as
// good as FALSE: the AND of it is NULL or FALSE, never TRUE.
func simplifyFilter(e planner.Expr) planner.Expr {
	if e == nil {
		return nil
	}
	e = simplify(e)
	for _, c := range conjuncts(e) {
		if k, ok := c.(*planner.Const); ok && k.Value.Null {
			return boolConst(false)
		}
	}
	if isBool(e, true) {
		return nil
	}
	return e
}

// simplify returns an expression equal to e on every row.
func simplify(e planner.Expr) planner.Expr {
	return transform(e, simplifyNode)
}

func simplifyNode(e planner.Expr) planner.Expr {
	switch n := e.(type) {
	case *planner.Logic:
		return simplifyLogic(n)
	case *planner.Not:
		// NOT NOT x is x for NULL too.
		if inner, ok := n.X.(*planner.Not); ok {
			return inner.X
		}
	}
	return foldConstant(e)
}

// simplifyLogic flattens nested ANDs (ORs) and applies the identities that
// hold for NULL too: x AND FALSE is FALSE, x AND TRUE is x, x OR TRUE is
// TRUE, x OR FALSE is x. A NULL operand stays: NULL AND x is NULL or FALSE.
func simplifyLogic(l *planner.Logic) planner.Expr {
	var xs []planner.Expr
	for _, x := range l.Xs {
		if in, ok := x.(*planner.Logic); ok && in.And == l.And {
			xs = append(xs, in.Xs...)
			continue
		}
		xs = append(xs, x)
	}
	kept := xs[:0:0]
	for _, x := range xs {
		switch {
		case isBool(x, !l.And):
			// FALSE decides an AND, TRUE an OR.
			return x
		case isBool(x, l.And):
			// TRUE in an AND, FALSE in an OR changes nothing.
		default:
			kept = append(kept, x)
		}
	}
	switch len(kept) {
	case 0:
		return boolConst(l.And)
	case 1:
		return kept[0]
	}
	return &planner.Logic{And: l.And, Xs: kept}
}

// foldConstant evaluates e when all its operands are constant. An
// expression whose evaluation fails is left for the executor, which raises
// the error only if a row reaches it.
func foldConstant(e planner.Expr) planner.Expr {
	kids := planner.Children(e)
	if len(kids) == 0 || isVolatile(e) {
		return e
	}
	for _, k := range kids {
		if _, ok := k.(*planner.Const); !ok {
			return e
		}
	}
	d, err := planner.Eval(e, nil)
	if err != nil {
		return e
	}
	return &planner.Const{Value: d, T: e.Type()}
}

// isBool reports whether e is the boolean constant v (not NULL).
func isBool(e planner.Expr, v bool) bool {
	c, ok := e.(*planner.Const)
	return ok && c.T.ID == planner.TypeBoolean && !c.Value.Null && c.Value.B == v
}

func boolConst(v bool) *planner.Const {
	return &planner.Const{Value: planner.Datum{B: v}, T: planner.Type{ID: planner.TypeBoolean}}
}
