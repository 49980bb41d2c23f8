package ast

// A Visit is called for each node Walk reaches; it returns whether to walk
// the node's children, and an error that stops the walk.
type Visit func(node Node) (kontinue bool, err error)

// Walk calls visit on each of nodes and, depth first in the order written,
// on their children, unless visit returns false for a node. It reaches
// every expression of the tree, those of DuckDB's clauses included: a
// call's Filter, argument ORDER BY and OVER clause (partition, order and
// frame offsets), a SELECT's DISTINCT ON keys, QUALIFY and a star's REPLACE
// expressions, and a Union's ORDER BY and LIMIT.
func Walk(visit Visit, nodes ...Node) error {
	for _, n := range nodes {
		if isNil(n) {
			continue
		}
		kontinue, err := visit(n)
		if err != nil {
			return err
		}
		if !kontinue {
			continue
		}
		if err := walkChildren(visit, n); err != nil {
			return err
		}
	}
	return nil
}

// Inspect walks node like Walk, calling f until it returns false for a
// node, whose children are then skipped.
func Inspect(node Node, f func(Node) bool) {
	_ = Walk(func(n Node) (bool, error) { return f(n), nil }, node)
}

// isNil reports a nil interface or a nil pointer of the node types whose
// fields are optional.
func isNil(n Node) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *Where:
		return n == nil
	case *Limit:
		return n == nil
	case *Select:
		return n == nil
	case *Subquery:
		return n == nil
	case *ConvertType:
		return n == nil
	case *Window:
		return n == nil
	}
	return false
}

func walkExprs(visit Visit, xs []Expr) error {
	for _, x := range xs {
		if err := Walk(visit, x); err != nil {
			return err
		}
	}
	return nil
}

func walkChildren(visit Visit, n Node) error {
	switch n := n.(type) {
	case *Select:
		if err := walkExprs(visit, n.DistinctOn); err != nil {
			return err
		}
		return Walk(visit, n.SelectExprs, n.From, n.Where, n.GroupBy, n.Having, n.Qualify, n.OrderBy, n.Limit)
	case *ParenSelect:
		return Walk(visit, n.Select)
	case *Union:
		return Walk(visit, n.Left, n.Right, n.OrderBy, n.Limit)
	case SelectExprs:
		for _, x := range n {
			if err := Walk(visit, x); err != nil {
				return err
			}
		}
	case *StarExpr:
		for _, r := range n.Replace {
			if err := Walk(visit, r); err != nil {
				return err
			}
		}
	case *AliasedExpr:
		return Walk(visit, n.Expr)
	case TableExprs:
		for _, x := range n {
			if err := Walk(visit, x); err != nil {
				return err
			}
		}
	case *AliasedTableExpr:
		return Walk(visit, n.Expr)
	case *ParenTableExpr:
		return Walk(visit, n.Exprs)
	case *JoinTableExpr:
		return Walk(visit, n.LeftExpr, n.RightExpr, n.Condition)
	case JoinCondition:
		return Walk(visit, n.On)
	case *Where:
		return Walk(visit, n.Expr)
	case GroupBy:
		return walkExprs(visit, n)
	case OrderBy:
		for _, o := range n {
			if err := Walk(visit, o); err != nil {
				return err
			}
		}
	case *Order:
		return Walk(visit, n.Expr)
	case *Limit:
		return Walk(visit, n.Offset, n.Rowcount)
	case Exprs:
		return walkExprs(visit, n)
	case *AndExpr:
		return Walk(visit, n.Left, n.Right)
	case *OrExpr:
		return Walk(visit, n.Left, n.Right)
	case *NotExpr:
		return Walk(visit, n.Expr)
	case *ParenExpr:
		return Walk(visit, n.Expr)
	case *ComparisonExpr:
		return Walk(visit, n.Left, n.Right, n.Escape)
	case *RangeCond:
		return Walk(visit, n.Left, n.From, n.To)
	case *IsExpr:
		return Walk(visit, n.Expr)
	case *ExistsExpr:
		return Walk(visit, n.Subquery)
	case ValTuple:
		return walkExprs(visit, n)
	case *Subquery:
		return Walk(visit, n.Select)
	case *BinaryExpr:
		return Walk(visit, n.Left, n.Right)
	case *UnaryExpr:
		return Walk(visit, n.Expr)
	case *IntervalExpr:
		return Walk(visit, n.Expr)
	case *FuncExpr:
		if err := Walk(visit, n.Exprs); err != nil {
			return err
		}
		for _, o := range n.OrderBy {
			if err := Walk(visit, o.Expr); err != nil {
				return err
			}
		}
		if err := Walk(visit, n.Filter); err != nil {
			return err
		}
		if n.Over != nil {
			return Walk(visit, n.Over)
		}
	case *Window:
		if err := walkExprs(visit, n.PartitionBy); err != nil {
			return err
		}
		for _, o := range n.OrderBy {
			if err := Walk(visit, o.Expr); err != nil {
				return err
			}
		}
		if n.Frame != nil {
			return Walk(visit, n.Frame.Start.Offset, n.Frame.End.Offset)
		}
	case *ConvertExpr:
		return Walk(visit, n.Expr)
	case *CaseExpr:
		if err := Walk(visit, n.Expr); err != nil {
			return err
		}
		for _, w := range n.Whens {
			if err := Walk(visit, w); err != nil {
				return err
			}
		}
		return Walk(visit, n.Else)
	case *When:
		return Walk(visit, n.Cond, n.Val)
	case *Subscript:
		return Walk(visit, n.Expr, n.Index)
	case *FieldAccess:
		return Walk(visit, n.Expr)
	case *Slice:
		return Walk(visit, n.Expr, n.Lo, n.Hi, n.Step)
	case *ListLiteral:
		return walkExprs(visit, n.Elems)
	case *StructLiteral:
		for _, f := range n.Fields {
			if err := Walk(visit, f.Name, f.Value); err != nil {
				return err
			}
		}
	case *MapLiteral:
		for i := range n.Keys {
			if err := Walk(visit, n.Keys[i], n.Values[i]); err != nil {
				return err
			}
		}
	case *Lambda:
		if err := walkExprs(visit, n.Params); err != nil {
			return err
		}
		return Walk(visit, n.Body)
	}
	return nil
}
