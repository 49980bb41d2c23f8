package pushdown

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// A VariantTarget is the SQL type a VARIANT field is cast to before it is
// compared, as far as pruning tells them apart.
type VariantTarget int8

// The cast targets whose comparisons a shredded typed_value column can
// answer, each for the typed_value types whose cast keeps every value as
// it is (see variantTargetFits).
const (
	VariantInteger VariantTarget = iota // TINYINT through BIGINT
	VariantVarchar
	VariantDouble
	VariantFloat
	VariantDecimal // DECIMAL(Precision, Scale)
	VariantDate
	VariantTimestamp   // TIMESTAMP (microseconds, no time zone)
	VariantTimestampTZ // TIMESTAMP WITH TIME ZONE (microseconds)
	VariantBoolean
)

// A VariantCompare is CAST(variant_extract(... variant_extract(Col,
// Path[0]) ..., Path[n-1]) AS Target) Op Lit: a comparison of one field of
// a VARIANT column, reached by object keys, after DuckDB's cast. Each file
// of a scan resolves it against its own shredding: where the field is
// shredded it becomes the columns it implies (see implied) AND the
// comparison itself, checked on each row; elsewhere the comparison alone,
// which never prunes. Under NOT it becomes the comparison with the negated
// operator, exact in three-valued logic (a NULL cast stays NULL) and under
// DuckDB's order of floats, so it may sit anywhere in a tree.
type VariantCompare struct {
	// Col is the top-level VARIANT column's name; Path are the object keys
	// in order, each one name (DuckDB reads 'a.b' as the single key a.b).
	Col  string
	Path []string
	// Target is the cast's type; Precision and Scale a DECIMAL target's;
	// Bits and Unsigned an integer target's width (0: 64) and sign.
	Target           VariantTarget
	Precision, Scale int
	Bits             int
	Unsigned         bool
	Op               Op
	Lit              Literal
	// Text is the comparison as SQL, for EXPLAIN.
	Text string
	// Row, when set, evaluates the comparison on one row (for Eval).
	Row func(Row) Truth
}

func (*VariantCompare) expr() {}

// String renders the node as SQL.
func (e *VariantCompare) String() string { return e.Text }

// variantPruneWhy is what EXPLAIN says of the exact comparison kept beside
// the columns it implies.
const variantPruneWhy = "variant: checked on each row; the shredded columns it implies skip where the typed_value statistics exclude the value and every residual value column on its path is all null"

// resolveVariant binds a VARIANT comparison to schema s's shredding of its
// column: the implied columns AND the exact comparison where the field is
// shredded as asked, the exact comparison alone (saying why) elsewhere.
func (r *resolver) resolveVariant(n *VariantCompare, negate bool) (Expr, error) {
	f := variantField(r.s, n.Col)
	if f == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownColumn, n.Col)
	}
	op := n.Op
	if negate {
		op = op.Negate()
	}
	text := n.Text
	if negate {
		text = "NOT (" + text + ")"
	}
	exact := &Residual{Text: text, Columns: []string{n.Col}}
	if row := n.Row; row != nil {
		exact.Func = func(x Row) Truth {
			if negate {
				return row(x).Not()
			}
			return row(x)
		}
	}
	implied, err := n.implied(f, op)
	if err == nil {
		var resolved Expr
		if resolved, err = r.resolve(implied, false); err == nil {
			exact.Why = variantPruneWhy
			return &And{Xs: []Expr{resolved, exact}}, nil
		}
		// A literal the typed_value column cannot be compared with proves
		// nothing; the query itself is checked by the planner's types.
		err = fmt.Errorf("%w: variant: %v", ErrUnsupported, err)
	}
	// EXPLAIN lists the comparison as not pushed down, saying what this
	// file's shredding lacks.
	exact.Why = strings.TrimPrefix(err.Error(), ErrUnsupported.Error()+": ")
	return exact, nil
}

