package planner

import (
	"fmt"

	"github.com/pqsql/pqsql/format"
)

// cardinality(map) is the number of the map's entries, as UBIGINT.
func init() {
	registerScalar(&ScalarFunc{Name: "cardinality", Bind: bindCardinality, Eval: evalCardinality})
}

func bindCardinality(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	if _, _, ok := mapTypes(args[0].Type()); !ok {
		return nil, binderError("Cardinality can only operate on MAPs")
	}
	return newCall(f, args, Type{ID: TypeUBigInt}), nil
}

func evalCardinality(c *Call, a []Datum) (Datum, error) {
	m, ok := a[0].N.(*format.Map)
	if !ok {
		return Datum{}, fmt.Errorf("%w: %s of a value that is not a map", ErrConversion, c.Name)
	}
	return Datum{I: int64(len(m.Keys))}, nil
}
