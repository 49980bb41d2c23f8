package pushdown

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// A VariantTarget is the SQL type a VARIANT field is cast to before it is
// compared, as far as pruning tells them apart.
type VariantTarget int8

// The cast targets whose comparisons a shredded typed_value column can
// answer: an integer type against an integer typed_value (the cast keeps
// the value), VARCHAR against a string typed_value (the cast keeps the
// bytes).
const (
	VariantInteger VariantTarget = iota
	VariantVarchar
)

// VariantImplied is what CAST(variant_extract(v, key) AS target) op lit
// being true on a row implies of v's shredded columns, where v is the
// VARIANT field f:
//
//	v.value IS NOT NULL OR v.typed_value.key.value IS NOT NULL
//	OR v.typed_value.key.typed_value op lit
//
// A row whose key field sits in the residual value of either level may
// hold anything (a string '5' casts to 5), so the field's typed_value can
// rule the row out only where both residual columns are null; the implied
// tree skips a row group or page exactly when the typed_value statistics
// exclude lit AND both residuals are all null there. A missing key or a
// Variant null casts to NULL, which no comparison matches, so their rows
// imply nothing. The tree is weaker than the predicate: callers must
// conjoin it with the predicate itself (never negate it), so it only ever
// skips. The error, wrapping ErrUnsupported, says why nothing is implied.
func VariantImplied(f *format.Field, key string, target VariantTarget, op Op, lit Literal) (Expr, error) {
	if f == nil || f.Kind != format.VariantField {
		return nil, fmt.Errorf("%w: variant: not a VARIANT column", ErrUnsupported)
	}
	top := variantChild(f, "value")
	obj := variantChild(f, "typed_value")
	if top == nil || top.Leaf == nil {
		return nil, fmt.Errorf("%w: variant: %s has no residual value column", ErrUnsupported, f.Name)
	}
	if obj == nil || obj.Kind != format.StructField {
		return nil, fmt.Errorf("%w: variant: %s is not shredded as an object", ErrUnsupported, f.Name)
	}
	g := variantChild(obj, key)
	if g == nil {
		return nil, fmt.Errorf("%w: variant: field %q of %s is not shredded", ErrUnsupported, key, f.Name)
	}
	val, typed := variantChild(g, "value"), variantChild(g, "typed_value")
	if val == nil || val.Leaf == nil || typed == nil || typed.Leaf == nil {
		return nil, fmt.Errorf("%w: variant: field %q of %s has no scalar typed_value and residual value pair", ErrUnsupported, key, f.Name)
	}
	for _, l := range []*format.Leaf{top.Leaf, val.Leaf, typed.Leaf} {
		if l.MaxRep > 0 {
			return nil, fmt.Errorf("%w: variant: %s is repeated", ErrUnsupported, l.Path)
		}
	}
	if !variantTargetFits(typed.Leaf, target) {
		return nil, fmt.Errorf("%w: variant: %s is %s, whose cast does not keep the order the statistics have", ErrUnsupported, typed.Leaf.Path, typed.Leaf.Type)
	}
	if !op.isComparison() {
		return nil, fmt.Errorf("%w: variant: operator %s", ErrUnsupported, op)
	}
	return &Or{Xs: []Expr{
		&IsNull{Col: Column{Path: top.Leaf.Path}, Not: true},
		&IsNull{Col: Column{Path: val.Leaf.Path}, Not: true},
		&Compare{Col: Column{Path: typed.Leaf.Path}, Op: op, Lit: lit},
	}}, nil
}

// variantTargetFits reports whether casting a typed_value of leaf l's type
// to target maps each value to itself, so that l's statistics bound the
// cast values. Floats are left out: a cast to an integer rounds them.
func variantTargetFits(l *format.Leaf, target VariantTarget) bool {
	lg := format.LogicalOf(l)
	switch target {
	case VariantInteger:
		switch lg.Kind {
		case format.KindInt8, format.KindInt16, format.KindInt32, format.KindInt64:
			return true
		}
		return false
	case VariantVarchar:
		return lg.Kind == format.KindString
	}
	return false
}

func variantChild(f *format.Field, name string) *format.Field {
	for _, c := range f.Children {
		if c.Name == name {
			return c
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
	for _, f := range s.Fields {
		if f.Name == top && f.Kind == format.VariantField {
			return f.Leaves
		}
	}
	return nil
}