// implied is what the comparison with operator op being true on a row
// implies of field f's shredded columns, for the path a.b:
//
//	f.value IS NOT NULL
//	OR f.typed_value.a.value IS NOT NULL
//	OR f.typed_value.a.typed_value.b.value IS NOT NULL
//	OR f.typed_value.a.typed_value.b.typed_value op lit
//
// A row whose field sits in a residual value on its path may hold anything
// (a string '5' casts to 5; a non-object top level may be an object a
// writer did not shred), so the typed_value can rule a row out only where
// every residual on the path is null: the tree skips a row group or page
// exactly when the typed_value's statistics exclude lit AND all those
// residuals are all null there. A missing key, a non-object or a Variant
// null casts to NULL, which no comparison matches, so such rows imply
// nothing. The tree is weaker than the comparison, never negated, so it
// only ever skips. The error, wrapping ErrUnsupported, says why nothing is
// implied.
func (e *VariantCompare) implied(f *format.Field, op Op) (Expr, error) {
	if f.Kind != format.VariantField {
		return nil, fmt.Errorf("%w: variant: %s is not a VARIANT column", ErrUnsupported, f.Name)
	}
	if len(e.Path) == 0 {
		return nil, fmt.Errorf("%w: variant: no field of %s is named", ErrUnsupported, f.Name)
	}
	if !op.isComparison() {
		return nil, fmt.Errorf("%w: variant: operator %s", ErrUnsupported, op)
	}
	var residuals []*format.Leaf
	g, where := f, f.Name
	for _, key := range e.Path {
		val, obj := variantChild(g, "value"), variantChild(g, "typed_value")
		if val == nil || val.Leaf == nil {
			return nil, fmt.Errorf("%w: variant: %s has no residual value column", ErrUnsupported, where)
		}
		residuals = append(residuals, val.Leaf)
		if obj == nil || obj.Kind != format.StructField {
			return nil, fmt.Errorf("%w: variant: %s is not shredded as an object", ErrUnsupported, where)
		}
		if g = variantChild(obj, key); g == nil {
			return nil, fmt.Errorf("%w: variant: field %q of %s is not shredded", ErrUnsupported, key, where)
		}
		where = fmt.Sprintf("field %q of %s", key, where)
	}
	val, typed := variantChild(g, "value"), variantChild(g, "typed_value")
	if val == nil || val.Leaf == nil || typed == nil || typed.Leaf == nil {
		return nil, fmt.Errorf("%w: variant: %s has no scalar typed_value and residual value pair", ErrUnsupported, where)
	}
	residuals = append(residuals, val.Leaf)
	for _, l := range append(residuals, typed.Leaf) {
		if l.MaxRep > 0 {
			return nil, fmt.Errorf("%w: variant: %s is repeated", ErrUnsupported, l.Path)
		}
	}
	if !e.fits(typed.Leaf) {
		return nil, fmt.Errorf("%w: variant: %s is %s, whose cast to %s does not keep every value as it is", ErrUnsupported, typed.Leaf.Path, format.LogicalOf(typed.Leaf).SQLName(), e.targetName())
	}
	if !e.litFits() {
		return nil, fmt.Errorf("%w: variant: the literal %s is not of the cast's type %s", ErrUnsupported, e.Lit, e.targetName())
	}
	xs := make([]Expr, 0, len(residuals)+3)
	for _, l := range residuals {
		xs = append(xs, &IsNull{Col: Column{Path: l.Path}, Not: true})
	}
	xs = append(xs, &Compare{Col: Column{Path: typed.Leaf.Path}, Op: op, Lit: e.Lit})
	if lo, hi, narrows := e.intRange(typed.Leaf); narrows {
		// A typed value the cast cannot hold raises an error in DuckDB:
		// its rows are kept, so that the query fails with pruning as it
		// does without.
		xs = append(xs, &Compare{Col: Column{Path: typed.Leaf.Path}, Op: Lt, Lit: BigIntLiteral(lo)},
			&Compare{Col: Column{Path: typed.Leaf.Path}, Op: Gt, Lit: BigIntLiteral(hi)})
	}
	return &Or{Xs: xs}, nil
}

// intRange is the range of an integer target narrower than typed_value
// leaf l's type, or false when every value of l fits.
func (e *VariantCompare) intRange(l *format.Leaf) (lo, hi *big.Int, narrows bool) {
	if e.Target != VariantInteger {
		return nil, nil, false
	}
	from := map[format.Kind]int{format.KindInt8: 8, format.KindInt16: 16, format.KindInt32: 32, format.KindInt64: 64}[format.LogicalOf(l).Kind]
	bits := e.Bits
	if bits == 0 {
		bits = 64
	}
	switch {
	case e.Unsigned:
		hi = new(big.Int).Lsh(big.NewInt(1), uint(bits))
		return big.NewInt(0), hi.Sub(hi, big.NewInt(1)), true
	case bits >= from:
		return nil, nil, false
	}
	hi = new(big.Int).Lsh(big.NewInt(1), uint(bits-1))
	lo = new(big.Int).Neg(hi)
	return lo, hi.Sub(hi, big.NewInt(1)), true
}

