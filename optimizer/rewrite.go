package optimizer

import "github.com/pqsql/pqsql/planner"

// transform rebuilds e bottom-up: each node gets its children transformed,
// then f decides what stands in its place. e itself is left unchanged.
func transform(e planner.Expr, f func(planner.Expr) planner.Expr) planner.Expr {
	if e == nil {
		return nil
	}
	return f(planner.Map(e, func(x planner.Expr) planner.Expr { return transform(x, f) }))
}

// substitute returns e with every column reference replaced by f's
// expression for it.
func substitute(e planner.Expr, f func(*planner.ColRef) planner.Expr) planner.Expr {
	return transform(e, func(x planner.Expr) planner.Expr {
		if c, ok := x.(*planner.ColRef); ok {
			return f(c)
		}
		return x
	})
}

// replaceColumns returns e reading exprs[i] wherever it read column i.
func replaceColumns(e planner.Expr, exprs []planner.Expr) planner.Expr {
	return substitute(e, func(c *planner.ColRef) planner.Expr {
		if c.Index < len(exprs) {
			return exprs[c.Index]
		}
		return c
	})
}

// conjuncts splits a WHERE into its AND-ed terms.
func conjuncts(e planner.Expr) []planner.Expr {
	if e == nil {
		return nil
	}
	if l, ok := e.(*planner.Logic); ok && l.And {
		var out []planner.Expr
		for _, x := range l.Xs {
			out = append(out, conjuncts(x)...)
		}
		return out
	}
	return []planner.Expr{e}
}

// and joins terms with AND; nil when there are none.
func and(xs ...planner.Expr) planner.Expr {
	var flat []planner.Expr
	for _, x := range xs {
		flat = append(flat, conjuncts(x)...)
	}
	switch len(flat) {
	case 0:
		return nil
	case 1:
		return flat[0]
	}
	return &planner.Logic{And: true, Xs: flat}
}

// volatileFuncs may return a different value at every call, so an
// expression calling one is evaluated where, and as often as, it was written.
var volatileFuncs = map[string]bool{"random": true, "gen_random_uuid": true, "uuid": true, "nextval": true, "setseed": true}

// isVolatile reports whether e calls a volatile function.
func isVolatile(e planner.Expr) bool {
	if c, ok := e.(*planner.Call); ok && volatileFuncs[c.Name] {
		return true
	}
	for _, x := range planner.Children(e) {
		if isVolatile(x) {
			return true
		}
	}
	return false
}

// columnsOf returns the positions e reads.
func columnsOf(e planner.Expr) map[int]bool {
	set := map[int]bool{}
	planner.Columns(e, set)
	return set
}
