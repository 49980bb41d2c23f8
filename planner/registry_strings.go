package planner

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"
)

// The string functions.
func init() {
	registerScalar(
		&ScalarFunc{Name: "lower", Aliases: []string{"lcase"}, Bind: fixed(1, 1, tVarchar, tVarchar),
			Eval: func(_ *Call, a []Datum) (Datum, error) { return Datum{S: strings.ToLower(a[0].S)}, nil }},
		&ScalarFunc{Name: "upper", Aliases: []string{"ucase"}, Bind: fixed(1, 1, tVarchar, tVarchar),
			Eval: func(_ *Call, a []Datum) (Datum, error) { return Datum{S: upper(a[0].S)}, nil }},
		&ScalarFunc{Name: "length", Aliases: []string{"len", "char_length", "character_length"}, Bind: bindLength, Eval: evalLength},
		&ScalarFunc{Name: "array_length", Bind: bindListLength, Eval: evalLength},
		&ScalarFunc{Name: "strlen", Bind: fixed(1, 1, tBigInt, tVarchar),
			Eval: func(_ *Call, a []Datum) (Datum, error) { return Datum{I: int64(len(a[0].S))}, nil }},
		&ScalarFunc{Name: "substr", Aliases: []string{"substring"}, Bind: fixed(2, 3, tVarchar, tVarchar, tBigInt), Eval: evalSubstr},
		&ScalarFunc{Name: "starts_with", Aliases: []string{"prefix"}, Bind: fixed(2, 2, tBool, tVarchar),
			Eval: func(_ *Call, a []Datum) (Datum, error) { return Datum{B: strings.HasPrefix(a[0].S, a[1].S)}, nil }},
		&ScalarFunc{Name: "ends_with", Aliases: []string{"suffix"}, Bind: fixed(2, 2, tBool, tVarchar),
			Eval: func(_ *Call, a []Datum) (Datum, error) { return Datum{B: strings.HasSuffix(a[0].S, a[1].S)}, nil }},
		&ScalarFunc{Name: "contains", Bind: fixed(2, 2, tBool, tVarchar),
			Eval: func(_ *Call, a []Datum) (Datum, error) { return Datum{B: strings.Contains(a[0].S, a[1].S)}, nil }},
		&ScalarFunc{Name: "concat", Bind: bindConcat, Eval: evalConcat, SeesNulls: true},
		&ScalarFunc{Name: "concat_ws", Bind: bindConcat, Eval: evalConcatWS, SeesNulls: true},
		&ScalarFunc{Name: "trim", Bind: fixed(1, 2, tVarchar, tVarchar), Eval: evalTrim},
		&ScalarFunc{Name: "ltrim", Bind: fixed(1, 2, tVarchar, tVarchar), Eval: evalTrim},
		&ScalarFunc{Name: "rtrim", Bind: fixed(1, 2, tVarchar, tVarchar), Eval: evalTrim},
		&ScalarFunc{Name: "replace", Bind: fixed(3, 3, tVarchar, tVarchar),
			Eval: func(_ *Call, a []Datum) (Datum, error) {
				if a[1].S == "" {
					// An empty search string matches nothing (Go's ReplaceAll
					// would insert between every character).
					return a[0], nil
				}
				return Datum{S: strings.ReplaceAll(a[0].S, a[1].S, a[2].S)}, nil
			}},
		&ScalarFunc{Name: "split_part", Bind: fixed(3, 3, tVarchar, tVarchar, tVarchar, tBigInt), Eval: evalSplitPart},
		&ScalarFunc{Name: "left", Bind: fixed(2, 2, tVarchar, tVarchar, tBigInt), Eval: evalLeftRight},
		&ScalarFunc{Name: "right", Bind: fixed(2, 2, tVarchar, tVarchar, tBigInt), Eval: evalLeftRight},
		&ScalarFunc{Name: "repeat", Bind: fixed(2, 2, tVarchar, tVarchar, tBigInt), Eval: evalRepeat},
		&ScalarFunc{Name: "reverse", Bind: fixed(1, 1, tVarchar, tVarchar), Eval: evalReverse},
		&ScalarFunc{Name: "strpos", Aliases: []string{"instr", "position"}, Bind: fixed(2, 2, tBigInt, tVarchar), Eval: evalStrpos},
		&ScalarFunc{Name: "lpad", Bind: fixed(3, 3, tVarchar, tVarchar, tInteger, tVarchar), Eval: evalPad},
		&ScalarFunc{Name: "rpad", Bind: fixed(3, 3, tVarchar, tVarchar, tInteger, tVarchar), Eval: evalPad},
		&ScalarFunc{Name: "ascii", Bind: fixed(1, 1, tInteger, tVarchar), Eval: evalASCII},
		&ScalarFunc{Name: "chr", Bind: fixed(1, 1, tVarchar, tInteger), Eval: evalChr},
		&ScalarFunc{Name: "md5", Bind: fixed(1, 1, tVarchar, tVarchar), Eval: func(_ *Call, a []Datum) (Datum, error) {
			h := md5.Sum([]byte(a[0].S))
			return Datum{S: hex.EncodeToString(h[:])}, nil
		}},
		&ScalarFunc{Name: "sha256", Bind: fixed(1, 1, tVarchar, tVarchar), Eval: func(_ *Call, a []Datum) (Datum, error) {
			h := sha256.Sum256([]byte(a[0].S))
			return Datum{S: hex.EncodeToString(h[:])}, nil
		}},
		&ScalarFunc{Name: "typeof", Bind: bindTypeof},
	)
}

