package planner

import (
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
)

// DuckDB's bitwise operators |, &, <<, >>, the prefix ~ and the function
// xor take integers of one type (the operands' common type, a literal
// adopting the other operand's) and return that type. Left shifts refuse
// what would not fit rather than wrap; right shifts by a negative amount
// or by the width or more give 0.

// bitwiseOps are the operators' entries, known to the binder by operator
// rather than by a callable name.
var bitwiseOps = map[string]*ScalarFunc{
	"|":  {Name: "|", Eval: bitwiseEval(func(w bitWidth, a, b Datum) (Datum, error) { return w.or(a, b), nil })},
	"&":  {Name: "&", Eval: bitwiseEval(func(w bitWidth, a, b Datum) (Datum, error) { return w.and(a, b), nil })},
	"<<": {Name: "<<", Eval: bitwiseEval(bitWidth.shiftLeft)},
	">>": {Name: ">>", Eval: bitwiseEval(bitWidth.shiftRight)},
	"~":  {Name: "~", Eval: func(c *Call, a []Datum) (Datum, error) { return widthOf(c.T).not(a[0]), nil }},
}

func init() {
	registerScalar(&ScalarFunc{Name: "xor", Bind: func(f *ScalarFunc, args []Expr) (Expr, error) {
		if len(args) != 2 {
			return nil, bitwiseNoMatch(f.Name, args...)
		}
		return bindBitwise(f, args[0], args[1])
	}, Eval: bitwiseEval(func(w bitWidth, a, b Datum) (Datum, error) { return w.xor(a, b), nil })},
		&ScalarFunc{Name: "bit_count", Bind: bindBitCount, Eval: evalBitCount})
}

// bitCountArg is the signed type bit_count reads an unsigned integer as,
// the narrowest that holds it, as DuckDB's overloads (signed only) do.
var bitCountArg = map[TypeID]TypeID{TypeUTinyInt: TypeSmallInt, TypeUSmallInt: TypeInteger,
	TypeUInteger: TypeBigInt, TypeUBigInt: TypeHugeInt}

func bindBitCount(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, bitwiseNoMatch(f.Name, args...)
	}
	x, t := args[0], args[0].Type()
	switch {
	case t.ID == TypeNull:
		return &Const{Value: NullDatum, T: Type{ID: TypeTinyInt}}, nil
	case !t.IsInteger():
		return nil, bitwiseNoMatch(f.Name, x)
	}
	if id, ok := bitCountArg[t.ID]; ok {
		c, err := castTo(x, Type{ID: id})
		if err != nil {
			return nil, err
		}
		x = c
	}
	return newCall(f, []Expr{x}, Type{ID: TypeTinyInt}), nil
}

// evalBitCount counts the one bits of the two's complement value in its
// type's width; the count is a TINYINT, so HUGEINT -1's 128 wraps to -128
// as it does in DuckDB.
func evalBitCount(c *Call, a []Datum) (Datum, error) {
	w := widthOf(c.Args[0].Type())
	var n int
	if w.huge() {
		v := hugeOf(a[0])
		m := new(big.Int).Lsh(big.NewInt(1), w.bits)
		m.Sub(m, big.NewInt(1))
		for _, word := range new(big.Int).And(v, m).Bits() {
			n += bits.OnesCount64(uint64(word))
		}
	} else {
		mask := ^uint64(0)
		if w.bits < 64 {
			mask = 1<<w.bits - 1
		}
		n = bits.OnesCount64(uint64(a[0].I) & mask)
	}
	return Datum{I: int64(int8(n))}, nil
}

// IsBitwiseOperator reports whether op is one of DuckDB's bitwise binary
// operators.
func IsBitwiseOperator(op string) bool { return op != "~" && bitwiseOps[op] != nil }

// bitwise binds l op r for a bitwise operator.
func bitwise(op string, l, r Expr) (Expr, error) {
	return bindBitwise(bitwiseOps[op], l, r)
}

