package exec

// An OR whose conditions each tell their TRUE rows of a whole batch in one
// pass (comparisons of an integer column without NULL with a constant,
// conditions judged by dictionary) picks its rows from a mask: each
// condition marks its TRUE rows, and the mask is compacted once. A WHERE
// keeps only TRUE rows, and an OR is TRUE exactly when one of its
// conditions is, so no condition needs the truths of the others; none of
// them can fail, so judging every row with each changes only the time.

// A masker marks the rows of a batch for which it is TRUE.
type masker interface {
	// canMask reports whether b is of the shape maskTrue judges.
	canMask(b *batch) bool
	// maskTrue sets m[i] to 1 for the rows i of b for which the node is
	// TRUE, and leaves the other rows as they are.
	maskTrue(b *batch, m []uint8)
}

var (
	_ selector = (*logicNode)(nil)
	_ masker   = (*logicNode)(nil)
	_ masker   = (*cmpNode)(nil)
	_ masker   = (*betweenNode)(nil)
	_ masker   = judgedNode{}
)

func (n *logicNode) selectAll(b *batch, out []int32) ([]int32, bool) {
	if !n.canMask(b) {
		return nil, false
	}
	mp := borrowTruth(b.n)
	defer truthPool.Put(mp)
	m := *mp
	n.maskTrue(b, m)
	out = out[:b.n]
	j := 0
	for i, t := range m {
		out[j] = int32(i)
		j += int(t)
	}
	return out[:j], true
}

func (n *logicNode) canMask(b *batch) bool {
	if n.and || len(n.xs) == 0 {
		return false
	}
	for _, x := range n.xs {
		if mx, ok := x.(masker); !ok || !mx.canMask(b) {
			return false
		}
	}
	return true
}

func (n *logicNode) maskTrue(b *batch, m []uint8) {
	for _, x := range n.xs {
		x.(masker).maskTrue(b, m)
	}
}

func (n *cmpNode) canMask(b *batch) bool {
	if n.kind != cmpInt || !n.r.isConst() || n.r.k.Null || !isColumn(n.l) {
		return false
	}
	x, ok := n.l.vector(b)
	return ok && x.Nulls == nil
}

func (n *cmpNode) maskTrue(b *batch, m []uint8) {
	x, _ := n.l.vector(b)
	maskInts(n.op, x.Int[:b.n], n.r.k.I, m[:b.n])
}

// maskInts sets m[i] to 1 where xs[i] op k, without a branch.
func maskInts(op cmpOp, xs []int64, k int64, m []uint8) {
	m = m[:len(xs)]
	switch op {
	case opEq:
		for i, x := range xs {
			m[i] |= b2t(x == k)
		}
	case opNe:
		for i, x := range xs {
			m[i] |= b2t(x != k)
		}
	case opLt:
		for i, x := range xs {
			m[i] |= b2t(x < k)
		}
	case opLe:
		for i, x := range xs {
			m[i] |= b2t(x <= k)
		}
	case opGt:
		for i, x := range xs {
			m[i] |= b2t(x > k)
		}
	case opGe:
		for i, x := range xs {
			m[i] |= b2t(x >= k)
		}
	}
}

func (n *betweenNode) canMask(b *batch) bool {
	if n.ints == nil || !isColumn(n.ints[0].l) || !isColumn(n.ints[1].l) {
		return false
	}
	x, ok := n.ints[0].l.vector(b)
	if !ok || x.Nulls != nil {
		return false
	}
	y, ok := n.ints[1].l.vector(b)
	return ok && y.Nulls == nil
}

func (n *betweenNode) maskTrue(b *batch, m []uint8) {
	lo, hi := n.ints[0], n.ints[1]
	x, _ := lo.l.vector(b)
	y, _ := hi.l.vector(b)
	var flip uint8
	if n.not {
		flip = 1
	}
	xs, ys, kl, kh := x.Int[:b.n], y.Int[:b.n], lo.r.k.I, hi.r.k.I
	m = m[:b.n]
	for i, v := range xs {
		m[i] |= inRange(v, ys[i], kl, kh) ^ flip
	}
}

func (n judgedNode) canMask(b *batch) bool { return n.slot < len(b.truths) }

// maskTrue relies on TRUE being the only truth with bit 0 set.
func (n judgedNode) maskTrue(b *batch, m []uint8) {
	t := b.truths[n.slot][:b.n]
	m = m[:b.n]
	for i, v := range t {
		m[i] |= v & tTrue
	}
}