// upper is DuckDB's upper case: Unicode's simple mappings, and ß to ẞ,
// which has no simple mapping in Go's tables.
func upper(s string) string {
	return strings.Map(func(r rune) rune {
		if r == 'ß' {
			return 'ẞ'
		}
		return toUpperRune(r)
	}, s)
}

func toUpperRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	return []rune(strings.ToUpper(string(r)))[0]
}

// bindLength binds length and its aliases: characters of a string,
// elements of a list.
func bindLength(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	if isListType(args[0].Type()) {
		return newCall(f, args, tBigInt), nil
	}
	if !implicitlyCasts(args[0].Type(), tVarchar) {
		return nil, noMatch(f.Name, args)
	}
	if err := castArgs(args, tVarchar); err != nil {
		return nil, err
	}
	return newCall(f, args, tBigInt), nil
}

func bindListLength(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	if t := args[0].Type(); !isListType(t) && t.ID != TypeNull {
		return nil, noMatch(f.Name, args)
	}
	return newCall(f, args, tBigInt), nil
}

func evalLength(c *Call, a []Datum) (Datum, error) {
	if isListType(c.Args[0].Type()) {
		n, ok := listLen(a[0])
		if !ok {
			return Datum{}, fmt.Errorf("%w: %s of a value that is not a list", ErrConversion, c.Name)
		}
		return Datum{I: n}, nil
	}
	return Datum{I: int64(utf8.RuneCountInString(a[0].S))}, nil
}

func evalSubstr(_ *Call, args []Datum) (Datum, error) {
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
}

// bindConcat accepts any arguments and reads each as text.
func bindConcat(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) == 0 || f.Name == "concat_ws" && len(args) < 2 {
		return nil, noMatch(f.Name, args)
	}
	if f.Name == "concat_ws" {
		if err := castArgs(args[:1], tVarchar); err != nil {
			return nil, err
		}
	}
	return newCall(f, args, tVarchar), nil
}

// evalConcat joins the arguments' text, skipping NULLs as DuckDB does.
func evalConcat(c *Call, args []Datum) (Datum, error) {
	var b []byte
	for i, a := range args {
		b = AppendText(b, a, c.Args[i].Type())
	}
	return Datum{S: string(b)}, nil
}

func evalConcatWS(c *Call, args []Datum) (Datum, error) {
	if args[0].Null {
		return NullDatum, nil
	}
	var b []byte
	first := true
	for i, a := range args[1:] {
		if a.Null {
			continue
		}
		if !first {
			b = append(b, args[0].S...)
		}
		first = false
		b = AppendText(b, a, c.Args[i+1].Type())
	}
	return Datum{S: string(b)}, nil
}

func evalTrim(c *Call, a []Datum) (Datum, error) {
	cut := " "
	if len(a) > 1 {
		cut = a[1].S
	}
	switch c.Name {
	case "ltrim":
		return Datum{S: strings.TrimLeft(a[0].S, cut)}, nil
	case "rtrim":
		return Datum{S: strings.TrimRight(a[0].S, cut)}, nil
	}
	return Datum{S: strings.Trim(a[0].S, cut)}, nil
}

