package planner

import (
	"fmt"
	"math"

	"github.com/pqsql/pqsql/planner/crmath"
)

// asin and acos, correctly rounded as glibc's are, with DuckDB's errors:
// infinity is out of range, any other value outside [-1, 1] undefined.
func init() {
	registerScalar(
		&ScalarFunc{Name: "asin", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(inverseTrig("ASIN", crmath.Asin))},
		&ScalarFunc{Name: "acos", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(inverseTrig("ACOS", crmath.Acos))},
	)
}

func inverseTrig(name string, f func(float64) float64) func(float64) (float64, error) {
	inRange := finiteOnly(f)
	return func(x float64) (float64, error) {
		if !math.IsInf(x, 0) && (x < -1 || x > 1) {
			return 0, fmt.Errorf("%w: %s is undefined outside [-1,1]", ErrInvalidInput, name)
		}
		return inRange(x)
	}
}
