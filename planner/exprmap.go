package planner

// Map returns e with each child x replaced by f(x), keeping every other
// field of every node (a LIKE's escape and compiled matcher, a call's
// registry entry, ...). e itself is left unchanged; a leaf comes back as it
// is. It is the one place that knows how to rebuild each kind of node, so a
// rewrite written over Map cannot drop a field a newer node kind carries.
func Map(e Expr, f func(Expr) Expr) Expr {
	switch e := e.(type) {
	case *Binary:
		n := *e
		n.L, n.R = f(e.L), f(e.R)
		return &n
	case *Logic:
		n := *e
		n.Xs = mapAll(e.Xs, f)
		return &n
	case *Not:
		return &Not{X: f(e.X)}
	case *Neg:
		return &Neg{X: f(e.X)}
	case *IsNull:
		n := *e
		n.X = f(e.X)
		return &n
	case *InList:
		n := *e
		n.X, n.List = f(e.X), mapAll(e.List, f)
		return &n
	case *Between:
		n := *e
		n.X, n.Lo, n.Hi = f(e.X), f(e.Lo), f(e.Hi)
		return &n
	case *Like:
		n := *e
		n.X, n.Pattern = f(e.X), f(e.Pattern)
		if e.Escape != nil {
			n.Escape = f(e.Escape)
		}
		// The compiled matcher belongs to the constant pattern and escape
		// it was made from; a rewritten pattern compiles its own.
		if n.Pattern != e.Pattern || n.Escape != e.Escape {
			n.compiled = nil
		}
		return &n
	case *Case:
		n := *e
		n.Whens = make([]When, len(e.Whens))
		for i, w := range e.Whens {
			n.Whens[i] = When{Cond: f(w.Cond), Val: f(w.Val)}
		}
		if e.Else != nil {
			n.Else = f(e.Else)
		}
		return &n
	case *Cast:
		n := *e
		n.X = f(e.X)
		return &n
	case *Call:
		n := *e
		n.Args = mapAll(e.Args, f)
		return &n
	case *pairExpr:
		return &pairExpr{X: f(e.X), Y: f(e.Y)}
	case *orderedExpr:
		return mapOrdered(e, f)
	case *Lambda:
		n := *e
		n.Body = f(e.Body)
		return &n
	case *Try:
		return &Try{X: f(e.X)}
	case *Subquery:
		n := *e
		if e.X != nil {
			n.X = f(e.X)
		}
		return &n
	case *Correlated:
		n := *e
		if e.X != nil {
			n.X = f(e.X)
		}
		n.Args = mapAll(e.Args, f)
		return &n
	}
	return e
}

func mapAll(xs []Expr, f func(Expr) Expr) []Expr {
	out := make([]Expr, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