// evalSplitPart is the index-th (1-based; negative counts from the end)
// field of s split at sep; an index past the fields gives ”.
func evalSplitPart(_ *Call, a []Datum) (Datum, error) {
	s, sep, idx := a[0].S, a[1].S, a[2].I
	var parts []string
	if sep == "" {
		for _, r := range s {
			parts = append(parts, string(r))
		}
		if s == "" {
			parts = []string{""}
		}
	} else {
		parts = strings.Split(s, sep)
	}
	switch {
	case idx > 0 && idx <= int64(len(parts)):
		return Datum{S: parts[idx-1]}, nil
	case idx < 0 && -idx <= int64(len(parts)):
		return Datum{S: parts[int64(len(parts))+idx]}, nil
	}
	// Index 0, like any index past the parts, is the empty string.
	return Datum{S: ""}, nil
}

// evalLeftRight takes n characters from the left or right; a negative n
// takes all but -n from the other end.
func evalLeftRight(c *Call, a []Datum) (Datum, error) {
	rs := []rune(a[0].S)
	size, n := int64(len(rs)), a[1].I
	if n < 0 {
		n = max(size+n, 0)
	}
	n = min(n, size)
	if c.Name == "left" {
		return Datum{S: string(rs[:n])}, nil
	}
	return Datum{S: string(rs[size-n:])}, nil
}

func evalRepeat(_ *Call, a []Datum) (Datum, error) {
	if a[1].I <= 0 || a[0].S == "" {
		return Datum{S: ""}, nil
	}
	if a[1].I > (1<<32-1)/int64(len(a[0].S)) {
		size := new(big.Int).Mul(big.NewInt(int64(len(a[0].S))), big.NewInt(a[1].I))
		return Datum{}, fmt.Errorf("%w: Cannot create a string of size: '%s', the maximum supported string size is: '4294967295'", ErrOutOfRange, size)
	}
	return Datum{S: strings.Repeat(a[0].S, int(a[1].I))}, nil
}

func evalReverse(_ *Call, a []Datum) (Datum, error) {
	rs := []rune(a[0].S)
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return Datum{S: string(rs)}, nil
}

// evalStrpos is the 1-based character position of the needle, 0 when
// it is absent.
func evalStrpos(_ *Call, a []Datum) (Datum, error) {
	i := strings.Index(a[0].S, a[1].S)
	if i < 0 {
		return Datum{I: 0}, nil
	}
	return Datum{I: int64(utf8.RuneCountInString(a[0].S[:i])) + 1}, nil
}

// evalPad pads s to n characters with fill (lpad on the left), cutting a
// longer s to its first n characters.
func evalPad(c *Call, a []Datum) (Datum, error) {
	rs, n, fill := []rune(a[0].S), a[1].I, []rune(a[2].S)
	if n <= 0 {
		return Datum{S: ""}, nil
	}
	if int64(len(rs)) >= n {
		return Datum{S: string(rs[:n])}, nil
	}
	if len(fill) == 0 {
		return Datum{}, fmt.Errorf("%w: Insufficient padding in %s.", ErrInvalidInput, strings.ToUpper(c.Name))
	}
	if n > 1<<28 {
		return Datum{}, fmt.Errorf("%w: %s result of %d characters is too large", ErrOutOfRange, c.Name, n)
	}
	pad := make([]rune, 0, n-int64(len(rs)))
	for i := 0; int64(len(pad)) < n-int64(len(rs)); i++ {
		pad = append(pad, fill[i%len(fill)])
	}
	if c.Name == "lpad" {
		return Datum{S: string(pad) + string(rs)}, nil
	}
	return Datum{S: string(rs) + string(pad)}, nil
}

func evalASCII(_ *Call, a []Datum) (Datum, error) {
	r, n := utf8.DecodeRuneInString(a[0].S)
	if n == 0 {
		return Datum{I: 0}, nil
	}
	return Datum{I: int64(r)}, nil
}

func evalChr(_ *Call, a []Datum) (Datum, error) {
	v := a[0].I
	if v < 0 || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF {
		return Datum{}, fmt.Errorf("%w: Invalid UTF8 Codepoint %d", ErrInvalidInput, v)
	}
	return Datum{S: string(rune(v))}, nil
}

// bindTypeof answers with the argument's type name at bind time.
func bindTypeof(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	// DuckDB names the type of NULL "NULL", quotes included.
	return &Const{Value: Datum{S: args[0].Type().String()}, T: tVarchar}, nil
}