func bindBitwise(f *ScalarFunc, l, r Expr) (Expr, error) {
	lt, rt := l.Type(), r.Type()
	switch {
	case lt.ID == TypeNull && rt.ID == TypeNull:
		return &Const{Value: NullDatum, T: Type{ID: TypeBigInt}}, nil
	case lt.ID == TypeNull && (rt.IsInteger() || isStringLiteral(r)):
		return &Const{Value: NullDatum, T: bitwiseType(rt)}, nil
	case rt.ID == TypeNull && (lt.IsInteger() || isStringLiteral(l)):
		return &Const{Value: NullDatum, T: bitwiseType(lt)}, nil
	case isStringLiteral(l) && isStringLiteral(r):
		return nil, binderError("Could not choose a best candidate function for the function call \"%s(STRING_LITERAL, STRING_LITERAL)\". In order to select one, please add explicit type casts.", f.Name)
	}
	// A string literal takes the other operand's integer type.
	if isStringLiteral(l) && rt.IsInteger() {
		x, err := castTo(l, rt)
		if err != nil {
			return nil, err
		}
		l, lt = x, rt
	}
	if isStringLiteral(r) && lt.IsInteger() {
		x, err := castTo(r, lt)
		if err != nil {
			return nil, err
		}
		r, rt = x, lt
	}
	if !lt.IsInteger() || !rt.IsInteger() {
		return nil, bitwiseNoMatch(f.Name, l, r)
	}
	if isIntLiteral(l) != isIntLiteral(r) {
		l, r = adoptLiteral(l, rt), adoptLiteral(r, lt)
		lt, rt = l.Type(), r.Type()
	}
	t, ok := commonType(lt, rt)
	if !ok || !t.IsInteger() {
		return nil, bitwiseNoMatch(f.Name, l, r)
	}
	a, err := castTo(l, t)
	if err != nil {
		return nil, err
	}
	b, err := castTo(r, t)
	if err != nil {
		return nil, err
	}
	return newCall(f, []Expr{a, b}, t), nil
}

// bitwiseNot binds ~x.
func bitwiseNot(x Expr) (Expr, error) {
	t := x.Type()
	switch {
	case t.ID == TypeNull:
		return &Const{Value: NullDatum, T: Type{ID: TypeTinyInt}}, nil
	case isStringLiteral(x):
		return nil, binderError("Could not choose a best candidate function for the function call \"~(STRING_LITERAL)\". In order to select one, please add explicit type casts.")
	case !t.IsInteger():
		return nil, bitwiseNoMatch("~", x)
	}
	return newCall(bitwiseOps["~"], []Expr{x}, t), nil
}

// bitwiseType is the type a NULL operand's result takes: the other
// operand's, or for a string literal DuckDB's first candidate.
func bitwiseType(t Type) Type {
	if t.IsInteger() {
		return t
	}
	return Type{ID: TypeTinyInt}
}

func bitwiseNoMatch(name string, args ...Expr) error {
	ks := ""
	for i, a := range args {
		if i > 0 {
			ks += ", "
		}
		ks += argKind(a)
	}
	return binderError("No function matches the given name and argument types '%s(%s)'. You might need to add explicit type casts.", name, ks)
}

func bitwiseEval(op func(w bitWidth, a, b Datum) (Datum, error)) func(c *Call, a []Datum) (Datum, error) {
	return func(c *Call, a []Datum) (Datum, error) { return op(widthOf(c.T), a[0], a[1]) }
}

// A bitWidth is an integer type as the bitwise operators see it: its width
// in bits and whether it is signed. Values of at most 64 bits are in
// Datum.I (UBIGINT's as its bits), HUGEINT's in Datum.Big.
type bitWidth struct {
	bits   uint
	signed bool
}

func widthOf(t Type) bitWidth {
	return bitWidth{bits: uint(intBits[t.ID]), signed: !t.IsUnsigned()}
}

func (w bitWidth) huge() bool { return w.bits > 64 }

func (w bitWidth) and(a, b Datum) Datum {
	if w.huge() {
		return Datum{Big: new(big.Int).And(hugeOf(a), hugeOf(b))}
	}
	return Datum{I: a.I & b.I}
}

func (w bitWidth) or(a, b Datum) Datum {
	if w.huge() {
		return Datum{Big: new(big.Int).Or(hugeOf(a), hugeOf(b))}
	}
	return Datum{I: a.I | b.I}
}

func (w bitWidth) xor(a, b Datum) Datum {
	if w.huge() {
		return Datum{Big: new(big.Int).Xor(hugeOf(a), hugeOf(b))}
	}
	return Datum{I: a.I ^ b.I}
}

