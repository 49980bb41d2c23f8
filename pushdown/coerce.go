package pushdown

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/stats"
)

// Comparison semantics, which Coerce and Eval implement independently:
//
//   - Integer, decimal, date and timestamp columns compare exactly with
//     integer, decimal, date and timestamp literals: int_col = 1.5 is never
//     true, int_col < 1.5 is int_col <= 1, and a date equals the timestamp of
//     its midnight (DuckDB casts the DATE to TIMESTAMP). Timestamps of any
//     unit compare as exact instants.
//   - A DOUBLE literal against an integer or decimal column compares the
//     column cast to DOUBLE (rounded to nearest), as DuckDB does: amount =
//     0.1::DOUBLE holds for the decimal 0.10. A decimal of more than 15
//     digits does not cast exactly in DuckDB, so that case is not pushed down.
//   - A float column compares as DOUBLE (FLOAT widens exactly) with any
//     numeric literal rounded to DOUBLE. NaN equals NaN and is greatest.
//   - Strings and blobs compare as unsigned bytes; UUIDs as their 16 bytes.
//
// Types alone decide some comparisons. They become constant for every
// non-null value, and stay NULL for NULL: x < 5e9 on an INT32 column is
// (x IS NOT NULL OR NULL), TRUE exactly when x is not NULL, and its
// negation (x IS NULL AND NULL) is never TRUE, as NOT (x < 5e9) is.

// colClass is how a column's values compare with literals.
type colClass int8

const (
	classExact colClass = iota // integers in some unit: ints, decimals, dates, timestamps
	classFloat
	classBytes
	classUUID
	classBool
	classNull // the always-null UNKNOWN logical type
)

const (
	notTemporal = iota
	temporalDate
	temporalTimestamp
)

// colInfo is what coercion needs to know about one leaf.
type colInfo struct {
	col      Column
	order    stats.Order
	logical  format.Logical
	class    colClass
	temporal int
	// scale is a decimal's scale; perSec a timestamp's units per second.
	scale  int32
	perSec int64
	// lo and hi bound the stored integers (nil: unbounded).
	lo, hi *big.Int
	// doubleCast says a DOUBLE literal may be compared with the column
	// cast to DOUBLE (exactly rounded in DuckDB).
	doubleCast bool
	// text says strings are text (LIKE applies), not UUIDs.
	text bool
}

// infoOf classifies a bound leaf, or says why comparisons on it are not
// pushed down (ErrUnsupported).
func infoOf(col Column) (colInfo, error) {
	leaf := col.Leaf
	ci := colInfo{col: col}
	if leaf == nil {
		return ci, fmt.Errorf("%w: column %s is not bound to a schema", ErrBadPredicate, col.Path)
	}
	if leaf.MaxRep > 0 {
		return ci, fmt.Errorf("%w: %s is a repeated column, whose values are not rows", ErrUnsupported, col.Path)
	}
	ci.logical = format.LogicalOf(leaf)
	if ci.logical.Kind == format.KindNull {
		ci.class = classNull
		return ci, nil
	}
	o, ok, why := stats.OrderOf(leaf.Element)
	if !ok {
		return ci, fmt.Errorf("%w: %s has no sort order (%s)", ErrUnsupported, col.Path, why)
	}
	ci.order = o
	k := o.Kind()
	unsupported := func() (colInfo, error) {
		return ci, fmt.Errorf("%w: %s values (%s) are not compared by pushdown", ErrUnsupported, col.Path, ci.logical.SQLName())
	}
	intDomain := func() bool {
		switch k {
		case stats.KindInt32:
			ci.lo, ci.hi = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
		case stats.KindUint32:
			ci.lo, ci.hi = big.NewInt(0), big.NewInt(math.MaxUint32)
		case stats.KindInt64:
			ci.lo, ci.hi = big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
		case stats.KindUint64:
			ci.lo, ci.hi = big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64)
		case stats.KindDecimalBytes:
			if w := o.Width(); w > 0 {
				ci.hi = new(big.Int).Lsh(big.NewInt(1), uint(8*w-1))
				ci.lo = new(big.Int).Neg(ci.hi)
				ci.hi.Sub(ci.hi, big.NewInt(1))
			}
		default:
			return false
		}
		return true
	}
	switch ci.logical.Kind {
	case format.KindBoolean:
		if k != stats.KindBool {
			return unsupported()
		}
		ci.class = classBool
	case format.KindInt8, format.KindInt16, format.KindInt32, format.KindInt64,
		format.KindUint8, format.KindUint16, format.KindUint32, format.KindUint64:
		if _, dec := o.Decimal(); dec || k == stats.KindDecimalBytes || !intDomain() {
			return unsupported()
		}
		ci.class, ci.doubleCast = classExact, true
	case format.KindDecimal:
		scale, dec := o.Decimal()
		if !dec || int(scale) != ci.logical.Scale || !intDomain() {
			return unsupported()
		}
		ci.class, ci.scale = classExact, scale
		ci.doubleCast = ci.logical.Precision <= 15
	case format.KindDate:
		if k != stats.KindInt32 || !intDomain() {
			return unsupported()
		}
		ci.class, ci.temporal = classExact, temporalDate
	case format.KindTimestamp, format.KindTimestampTZ:
		ci.perSec = unitsPerSecond(ci.logical.Unit)
		if k != stats.KindInt64 || ci.perSec == 0 || !intDomain() {
			return unsupported()
		}
		ci.class, ci.temporal = classExact, temporalTimestamp
	case format.KindFloat, format.KindDouble, format.KindFloat16:
		if !k.IsFloat() {
			return unsupported() // e.g. a DECIMAL wider than 38 digits, read as DOUBLE
		}
		ci.class = classFloat
	case format.KindString, format.KindBlob:
		if k != stats.KindBytes {
			return unsupported()
		}
		ci.class, ci.text = classBytes, true
	case format.KindUUID:
		if k != stats.KindBytes || o.Width() != 16 {
			return unsupported()
		}
		ci.class = classUUID
	default:
		return unsupported()
	}
	return ci, nil
}

