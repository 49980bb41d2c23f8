package planner

import (
	"math/big"
	"regexp"
	"strings"
)

// integerText is the text DuckDB casts to an integer type beyond plain
// digits: a fraction and an exponent (the value rounds half away from zero:
// '-3.5' is -4, '2.45' is 2), and underscores between digits ('1_000',
// '1.5_5', '1e1_0').
var integerText = regexp.MustCompile(`^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$`)

// plainIntegerText is an optional sign and digits.
var plainIntegerText = regexp.MustCompile(`^[+-]?\d+$`)

// hexIntegerText and binIntegerText are '0x1F' and '0b101', unsigned as
// DuckDB reads them ('-0x10' does not convert).
var (
	hexIntegerText = regexp.MustCompile(`^0[xX][0-9a-fA-F]+$`)
	binIntegerText = regexp.MustCompile(`^0[bB][01]+$`)
)

// parseIntegerText is the integer DuckDB reads from trimmed text t.
func parseIntegerText(t string) (*big.Int, bool) {
	if plainIntegerText.MatchString(t) {
		return new(big.Int).SetString(strings.TrimPrefix(t, "+"), 10)
	}
	if hexIntegerText.MatchString(t) {
		return new(big.Int).SetString(t[2:], 16)
	}
	if binIntegerText.MatchString(t) {
		return new(big.Int).SetString(t[2:], 2)
	}
	if !integerText.MatchString(t) {
		return nil, false
	}
	mant, exp, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(t, "_", "")), "e")
	r, ok := new(big.Rat).SetString(mant)
	if !ok {
		return nil, false
	}
	if exp != "" {
		e, ok := new(big.Int).SetString(strings.TrimPrefix(exp, "+"), 10)
		if !ok || !e.IsInt64() || e.Int64() > 400 || e.Int64() < -400 {
			// Far past any integer type either way: out of range, or 0.
			if ok && e.Sign() < 0 {
				return new(big.Int), true
			}
			return nil, false
		}
		p := new(big.Rat).SetInt(pow10(int(abs64(e.Int64()))))
		if e.Sign() < 0 {
			r.Quo(r, p)
		} else {
			r.Mul(r, p)
		}
	}
	return roundRat(r), true
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
