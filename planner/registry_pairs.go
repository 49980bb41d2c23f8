package planner

import (
	"fmt"
	"math"
)

// Two-argument aggregates (arg_max, corr, ...) reach the executor, which
// evaluates one argument expression per aggregate, as one pair value: the
// binder wraps both arguments in a pairExpr and the accumulator unpacks it.

// A pair is the value of a pairExpr: both arguments of one row, and the
// second's type, which orders arg_max and arg_min.
type pair struct {
	x, y Datum
	yt   Type
}

// A pairExpr evaluates two expressions into one pair; it is never NULL.
type pairExpr struct{ X, Y Expr }

var pairType = Type{ID: TypeNested, Name: "pair"}

func (e *pairExpr) Type() Type     { return pairType }
func (e *pairExpr) String() string { return e.X.String() + ", " + e.Y.String() }

func evalPair(e *pairExpr, row []Datum) (Datum, error) {
	x, err := Eval(e.X, row)
	if err != nil {
		return Datum{}, err
	}
	y, err := Eval(e.Y, row)
	if err != nil {
		return Datum{}, err
	}
	return Datum{N: pair{x: x, y: y, yt: e.Y.Type()}}, nil
}

func pairOf(d Datum) (pair, bool) {
	p, ok := d.N.(pair)
	return p, ok && !p.x.Null && !p.y.Null
}

func init() {
	registerAggregate(
		&AggregateFunc{Name: "arg_max", Aliases: []string{"argmax", "max_by"}, Pair: true, Result: pairFirst, New: newArgExtreme},
		&AggregateFunc{Name: "arg_min", Aliases: []string{"argmin", "min_by"}, Pair: true, Result: pairFirst, New: newArgExtreme},
		&AggregateFunc{Name: "corr", Pair: true, Result: pairDouble("corr"), New: newCovar},
		&AggregateFunc{Name: "covar_pop", Pair: true, Result: pairDouble("covar_pop"), New: newCovar},
		&AggregateFunc{Name: "covar_samp", Pair: true, Result: pairDouble("covar_samp"), New: newCovar},
	)
}

// pairFirst types arg_max and arg_min: the first argument's type.
func pairFirst(at Type) (Type, error) { return at, nil }

func pairDouble(name string) func(Type) (Type, error) {
	return func(at Type) (Type, error) { return tDouble, nil }
}

// bindPair checks and casts the two arguments of a pair aggregate and
// returns the pair expression; the result type comes from the first.
func bindPair(name string, x, y Expr) (Expr, Type, error) {
	switch name {
	case "corr", "covar_pop", "covar_samp":
		for _, e := range []Expr{x, y} {
			if !e.Type().IsNumeric() && e.Type().ID != TypeNull {
				return nil, Type{}, binderError("No function matches the given name and argument types '%s(%s, %s)'. You might need to add explicit type casts.", name, x.Type(), y.Type())
			}
		}
		var err error
		if x, err = castTo(x, tDouble); err != nil {
			return nil, Type{}, err
		}
		if y, err = castTo(y, tDouble); err != nil {
			return nil, Type{}, err
		}
		return &pairExpr{X: x, Y: y}, tDouble, nil
	}
	if y.Type().ID == TypeNested {
		return nil, Type{}, fmt.Errorf("%w: %s ordered by a nested value", ErrNotImplemented, name)
	}
	return &pairExpr{X: x, Y: y}, x.Type(), nil
}

// argExtremeAcc keeps the first argument of the row with the largest (or
// smallest) second argument; the first such row wins a tie. Rows where
// either is NULL do not count, as in DuckDB.
type argExtremeAcc struct {
	a    *AggCall
	has  bool
	best pair
}

func newArgExtreme(a *AggCall) Accumulator { return &argExtremeAcc{a: a} }

func (s *argExtremeAcc) Add(d Datum) {
	p, ok := pairOf(d)
	if !ok {
		return
	}
	s.offer(p)
}

func (s *argExtremeAcc) offer(p pair) {
	if !s.has {
		s.best, s.has = p, true
		return
	}
	c := Compare(p.y, s.best.y, p.yt)
	if s.a.Func == "arg_max" && c > 0 || s.a.Func == "arg_min" && c < 0 {
		s.best = p
	}
}

func (s *argExtremeAcc) Merge(later Accumulator) {
	if o := later.(*argExtremeAcc); o.has {
		s.offer(o.best)
	}
}

func (s *argExtremeAcc) Result() (Datum, error) {
	if !s.has {
		return NullDatum, nil
	}
	return s.best.x, nil
}

// covarAcc is DuckDB's streaming co-moment, with Welford's sums of squares
// for corr's standard deviations.
type covarAcc struct {
	a                 *AggCall
	n                 int64
	meanX, meanY, coM float64
	sx, sy            momentsAcc
}

func newCovar(a *AggCall) Accumulator { return &covarAcc{a: a} }

// DuckDB's covariance takes (y, x); the first argument is y.
func (s *covarAcc) Add(d Datum) {
	p, ok := pairOf(d)
	if !ok {
		return
	}
	y, x := p.x.F, p.y.F
	s.n++
	n := float64(s.n)
	dx := x - s.meanX
	meanX := s.meanX + dx/n
	dy := y - s.meanY
	meanY := s.meanY + dy/n
	s.coM += dx * (y - meanY)
	s.meanX, s.meanY = meanX, meanY
	s.sx.addFloat(x)
	s.sy.addFloat(y)
}

func (s *covarAcc) Merge(later Accumulator) {
	o := later.(*covarAcc)
	switch {
	case o.n == 0:
		return
	case s.n == 0:
		*s = *o
		return
	}
	n := float64(s.n + o.n)
	dx, dy := s.meanX-o.meanX, s.meanY-o.meanY
	s.coM = o.coM + s.coM + dx*dy*float64(s.n)*float64(o.n)/n
	s.meanX = (float64(o.n)*o.meanX + float64(s.n)*s.meanX) / n
	s.meanY = (float64(o.n)*o.meanY + float64(s.n)*s.meanY) / n
	s.n += o.n
	s.sx.Merge(&o.sx)
	s.sy.Merge(&o.sy)
}

func (s *covarAcc) Result() (Datum, error) {
	switch s.a.Func {
	case "covar_pop":
		if s.n == 0 {
			return NullDatum, nil
		}
		return Datum{F: s.coM / float64(s.n)}, nil
	case "covar_samp":
		if s.n < 2 {
			return NullDatum, nil
		}
		return Datum{F: s.coM / float64(s.n-1)}, nil
	}
	if s.n == 0 {
		return NullDatum, nil
	}
	cov := s.coM / float64(s.n)
	sdX := math.Sqrt(s.sx.dsquared / float64(s.sx.n))
	sdY := math.Sqrt(s.sy.dsquared / float64(s.sy.n))
	if sdX*sdY == 0 {
		return Datum{F: math.NaN()}, nil
	}
	return Datum{F: cov / (sdX * sdY)}, nil
}