// Coerce turns the comparison leaf op lit (op one of Eq ... Ge) into a
// resolved predicate over the leaf's PLAIN physical values: a Cond, or a
// Const or null-aware constant where the types alone decide. The result is
// exact in three-valued logic, so NOT may be applied to it. A literal that
// cannot be compared with the column fails with ErrType; a column pushdown
// does not compare fails with ErrUnsupported.
func Coerce(leaf *format.Leaf, op Op, lit Literal) (Expr, error) {
	if leaf == nil {
		return nil, fmt.Errorf("pushdown: %w: nil column", ErrBadPredicate)
	}
	e, err := coerce(Column{Path: leaf.Path, Leaf: leaf}, op, lit)
	if err != nil {
		return nil, fmt.Errorf("pushdown: %w", err)
	}
	return e, nil
}

func coerce(col Column, op Op, lit Literal) (Expr, error) {
	if !op.isComparison() {
		return nil, fmt.Errorf("%w: %s is not a comparison", ErrBadPredicate, op)
	}
	if lit.IsNull() {
		return &Const{Unknown}, nil // NULL compares to nothing, not even NULL
	}
	ci, err := infoOf(col)
	if err != nil {
		return nil, err
	}
	return ci.compare(op, lit)
}

func (ci colInfo) typeError(lit Literal) error {
	return fmt.Errorf("%w: cannot compare %s column %s with %s", ErrType, ci.logical.SQLName(), ci.col.Path, lit)
}

// compare coerces col op lit for a non-null literal.
func (ci colInfo) compare(op Op, lit Literal) (Expr, error) {
	switch ci.class {
	case classNull:
		return &Const{Unknown}, nil
	case classBool:
		if lit.Kind != LitBool {
			return nil, ci.typeError(lit)
		}
		v, err := ci.order.Bool(lit.Bool)
		if err != nil {
			return nil, err
		}
		return ci.cond(op, v), nil
	case classBytes, classUUID:
		v, err := ci.bytesOf(lit)
		if err != nil {
			return nil, err
		}
		return ci.cond(op, v), nil
	case classFloat:
		return ci.compareFloat(op, lit)
	}
	if lit.Kind == LitFloat {
		return ci.compareViaDouble(op, lit)
	}
	r, err := ci.units(lit)
	if err != nil {
		return nil, err
	}
	if ci.truncatesNanos() {
		return ci.nanosAsMicros(op, r)
	}
	return ci.ratCmp(op, r)
}

