package crmath

import "math"

// Exp is e^x as glibc 2.36 computes it (see Pow, whose exponential it
// shares: the same table of 2^(k/128), polynomial and fused steps), so
// the rare argument where glibc's exp is not correctly rounded prints as
// DuckDB prints it.
func Exp(x float64) float64 {
	powTables()
	switch {
	case math.IsInf(x, -1):
		return 0
	case math.IsNaN(x) || math.IsInf(x, 1):
		return 1 + x
	}
	return powExp(x, 0, 0)
}
