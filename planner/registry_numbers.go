package planner

import (
	"fmt"
	"math"
	"math/big"

	"github.com/pqsql/pqsql/planner/crmath"
)

// The numeric functions.
func init() {
	registerScalar(
		&ScalarFunc{Name: "abs", Bind: bindSameNumeric, Eval: evalAbs},
		&ScalarFunc{Name: "round", Bind: bindRound, Eval: evalRound},
		&ScalarFunc{Name: "floor", Bind: bindIntegral, Eval: evalIntegral},
		&ScalarFunc{Name: "ceil", Aliases: []string{"ceiling"}, Bind: bindIntegral, Eval: evalIntegral},
		&ScalarFunc{Name: "trunc", Bind: bindIntegral, Eval: evalIntegral},
		&ScalarFunc{Name: "sqrt", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(func(x float64) (float64, error) {
			if x < 0 {
				return 0, fmt.Errorf("%w: cannot take square root of a negative number", ErrOutOfRange)
			}
			return math.Sqrt(x), nil
		})},
		&ScalarFunc{Name: "cbrt", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(pure(crmath.Cbrt))},
		&ScalarFunc{Name: "exp", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(pure(crmath.Exp))},
		&ScalarFunc{Name: "ln", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(logOf(crmath.Log))},
		&ScalarFunc{Name: "log10", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(logOf(crmath.Log10))},
		&ScalarFunc{Name: "log2", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(logOf(crmath.Log2))},
		&ScalarFunc{Name: "power", Aliases: []string{"pow"}, Bind: fixed(2, 2, tDouble, tDouble), Eval: func(_ *Call, a []Datum) (Datum, error) {
			return Datum{F: crmath.Pow(a[0].F, a[1].F)}, nil
		}},
		&ScalarFunc{Name: "sign", Bind: bindSign, Eval: evalSign},
		&ScalarFunc{Name: "isnan", Bind: fixed(1, 1, tBool, tDouble), Eval: func(_ *Call, a []Datum) (Datum, error) {
			return Datum{B: math.IsNaN(a[0].F)}, nil
		}},
		&ScalarFunc{Name: "isinf", Bind: fixed(1, 1, tBool, tDouble), Eval: func(_ *Call, a []Datum) (Datum, error) {
			return Datum{B: math.IsInf(a[0].F, 0)}, nil
		}},
		&ScalarFunc{Name: "isfinite", Bind: fixed(1, 1, tBool, tDouble), Eval: func(_ *Call, a []Datum) (Datum, error) {
			return Datum{B: !math.IsInf(a[0].F, 0) && !math.IsNaN(a[0].F)}, nil
		}},
		&ScalarFunc{Name: "pi", Bind: fixed(0, 0, tDouble), Eval: func(*Call, []Datum) (Datum, error) { return Datum{F: math.Pi}, nil }},
		&ScalarFunc{Name: "degrees", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(pure(func(x float64) float64 { return x * (180 / math.Pi) }))},
		&ScalarFunc{Name: "radians", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(pure(func(x float64) float64 { return x * (math.Pi / 180) }))},
		&ScalarFunc{Name: "sin", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(finiteOnly(crmath.Sin))},
		&ScalarFunc{Name: "cos", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(finiteOnly(crmath.Cos))},
		&ScalarFunc{Name: "tan", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(finiteOnly(crmath.Tan))},
		&ScalarFunc{Name: "atan", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(pure(crmath.Atan))},
		// DuckDB's cot is 1 / tan(x), rounded twice as it rounds it.
		&ScalarFunc{Name: "cot", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(evalCot)},
		&ScalarFunc{Name: "atan2", Bind: fixed(2, 2, tDouble, tDouble), Eval: func(_ *Call, a []Datum) (Datum, error) {
			return Datum{F: crmath.Atan2(a[0].F, a[1].F)}, nil
		}},
	)
}

// evalCot is DuckDB's cot: 1 / tan(x), rounded twice as it rounds it, an
// error where tan(x) is zero or x infinite.
func evalCot(x float64) (float64, error) {
	t, err := finiteOnly(crmath.Tan)(x)
	if err != nil {
		return 0, err
	}
	if t == 0 {
		return 0, fmt.Errorf("%w: input value %f is out of range for numeric function cotangent", ErrOutOfRange, x)
	}
	return 1 / t, nil
}

