package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/sql/ast"
)

// intervalUnitFuncs maps the units of INTERVAL <expr> <unit> to the
// function DuckDB's parser calls and the type the value is truncated to
// first (DOUBLE: not truncated).
var intervalUnitFuncs = map[string]struct {
	fn string
	t  Type
}{
	"year": {"to_years", tInteger}, "years": {"to_years", tInteger},
	"month": {"to_months", tInteger}, "months": {"to_months", tInteger},
	"day": {"to_days", tInteger}, "days": {"to_days", tInteger},
	"hour": {"to_hours", tBigInt}, "hours": {"to_hours", tBigInt},
	"minute": {"to_minutes", tBigInt}, "minutes": {"to_minutes", tBigInt},
	"second": {"to_seconds", tDouble}, "seconds": {"to_seconds", tDouble},
	"millisecond": {"to_milliseconds", tDouble}, "milliseconds": {"to_milliseconds", tDouble},
	"microsecond": {"to_microseconds", tBigInt}, "microseconds": {"to_microseconds", tBigInt},
	"week": {"to_weeks", tInteger}, "weeks": {"to_weeks", tInteger},
	"quarter": {"to_quarters", tInteger}, "quarters": {"to_quarters", tInteger},
	"decade": {"to_decades", tInteger}, "decades": {"to_decades", tInteger},
	"century": {"to_centuries", tInteger}, "centuries": {"to_centuries", tInteger},
	"millennium": {"to_millennia", tInteger}, "millennia": {"to_millennia", tInteger},
}

// intervalExpr binds INTERVAL <expr> <unit> as DuckDB's parser rewrites
// it: the value read as a DOUBLE, truncated to an integer for the units
// that take one, passed to the unit's to_* function (INTERVAL 1.9 DAY is
// one day; INTERVAL 1.5 SECOND is one and a half seconds).
func (b *binder) intervalExpr(e *ast.IntervalExpr) (Expr, error) {
	u, ok := intervalUnitFuncs[strings.ToLower(e.Unit)]
	if !ok {
		return nil, fmt.Errorf("%w: syntax error at or near \"%s\"", ErrSyntax, e.Unit)
	}
	x, err := b.bind(e.Expr)
	if err != nil {
		return nil, err
	}
	if x, err = castTo(x, tDouble); err != nil {
		return nil, err
	}
	if u.t != tDouble {
		if x, err = call("trunc", []Expr{x}); err != nil {
			return nil, err
		}
		if x, err = castTo(x, u.t); err != nil {
			return nil, err
		}
	}
	return call(u.fn, []Expr{x})
}

// intervalExprName is DuckDB's name for INTERVAL <x> <unit>: the call its
// parser made of it, x printed as it is named.
func intervalExprName(fn string, t Type, x string) string {
	arg := "CAST(" + x + " AS DOUBLE)"
	if t != tDouble {
		arg = "CAST(trunc(" + arg + ") AS " + t.String() + ")"
	}
	return fn + "(" + arg + ")"
}
