package planner

import (
	"fmt"

	"github.com/pqsql/pqsql/format"
)

// map_extract(m, k), and element_at, its alias: the values of map m under
// key k as a list, as DuckDB gives them: [v] when the key is there, []
// when not or when k is NULL, NULL when m is.
func init() {
	registerScalar(&ScalarFunc{Name: "map_extract", Aliases: []string{"element_at"}, Bind: bindMapExtractList, Eval: evalMapExtractList, SeesNulls: true})
}

func bindMapExtractList(f *ScalarFunc, args []Expr) (Expr, error) {
	return bindMapLookup(f, args, listOf)
}

func evalMapExtractList(c *Call, a []Datum) (Datum, error) {
	if a[0].Null {
		return NullDatum, nil
	}
	m, ok := a[0].N.(*format.Map)
	if !ok {
		return Datum{}, fmt.Errorf("%w: map_extract of a value that is not a map", ErrConversion)
	}
	if a[1].Null {
		return Datum{N: format.List{}}, nil
	}
	i, err := mapFind(m, a[1], c.Args[1].Type())
	if err != nil {
		return Datum{}, err
	}
	if i >= 0 {
		return Datum{N: format.List{m.Values[i]}}, nil
	}
	return Datum{N: format.List{}}, nil
}