// fits reports whether casting a typed_value of leaf l's type to the
// target maps each value to itself, so that l's statistics bound the cast
// values and compare as the cast values do. Casts that round (a DOUBLE to
// an INTEGER or a FLOAT, a BIGINT to a DOUBLE, a DECIMAL to fewer places),
// change the order (a number to VARCHAR) or shift by a time zone are left
// out.
func (e *VariantCompare) fits(l *format.Leaf) bool {
	lg := format.LogicalOf(l)
	switch e.Target {
	case VariantInteger:
		switch lg.Kind {
		case format.KindInt8, format.KindInt16, format.KindInt32, format.KindInt64:
			return true
		}
	case VariantVarchar:
		return lg.Kind == format.KindString
	case VariantDouble:
		// Every FLOAT and every integer of up to 32 bits is a DOUBLE exactly.
		switch lg.Kind {
		case format.KindFloat, format.KindDouble, format.KindInt8, format.KindInt16, format.KindInt32:
			return true
		}
	case VariantFloat:
		return lg.Kind == format.KindFloat
	case VariantDecimal:
		// DECIMAL(p, s) fits DECIMAL(P, S) when S >= s and P - S >= p - s.
		return lg.Kind == format.KindDecimal && e.Scale >= lg.Scale && e.Precision-e.Scale >= lg.Precision-lg.Scale
	case VariantDate:
		return lg.Kind == format.KindDate
	case VariantTimestamp:
		return lg.Kind == format.KindTimestamp && lg.Unit == meta.Micros
	case VariantTimestampTZ:
		return lg.Kind == format.KindTimestampTZ && lg.Unit == meta.Micros
	case VariantBoolean:
		return lg.Kind == format.KindBoolean
	}
	return false
}

// litFits reports whether the literal has the kind the cast's values are
// compared as; the planner casts constants to the comparison's type.
func (e *VariantCompare) litFits() bool {
	k := e.Lit.Kind
	switch e.Target {
	case VariantInteger:
		return k == LitInt
	case VariantVarchar:
		return k == LitString
	case VariantDouble, VariantFloat:
		return k == LitFloat
	case VariantDecimal:
		return k == LitDecimal || k == LitInt
	case VariantDate:
		return k == LitDate
	case VariantTimestamp, VariantTimestampTZ:
		return k == LitTimestamp && e.Lit.Unit == meta.Micros
	case VariantBoolean:
		return k == LitBool
	}
	return false
}

var variantTargetNames = [...]string{VariantInteger: "an integer type", VariantVarchar: "VARCHAR",
	VariantDouble: "DOUBLE", VariantFloat: "FLOAT", VariantDecimal: "DECIMAL", VariantDate: "DATE",
	VariantTimestamp: "TIMESTAMP", VariantTimestampTZ: "TIMESTAMP WITH TIME ZONE", VariantBoolean: "BOOLEAN"}

func (e *VariantCompare) targetName() string {
	if e.Target == VariantDecimal {
		return fmt.Sprintf("DECIMAL(%d,%d)", e.Precision, e.Scale)
	}
	if e.Target >= 0 && int(e.Target) < len(variantTargetNames) {
		return variantTargetNames[e.Target]
	}
	return fmt.Sprintf("VariantTarget(%d)", int(e.Target))
}

func variantChild(f *format.Field, name string) *format.Field {
	for _, c := range f.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// variantField is schema s's top-level VARIANT field named name, or nil.
func variantField(s *format.Schema, name string) *format.Field {
	for _, f := range s.Fields {
		if f.Name == name && f.Kind == format.VariantField {
			return f
		}
	}
	return nil
}

// variantLeaves are the leaves, in schema s, of the top-level VARIANT field
// that path lies under, or nil. A residual condition on a VARIANT reads the
// whole field; files of one glob may shred it differently, so a leaf path
// taken from one file stands for that field in another.
func variantLeaves(s *format.Schema, path string) []*format.Leaf {
	top, _, _ := strings.Cut(path, ".")
	if f := variantField(s, top); f != nil {
		return f.Leaves
	}
	return nil
}