// bytesOf is a string, blob or UUID literal in the column's PLAIN form.
func (ci colInfo) bytesOf(lit Literal) ([]byte, error) {
	var v []byte
	switch lit.Kind {
	case LitString:
		v = []byte(lit.Str)
		if ci.class == classUUID {
			u, ok := parseUUID(lit.Str)
			if !ok {
				return nil, fmt.Errorf("%w: %s is not a UUID", ErrType, lit)
			}
			v = u
		}
	case LitBytes:
		v = lit.Bytes
		if ci.class == classUUID && len(v) != 16 {
			return nil, fmt.Errorf("%w: %s is not 16 bytes", ErrType, lit)
		}
	default:
		return nil, ci.typeError(lit)
	}
	return ci.order.Bytes(v)
}

// parseUUID reads the 32 hex digits of a UUID, with or without hyphens and
// braces, in the order the 16 bytes are stored.
func parseUUID(s string) ([]byte, bool) {
	t := strings.ReplaceAll(strings.Trim(s, "{}"), "-", "")
	if len(t) != 32 {
		return nil, false
	}
	b, err := hex.DecodeString(t)
	return b, err == nil
}

// units is an Int, Decimal, Date or Timestamp literal's exact value in the
// column's stored units (unscaled decimals, days, timestamp units).
func (ci colInfo) units(lit Literal) (*big.Rat, error) {
	switch ci.temporal {
	case temporalDate, temporalTimestamp:
		sec, ok := lit.seconds()
		if !ok {
			return nil, ci.typeError(lit)
		}
		if ci.temporal == temporalDate {
			return sec.Quo(sec, big.NewRat(86400, 1)), nil
		}
		return sec.Mul(sec, new(big.Rat).SetInt64(ci.perSec)), nil
	}
	r, ok := lit.rat()
	if !ok {
		return nil, ci.typeError(lit)
	}
	return r.Mul(r, new(big.Rat).SetInt(pow10(ci.scale))), nil
}

// cond builds a comparison leaf over v.
func (ci colInfo) cond(op Op, v []byte) *Cond {
	return &Cond{Col: ci.col, Op: op, Value: v, Order: ci.order}
}

// never is FALSE for every non-null value and NULL for NULL.
func (ci colInfo) never() Expr {
	if ci.col.Leaf.MaxDef == 0 {
		return &Const{False}
	}
	return &And{Xs: []Expr{&Cond{Col: ci.col, Op: IsNullOp, Order: ci.order}, &Const{Unknown}}}
}

// always is TRUE for every non-null value and NULL for NULL.
func (ci colInfo) always() Expr {
	if ci.col.Leaf.MaxDef == 0 {
		return &Const{True}
	}
	return &Or{Xs: []Expr{&Cond{Col: ci.col, Op: IsNotNullOp, Order: ci.order}, &Const{Unknown}}}
}

// ratCmp coerces x op r for an integer column and an exact rational r in the
// column's units.
func (ci colInfo) ratCmp(op Op, r *big.Rat) (Expr, error) {
	if r.IsInt() {
		return ci.intCmp(op, r.Num())
	}
	switch op {
	case Eq:
		return ci.never(), nil
	case Ne:
		return ci.always(), nil
	case Lt, Le:
		return ci.intCmp(Le, floorRat(r))
	default:
		return ci.intCmp(Ge, ceilRat(r))
	}
}

// intCmp coerces x op n for an integer n, deciding by the column's range
// where it can.
func (ci colInfo) intCmp(op Op, n *big.Int) (Expr, error) {
	below := ci.lo != nil && n.Cmp(ci.lo) < 0 // n under every value
	above := ci.hi != nil && n.Cmp(ci.hi) > 0 // n over every value
	atLo := ci.lo != nil && n.Cmp(ci.lo) == 0
	atHi := ci.hi != nil && n.Cmp(ci.hi) == 0
	var decided Expr
	switch op {
	case Eq:
		if below || above {
			decided = ci.never()
		}
	case Ne:
		if below || above {
			decided = ci.always()
		}
	case Lt:
		switch {
		case below || atLo:
			decided = ci.never()
		case above:
			decided = ci.always()
		}
	case Le:
		switch {
		case below:
			decided = ci.never()
		case above || atHi:
			decided = ci.always()
		}
	case Gt:
		switch {
		case above || atHi:
			decided = ci.never()
		case below:
			decided = ci.always()
		}
	case Ge:
		switch {
		case above:
			decided = ci.never()
		case below || atLo:
			decided = ci.always()
		}
	}
	if decided != nil {
		return decided, nil
	}
	v, err := ci.encodeInt(n)
	if err != nil {
		return nil, err
	}
	return ci.cond(op, v), nil
}