func pure(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) { return f(x), nil }
}

// logOf is a logarithm with DuckDB's errors for zero and negative input.
func logOf(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		switch {
		case x == 0:
			return 0, fmt.Errorf("%w: cannot take logarithm of zero", ErrOutOfRange)
		case x < 0:
			return 0, fmt.Errorf("%w: cannot take logarithm of a negative number", ErrOutOfRange)
		}
		return f(x), nil
	}
}

func mathFunc(f func(float64) (float64, error)) func(*Call, []Datum) (Datum, error) {
	return func(_ *Call, a []Datum) (Datum, error) {
		v, err := f(a[0].F)
		return Datum{F: v}, err
	}
}

// bindSameNumeric binds a one-argument numeric function whose result has
// its argument's type.
func bindSameNumeric(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	t := args[0].Type()
	if t.ID == TypeNull {
		// DuckDB picks the BIGINT overload for an untyped NULL.
		if err := castArgs(args, tBigInt); err != nil {
			return nil, err
		}
		t = tBigInt
	}
	if !t.IsNumeric() {
		return nil, noMatch(f.Name, args)
	}
	return newCall(f, args, t), nil
}

func evalAbs(e *Call, args []Datum) (Datum, error) {
	t := e.T
	switch {
	case t.ID == TypeFloat || t.ID == TypeDouble:
		return Datum{F: math.Abs(args[0].F)}, nil
	case t.ID == TypeDecimal || t.ID == TypeHugeInt:
		return Datum{Big: new(big.Int).Abs(bigOf(args[0], t))}, nil
	}
	d, err := fromBig(new(big.Int).Abs(bigOf(args[0], t)), t)
	if err != nil {
		return Datum{}, fmt.Errorf("%w: Overflow on abs(%s)", ErrOutOfRange, AppendText(nil, args[0], t))
	}
	return d, nil
}

func bindRound(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 2); err != nil {
		return nil, err
	}
	t := args[0].Type()
	if t.ID == TypeNull {
		// DuckDB picks the BIGINT overload for an untyped NULL.
		if err := castArgs(args[:1], tBigInt); err != nil {
			return nil, err
		}
		t = tBigInt
	}
	if !t.IsNumeric() {
		return nil, noMatch(f.Name, args)
	}
	if len(args) == 2 {
		if err := castArgs(args[1:], tInteger); err != nil {
			return nil, err
		}
	}
	res := t
	if t.ID == TypeDecimal {
		digits := 0
		if len(args) == 2 {
			c, ok := args[1].(*Const)
			if !ok {
				return nil, fmt.Errorf("%w: round(DECIMAL, non-constant)", ErrNotImplemented)
			}
			digits = int(c.Value.I)
		}
		res.Scale = max(0, min(digits, t.Scale))
	}
	return newCall(f, args, res), nil
}

// finiteOnly wraps a trigonometric function that DuckDB refuses for an
// infinite input (sin, cos, tan).
func finiteOnly(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if math.IsInf(x, 0) {
			return 0, fmt.Errorf("%w: input value %s is out of range for numeric function", ErrOutOfRange, nonFiniteText(x, ""))
		}
		return f(x), nil
	}
}

