package planner

import "fmt"

// The NULL-handling and conditional functions.
func init() {
	registerScalar(
		&ScalarFunc{Name: "coalesce", Bind: bindCoalesce, Lazy: evalCoalesce},
		&ScalarFunc{Name: "ifnull", Bind: bindCoalesce, Lazy: evalCoalesce},
		&ScalarFunc{Name: "nullif", Bind: bindNullif, SeesNulls: true, Eval: evalNullif},
		&ScalarFunc{Name: "if", Bind: bindIf, Lazy: evalIf},
		&ScalarFunc{Name: "greatest", Bind: bindExtreme, Eval: evalExtreme, SeesNulls: true},
		&ScalarFunc{Name: "least", Bind: bindExtreme, Eval: evalExtreme, SeesNulls: true},
	)
}

func bindCoalesce(f *ScalarFunc, args []Expr) (Expr, error) {
	if f.Name == "ifnull" && len(args) != 2 {
		return nil, fmt.Errorf("%w: Wrong number of arguments to IFNULL.", ErrSyntax)
	}
	if len(args) == 0 {
		return nil, noMatch(f.Name, args)
	}
	xs, err := unify(args...)
	if err != nil {
		return nil, err
	}
	return newCall(f, xs, xs[0].Type()), nil
}

// evalCoalesce is the first non-NULL argument; later ones are not evaluated.
func evalCoalesce(c *Call, row []Datum) (Datum, error) {
	for _, a := range c.Args {
		d, err := Eval(a, row)
		if err != nil || !d.Null {
			return d, err
		}
	}
	return NullDatum, nil
}

func bindNullif(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	// The operands compare in their common type; the result keeps the
	// first one's type.
	xs, err := unify(args...)
	if err != nil {
		return nil, err
	}
	return newCall(f, xs, args[0].Type()), nil
}

func evalNullif(c *Call, a []Datum) (Datum, error) {
	t := c.Args[0].Type()
	if a[0].Null || !a[1].Null && Compare(a[0], a[1], t) == 0 {
		return NullDatum, nil
	}
	return CastDatum(a[0], t, c.T)
}

func bindIf(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 3, 3); err != nil {
		return nil, err
	}
	cond, err := castTo(args[0], tBool)
	if err != nil {
		return nil, err
	}
	xs, err := unify(args[1], args[2])
	if err != nil {
		return nil, err
	}
	return newCall(f, []Expr{cond, xs[0], xs[1]}, xs[0].Type()), nil
}

// evalIf evaluates only the branch its condition picks; NULL picks the
// second.
func evalIf(c *Call, row []Datum) (Datum, error) {
	d, err := Eval(c.Args[0], row)
	if err != nil {
		return Datum{}, err
	}
	if IsTrue(d) {
		return Eval(c.Args[1], row)
	}
	return Eval(c.Args[2], row)
}

func bindExtreme(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, noMatch(f.Name, args)
	}
	xs, err := unify(args...)
	if err != nil {
		return nil, err
	}
	if xs[0].Type().ID == TypeNested {
		return nil, noMatch(f.Name, args)
	}
	return newCall(f, xs, xs[0].Type()), nil
}

// evalExtreme is the largest (greatest) or smallest (least) non-NULL
// argument, NULL when all are NULL.
func evalExtreme(c *Call, a []Datum) (Datum, error) {
	t := c.T
	best := NullDatum
	for _, d := range a {
		if d.Null {
			continue
		}
		if best.Null {
			best = d
			continue
		}
		cmp := Compare(d, best, t)
		if c.Name == "greatest" && cmp > 0 || c.Name == "least" && cmp < 0 {
			best = d
		}
	}
	return best, nil
}
