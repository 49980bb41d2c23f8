package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/sql/ast"
)

// GROUPING SETS, ROLLUP and CUBE aggregate the same input once per set of
// group keys; a key outside a row's set is NULL in it. The plan keeps every
// key in GroupBy and the sets in Plan.GroupingSets; GroupingSetPlan gives
// the aggregate stage of one set, whose rows have the whole plan's layout,
// so HAVING, the projection, DISTINCT, ORDER BY and LIMIT see the union of
// the sets' rows as DuckDB does.

func init() {
	registerAggregate(&AggregateFunc{Name: "grouping", Aliases: []string{"grouping_id"},
		Result: func(Type) (Type, error) { return tBigInt, nil }})
}

// groupingKeys maps the GROUP BY items of a SELECT to its distinct keys
// and its grouping sets (positions in the items) to sets of keys. A plain
// GROUP BY (sets nil) has no grouping sets; neither has one set of every
// key (GROUP BY (), GROUP BY (a, b)).
func groupingKeys(items []int, sets [][]int, nkeys int) [][]int {
	if sets == nil {
		return nil
	}
	out := make([][]int, len(sets))
	for i, s := range sets {
		seen := make([]bool, nkeys)
		out[i] = []int{}
		for _, it := range s {
			if k := items[it]; !seen[k] {
				seen[k] = true
				out[i] = append(out[i], k)
			}
		}
	}
	if len(out) == 1 && len(out[0]) == nkeys {
		return nil
	}
	return out
}

// grouping binds grouping(keys...) (grouping_id is the same function): a
// bit per argument, the first the most significant, set where the key is
// not in the row's grouping set.
func (b *binder) grouping(e *ast.FuncExpr) (Expr, error) {
	st := b.agg
	if st == nil {
		return nil, binderError("GROUPING function is not supported here")
	}
	if len(st.keys) == 0 && st.sets == nil {
		return nil, binderError("GROUPING statement cannot be used without groups")
	}
	if e.Distinct || e.Filter != nil {
		return nil, binderError("DISTINCT or FILTER in GROUPING is not allowed")
	}
	if len(e.Exprs) > 64 {
		return nil, binderError("GROUPING statement cannot have more than 64 groups")
	}
	a := &AggCall{Func: "grouping", T: tBigInt, fn: aggregateFuncs["grouping"]}
	var args []string
	for _, se := range e.Exprs {
		ae, ok := se.(*ast.AliasedExpr)
		if !ok {
			return nil, binderError("GROUPING takes expressions")
		}
		k := -1
		arg := ae.Expr
		if c, ok := arg.(*ast.ColName); ok && c.Qualifier.IsEmpty() && st.aliases[strings.ToLower(c.Name.String())] != nil {
			arg = st.aliases[strings.ToLower(c.Name.String())]
		}
		if x, err := st.inputer.bind(arg); err == nil {
			s := x.String()
			for i, ks := range st.keyStr {
				if ks == s {
					k = i
					break
				}
			}
		}
		if k < 0 {
			return nil, locate(binderError("GROUPING child \"%s\" must be a grouping column", nameOf(b.sel, ae.Expr)), b.sel, ae.Expr)
		}
		a.Grouping = append(a.Grouping, k)
		args = append(args, st.keyStr[k])
	}
	a.label = e.Name.Lowered() + "(" + strings.Join(args, ", ") + ")"
	if st.sets == nil {
		// One set of every key: no key is ever rolled up.
		return &Const{Value: Datum{I: 0}, T: tBigInt}, nil
	}
	return b.addAggregate(a)
}

// alias records that GROUP BY named the key x by a select-list alias.
func (st *aggState) alias(name string, x ast.Expr) {
	if st.aliases == nil {
		st.aliases = map[string]ast.Expr{}
	}
	st.aliases[strings.ToLower(name)] = x
}

// groupingValue is grouping(...)'s value in the rows of a set.
func groupingValue(a *AggCall, set []int) int64 {
	var v int64
	for _, k := range a.Grouping {
		v <<= 1
		in := false
		for _, s := range set {
			in = in || s == k
		}
		if !in {
			v |= 1
		}
	}
	return v
}

// GroupingSetPlan is the plan of grouping set i's part of the aggregate
// stage: its keys only, the aggregates but grouping(), and HAVING and the
// projection reading NULL for each key outside the set and the set's
// constant for each grouping(). It keeps p's DISTINCT, ORDER BY and LIMIT,
// which the executor applies to the rows of every set together.
func (p *Plan) GroupingSetPlan(i int) *Plan {
	set := p.GroupingSets[i]
	q := *p
	q.GroupingSets = nil
	nk := len(p.GroupBy)
	repl := make([]Expr, nk+len(p.Aggs))
	q.GroupBy = nil
	for k, x := range p.GroupBy {
		repl[k] = &Const{Value: NullDatum, T: x.Type()}
	}
	for _, k := range set {
		x := p.GroupBy[k]
		repl[k] = &ColRef{Index: len(q.GroupBy), Name: x.String(), T: x.Type()}
		q.GroupBy = append(q.GroupBy, x)
	}
	q.Aggs = nil
	for j, a := range p.Aggs {
		if a.Func == "grouping" {
			repl[nk+j] = &Const{Value: Datum{I: groupingValue(a, set)}, T: tBigInt}
			continue
		}
		repl[nk+j] = &ColRef{Index: len(set) + len(q.Aggs), Name: a.String(), T: a.T}
		q.Aggs = append(q.Aggs, a)
	}
	re := func(x Expr) Expr { return readColumns(x, repl) }
	q.Project = make([]Expr, len(p.Project))
	for k, x := range p.Project {
		q.Project[k] = re(x)
	}
	if p.Having != nil {
		q.Having = re(p.Having)
	}
	return &q
}

// readColumns returns x reading repl[i] wherever it read column i.
func readColumns(x Expr, repl []Expr) Expr {
	if c, ok := x.(*ColRef); ok {
		if c.Index < len(repl) {
			return repl[c.Index]
		}
		return c
	}
	return Map(x, func(y Expr) Expr { return readColumns(y, repl) })
}

// groupingSetsString prints a plan's grouping sets for EXPLAIN.
func (p *Plan) groupingSetsString() string {
	parts := make([]string, len(p.GroupingSets))
	for i, s := range p.GroupingSets {
		keys := make([]string, len(s))
		for j, k := range s {
			keys[j] = p.GroupBy[k].String()
		}
		parts[i] = "(" + strings.Join(keys, ", ") + ")"
	}
	return fmt.Sprintf(" sets [%s]", strings.Join(parts, ", "))
}
