package pushdown

import (
	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/stats"
)

// CheckRange judges the leaf against bounds (of a column chunk or a page):
// False when no row in them can satisfy it, True when every row does, and
// Unknown otherwise, with the reason for False in words. It asks only what
// the Bounds promise: every non-null value lies in [Min, Max] in Order, or
// is a NaN where MayHoldNaN. Pruning skips on False; a metadata answer
// counts rows unread on True. Neither may act on Unknown.
func (c *Cond) CheckRange(b stats.Bounds) (Truth, string) {
	if no, why := c.excludedBy(b); no {
		return False, why
	}
	if c.allSatisfy(b) {
		return True, ""
	}
	return Unknown, ""
}

// allSatisfy reports whether bounds prove every row satisfies the leaf:
// the other way round from excludedBy, and as strict. A NULL satisfies no
// comparison, so a chunk that may hold one proves nothing but IS NULL.
func (c *Cond) allSatisfy(b stats.Bounds) bool {
	switch c.Op {
	case IsNullOp:
		return b.AllNull
	case IsNotNullOp:
		return !b.MayHoldNull()
	}
	if b.MayHoldNull() || !b.Order.Defined() {
		return false
	}
	v := c.Value
	switch c.Op {
	case Eq:
		return c.allEqual(b, v)
	case Ne:
		return !b.MayHoldEqual(v)
	case Lt:
		return !b.MayHoldAbove(v, true)
	case Le:
		return !b.MayHoldAbove(v, false)
	case Gt:
		return !b.MayHoldBelow(v, true)
	case Ge:
		return !b.MayHoldBelow(v, false)
	case In:
		for _, x := range c.Values {
			if c.allEqual(b, x) {
				return true
			}
		}
	case NotIn:
		if c.HasNull {
			return false
		}
		for _, x := range c.Values {
			if b.MayHoldEqual(x) {
				return false
			}
		}
		return true
	}
	return false
}

// A Prover judges resolved predicates against one file's row-group
// statistics, where they are trusted (format/stats decides which are).
type Prover struct {
	f    *format.File
	cols []stats.Column
	ok   bool
	// starts are the row groups' first rows in the file, made on first use.
	starts []int64
}

// NewProver returns a Prover for f; a file whose statistics cannot be read
// proves nothing (every answer is Unknown).
func NewProver(f *format.File) *Prover {
	cols, err := stats.Columns(f.Meta)
	return &Prover{f: f, cols: cols, ok: err == nil && len(cols) == len(f.Schema.Leaves)}
}

// RowGroup judges e, resolved for the Prover's file (a FilePlan's
// Predicate), on row group rg: True when it holds for every row, False
// when for none, Unknown otherwise.
func (p *Prover) RowGroup(e Expr, rg int) Truth {
	if !p.ok {
		return Unknown
	}
	switch n := e.(type) {
	case *Const:
		return n.Value
	case *And:
		out := True
		for _, x := range n.Xs {
			switch p.RowGroup(x, rg) {
			case False:
				return False
			case Unknown:
				out = Unknown
			}
		}
		return out
	case *Or:
		out := False
		for _, x := range n.Xs {
			switch p.RowGroup(x, rg) {
			case True:
				return True
			case Unknown:
				out = Unknown
			}
		}
		return out
	case *Cond:
		return p.cond(n, rg)
	case *RowNumber:
		if p.starts == nil {
			p.starts = RowGroupStarts(p.f)
		}
		return n.truth(p.starts[rg], p.f.Meta.RowGroups[rg].NumRows)
	}
	return Unknown
}

func (p *Prover) cond(c *Cond, rg int) Truth {
	leaf := c.Col.Leaf
	if leaf == nil || leaf.MaxRep > 0 || leaf.Index < 0 || leaf.Index >= len(p.cols) {
		return Unknown
	}
	md := p.f.Chunk(rg, leaf.Index).MetaData
	if md == nil || md.NumValues != p.f.Meta.RowGroups[rg].NumRows {
		return Unknown
	}
	t, _ := c.CheckRange(stats.ChunkBounds(p.cols[leaf.Index], md.Statistics, md.NumValues))
	return t
}
