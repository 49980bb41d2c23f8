package exec

import (
	"sync"

	"github.com/pqsql/pqsql/planner"
)

// A projector computes a plan's projection over batches: a column is
// passed through as its vector, anything else evaluated row by row. It
// holds no state, so workers share one.
type projector struct {
	exprs []planner.Expr
	// cols[i] is the input column exprs[i] reads as is, or -1.
	cols     []int
	computed []int
	vx       []vexpr
	width    int
	rbCols   []int
	// unnest, when the projection unnests lists, computes it (unnest.go).
	unnest *unnester
	// consts holds, per constant expression, a batch's worth of its value,
	// made once and shared read-only by every batch (constVector).
	consts []constColumn
	// passes: every expression passes a column through, no column twice,
	// so a batch's projection holds its vectors as alone as the batch did.
	passes bool
}

// A constColumn is BatchSize copies of a constant, made on first use.
type constColumn struct {
	once sync.Once
	v    *Vector
}

func newProjector(exprs []planner.Expr, width int) *projector {
	pr := &projector{exprs: exprs, cols: make([]int, len(exprs)), vx: make([]vexpr, len(exprs)), width: width,
		consts: make([]constColumn, len(exprs))}
	var computed []planner.Expr
	for i, e := range exprs {
		pr.cols[i] = -1
		if c, ok := e.(*planner.ColRef); ok && c.Index >= 0 && c.Index < width {
			pr.cols[i] = c.Index
			continue
		}
		pr.computed = append(pr.computed, i)
		computed = append(computed, e)
		if _, isConst := e.(*planner.Const); !isConst {
			pr.vx[i] = compileVec(e, width)
		}
	}
	pr.rbCols = newRowBuffer(width, computed...).cols
	pr.unnest = newUnnester(exprs, width)
	pr.passes = pr.unnest == nil && len(pr.computed) == 0
	seen := map[int]bool{}
	for _, c := range pr.cols {
		pr.passes = pr.passes && !seen[c]
		seen[c] = true
	}
	return pr
}

// apply projects b. When a row fails to evaluate it returns the rows before
// it and the error, as a row-at-a-time executor would have stopped there.
func (pr *projector) apply(b *batch) (*batch, error) {
	if pr.unnest != nil {
		return pr.unnest.apply(b)
	}
	out := &batch{cols: make([]*Vector, len(pr.exprs)), n: b.n, pooled: b.pooled && pr.passes}
	for i, c := range pr.cols {
		if c >= 0 {
			out.cols[i] = b.cols[c]
		}
	}
	if len(pr.computed) == 0 {
		return out, nil
	}
	var rowwise []int
	for _, i := range pr.computed {
		if c, ok := pr.exprs[i].(*planner.Const); ok {
			// A constant (a column the optimizer pruned is a typed NULL)
			// needs no evaluation per row.
			out.cols[i] = pr.constVector(i, c, b.n)
			continue
		}
		if vx := pr.vx[i]; vx != nil {
			if v, ok := vx.eval(b); ok {
				out.cols[i] = v
				continue
			}
		}
		out.cols[i] = newResultVector(pr.exprs[i].Type(), b.n)
		rowwise = append(rowwise, i)
	}
	if len(rowwise) == 0 {
		return out, nil
	}
	rb := &rowBuffer{row: make([]planner.Datum, pr.width), cols: pr.rbCols}
	rowEvals.Add(int64(b.n * len(rowwise)))
	for r := range b.n {
		row := rb.load(b, r)
		for _, i := range rowwise {
			d, err := planner.Eval(pr.exprs[i], row)
			if err != nil {
				return out.head(r), err
			}
			out.cols[i].appendDatum(d)
		}
	}
	return out, nil
}

// constVector is n copies of constant c, expression i. Up to a batch's
// rows they are the head of one vector made once: a pruned column is a
// typed NULL in every batch, and filling it anew per batch cost more than
// reading the columns kept. The head's capacity ends at n, so appending to
// it copies rather than writing into the shared values.
func (pr *projector) constVector(i int, c *planner.Const, n int) *Vector {
	one := newResultVector(c.T, 1)
	one.appendDatum(c.Value)
	switch {
	case n == 1:
		// One row (a SELECT without FROM, a VALUES row): a batch's worth
		// would cost more than the row, once per query branch.
		return one
	case n > BatchSize:
		return one.repeat(n)
	}
	cc := &pr.consts[i]
	cc.once.Do(func() { cc.v = one.repeat(BatchSize) })
	return cc.v.clip(n)
}
