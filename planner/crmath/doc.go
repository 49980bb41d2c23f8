// Package crmath holds the elementary functions of SQL's DOUBLE arithmetic
// (exp, logarithms, power, trigonometry, cube root) as DuckDB's libm
// returns them: rounded as the exact result rounds to the nearest double,
// except power and exp.
//
// DuckDB calls the C library's libm, which returns the correctly rounded
// result in nearly every case; Go's math package is off by one unit in the
// last place often enough (cbrt(0.5), sin(2.5)) that printed answers differ.
// Each function here evaluates in double-double arithmetic (about 104 bits)
// after an argument reduction that keeps that precision, and rounds once at
// the end, so the result is the correctly rounded one unless the exact value
// lies within about 2^-95 (relative) of a halfway point between two doubles.
//
// Pow and Exp are the exceptions: glibc's pow is off by a unit in the last
// place for about one argument pair in a thousand (10^23 among them), its
// exp (which shares pow's method) for about one in two thousand, and
// DuckDB prints glibc's answers, so these reproduce glibc's algorithm and
// tables bit for bit instead of rounding correctly.
package crmath
