package pushdown

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/stats"
)

// A keptReasons says why kept row groups were kept: what the statistics
// and Bloom filters of each of the predicate's columns allow. It reads
// only the footer, never an index or filter, so EXPLAIN ANALYZE's byte
// account stays the plan's.
type keptReasons struct {
	p     *FilePlan
	f     *format.File
	cols  []stats.Column
	conds []keptCond
}

// A keptCond is a condition of the predicate; conjunct says every kept row
// group satisfies it as far as each mechanism can tell (it is the
// predicate or one of its top-level AND terms), so a kept row group proves
// a Bloom probe of it found the value.
type keptCond struct {
	*Cond
	conjunct bool
}

func newKeptReasons(p *FilePlan, f *format.File) *keptReasons {
	if f == nil {
		return nil
	}
	k := &keptReasons{p: p, f: f, conds: conditions(p.Predicate)}
	if sc, err := stats.Columns(f.Meta); err == nil && len(sc) == len(f.Schema.Leaves) {
		k.cols = sc
	}
	return k
}

// why says what each mechanism found on row group rg that may hold rows:
// "statistics: order_id in [4001, 8000] may hold 4400; bloom: 424242 may
// be present". It is "" when nothing can be said.
func (k *keptReasons) why(rg RowGroupPlan) string {
	if k == nil || rg.Index < 0 || rg.Index >= len(k.f.Meta.RowGroups) {
		return ""
	}
	var parts []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	for _, kc := range k.conds {
		c := kc.Cond
		if c.Col.Leaf == nil {
			continue
		}
		leaf := c.Col.Leaf.Index
		if k.p.Options.Statistics && k.cols != nil && leaf < len(k.cols) {
			if md := k.f.Chunk(rg.Index, leaf).MetaData; md != nil {
				b := stats.ChunkBounds(k.cols[leaf], md.Statistics, md.NumValues)
				// Under OR, a term the statistics rule out is not why
				// the row group was kept.
				if excluded, _ := c.excludedBy(b); b.Refused == "" && !excluded {
					add("statistics: " + c.mayHold(b))
				}
			}
		}
		if kc.conjunct && k.p.Options.Bloom && (c.Op == Eq || c.Op == In) && k.f.HasBloomFilter(rg.Index, leaf) && !k.bloomUnused(rg.Index, c.Col.Path) {
			add("bloom: " + c.operands() + " may be present")
		}
	}
	return strings.Join(parts, "; ")
}

// bloomUnused reports whether the plan noted that row group rg's Bloom
// filter of path could not be used: then it answered nothing.
func (k *keptReasons) bloomUnused(rg int, path string) bool {
	prefix := fmt.Sprintf("row group %d, column %s: Bloom filter", rg, path)
	for _, n := range k.p.Notes {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

// mayHold says what the bounds b allow of c: "order_id in [4001, 8000]
// may hold 4400".
func (c *Cond) mayHold(b stats.Bounds) string {
	p := c.Col.Path
	switch {
	case c.Op == IsNullOp:
		return p + " may hold nulls"
	case c.Op == IsNotNullOp:
		return p + " holds values that are not null"
	case b.Min == nil || b.Max == nil:
		return p + " has no min and max, so may hold rows where " + c.String()
	}
	span := fmt.Sprintf("%s in [%s, %s]", p, c.show(b.Min), c.show(b.Max))
	if o := b.Order; o.Defined() && (c.Op == Eq || c.Op.isComparison()) {
		// The bounds alone would rule the value out; something else, such
		// as NaN beyond the maximum, keeps it.
		below, above := o.Compare(c.Value, b.Min) < 0, o.Compare(c.Value, b.Max) > 0
		outside := (c.Op == Eq && (below || above)) ||
			((c.Op == Gt || c.Op == Ge) && above) || ((c.Op == Lt || c.Op == Le) && below)
		switch {
		case outside && b.MayHoldNaN():
			return span + " may also hold NaN, which sorts above every number"
		case outside:
			return span + " cannot rule out " + c.String()
		}
	}
	switch c.Op {
	case Eq, In:
		return span + " may hold " + c.operands()
	case Lt, Le, Gt, Ge:
		return span + " may hold values " + c.Op.String() + " " + c.show(c.Value)
	}
	return span + " may hold rows where " + c.String()
}

// operands lists an = or IN's values: "4400", "1, 5".
func (c *Cond) operands() string {
	if c.Op != In {
		return c.show(c.Value)
	}
	parts := make([]string, len(c.Values))
	for i, v := range c.Values {
		parts[i] = c.show(v)
	}
	return strings.Join(parts, ", ")
}

// conditions lists the resolved leaves of a predicate, in order, leaving
// out those under NOT (what they allow is the opposite).
func conditions(e Expr) []keptCond {
	var out []keptCond
	var walk func(e Expr, conjunct bool)
	walk = func(e Expr, conjunct bool) {
		switch n := e.(type) {
		case *And:
			for _, x := range n.Xs {
				walk(x, conjunct)
			}
		case *Or:
			for _, x := range n.Xs {
				walk(x, conjunct && len(n.Xs) == 1)
			}
		case *Cond:
			out = append(out, keptCond{Cond: n, conjunct: conjunct})
		}
	}
	walk(e, true)
	return out
}