func evalRound(e *Call, args []Datum) (Datum, error) {
	t := e.Args[0].Type()
	digits := int64(0)
	if len(args) > 1 {
		digits = args[1].I
	}
	switch t.ID {
	case TypeFloat, TypeDouble:
		// As DuckDB: negative digits divide by 10^-digits and give 0 where
		// that is not finite; others multiply and give the input back.
		v := args[0].F
		if digits < 0 {
			m := math.Pow10(int(-digits))
			r := math.Round(v/m) * m
			if math.IsInf(r, 0) || math.IsNaN(r) {
				r = 0
			}
			if t.ID == TypeFloat {
				r = float64(float32(r))
			}
			return Datum{F: r}, nil
		}
		m := math.Pow10(int(digits))
		r := math.Round(v*m) / m
		if math.IsInf(r, 0) || math.IsNaN(r) {
			r = v
		}
		if t.ID == TypeFloat {
			// A FLOAT rounds in double precision and is stored back as a FLOAT.
			r = float64(float32(r))
		}
		return Datum{F: r}, nil
	case TypeDecimal:
		// The result keeps the digits asked for (DuckDB types it DECIMAL(p, digits)),
		// and no fraction for negative digits, which round left of the point.
		v := bigOf(args[0], t)
		if int(digits) >= t.Scale {
			return Datum{Big: new(big.Int).Mul(v, pow10(e.T.Scale-t.Scale))}, nil
		}
		if digits < 0 {
			// DuckDB gives 0 when the rounding digit is left of every
			// digit the type holds, whatever the value: round(5.5, -1) is 0
			// for a DECIMAL(2,1) and 10 for a DECIMAL(3,1).
			if -digits >= int64(t.Precision-t.Scale) {
				return Datum{Big: new(big.Int)}, nil
			}
			shift := int(-digits)
			return Datum{Big: new(big.Int).Mul(roundBig(v, t.Scale+shift), pow10(shift))}, nil
		}
		return Datum{Big: roundBig(v, t.Scale-e.T.Scale)}, nil
	}
	if digits < 0 && t.IsInteger() {
		// Integers round to tens, hundreds, ... half away from zero.
		if -digits > 38 {
			return fromBig(new(big.Int), t)
		}
		shift := int(-digits)
		v := new(big.Int).Mul(roundBig(bigOf(args[0], t), shift), pow10(shift))
		d, err := fromBig(v, t)
		if err != nil {
			return Datum{}, fmt.Errorf("%w: Overflow in round(%s, %d)", ErrOutOfRange, AppendText(nil, args[0], t), digits)
		}
		return d, nil
	}
	return args[0], nil
}

// bindIntegral binds floor, ceil and trunc: integers unchanged, DECIMAL to
// no fraction, floats to whole floats.
func bindIntegral(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	t := args[0].Type()
	if t.ID == TypeNull {
		// DuckDB's overload for an untyped NULL: trunc's BIGINT, floor's
		// and ceil's DOUBLE.
		t = tDouble
		if f.Name == "trunc" {
			t = tBigInt
		}
		if err := castArgs(args, t); err != nil {
			return nil, err
		}
	}
	if !t.IsNumeric() {
		return nil, noMatch(f.Name, args)
	}
	switch {
	case t.ID == TypeDecimal:
		t.Scale = 0
	case t.IsInteger() && f.Name != "trunc":
		// DuckDB floors and ceils integers as DOUBLE; trunc keeps the type.
		if err := castArgs(args, tDouble); err != nil {
			return nil, err
		}
		t = tDouble
	}
	return newCall(f, args, t), nil
}

func evalIntegral(e *Call, a []Datum) (Datum, error) {
	t := e.Args[0].Type()
	switch t.ID {
	case TypeFloat, TypeDouble:
		v := a[0].F
		switch e.Name {
		case "floor":
			v = math.Floor(v)
		case "ceil":
			v = math.Ceil(v)
		default:
			v = math.Trunc(v)
		}
		return Datum{F: v}, nil
	case TypeDecimal:
		v := bigOf(a[0], t)
		q, m := new(big.Int).QuoRem(v, pow10(t.Scale), new(big.Int))
		switch {
		case e.Name == "floor" && m.Sign() < 0:
			q.Sub(q, big.NewInt(1))
		case e.Name == "ceil" && m.Sign() > 0:
			q.Add(q, big.NewInt(1))
		}
		return Datum{Big: q}, nil
	}
	return a[0], nil
}

func bindSign(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	if !args[0].Type().IsNumeric() && args[0].Type().ID != TypeNull {
		return nil, noMatch(f.Name, args)
	}
	if args[0].Type().ID == TypeNull {
		if err := castArgs(args, tDouble); err != nil {
			return nil, err
		}
	}
	return newCall(f, args, Type{ID: TypeTinyInt}), nil
}

func evalSign(e *Call, a []Datum) (Datum, error) {
	t := e.Args[0].Type()
	switch t.ID {
	case TypeFloat, TypeDouble:
		switch v := a[0].F; {
		case v > 0:
			return Datum{I: 1}, nil
		case v < 0:
			return Datum{I: -1}, nil
		}
		return Datum{I: 0}, nil
	}
	return Datum{I: int64(bigOf(a[0], t).Sign())}, nil
}
