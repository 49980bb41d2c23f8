package planner

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pqsql/pqsql/planner/crmath"
)

// More numeric and string functions: logarithms to any base, gcd, lcm,
// even, factorial, hex and binary text, translate, edit distances, base64,
// BLOB to and from text.
func init() {
	tBlob := Type{ID: TypeBlob}
	registerScalar(
		&ScalarFunc{Name: "log", Bind: fixed(1, 2, tDouble, tDouble), Eval: evalLog},
		&ScalarFunc{Name: "gcd", Aliases: []string{"greatest_common_divisor"}, Bind: fixed(2, 2, tBigInt, tBigInt), Eval: evalGCD},
		&ScalarFunc{Name: "lcm", Aliases: []string{"least_common_multiple"}, Bind: fixed(2, 2, tBigInt, tBigInt), Eval: evalGCD},
		&ScalarFunc{Name: "even", Bind: fixed(1, 1, tDouble, tDouble), Eval: mathFunc(pure(func(x float64) float64 {
			v := math.Ceil(math.Abs(x))
			if math.Mod(v, 2) != 0 {
				v++
			}
			return math.Copysign(v, x)
		}))},
		&ScalarFunc{Name: "factorial", Bind: fixed(1, 1, Type{ID: TypeHugeInt}, tInteger), Eval: evalFactorial},
		&ScalarFunc{Name: "hex", Aliases: []string{"to_hex"}, Bind: bindRadix, Eval: evalRadix},
		&ScalarFunc{Name: "bin", Aliases: []string{"to_binary"}, Bind: bindRadix, Eval: evalRadix},
		&ScalarFunc{Name: "translate", Bind: fixed(3, 3, tVarchar, tVarchar), Eval: evalTranslate},
		&ScalarFunc{Name: "levenshtein", Aliases: []string{"editdist3"}, Bind: fixed(2, 2, tBigInt, tVarchar), Eval: evalLevenshtein},
		&ScalarFunc{Name: "hamming", Aliases: []string{"mismatches"}, Bind: fixed(2, 2, tBigInt, tVarchar), Eval: evalHamming},
		&ScalarFunc{Name: "to_base64", Aliases: []string{"base64"}, Bind: fixed(1, 1, tVarchar, tBlob), Eval: func(_ *Call, a []Datum) (Datum, error) {
			return Datum{S: base64.StdEncoding.EncodeToString(a[0].Bytes)}, nil
		}},
		&ScalarFunc{Name: "from_base64", Bind: fixed(1, 1, tBlob, tVarchar), Eval: func(_ *Call, a []Datum) (Datum, error) {
			b, err := base64.StdEncoding.DecodeString(a[0].S)
			if err != nil {
				return Datum{}, fmt.Errorf("%w: Could not decode string \"%s\" as base64", ErrConversion, a[0].S)
			}
			return Datum{Bytes: b}, nil
		}},
		&ScalarFunc{Name: "encode", Bind: fixed(1, 1, tBlob, tVarchar), Eval: func(_ *Call, a []Datum) (Datum, error) {
			return Datum{Bytes: []byte(a[0].S)}, nil
		}},
		&ScalarFunc{Name: "decode", Bind: fixed(1, 1, tVarchar, tBlob), Eval: func(_ *Call, a []Datum) (Datum, error) {
			if !utf8.Valid(a[0].Bytes) {
				return Datum{}, fmt.Errorf("%w: Failure in decode: could not convert blob to UTF8 string, the blob contained invalid UTF8 characters", ErrConversion)
			}
			return Datum{S: string(a[0].Bytes)}, nil
		}},
		&ScalarFunc{Name: "octet_length", Bind: bindOctetLength, Eval: func(_ *Call, a []Datum) (Datum, error) {
			return Datum{I: int64(len(a[0].Bytes))}, nil
		}},
		&ScalarFunc{Name: "unicode", Bind: fixed(1, 1, tInteger, tVarchar), Eval: func(_ *Call, a []Datum) (Datum, error) {
			r, n := utf8.DecodeRuneInString(a[0].S)
			if n == 0 {
				return Datum{I: -1}, nil
			}
			return Datum{I: int64(r)}, nil
		}},
	)
}

// bindOctetLength takes a BLOB only: DuckDB also has a BIT overload, so a
// string literal is ambiguous and text is no match.
func bindOctetLength(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	switch args[0].Type().ID {
	case TypeBlob, TypeNull:
	case TypeVarchar:
		if _, lit := args[0].(*Const); lit {
			return nil, binderError("Could not choose a best candidate function for the function call \"octet_length(STRING_LITERAL)\". In order to select one, please add explicit type casts.")
		}
		return nil, noMatch(f.Name, args)
	default:
		return nil, noMatch(f.Name, args)
	}
	return fixed(1, 1, Type{ID: TypeBigInt}, Type{ID: TypeBlob})(f, args)
}

