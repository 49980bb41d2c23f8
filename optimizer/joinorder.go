package optimizer

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/planner"
)

// maxJoinInputs bounds the inputs of one reordered chain: the inputs a
// condition reads are kept as bits of a uint64.
const maxJoinInputs = 64

// orderJoins reorders each chain of three or more inner and cross joins
// (INNER, comma and CROSS joins nested in one another) so that rows flow
// from the smallest input: the input with the fewest estimated rows comes
// first, and each next one is the smallest input a join key connects to
// those already joined, or the smallest of all when none is connected.
// The chain is rebuilt left-deep, each condition on the first join that
// sees all the inputs it reads, and a projection puts the columns back in
// their written order. Inner joins commute and associate, so the rows are
// the same. Outer, semi and anti joins, a join checking for one match, and
// a plan that filters, aggregates, limits or projects between two joins
// are inputs of a chain, never part of one (each is reordered inside); a
// chain with a volatile condition keeps its written order, as does one
// with an input of unknown size.
func orderJoins(root *planner.Plan) *planner.Plan {
	e := &estimator{rows: map[string]int64{}}
	e.orderJoinsIn(root)
	return root
}

// orderJoinsIn reorders the chains in p and below it.
func (e *estimator) orderJoinsIn(p *planner.Plan) {
	s := p.Scan
	if s == nil || s.Join == nil || !chainable(s.Join) {
		for _, c := range children(p) {
			e.orderJoinsIn(c)
		}
		return
	}
	g := &joinGraph{}
	g.collect(s.Join, 0)
	for _, in := range g.inputs {
		e.orderJoinsIn(in.plan)
	}
	if len(g.inputs) < 3 || len(g.inputs) > maxJoinInputs || g.volatile {
		return
	}
	for i := range g.inputs {
		if g.inputs[i].rows = e.estimate(g.inputs[i].plan); g.inputs[i].rows < 0 {
			return
		}
	}
	g.link()
	order := g.greedyOrder()
	top := g.build(order)
	if isIdentity(order) {
		s.Join = top.Scan.Join
		return
	}
	// The joined rows have the inputs' columns in the new order; the
	// plan above reads them in the written order.
	w := &planner.Plan{Scan: top.Scan, Input: top.Columns, Columns: p.Input, Limit: -1}
	at := make([]int, len(order))
	n := 0
	for _, k := range order {
		at[k] = n
		n += len(g.inputs[k].plan.Columns)
	}
	for k, in := range g.inputs {
		for i, col := range in.plan.Columns {
			w.Project = append(w.Project, &planner.ColRef{Index: at[k] + i, Name: col.Name, T: col.Type})
		}
	}
	p.Scan = &planner.Scan{Subquery: w, Source: "(join)"}
}

// chainable reports whether j may be part of a reordered chain.
func chainable(j *planner.Join) bool {
	return (j.Kind == planner.JoinInner || j.Kind == planner.JoinCross) && !j.Single
}

// isJoinStep reports whether p is a chainable join and nothing else: its
// rows are the join's, as they are.
func isJoinStep(p *planner.Plan) bool {
	s := p.Scan
	if s == nil || s.Join == nil || !chainable(s.Join) {
		return false
	}
	if p.Where != nil || p.Aggregate || len(p.Windows) > 0 || p.Qualify != nil || p.Having != nil ||
		p.Distinct || len(p.Order) > 0 || p.Limit >= 0 || p.Offset > 0 || p.HasPercent || p.Single ||
		len(p.Project) != len(p.Input) || len(p.Columns) != len(p.Input) {
		return false
	}
	for i, x := range p.Project {
		if r, ok := x.(*planner.ColRef); !ok || r.Index != i {
			return false
		}
	}
	return true
}

// A joinInput is one input of a join chain.
type joinInput struct {
	plan *planner.Plan
	// at is the position of its first column in the chain's written rows.
	at   int
	rows int64
}

// A joinCond is one conjunct of a chain's conditions over its written
// rows: an equality of two sides (l, r set) or any other condition (x).
type joinCond struct {
	l, r planner.Expr
	x    planner.Expr
	// reads, lreads, rreads are the inputs it (each side) reads, as bits.
	reads, lreads, rreads uint64
}

// A joinGraph is a chain of joins read as its inputs and the conditions
// between them.
type joinGraph struct {
	inputs   []joinInput
	conds    []joinCond
	volatile bool
}

// collect adds j's inputs and conditions, j's rows starting at column at
// of the chain's.
func (g *joinGraph) collect(j *planner.Join, at int) {
	left := func(side *planner.Plan, at int) {
		if isJoinStep(side) {
			g.collect(side.Scan.Join, at)
			return
		}
		g.inputs = append(g.inputs, joinInput{plan: side, at: at})
	}
	left(j.Left, at)
	left(j.Right, at+len(j.Left.Columns))
	for _, k := range j.Keys {
		g.conds = append(g.conds, joinCond{l: shift(k.L, at), r: shift(k.R, at)})
	}
	for _, c := range conjuncts(j.Residual) {
		g.volatile = g.volatile || isVolatile(c)
		g.conds = append(g.conds, joinCond{x: shift(c, at)})
	}
}