// encodeInt is n, inside the column's range, in PLAIN form.
func (ci colInfo) encodeInt(n *big.Int) ([]byte, error) {
	switch ci.order.Kind() {
	case stats.KindInt32, stats.KindInt64:
		if !n.IsInt64() {
			return nil, fmt.Errorf("%w: %v out of range", stats.ErrOutOfRange, n)
		}
		return ci.order.Int(n.Int64())
	case stats.KindUint32, stats.KindUint64:
		if !n.IsUint64() {
			return nil, fmt.Errorf("%w: %v out of range", stats.ErrOutOfRange, n)
		}
		return ci.order.Uint(n.Uint64())
	}
	return ci.order.DecimalUnscaled(n)
}

// floorRat and ceilRat round r to an integer (denominators are positive, so
// Euclidean division floors).
func floorRat(r *big.Rat) *big.Int { return new(big.Int).Div(r.Num(), r.Denom()) }

func ceilRat(r *big.Rat) *big.Int {
	n := new(big.Int).Neg(r.Num())
	n.Div(n, r.Denom())
	return n.Neg(n)
}

// compareViaDouble coerces x op f for an integer or decimal column and a
// DOUBLE literal f: DuckDB casts x to DOUBLE, rounding to nearest (ties to
// even). The reals that round to a finite f form an interval I(f) between
// the midpoints to f's neighbours, both ends in it when f's significand is
// even; each comparison becomes an exact comparison with an end of I(f).
func (ci colInfo) compareViaDouble(op Op, lit Literal) (Expr, error) {
	if ci.temporal != notTemporal {
		return nil, ci.typeError(lit)
	}
	f := lit.Float
	switch {
	case math.IsNaN(f): // every number is below NaN
		if op == Ne || op == Lt || op == Le {
			return ci.always(), nil
		}
		return ci.never(), nil
	case math.IsInf(f, 0): // no stored integer or decimal reaches an infinity
		up := f > 0
		if op == Ne || (up && (op == Lt || op == Le)) || (!up && (op == Gt || op == Ge)) {
			return ci.always(), nil
		}
		return ci.never(), nil
	}
	if !ci.doubleCast {
		return nil, fmt.Errorf("%w: a DOUBLE literal against %s column %s compares in rounded floating point", ErrUnsupported, ci.logical.SQLName(), ci.col.Path)
	}
	a, b, inclusive := roundingInterval(f)
	scale := new(big.Rat).SetInt(pow10(ci.scale))
	a.Mul(a, scale)
	b.Mul(b, scale)
	// In stored units: lower end (a) and upper end (b) of the reals that round to f.
	geA, leB := Ge, Le
	ltA, gtB := Lt, Gt
	if !inclusive {
		geA, leB, ltA, gtB = Gt, Lt, Le, Ge
	}
	switch op {
	case Eq:
		lo, err := ci.ratCmp(geA, a)
		if err != nil {
			return nil, err
		}
		hi, err := ci.ratCmp(leB, b)
		if err != nil {
			return nil, err
		}
		return ci.between(lo, hi), nil
	case Ne:
		lo, err := ci.ratCmp(ltA, a)
		if err != nil {
			return nil, err
		}
		hi, err := ci.ratCmp(gtB, b)
		if err != nil {
			return nil, err
		}
		return simplify(&Or{Xs: []Expr{lo, hi}}), nil
	case Lt:
		return ci.ratCmp(ltA, a)
	case Le:
		return ci.ratCmp(leB, b)
	case Gt:
		return ci.ratCmp(gtB, b)
	default:
		return ci.ratCmp(geA, a)
	}
}

// between joins the two ends of a range, collapsing x >= n AND x <= n to
// x = n and an empty range to never.
func (ci colInfo) between(lo, hi Expr) Expr {
	a, ok1 := lo.(*Cond)
	b, ok2 := hi.(*Cond)
	if ok1 && ok2 && a.Op == Ge && b.Op == Le {
		switch c := ci.order.Compare(a.Value, b.Value); {
		case c == 0:
			return ci.cond(Eq, a.Value)
		case c > 0:
			return ci.never()
		}
	}
	return simplify(&And{Xs: []Expr{lo, hi}})
}

