package ast

// ReplaceExpr replaces the first occurrence of from (the same node, not an
// equal one) under root with to, in place, and returns root, or to when
// root is from. It does not look inside subqueries.
func ReplaceExpr(root, from, to Expr) Expr {
	if root == from {
		return to
	}
	replaceIn(root, from, to)
	return root
}

// replaceAt replaces from in *x or under it; it reports whether it did.
func replaceAt(from, to Expr, xs ...*Expr) bool {
	for _, x := range xs {
		if *x == nil {
			continue
		}
		if *x == from {
			*x = to
			return true
		}
		if replaceIn(*x, from, to) {
			return true
		}
	}
	return false
}

func replaceList(from, to Expr, xs []Expr) bool {
	for i := range xs {
		if replaceAt(from, to, &xs[i]) {
			return true
		}
	}
	return false
}

func replaceIn(root, from, to Expr) bool {
	switch n := root.(type) {
	case *AndExpr:
		return replaceAt(from, to, &n.Left, &n.Right)
	case *OrExpr:
		return replaceAt(from, to, &n.Left, &n.Right)
	case *NotExpr:
		return replaceAt(from, to, &n.Expr)
	case *ParenExpr:
		return replaceAt(from, to, &n.Expr)
	case *ComparisonExpr:
		return replaceAt(from, to, &n.Left, &n.Right, &n.Escape)
	case *RangeCond:
		return replaceAt(from, to, &n.Left, &n.From, &n.To)
	case *IsExpr:
		return replaceAt(from, to, &n.Expr)
	case ValTuple:
		return replaceList(from, to, n)
	case *BinaryExpr:
		return replaceAt(from, to, &n.Left, &n.Right)
	case *UnaryExpr:
		return replaceAt(from, to, &n.Expr)
	case *IntervalExpr:
		return replaceAt(from, to, &n.Expr)
	case *ConvertExpr:
		return replaceAt(from, to, &n.Expr)
	case *FuncExpr:
		for _, se := range n.Exprs {
			if ae, ok := se.(*AliasedExpr); ok && replaceAt(from, to, &ae.Expr) {
				return true
			}
		}
		for i := range n.OrderBy {
			if replaceAt(from, to, &n.OrderBy[i].Expr) {
				return true
			}
		}
		if replaceAt(from, to, &n.Filter) {
			return true
		}
		if w := n.Over; w != nil {
			if replaceList(from, to, w.PartitionBy) {
				return true
			}
			for i := range w.OrderBy {
				if replaceAt(from, to, &w.OrderBy[i].Expr) {
					return true
				}
			}
			if f := w.Frame; f != nil {
				return replaceAt(from, to, &f.Start.Offset, &f.End.Offset)
			}
		}
	case *Subscript:
		return replaceAt(from, to, &n.Expr, &n.Index)
	case *FieldAccess:
		return replaceAt(from, to, &n.Expr)
	case *Slice:
		return replaceAt(from, to, &n.Expr, &n.Lo, &n.Hi, &n.Step)
	case *ListLiteral:
		return replaceList(from, to, n.Elems)
	case *StructLiteral:
		for i := range n.Fields {
			if replaceAt(from, to, &n.Fields[i].Name, &n.Fields[i].Value) {
				return true
			}
		}
	case *MapLiteral:
		return replaceList(from, to, n.Keys) || replaceList(from, to, n.Values)
	case *Lambda:
		return replaceList(from, to, n.Params) || replaceAt(from, to, &n.Body)
	case *CaseExpr:
		if replaceAt(from, to, &n.Expr) {
			return true
		}
		for _, w := range n.Whens {
			if replaceAt(from, to, &w.Cond, &w.Val) {
				return true
			}
		}
		return replaceAt(from, to, &n.Else)
	}
	return false
}