// link records which inputs each condition reads.
func (g *joinGraph) link() {
	reads := func(x planner.Expr) uint64 {
		var m uint64
		for i := range columnsOf(x) {
			m |= 1 << g.inputOf(i)
		}
		return m
	}
	for i := range g.conds {
		c := &g.conds[i]
		if c.x != nil {
			c.reads = reads(c.x)
			continue
		}
		c.lreads, c.rreads = reads(c.l), reads(c.r)
		c.reads = c.lreads | c.rreads
	}
}

// inputOf returns the input that written column i belongs to.
func (g *joinGraph) inputOf(i int) int {
	k := 0
	for k+1 < len(g.inputs) && g.inputs[k+1].at <= i {
		k++
	}
	return k
}

// greedyOrder picks the order: the smallest input first, then always the
// smallest input an equality connects to the joined ones, the smallest of
// all when none is. Ties keep the written order.
func (g *joinGraph) greedyOrder() []int {
	var joined uint64
	var order []int
	for len(order) < len(g.inputs) {
		best, bestConnected := -1, false
		for k, in := range g.inputs {
			if joined&(1<<k) != 0 {
				continue
			}
			c := len(order) > 0 && g.connects(joined, k)
			switch {
			case best < 0, c && !bestConnected, c == bestConnected && in.rows < g.inputs[best].rows:
				best, bestConnected = k, c
			}
		}
		order = append(order, best)
		joined |= 1 << best
	}
	return order
}

// connects reports whether an equality has one side reading only joined
// inputs and the other only input k: it becomes a key of their join.
func (g *joinGraph) connects(joined uint64, k int) bool {
	for _, c := range g.conds {
		if c.x != nil || c.lreads == 0 || c.rreads == 0 {
			continue
		}
		if c.lreads&^joined == 0 && c.rreads == 1<<k || c.rreads&^joined == 0 && c.lreads == 1<<k {
			return true
		}
	}
	return false
}

// build joins the inputs left-deep in order and returns the plan of the
// last join; its rows are the inputs' columns in that order.
func (g *joinGraph) build(order []int) *planner.Plan {
	// to maps a written column to its position in the new rows.
	to := make([]int, 0)
	at := make([]int, len(g.inputs))
	n := 0
	for _, k := range order {
		at[k] = n
		n += len(g.inputs[k].plan.Columns)
	}
	for k, in := range g.inputs {
		for i := range in.plan.Columns {
			to = append(to, at[k]+i)
		}
	}
	move := func(x planner.Expr) planner.Expr {
		return substitute(x, func(r *planner.ColRef) planner.Expr {
			return &planner.ColRef{Index: to[r.Index], Name: r.Name, T: r.T}
		})
	}
	placed := make([]bool, len(g.conds))
	first := g.inputs[order[0]].plan
	cur := first
	joined := uint64(1) << order[0]
	var names []string
	names = append(names, fmt.Sprintf("%s (%d rows)", inputName(first, order[0]), g.inputs[order[0]].rows))
	for _, k := range order[1:] {
		right := g.inputs[k].plan
		joined |= 1 << k
		var conds []planner.Expr
		for i, c := range g.conds {
			if placed[i] || c.reads&^joined != 0 {
				continue
			}
			placed[i] = true
			if c.x != nil {
				conds = append(conds, move(c.x))
			} else {
				conds = append(conds, &planner.Binary{Op: "=", L: move(c.l), R: move(c.r), T: planner.Type{ID: planner.TypeBoolean}})
			}
		}
		j := &planner.Join{Kind: planner.JoinInner, Left: cur, Right: right, LeftRows: -1, RightRows: -1}
		if len(conds) == 0 {
			j.Kind = planner.JoinCross
		}
		planner.SplitJoinCondition(j, conds, len(cur.Columns))
		cols := append(append([]planner.Column{}, cur.Columns...), right.Columns...)
		cur = &planner.Plan{Scan: &planner.Scan{Join: j, Source: "(join)"}, Input: cols, Columns: cols, Limit: -1}
		for i, col := range cols {
			cur.Project = append(cur.Project, &planner.ColRef{Index: i, Name: col.Name, T: col.Type})
		}
		names = append(names, fmt.Sprintf("%s (%d rows)", inputName(right, k), g.inputs[k].rows))
	}
	var written []string
	for k, in := range g.inputs {
		written = append(written, inputName(in.plan, k))
	}
	cur.Scan.Join.Order = strings.Join(names, ", ") + "; written " + strings.Join(written, ", ")
	return cur
}

// inputName is how EXPLAIN names input k: the tables its columns come
// from, or its position when they have no name.
func inputName(p *planner.Plan, k int) string {
	var tables []string
	seen := map[string]bool{}
	for _, c := range p.Columns {
		if c.Table != "" && !seen[strings.ToLower(c.Table)] {
			seen[strings.ToLower(c.Table)] = true
			tables = append(tables, c.Table)
		}
	}
	switch len(tables) {
	case 0:
		return fmt.Sprintf("#%d", k+1)
	case 1:
		return tables[0]
	}
	return "(" + strings.Join(tables, " ") + ")"
}

// isIdentity reports whether order is 0, 1, 2, ...
func isIdentity(order []int) bool {
	for i, k := range order {
		if i != k {
			return false
		}
	}
	return true
}
