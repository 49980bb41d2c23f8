package planner

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/pqsql/pqsql/planner/crmath"
)

// Truth converts a BOOLEAN datum to three-valued logic: 0 false, 1 true,
// 2 NULL.
func truthOf(d Datum) int {
	switch {
	case d.Null:
		return 2
	case d.B:
		return 1
	}
	return 0
}

func truthDatum(t int) Datum {
	switch t {
	case 1:
		return Datum{B: true}
	case 0:
		return Datum{}
	}
	return NullDatum
}

// IsTrue reports whether a BOOLEAN datum is TRUE (not FALSE, not NULL): the
// test WHERE, HAVING and CASE apply.
func IsTrue(d Datum) bool { return !d.Null && d.B }

// Eval evaluates e on one row.
func Eval(e Expr, row []Datum) (Datum, error) {
	switch e := e.(type) {
	case *ColRef:
		if e.Index < 0 || e.Index >= len(row) {
			return Datum{}, fmt.Errorf("planner: column %s at %d outside a row of %d", e.Name, e.Index, len(row))
		}
		return row[e.Index], nil
	case *Const:
		return e.Value, nil
	case *LambdaParam:
		if e.Back < 1 || e.Back > len(row) {
			return Datum{}, fmt.Errorf("planner: lambda parameter %s outside a row of %d", e.Name, len(row))
		}
		return row[len(row)-e.Back], nil
	case *Try:
		if c, ok := e.X.(*Cast); ok {
			// TRY_CAST forgives its own cast, not its argument's errors.
			d, err := Eval(c.X, row)
			if err != nil {
				return Datum{}, err
			}
			d, err = CastDatum(d, c.X.Type(), c.T)
			if errors.Is(err, ErrConversion) {
				return NullDatum, nil
			}
			return d, err
		}
		d, err := Eval(e.X, row)
		if errors.Is(err, ErrConversion) {
			return NullDatum, nil
		}
		return d, err
	case *Lambda:
		return Datum{}, fmt.Errorf("%w: a lambda function evaluated outside a list function", ErrInvalidInput)
	case *Logic:
		res := 1
		if !e.And {
			res = 0
		}
		for _, x := range e.Xs {
			d, err := Eval(x, row)
			if err != nil {
				return Datum{}, err
			}
			t := truthOf(d)
			switch {
			case e.And && t == 0:
				return Datum{}, nil
			case !e.And && t == 1:
				return Datum{B: true}, nil
			case t == 2:
				res = 2
			}
		}
		return truthDatum(res), nil
	case *Not:
		d, err := Eval(e.X, row)
		if err != nil || d.Null {
			return d, err
		}
		return Datum{B: !d.B}, nil
	case *Neg:
		d, err := Eval(e.X, row)
		if err != nil || d.Null {
			return d, err
		}
		t := e.X.Type()
		switch {
		case t.ID == TypeInterval:
			return negateInterval(IntervalOf(d.Bytes))
		case t.ID == TypeFloat || t.ID == TypeDouble:
			return Datum{F: -d.F}, nil
		case t.ID == TypeDecimal || t.ID == TypeHugeInt:
			return Datum{Big: new(big.Int).Neg(bigOf(d, t))}, nil
		case t.IsUnsigned():
			// DuckDB negates unsigned integers modulo 2^bits: -200 is 56
			// for a UTINYINT.
			bits := uint(8) << (t.ID - TypeUTinyInt)
			m := new(big.Int).Lsh(big.NewInt(1), bits)
			v := new(big.Int).Neg(bigOf(d, t))
			return fromBig(v.Mod(v, m), t)
		}
		return fromBig(new(big.Int).Neg(bigOf(d, t)), t)
	case *IsNull:
		d, err := Eval(e.X, row)
		if err != nil {
			return Datum{}, err
		}
		return Datum{B: d.Null != e.Not}, nil
	case *InList:
		x, err := Eval(e.X, row)
		if err != nil {
			return NullDatum, err
		}
		if x.Null {
			for _, l := range e.List {
				if _, err := Eval(l, row); err != nil {
					return Datum{}, err
				}
			}
			return NullDatum, nil
		}
		res := 0
		for _, l := range e.List {
			// DuckDB evaluates every element: x IN (1, ln(0)) fails.
			v, err := Eval(l, row)
			if err != nil {
				return Datum{}, err
			}
			switch {
			case res == 1:
			case v.Null:
				res = 2
			case Compare(x, v, e.X.Type()) == 0:
				res = 1
			}
		}
		if e.Not && res != 2 {
			res = 1 - res
		}
		return truthDatum(res), nil
	case *Between:
		x, err := Eval(e.X, row)
		if err != nil {
			return Datum{}, err
		}
		lo, err := Eval(e.Lo, row)
		if err != nil {
			return Datum{}, err
		}
		t := e.X.Type()
		ge, le := 2, 2
		if !x.Null && !lo.Null {
			ge = b2i(Compare(x, lo, t) >= 0)
		}
		if ge == 0 {
			// As DuckDB's x >= lo AND x <= hi: the upper bound is not
			// evaluated once the lower one fails.
			return truthDatum(b2i(e.Not)), nil
		}
		hi, err := Eval(e.Hi, row)
		if err != nil {
			return Datum{}, err
		}
		if !x.Null && !hi.Null {
			le = b2i(Compare(x, hi, t) <= 0)
		}
		r := and3(ge, le)
		if e.Not && r != 2 {
			r = 1 - r
		}
		return truthDatum(r), nil
	case *Like:
		return evalLike(e, row)
	case *Case:
		for _, w := range e.Whens {
			c, err := Eval(w.Cond, row)
			if err != nil {
				return Datum{}, err
			}
			if IsTrue(c) {
				return Eval(w.Val, row)
			}
		}
		if e.Else == nil {
			return NullDatum, nil
		}
		return Eval(e.Else, row)
	case *Cast:
		d, err := Eval(e.X, row)
		if err != nil {
			return Datum{}, err
		}
		return CastDatum(d, e.X.Type(), e.T)
	case *Binary:
		return evalBinary(e, row)
	case *Call:
		return evalCall(e, row)
	case *pairExpr:
		return evalPair(e, row)
	case *Correlated:
		return e.eval(row)
	case *orderedExpr:
		return evalOrdered(e, row)
	}
	return Datum{}, fmt.Errorf("%w: cannot evaluate %T", ErrNotImplemented, e)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func and3(a, b int) int {
	switch {
	case a == 0 || b == 0:
		return 0
	case a == 2 || b == 2:
		return 2
	}
	return 1
}

// isComparison reports whether op is one of = != < <= > >=.
func isComparison(op string) bool {
	switch op {
	case "=", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func evalBinary(e *Binary, row []Datum) (Datum, error) {
	l, err := Eval(e.L, row)
	if err != nil {
		return Datum{}, err
	}
	r, err := Eval(e.R, row)
	if err != nil {
		return Datum{}, err
	}
	if l.Null || r.Null {
		return NullDatum, nil
	}
	if isComparison(e.Op) {
		c := Compare(l, r, e.L.Type())
		var b bool
		switch e.Op {
		case "=":
			b = c == 0
		case "!=":
			b = c != 0
		case "<":
			b = c < 0
		case "<=":
			b = c <= 0
		case ">":
			b = c > 0
		case ">=":
			b = c >= 0
		}
		return Datum{B: b}, nil
	}
	if e.Op == "||" {
		if e.T.ID == TypeBlob {
			return Datum{Bytes: append(append(make([]byte, 0, len(l.Bytes)+len(r.Bytes)), l.Bytes...), r.Bytes...)}, nil
		}
		return Datum{S: l.S + r.S}, nil
	}
	if isTemporalBinary(e) {
		return evalTemporal(e, l, r)
	}
	t := e.T
	switch t.ID {
	case TypeFloat, TypeDouble:
		a, b := floatOf(l, e.L.Type()), floatOf(r, e.R.Type())
		var v float64
		switch e.Op {
		case "+":
			v = a + b
		case "-":
			v = a - b
		case "*":
			v = a * b
		case "/":
			// IEEE, as DuckDB's ieee_floating_point_ops: x/0 is ±inf or NaN.
			v = a / b
		case "%":
			if b == 0 {
				return NullDatum, nil
			}
			v = math.Mod(a, b)
		case "div":
			// DuckDB's // of floats is their quotient, unrounded, and
			// NULL (not ±inf) for a zero divisor.
			if b == 0 {
				return NullDatum, nil
			}
			v = a / b
		case "^":
			v = crmath.Pow(a, b)
		default:
			return Datum{}, fmt.Errorf("%w: operator %s on %s", ErrNotImplemented, e.Op, t)
		}
		if t.ID == TypeFloat {
			v = float64(float32(v))
		}
		return Datum{F: v}, nil
	}
	// Integers and decimals: exact arithmetic on unscaled values. The binder
	// has cast + - % operands to the result's scale; * adds the scales.
	a, b := bigOf(l, e.L.Type()), bigOf(r, e.R.Type())
	v := new(big.Int)
	switch e.Op {
	case "+":
		v.Add(a, b)
	case "-":
		v.Sub(a, b)
	case "*":
		v.Mul(a, b)
	case "%":
		if b.Sign() == 0 {
			return NullDatum, nil
		}
		v.Rem(a, b)
	case "div":
		if b.Sign() == 0 {
			return NullDatum, nil
		}
		v.Quo(a, b)
	default:
		return Datum{}, fmt.Errorf("%w: operator %s on %s", ErrNotImplemented, e.Op, t)
	}
	d, err := fromBig(v, t)
	if err != nil && t.ID == TypeDate {
		return Datum{}, err
	}
	if err != nil {
		return Datum{}, overflowError(e, t, l, r, a, b)
	}
	return d, nil
}

// overflowError is DuckDB's error for integer or decimal arithmetic whose
// result does not fit its type. A decimal names the width it computes in
// (18 or 38 digits) and shows the unscaled operands a and b.
func overflowError(e *Binary, t Type, l, r Datum, a, b *big.Int) error {
	if t.ID == TypeDecimal {
		width, hint := 18, ". You might want to add an explicit cast to a bigger decimal."
		if t.Precision > 18 {
			width, hint = 38, ";"
			if e.Op == "*" {
				hint = ". You might want to add an explicit cast to a decimal with a smaller scale."
			}
		}
		name := opName(e.Op)
		if e.Op == "-" {
			name = "subtract"
		}
		return fmt.Errorf("%w: Overflow in %s of DECIMAL(%d) (%s %s %s)%s", ErrOutOfRange, name, width, a, e.Op, b, hint)
	}
	return fmt.Errorf("%w: Overflow in %s of %s (%s %s %s)!", ErrOutOfRange, opName(e.Op), physicalName(t),
		AppendText(nil, l, e.L.Type()), e.Op, AppendText(nil, r, e.R.Type()))
}

func opName(op string) string {
	switch op {
	case "+":
		return "addition"
	case "-":
		return "subtraction"
	case "*":
		return "multiplication"
	}
	return "division"
}

// satAdd is a + b, held to the int64 range instead of wrapping.
func satAdd(a, b int64) int64 {
	c := a + b
	switch {
	case a > 0 && b > 0 && c < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && c >= 0:
		return math.MinInt64
	}
	return c
}

// substrRange applies DuckDB's limits on substr's start and length.
func substrRange(args []Datum) error {
	const lo, hi = -1 << 32, 1<<32 - 1
	for i, what := range []string{"offset", "length"} {
		if i+1 >= len(args) {
			break
		}
		switch v := args[i+1].I; {
		case v > hi:
			return fmt.Errorf("%w: Substring %s outside of supported range (> %d)", ErrOutOfRange, what, int64(hi))
		case v < lo:
			return fmt.Errorf("%w: Substring %s outside of supported range (< %d)", ErrOutOfRange, what, int64(lo))
		}
	}
	return nil
}
