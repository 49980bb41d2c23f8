package planner

import (
	"github.com/pqsql/pqsql/sql/ast"
)

// variantAccess binds v.key and v.key1.key2, where v is a VARIANT column
// and not a table, as DuckDB does: variant_extract by each key in turn. It
// returns nil when e is not such a name.
func (b *binder) variantAccess(e *ast.ColName) (Expr, error) {
	return b.dottedAccess(e, isVariant, func(x, key Expr) (Expr, error) {
		return call("variant_extract", []Expr{x, key})
	})
}
