package planner

import "fmt"

// nullHash is DuckDB's hash of a NULL of any type.
const nullHash = 0xbf58476d1ce4e5b9

// hash(x, ...) is DuckDB's UBIGINT hash of its arguments: each hashed as
// approx_count_distinct hashes it (duckhash.go), NULL as nullHash, and
// the hashes folded left to right as DuckDB combines them.
func init() {
	registerScalar(&ScalarFunc{Name: "hash", SeesNulls: true, Bind: bindHash, Eval: evalHash})
}

func bindHash(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, binderError("No function matches the given name and argument types 'hash()'. You might need to add explicit type casts.")
	}
	for _, a := range args {
		if t := a.Type(); t.ID == TypeNested {
			return nil, fmt.Errorf("%w: hash of %s values", ErrNotImplemented, t)
		}
	}
	return newCall(f, args, Type{ID: TypeUBigInt}), nil
}

func evalHash(c *Call, a []Datum) (Datum, error) {
	var h uint64
	for i, d := range a {
		v := uint64(nullHash)
		if !d.Null {
			var err error
			if v, err = duckHash(d, c.Args[i].Type()); err != nil {
				return Datum{}, err
			}
		}
		if i == 0 {
			h = v
			continue
		}
		h ^= h >> 32
		h = h*0xd6e8feb86659fd93 ^ v
	}
	return Datum{I: int64(h)}, nil
}
