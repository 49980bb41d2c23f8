package planner

import (
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
)

// variantPush is the pruning node of a top-level WHERE conjunct
// CAST(variant_extract(col, 'key') AS t) op constant (either order): what
// the conjunct implies of col's shredded columns, conjoined with the
// conjunct itself so that the node can skip but never prove a row group
// true. It is nil when the conjunct has another form or the column's
// shredding cannot answer it. Only top-level conjuncts qualify: under NOT
// the implication would run the wrong way.
func variantPush(x Expr, fields []*format.Field) pushdown.Expr {
	e, ok := x.(*Binary)
	if !ok {
		return nil
	}
	op, ok := pushOps[e.Op]
	if !ok {
		return nil
	}
	side, k := e.L, e.R
	if _, isConst := e.L.(*Const); isConst {
		side, k, op = e.R, e.L, op.Flip()
	}
	c, ok := k.(*Const)
	if !ok || c.Value.Null {
		return nil
	}
	cast, ok := side.(*Call)
	if !ok || cast.fn != variantCastFunc || len(cast.Args) != 1 {
		return nil
	}
	var target pushdown.VariantTarget
	switch {
	case cast.T.IsInteger() && c.T.IsInteger():
		target = pushdown.VariantInteger
	case cast.T.ID == TypeVarchar && c.T.ID == TypeVarchar:
		target = pushdown.VariantVarchar
	default:
		return nil
	}
	ex, ok := cast.Args[0].(*Call)
	if !ok || ex.Name != "variant_extract" || len(ex.Args) != 2 {
		return nil
	}
	col, ok1 := ex.Args[0].(*ColRef)
	key, ok2 := ex.Args[1].(*Const)
	if !ok1 || !ok2 || key.Value.Null || key.T.ID != TypeVarchar || col.Index >= len(fields) {
		return nil
	}
	lit, ok := LiteralOf(c)
	if !ok {
		return nil
	}
	exact, ok := residual(x, fields).(*pushdown.Residual)
	if !ok {
		return nil
	}
	implied, err := pushdown.VariantImplied(fields[col.Index], key.Value.S, target, op, lit)
	if err != nil {
		// The reason names what the shredding lacks ("variant: field "c"
		// of v is not shredded").
		exact.Why = strings.TrimPrefix(err.Error(), pushdown.ErrUnsupported.Error()+": ")
		return exact
	}
	exact.Why = "variant: checked on each row; the shredded columns it implies skip where the typed_value statistics exclude the value and both residual value columns are all null"
	return &pushdown.And{Xs: []pushdown.Expr{implied, exact}}
}