func (w bitWidth) not(a Datum) Datum {
	switch {
	case w.huge():
		return Datum{Big: new(big.Int).Not(hugeOf(a))}
	case !w.signed && w.bits < 64:
		return Datum{I: ^a.I & (1<<w.bits - 1)}
	}
	return Datum{I: ^a.I}
}

// text is a value as DuckDB's shift errors print it.
func (w bitWidth) text(d Datum) string {
	switch {
	case w.huge():
		return hugeOf(d).String()
	case !w.signed:
		return strconv.FormatUint(uint64(d.I), 10)
	}
	return strconv.FormatInt(d.I, 10)
}

// shiftLeft is DuckDB's x << s: the shift may not be negative nor reach
// the width (an unsigned type's width plus one), x may not be negative,
// and the bits shifted out must all be zero, the sign bit included.
func (w bitWidth) shiftLeft(x, s Datum) (Datum, error) {
	if w.huge() {
		return w.shiftLeftHuge(x, s)
	}
	switch {
	case w.signed && x.I < 0:
		return Datum{}, fmt.Errorf("%w: Cannot left-shift negative number %s", ErrOutOfRange, w.text(x))
	case w.signed && s.I < 0:
		return Datum{}, fmt.Errorf("%w: Cannot left-shift by negative number %s", ErrOutOfRange, w.text(s))
	}
	maxShift := uint64(w.bits)
	if !w.signed {
		maxShift++
	}
	sh := uint64(s.I)
	switch {
	case sh >= maxShift:
		if x.I == 0 {
			return Datum{I: 0}, nil
		}
		return Datum{}, fmt.Errorf("%w: Left-shift value %s is out of range", ErrOutOfRange, w.text(s))
	case sh == 0:
		return x, nil
	}
	if limit := uint64(1) << (maxShift - sh - 1); uint64(x.I) >= limit {
		return Datum{}, fmt.Errorf("%w: Overflow in left shift (%s << %s)", ErrOutOfRange, w.text(x), w.text(s))
	}
	return Datum{I: int64(uint64(x.I) << sh)}, nil
}

func (w bitWidth) shiftLeftHuge(x, s Datum) (Datum, error) {
	x.Big, s.Big = hugeOf(x), hugeOf(s)
	switch {
	case x.Big.Sign() < 0:
		return Datum{}, fmt.Errorf("%w: Cannot left-shift negative number %s", ErrOutOfRange, x.Big)
	case s.Big.Sign() < 0:
		return Datum{}, fmt.Errorf("%w: Cannot left-shift by negative number %s", ErrOutOfRange, s.Big)
	case !s.Big.IsInt64() || s.Big.Int64() >= int64(w.bits):
		if x.Big.Sign() == 0 {
			return Datum{Big: new(big.Int)}, nil
		}
		return Datum{}, fmt.Errorf("%w: Left-shift value %s is out of range", ErrOutOfRange, s.Big)
	}
	sh := uint(s.Big.Int64())
	if x.Big.BitLen() > int(w.bits-1-sh) {
		return Datum{}, fmt.Errorf("%w: Overflow in left shift (%s << %s)", ErrOutOfRange, x.Big, s.Big)
	}
	return Datum{Big: new(big.Int).Lsh(x.Big, sh)}, nil
}

// shiftRight is DuckDB's x >> s: arithmetic for signed types, 0 for a
// shift that is negative or not below the width.
func (w bitWidth) shiftRight(x, s Datum) (Datum, error) {
	if w.huge() {
		x.Big, s.Big = hugeOf(x), hugeOf(s)
		if s.Big.Sign() < 0 || !s.Big.IsInt64() || s.Big.Int64() >= int64(w.bits) {
			return Datum{Big: new(big.Int)}, nil
		}
		return Datum{Big: new(big.Int).Rsh(x.Big, uint(s.Big.Int64()))}, nil
	}
	if w.signed {
		if s.I < 0 || s.I >= int64(w.bits) {
			return Datum{I: 0}, nil
		}
		return Datum{I: x.I >> uint(s.I)}, nil
	}
	if uint64(s.I) >= uint64(w.bits) {
		return Datum{I: 0}, nil
	}
	return Datum{I: int64(uint64(x.I) >> uint64(s.I))}, nil
}

// hugeOf is a HUGEINT datum's value (a zero value may carry no big.Int).
func hugeOf(d Datum) *big.Int {
	if d.Big == nil {
		return new(big.Int)
	}
	return d.Big
}