// roundingInterval is the interval of reals that round to the finite f:
// from the midpoint with its lower neighbour a to the midpoint with its
// upper neighbour b, ends included when f's significand is even.
func roundingInterval(f float64) (a, b *big.Rat, inclusive bool) {
	fr := new(big.Rat).SetFloat64(f)
	prev, next := math.Nextafter(f, math.Inf(-1)), math.Nextafter(f, math.Inf(1))
	var pr, nr *big.Rat
	if !math.IsInf(next, 0) {
		nr = new(big.Rat).SetFloat64(next)
	}
	if !math.IsInf(prev, 0) {
		pr = new(big.Rat).SetFloat64(prev)
	}
	if pr == nil { // f is -MaxFloat64: mirror the gap above it
		pr = new(big.Rat).Sub(fr, new(big.Rat).Sub(nr, fr))
	}
	if nr == nil { // f is MaxFloat64
		nr = new(big.Rat).Add(fr, new(big.Rat).Sub(fr, pr))
	}
	half := big.NewRat(1, 2)
	a = new(big.Rat).Mul(new(big.Rat).Add(pr, fr), half)
	b = new(big.Rat).Mul(new(big.Rat).Add(fr, nr), half)
	return a, b, math.Float64bits(f)&1 == 0
}

// toDouble is a numeric literal as DOUBLE (rounded to nearest), as DuckDB
// casts it against a float column.
func toDouble(lit Literal) (float64, bool) {
	switch lit.Kind {
	case LitFloat:
		return lit.Float, true
	case LitInt, LitDecimal:
		r, ok := lit.rat()
		if !ok {
			return 0, false
		}
		f, _ := r.Float64()
		return f, true
	}
	return 0, false
}

// compareFloat coerces x op lit for a FLOAT, DOUBLE or FLOAT16 column.
func (ci colInfo) compareFloat(op Op, lit Literal) (Expr, error) {
	d, ok := toDouble(lit)
	if !ok {
		return nil, ci.typeError(lit)
	}
	switch ci.order.Kind() {
	case stats.KindFloat64:
		v, err := ci.order.Float(d)
		if err != nil {
			return nil, err
		}
		return ci.cond(op, v), nil
	case stats.KindFloat16:
		if v, err := ci.order.Float(d); err == nil {
			return ci.cond(op, v), nil
		}
		lo, hi := float16Neighbours(d)
		return ci.between16(op, lo, hi), nil
	}
	// FLOAT widens exactly to DOUBLE; a d between two floats is compared
	// with its neighbours.
	f32 := float32(d)
	if math.IsNaN(d) || float64(f32) == d {
		v, err := ci.order.Float(float64(f32))
		if err != nil {
			return nil, err
		}
		return ci.cond(op, v), nil
	}
	lo, hi := f32, f32
	if float64(f32) > d {
		lo = math.Nextafter32(f32, float32(math.Inf(-1)))
	} else {
		hi = math.Nextafter32(f32, float32(math.Inf(1)))
	}
	switch op {
	case Eq:
		return ci.never(), nil
	case Ne:
		return ci.always(), nil
	case Lt, Le:
		v, err := ci.order.Float(float64(lo))
		if err != nil {
			return nil, err
		}
		return ci.cond(Le, v), nil
	default:
		v, err := ci.order.Float(float64(hi))
		if err != nil {
			return nil, err
		}
		return ci.cond(Ge, v), nil
	}
}

// between16 coerces x op d for a FLOAT16 column and a d strictly between
// the FLOAT16 values lo and hi.
func (ci colInfo) between16(op Op, lo, hi uint16) Expr {
	switch op {
	case Eq:
		return ci.never()
	case Ne:
		return ci.always()
	case Lt, Le:
		return ci.cond(Le, []byte{byte(lo), byte(lo >> 8)})
	}
	return ci.cond(Ge, []byte{byte(hi), byte(hi >> 8)})
}

// float16Neighbours are the FLOAT16 values just below and above d, which
// no FLOAT16 equals (and which is not NaN).
func float16Neighbours(d float64) (lo, hi uint16) {
	const maxFinite, inf, sign = 0x7bff, 0x7c00, 0x8000
	a := math.Abs(d)
	// Non-negative FLOAT16 values grow with their bit patterns up to +Inf.
	k := uint16(sort.Search(inf+1, func(h int) bool { return stats.Float16(uint16(h)) > a }))
	below, above := k-1, k // below < a < above; a is not a FLOAT16
	if a > stats.Float16(maxFinite) {
		below, above = maxFinite, inf
	}
	if d > 0 {
		return below, above
	}
	return sign | above, sign | below
}
