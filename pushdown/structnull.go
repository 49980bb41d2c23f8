package pushdown

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// StructIsNull is s IS [NOT] NULL for a struct column or struct field s,
// named by its dotted path. A struct has no column chunk of its own: its
// NULL is written in the definition levels of every leaf beneath it, which
// also count a NULL field. So:
//
//   - a leaf reached from s through required fields only is NULL exactly
//     when s is, and judges both IS NULL and IS NOT NULL;
//   - otherwise s IS NULL implies every leaf beneath it is NULL, which
//     rules out a row group or page where one leaf has no NULL; IS NOT
//     NULL is not judged (a struct of NULL fields is not NULL).
//
// Text is the condition as the query wrote it, kept for what cannot be
// judged.
type StructIsNull struct {
	Path string
	Not  bool
	Text string
}

func (*StructIsNull) expr() {}

// String renders the node as SQL.
func (e *StructIsNull) String() string {
	if e.Not {
		return e.Path + " IS NOT NULL"
	}
	return e.Path + " IS NULL"
}

// structLeaves returns the leaves under the group at path in s without
// repetition (a list's elements are not rows), and the definition level at
// which the group is not NULL; ok is false when s has no such group.
func structLeaves(s *format.Schema, path string) (leaves []*format.Leaf, def int, ok bool) {
	for _, l := range s.Leaves {
		if !strings.HasPrefix(l.Path, path+".") {
			continue
		}
		n := l.Node
		for n != nil && nodePath(n) != path {
			n = n.Parent
		}
		if n == nil || !n.IsGroup() {
			continue
		}
		ok, def = true, n.DefLevel
		if n.RepLevel == 0 && l.MaxRep == 0 {
			leaves = append(leaves, l)
		}
	}
	return leaves, def, ok
}

// nodePath is n's dotted path from the root, as Leaf.Path spells it.
func nodePath(n *format.Node) string {
	var parts []string
	for ; n != nil && n.Parent != nil; n = n.Parent {
		parts = append(parts, n.Name)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

// resolveStructNull resolves n (negated when negate) against one file's
// schema, where its fields may be required or optional.
func (r *resolver) resolveStructNull(n *StructIsNull, negate bool) (Expr, error) {
	not := n.Not != negate
	leaves, def, ok := structLeaves(r.s, n.Path)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownColumn, n.Path)
	}
	if def == 0 && len(leaves) > 0 {
		return &Const{truth(not)}, nil // a required struct is never NULL
	}
	op := IsNullOp
	if not {
		op = IsNotNullOp
	}
	isNull := func(l *format.Leaf, op Op) *Cond {
		c := Column{Path: l.Path, Leaf: l}
		ci, _ := infoOf(c) // the order only prints values; IS NULL needs none
		return &Cond{Col: c, Op: op, Order: ci.order}
	}
	for _, l := range leaves {
		if l.MaxDef == def {
			return isNull(l, op), nil
		}
	}
	text := n.Text
	if text == "" {
		text = n.String()
	}
	if negate {
		text = "NOT (" + text + ")"
	}
	var cols []string
	for _, l := range r.s.Leaves {
		if strings.HasPrefix(l.Path, n.Path+".") {
			cols = append(cols, l.Path)
		}
	}
	res := &Residual{Text: text, Columns: cols,
		Why: "a struct of NULL fields is not NULL, so its leaves' null counts never prove it NULL"}
	if not || len(leaves) == 0 {
		return res, nil
	}
	xs := make([]Expr, 0, len(leaves)+1)
	for _, l := range leaves {
		xs = append(xs, isNull(l, IsNullOp))
	}
	// The residual is the condition itself; the leaves' tests, which it
	// implies, only prune.
	return &And{Xs: append(xs, res)}, nil
}