// evalLog is log10(x), or the logarithm of x to base b.
func evalLog(_ *Call, a []Datum) (Datum, error) {
	x := a[len(a)-1].F
	v, err := logOf(crmath.Log10)(x)
	if err != nil || len(a) == 1 {
		return Datum{F: v}, err
	}
	b := a[0].F
	if b <= 0 || b == 1 {
		return Datum{}, fmt.Errorf("%w: divison by zero in based logarithm", ErrOutOfRange)
	}
	// DuckDB divides the base-10 logarithms (not the natural ones): the
	// last digit depends on it.
	return Datum{F: v / crmath.Log10(b)}, nil
}

func evalGCD(c *Call, a []Datum) (Datum, error) {
	x, y := new(big.Int).Abs(big.NewInt(a[0].I)), new(big.Int).Abs(big.NewInt(a[1].I))
	g := new(big.Int).GCD(nil, nil, x, y)
	if c.Name == "gcd" {
		return fromBig(g, tBigInt)
	}
	if g.Sign() == 0 {
		return Datum{I: 0}, nil
	}
	l := new(big.Int).Mul(new(big.Int).Quo(x, g), y)
	d, err := fromBig(l, tBigInt)
	if err != nil {
		return Datum{}, fmt.Errorf("%w: lcm of %d and %d is out of range", ErrOutOfRange, a[0].I, a[1].I)
	}
	return d, nil
}

func evalFactorial(_ *Call, a []Datum) (Datum, error) {
	n := a[0].I
	if n < 0 {
		return Datum{Big: big.NewInt(1)}, nil
	}
	if n > 33 {
		return Datum{}, fmt.Errorf("%w: Value out of range", ErrOutOfRange)
	}
	return Datum{Big: new(big.Int).MulRange(1, n)}, nil
}

// bindRadix binds hex and bin: integers up to BIGINT as their 64-bit
// pattern, UBIGINT as its value, HUGEINT as its 128-bit pattern, strings
// and blobs byte by byte.
func bindRadix(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	t := args[0].Type()
	switch {
	case t.ID == TypeHugeInt || t.ID == TypeUBigInt:
	case t.IsInteger():
		if err := castArgs(args, tBigInt); err != nil {
			return nil, err
		}
	case t.ID == TypeVarchar || t.ID == TypeBlob || t.ID == TypeNull:
		if t.ID == TypeNull {
			if err := castArgs(args, tVarchar); err != nil {
				return nil, err
			}
		}
	default:
		return nil, noMatch(f.Name, args)
	}
	return newCall(f, args, tVarchar), nil
}

func evalRadix(c *Call, a []Datum) (Datum, error) {
	base := 16
	if c.Name == "bin" {
		base = 2
	}
	var b []byte
	switch c.Args[0].Type().ID {
	case TypeBigInt, TypeUBigInt:
		return Datum{S: strings.ToUpper(strconv.FormatUint(uint64(a[0].I), base))}, nil
	case TypeHugeInt:
		v := a[0].Big
		if v.Sign() < 0 {
			v = new(big.Int).Add(v, new(big.Int).Lsh(big.NewInt(1), 128))
		}
		return Datum{S: strings.ToUpper(v.Text(base))}, nil
	case TypeVarchar:
		b = []byte(a[0].S)
	default:
		b = a[0].Bytes
	}
	var out strings.Builder
	for _, x := range b {
		if base == 16 {
			fmt.Fprintf(&out, "%02X", x)
		} else {
			fmt.Fprintf(&out, "%08b", x)
		}
	}
	return Datum{S: out.String()}, nil
}

// evalTranslate maps each character found in from to the character at the
// same position in to, dropping it when to is shorter.
func evalTranslate(_ *Call, a []Datum) (Datum, error) {
	from, to := []rune(a[1].S), []rune(a[2].S)
	var out strings.Builder
	for _, r := range a[0].S {
		i := -1
		for k, f := range from {
			if f == r {
				i = k
				break
			}
		}
		switch {
		case i < 0:
			out.WriteRune(r)
		case i < len(to):
			out.WriteRune(to[i])
		}
	}
	return Datum{S: out.String()}, nil
}

// evalLevenshtein is the edit distance in bytes, as DuckDB counts it.
func evalLevenshtein(_ *Call, a []Datum) (Datum, error) {
	s, t := a[0].S, a[1].S
	prev := make([]int64, len(t)+1)
	cur := make([]int64, len(t)+1)
	for j := range prev {
		prev[j] = int64(j)
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = int64(i)
		for j := 1; j <= len(t); j++ {
			cost := int64(1)
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return Datum{I: prev[len(t)]}, nil
}

func evalHamming(_ *Call, a []Datum) (Datum, error) {
	s, t := a[0].S, a[1].S
	if len(s) != len(t) {
		return Datum{}, fmt.Errorf("%w: Mismatch Function: Strings must be of equal length!", ErrInvalidInput)
	}
	n := int64(0)
	for i := range len(s) {
		if s[i] != t[i] {
			n++
		}
	}
	return Datum{I: n}, nil
}
