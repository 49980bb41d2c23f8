package exec

import (
	"math"

	"github.com/pqsql/pqsql/planner"
)

// A vexpr computes a scalar expression for every row of a batch at once.
// It never fails: where planner.Eval would fail for some row (an integer
// overflow), eval returns ok false and the caller evaluates the batch row
// by row instead, which reports the error exactly.
type vexpr interface {
	eval(b *batch) (v *Vector, ok bool)
	// safe reports whether eval always succeeds.
	safe() bool
}

// compileVec compiles the expressions vexpr handles: columns, constants,
// casts that cannot fail, and + - * / % // on integers and floats; nil for
// anything else.
func compileVec(e planner.Expr, width int) vexpr {
	switch x := e.(type) {
	case *planner.ColRef:
		if x.Index >= 0 && x.Index < width {
			return colVec{x.Index}
		}
	case *planner.Const:
		c := &constVec{d: x.Value, t: x.T}
		c.full = c.build(BatchSize)
		return c
	case *planner.Cast:
		if conv := safeCast(x.X.Type(), x.T); conv != nil {
			if in := compileVec(x.X, width); in != nil {
				return &castVec{x: in, conv: conv}
			}
		}
	case *planner.Binary:
		return compileArith(x, width)
	}
	return nil
}

type colVec struct{ col int }

func (c colVec) safe() bool { return true }

func (c colVec) eval(b *batch) (*Vector, bool) {
	v := b.cols[c.col]
	return v, v != nil
}

// constVec repeats a constant; batches of up to BatchSize rows share one
// vector, which nothing writes to.
type constVec struct {
	d    planner.Datum
	t    Type
	full *Vector
}

func (c *constVec) safe() bool { return true }

func (c *constVec) build(n int) *Vector {
	v := newResultVector(c.t, n)
	for range n {
		v.appendDatum(c.d)
	}
	return v
}

func (c *constVec) eval(b *batch) (*Vector, bool) {
	if b.n <= BatchSize {
		return c.full.head(b.n), true
	}
	return c.build(b.n), true
}

type castVec struct {
	x    vexpr
	conv func(*Vector) *Vector
}

func (c *castVec) safe() bool { return c.x.safe() }

func (c *castVec) eval(b *batch) (*Vector, bool) {
	v, ok := c.x.eval(b)
	if !ok {
		return nil, false
	}
	return c.conv(v), true
}

// arithVec is integer or float arithmetic. Only what every SQL engine
// agrees on is computed here: a NULL operand gives NULL, integers are exact,
// floats are IEEE (rounded to FLOAT for FLOAT results). A zero divisor or
// an integer result outside its type sends the batch to planner.Eval, which
// owns those rules.
type arithVec struct {
	op    string
	l, r  vexpr
	float bool
	// t is the result type; lInt and rInt mark integer operands of a float
	// operation; lo and hi bound an integer result.
	t      Type
	lo, hi int64
	lInt   bool
	rInt   bool
}

func compileArith(e *planner.Binary, width int) vexpr {
	switch e.Op {
	case "+", "-", "*", "/", "%", "div":
	default:
		return nil
	}
	l, r := compileVec(e.L, width), compileVec(e.R, width)
	if l == nil || r == nil {
		return nil
	}
	lt, rt := e.L.Type(), e.R.Type()
	a := &arithVec{op: e.Op, l: l, r: r, t: e.T}
	switch e.T.ID {
	case TypeFloat, TypeDouble:
		// floatOf reads these types as planner.Eval does.
		isF := func(t Type) bool { return t.ID == TypeFloat || t.ID == TypeDouble }
		_, li := intRanges[lt.ID]
		_, ri := intRanges[rt.ID]
		if (!isF(lt) && !li) || (!isF(rt) && !ri) {
			return nil
		}
		a.float, a.lInt, a.rInt = true, li, ri
		return a
	}
	rng, ok := intRanges[e.T.ID]
	_, lok := intRanges[lt.ID]
	_, rok := intRanges[rt.ID]
	if !ok || !lok || !rok || e.Op == "/" {
		return nil
	}
	a.lo, a.hi = rng[0], rng[1]
	return a
}

func (a *arithVec) safe() bool { return false }

func (a *arithVec) eval(b *batch) (*Vector, bool) {
	x, ok := a.l.eval(b)
	if !ok {
		return nil, false
	}
	y, ok := a.r.eval(b)
	if !ok {
		return nil, false
	}
	n := b.n
	var nulls []bool
	for i := range n {
		if x.IsNull(i) || y.IsNull(i) {
			if nulls == nil {
				nulls = make([]bool, n)
			}
			nulls[i] = true
		}
	}
	if a.float {
		out := &Vector{Type: a.t, Float: make([]float64, n)}
		fx, fy := floats(x, a.lInt), floats(y, a.rInt)
		for i := range n {
			if nulls != nil && nulls[i] {
				continue
			}
			p, q := fx[i], fy[i]
			var v float64
			switch a.op {
			case "+":
				v = p + q
			case "-":
				v = p - q
			case "*":
				v = p * q
			case "/":
				if q == 0 {
					return nil, false
				}
				v = p / q
			case "%":
				if q == 0 || math.IsInf(q, 0) || math.IsNaN(q) || math.IsInf(p, 0) || math.IsNaN(p) {
					return nil, false
				}
				v = math.Mod(p, q)
			default:
				return nil, false
			}
			if a.t.ID == TypeFloat {
				v = float64(float32(v))
			}
			out.Float[i] = v
		}
		out.Nulls = nulls
		return out, true
	}
	out := &Vector{Type: a.t, Int: make([]int64, n)}
	for i := range n {
		if nulls != nil && nulls[i] {
			continue
		}
		p, q := x.Int[i], y.Int[i]
		var v int64
		switch a.op {
		case "+":
			v = p + q
			if (p >= 0) == (q >= 0) && (v >= 0) != (p >= 0) {
				return nil, false
			}
		case "-":
			v = p - q
			if (p >= 0) != (q >= 0) && (v >= 0) != (p >= 0) {
				return nil, false
			}
		case "*":
			if p != 0 && q != 0 {
				v = p * q
				if v/q != p || (p == -1 && q == math.MinInt64) || (q == -1 && p == math.MinInt64) {
					return nil, false
				}
			}
		case "%":
			if q == 0 || q == -1 {
				return nil, false
			}
			v = p % q
		case "div":
			if q == 0 || q == -1 {
				return nil, false
			}
			v = p / q
		}
		if v < a.lo || v > a.hi {
			return nil, false
		}
		out.Int[i] = v
	}
	out.Nulls = nulls
	return out, true
}

// floats reads a vector as floats, converting integers.
func floats(v *Vector, isInt bool) []float64 {
	if !isInt {
		return v.Float
	}
	out := make([]float64, len(v.Int))
	for i, x := range v.Int {
		out[i] = float64(x)
	}
	return out
}
