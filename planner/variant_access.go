package planner

import (
	"github.com/xwb1989/sqlparser"
)

// variantAccess binds v.key and v.key1.key2, where v is a VARIANT column
// and not a table, as DuckDB does: variant_extract by each key in turn. It
// returns nil when e is not such a name.
func (b *binder) variantAccess(e *sqlparser.ColName) (Expr, error) {
	if e.Qualifier.IsEmpty() {
		return nil, nil
	}
	col, keys := e.Qualifier.Name.String(), []string{e.Name.String()}
	i := -1
	if q := e.Qualifier.Qualifier.String(); q != "" {
		// v.key1.key2, or t.v.key with a table qualifier.
		if i = b.lookup(q); i >= 0 && isVariant(b.cols[i].Type) {
			keys = []string{col, e.Name.String()}
		} else {
			i = -1
		}
	}
	if i < 0 {
		if i = b.lookup(col); i < 0 || !isVariant(b.cols[i].Type) {
			return nil, nil
		}
	}
	if b.needed != nil {
		b.needed[i] = true
	}
	var x Expr = &ColRef{Index: i, Name: b.cols[i].Name, T: b.cols[i].Type}
	for _, k := range keys {
		var err error
		if x, err = call("variant_extract", []Expr{x, &Const{Value: Datum{S: k}, T: tVarchar}}); err != nil {
			return nil, err
		}
	}
	return x, nil
}
