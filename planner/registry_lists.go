package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// Functions that make or read lists. len, length and array_length are
// with the string functions, which they share a name with.
func init() {
	registerScalar(
		&ScalarFunc{Name: "string_split", Aliases: []string{"str_split", "string_to_array"}, Bind: fixed(2, 2, Type{ID: TypeNested, Name: "VARCHAR[]"}, tVarchar), Eval: evalStringSplit},
		&ScalarFunc{Name: "list_contains", Aliases: []string{"list_has", "array_contains", "array_has"}, Bind: bindListContains, Eval: evalListContains},
		&ScalarFunc{Name: "list_position", Aliases: []string{"list_indexof", "array_position", "array_indexof"}, Bind: bindListContains, Eval: evalListContains},
	)
}

// evalStringSplit splits at every separator; an empty separator splits
// into characters.
func evalStringSplit(_ *Call, a []Datum) (Datum, error) {
	s, sep := a[0].S, a[1].S
	var parts []string
	if sep == "" {
		for _, r := range s {
			parts = append(parts, string(r))
		}
		if s == "" {
			parts = []string{""}
		}
	} else {
		parts = strings.Split(s, sep)
	}
	return Datum{N: stringList(parts)}, nil
}

func bindListContains(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	if !isListType(args[0].Type()) || args[1].Type().ID == TypeNested {
		return nil, noMatch(f.Name, args)
	}
	t := tBool
	if f.Name == "list_position" {
		t = tInteger
	}
	return newCall(f, args, t), nil
}

// evalListContains finds x among the list's elements, comparing in the
// elements' and x's common type; list_position answers its 1-based index.
func evalListContains(c *Call, a []Datum) (Datum, error) {
	l, ok := a[0].N.(format.List)
	if !ok {
		return Datum{}, fmt.Errorf("%w: %s of a value that is not a list", ErrConversion, c.Name)
	}
	xt := c.Args[1].Type()
	for i, e := range l {
		if e == nil {
			continue
		}
		d, et, ok := leafDatum(e)
		if !ok {
			return Datum{}, fmt.Errorf("%w: %s over %s", ErrNotImplemented, c.Name, c.Args[0].Type())
		}
		ct, ok := commonType(et, xt)
		if !ok {
			return Datum{}, binderError("Cannot compare values of type %s and type %s - an explicit cast is required", et, xt)
		}
		l2, err := CastDatum(d, et, ct)
		if err != nil {
			return Datum{}, err
		}
		r2, err := CastDatum(a[1], xt, ct)
		if err != nil {
			return Datum{}, err
		}
		if Compare(l2, r2, ct) == 0 {
			if c.Name == "list_position" {
				return Datum{I: int64(i + 1)}, nil
			}
			return Datum{B: true}, nil
		}
	}
	if c.Name == "list_position" {
		return NullDatum, nil
	}
	return Datum{B: false}, nil
}
