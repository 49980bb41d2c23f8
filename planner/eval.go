package planner

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"
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
		case t.ID == TypeFloat || t.ID == TypeDouble:
			return Datum{F: -d.F}, nil
		case t.ID == TypeDecimal || t.ID == TypeHugeInt:
			return Datum{Big: new(big.Int).Neg(bigOf(d, t))}, nil
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
		if err != nil || x.Null {
			return NullDatum, err
		}
		res := 0
		for _, l := range e.List {
			v, err := Eval(l, row)
			if err != nil {
				return Datum{}, err
			}
			if v.Null {
				res = 2
				continue
			}
			if Compare(x, v, e.X.Type()) == 0 {
				res = 1
				break
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
		hi, err := Eval(e.Hi, row)
		if err != nil {
			return Datum{}, err
		}
		t := e.X.Type()
		ge, le := 2, 2
		if !x.Null && !lo.Null {
			ge = b2i(Compare(x, lo, t) >= 0)
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
		x, err := Eval(e.X, row)
		if err != nil || x.Null {
			return NullDatum, err
		}
		p, err := Eval(e.Pattern, row)
		if err != nil || p.Null {
			return NullDatum, err
		}
		s, pat := x.S, p.S
		if e.Fold {
			s, pat = strings.ToLower(s), strings.ToLower(pat)
		}
		return Datum{B: LikeMatch(s, pat) != e.Not}, nil
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
		return Datum{S: l.S + r.S}, nil
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
		case "^":
			v = math.Pow(a, b)
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
		return Datum{}, fmt.Errorf("%w: Overflow in %s of %s (%s %s %s)", ErrOutOfRange, opName(e.Op), t,
			AppendText(nil, l, e.L.Type()), e.Op, AppendText(nil, r, e.R.Type()))
	}
	return d, nil
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

// LikeMatch reports whether s matches a LIKE pattern ('%' any run, '_' one
// character), character by character.
func LikeMatch(s, p string) bool {
	for len(p) > 0 {
		c, n := utf8.DecodeRuneInString(p)
		switch c {
		case '%':
			p = p[n:]
			for strings.HasPrefix(p, "%") {
				p = p[1:]
			}
			if p == "" {
				return true
			}
			for i := 0; i <= len(s); {
				if LikeMatch(s[i:], p) {
					return true
				}
				if i == len(s) {
					break
				}
				_, m := utf8.DecodeRuneInString(s[i:])
				i += m
			}
			return false
		case '_':
			if s == "" {
				return false
			}
			_, m := utf8.DecodeRuneInString(s)
			s, p = s[m:], p[n:]
		default:
			if !strings.HasPrefix(s, p[:n]) {
				return false
			}
			s, p = s[n:], p[n:]
		}
	}
	return s == ""
}

func evalCall(e *Call, row []Datum) (Datum, error) {
	if e.Name == "coalesce" {
		for _, a := range e.Args {
			d, err := Eval(a, row)
			if err != nil || !d.Null {
				return d, err
			}
		}
		return NullDatum, nil
	}
	args := make([]Datum, len(e.Args))
	for i, a := range e.Args {
		d, err := Eval(a, row)
		if err != nil {
			return Datum{}, err
		}
		if d.Null {
			return NullDatum, nil
		}
		args[i] = d
	}
	switch e.Name {
	case "lower":
		return Datum{S: strings.ToLower(args[0].S)}, nil
	case "upper":
		return Datum{S: strings.ToUpper(args[0].S)}, nil
	case "length":
		return Datum{I: int64(utf8.RuneCountInString(args[0].S))}, nil
	case "starts_with":
		return Datum{B: strings.HasPrefix(args[0].S, args[1].S)}, nil
	case "contains":
		return Datum{B: strings.Contains(args[0].S, args[1].S)}, nil
	case "concat":
		var b strings.Builder
		for i, a := range args {
			b.Write(AppendText(nil, a, e.Args[i].Type()))
		}
		return Datum{S: b.String()}, nil
	case "substr":
		if err := substrRange(args); err != nil {
			return Datum{}, err
		}
		rs := []rune(args[0].S)
		size := int64(len(rs))
		// DuckDB: the start is 1-based, counts from the end when negative,
		// and 0 is one before the first character; a negative length takes
		// the characters before the start. The span is clipped last.
		lo := args[1].I - 1
		if args[1].I < 0 {
			lo = size + args[1].I
		}
		hi := int64(math.MaxInt64)
		if len(args) > 2 {
			n := args[2].I
			hi = satAdd(lo, n)
			if n < 0 {
				lo, hi = hi, lo
			}
		}
		lo, hi = min(max(lo, 0), size), min(max(hi, 0), size)
		if lo >= hi {
			return Datum{S: ""}, nil
		}
		return Datum{S: string(rs[lo:hi])}, nil
	case "abs":
		t := e.T
		switch {
		case t.ID == TypeFloat || t.ID == TypeDouble:
			return Datum{F: math.Abs(args[0].F)}, nil
		case t.ID == TypeDecimal || t.ID == TypeHugeInt:
			return Datum{Big: new(big.Int).Abs(bigOf(args[0], t))}, nil
		}
		return fromBig(new(big.Int).Abs(bigOf(args[0], t)), t)
	case "round":
		return evalRound(e, args)
	case "year", "month", "day":
		return Datum{I: datePart(e.Name, args[0], e.Args[0].Type())}, nil
	case "date_part":
		return Datum{I: datePart(strings.ToLower(args[0].S), args[1], e.Args[1].Type())}, nil
	case "date_trunc":
		return dateTrunc(strings.ToLower(args[0].S), args[1], e.Args[1].Type(), e.T)
	}
	return Datum{}, fmt.Errorf("%w: function %s", ErrNotImplemented, e.Name)
}

func evalRound(e *Call, args []Datum) (Datum, error) {
	t := e.Args[0].Type()
	digits := int64(0)
	if len(args) > 1 {
		digits = args[1].I
	}
	switch t.ID {
	case TypeFloat, TypeDouble:
		p := math.Pow(10, float64(digits))
		v := args[0].F
		r := math.Round(v*p) / p
		if math.IsInf(v*p, 0) || math.IsNaN(r) {
			r = v
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
			if -digits > 38 {
				return Datum{Big: new(big.Int)}, nil
			}
			shift := int(-digits)
			return Datum{Big: new(big.Int).Mul(roundBig(v, t.Scale+shift), pow10(shift))}, nil
		}
		return Datum{Big: roundBig(v, t.Scale-e.T.Scale)}, nil
	}
	return args[0], nil
}

// timeOf splits a DATE or TIMESTAMP datum into days and microseconds of day.
func timeOf(d Datum, t Type) (days, micros int64) {
	switch t.ID {
	case TypeDate:
		return d.I, 0
	case TypeTimestampNS:
		us := floorDiv(d.I, 1000)
		return floorDiv(us, microsPerDay), us - floorDiv(us, microsPerDay)*microsPerDay
	}
	return floorDiv(d.I, microsPerDay), d.I - floorDiv(d.I, microsPerDay)*microsPerDay
}

func datePart(part string, d Datum, t Type) int64 {
	days, us := timeOf(d, t)
	y, m, dd := civil(days)
	switch part {
	case "year", "years", "y":
		return y
	case "month", "months", "mon":
		return m
	case "day", "days", "d":
		return dd
	case "quarter":
		return (m-1)/3 + 1
	case "hour", "hours", "h":
		return us / 3600e6
	case "minute", "minutes", "m":
		return us / 60e6 % 60
	case "second", "seconds", "s":
		return us / 1e6 % 60
	case "dow":
		return (days%7 + 11) % 7 // 1970-01-01 was a Thursday (4)
	case "doy":
		jan1 := daysFromCivil(y, 1, 1)
		return days - jan1 + 1
	case "epoch":
		return days*86400 + us/1e6
	}
	return 0
}

func daysFromCivil(y, m, d int64) int64 {
	return floorDiv(int64(timeUnix(y, m, d)), 86400)
}

// dateTrunc truncates d (of type t) to part, as a value of type out.
func dateTrunc(part string, d Datum, t, out Type) (Datum, error) {
	days, us := timeOf(d, t)
	y, m, _ := civil(days)
	switch part {
	case "year", "years":
		days, us = daysFromCivil(y, 1, 1), 0
	case "quarter":
		days, us = daysFromCivil(y, (m-1)/3*3+1, 1), 0
	case "month", "months":
		days, us = daysFromCivil(y, m, 1), 0
	case "week", "weeks":
		days, us = days-(days%7+10)%7, 0 // weeks start on Monday
	case "day", "days":
		us = 0
	case "hour", "hours":
		us = us / 3600e6 * 3600e6
	case "minute", "minutes":
		us = us / 60e6 * 60e6
	case "second", "seconds":
		us = us / 1e6 * 1e6
	default:
		return Datum{}, fmt.Errorf("%w: unsupported date_trunc part %q", ErrNotImplemented, part)
	}
	switch out.ID {
	case TypeDate:
		return Datum{I: days}, nil
	case TypeTimestampNS:
		return Datum{I: (days*microsPerDay + us) * 1000}, nil
	}
	return Datum{I: days*microsPerDay + us}, nil
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
