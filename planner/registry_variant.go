package planner

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// DuckDB's functions on VARIANT values: variant_extract by object key or
// 1-based array index, variant_typeof, and casts to SQL types, which cast
// the primitive inside as the SQL value it stands for would be cast.

// tVariant is the type of a VARIANT column or of an extracted VARIANT.
var tVariant = Type{ID: TypeNested, Name: "VARIANT"}

// isVariant reports whether t is VARIANT.
func isVariant(t Type) bool { return t.ID == TypeNested && t.Name == "VARIANT" }

func init() {
	registerScalar(
		&ScalarFunc{Name: "variant_extract", Bind: bindVariantExtract, Eval: evalVariantExtract},
		&ScalarFunc{Name: "variant_typeof", Bind: bindVariantTypeof, Eval: evalVariantTypeof, SeesNulls: true},
	)
}

// bindVariantExtract accepts a VARCHAR key or an unsigned index, as DuckDB
// does; a signed integer is DuckDB's binder error, not an implicit cast.
func bindVariantExtract(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) != 2 || !(isVariant(args[0].Type()) || args[0].Type().ID == TypeNull) {
		return nil, noMatch(f.Name, args)
	}
	switch t := args[1].Type(); t.ID {
	case TypeVarchar, TypeNull:
	case TypeUTinyInt, TypeUSmallInt, TypeUInteger:
		if c, ok := args[1].(*Const); ok && !c.Value.Null && c.Value.I == 0 {
			return nil, binderError("Extracting index 0 from VARIANT(ARRAY) is invalid, indexes are 1-based")
		}
		a, err := castTo(args[1], Type{ID: TypeUInteger})
		if err != nil {
			return nil, err
		}
		args = []Expr{args[0], a}
	default:
		return nil, binderError("'variant_extract' expects the second argument to be of type VARCHAR or UINTEGER, not %s", t)
	}
	return newCall(f, args, tVariant), nil
}

// evalVariantExtract is the member named by a key of an object or the
// element at a 1-based index of an array; anything else is a Variant null
// (which, unlike SQL NULL, IS NOT NULL).
func evalVariantExtract(c *Call, args []Datum) (Datum, error) {
	return Datum{N: variantMember(args[0].N, args[1], c.Args[1].Type())}, nil
}

// variantMember is v's member named by key (a VARCHAR or UINTEGER datum).
func variantMember(v format.Value, key Datum, kt Type) format.Value {
	switch x := v.(type) {
	case *format.VariantObject:
		if kt.ID != TypeVarchar {
			return nil
		}
		for i, k := range x.Keys {
			if k == key.S {
				return x.Values[i]
			}
		}
	case format.List:
		if kt.ID == TypeVarchar || key.I < 1 || key.I > int64(len(x)) {
			return nil
		}
		return x[key.I-1]
	}
	return nil
}

func bindVariantTypeof(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) != 1 || !(isVariant(args[0].Type()) || args[0].Type().ID == TypeNull) {
		return nil, noMatch(f.Name, args)
	}
	return newCall(f, args, tVarchar), nil
}

func evalVariantTypeof(_ *Call, args []Datum) (Datum, error) {
	s, err := variantTypeName(args[0].N)
	return Datum{S: s}, err
}

// variantTypeName is DuckDB's variant_typeof name of v.
func variantTypeName(v format.Value) (string, error) {
	switch x := v.(type) {
	case nil:
		return "VARIANT_NULL", nil
	case format.List:
		return fmt.Sprintf("ARRAY(%d)", len(x)), nil
	case *format.VariantObject:
		return "OBJECT(" + strings.Join(x.Keys, ", ") + ")", nil
	case format.VariantPrimitive:
		_, t, err := variantDatum(x)
		if err != nil {
			return "", err
		}
		switch x.Type {
		case format.VariantTrue:
			return "BOOL_TRUE", nil
		case format.VariantFalse:
			return "BOOL_FALSE", nil
		case format.VariantInt8, format.VariantInt16, format.VariantInt32, format.VariantInt64:
			return fmt.Sprintf("INT%d", 8<<(x.Type-format.VariantInt8)), nil
		case format.VariantDecimal4, format.VariantDecimal8, format.VariantDecimal16:
			return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale), nil
		case format.VariantTimestamp, format.VariantTimestampNanos:
			return "TIMESTAMP_MICROS_TZ", nil
		case format.VariantTimestampNTZNanos:
			return "TIMESTAMP_NANOS", nil
		case format.VariantTime:
			return "TIME_MICROS", nil
		case format.VariantTimestampNTZ:
			return "TIMESTAMP_MICROS", nil
		}
		return t.String(), nil
	}
	return "", fmt.Errorf("%w: VARIANT value of kind %T", ErrNotImplemented, v)
}

// variantDatum is a Variant primitive as the SQL value it stands for.
// Decimal precisions are those of the widths (9, 18, 38), as DuckDB types
// them.
func variantDatum(p format.VariantPrimitive) (Datum, Type, error) {
	switch p.Type {
	case format.VariantTrue, format.VariantFalse:
		return Datum{B: p.Type == format.VariantTrue}, tBool, nil
	case format.VariantInt8:
		return Datum{I: p.Int}, Type{ID: TypeTinyInt}, nil
	case format.VariantInt16:
		return Datum{I: p.Int}, Type{ID: TypeSmallInt}, nil
	case format.VariantInt32:
		return Datum{I: p.Int}, Type{ID: TypeInteger}, nil
	case format.VariantInt64:
		return Datum{I: p.Int}, tBigInt, nil
	case format.VariantDouble:
		return Datum{F: p.Float}, tDouble, nil
	case format.VariantFloat:
		return Datum{F: p.Float}, Type{ID: TypeFloat}, nil
	case format.VariantDecimal4, format.VariantDecimal8, format.VariantDecimal16:
		prec := map[format.VariantType]int{format.VariantDecimal4: 9, format.VariantDecimal8: 18, format.VariantDecimal16: 38}[p.Type]
		u := p.Unscaled
		if u == nil {
			u = big.NewInt(p.Int)
		}
		return Datum{Big: u}, Type{ID: TypeDecimal, Precision: prec, Scale: p.Scale}, nil
	case format.VariantDate:
		return Datum{I: p.Int}, tDate, nil
	case format.VariantTimestamp:
		return Datum{I: p.Int}, Type{ID: TypeTimestampTZ}, nil
	case format.VariantTimestampNTZ:
		return Datum{I: p.Int}, tTimestamp, nil
	case format.VariantTime:
		return Datum{I: p.Int}, Type{ID: TypeTime}, nil
	case format.VariantTimestampNTZNanos:
		return Datum{I: p.Int}, Type{ID: TypeTimestampNS}, nil
	case format.VariantTimestampNanos:
		// DuckDB has no nanosecond TIMESTAMP WITH TIME ZONE: it reads
		// these as microseconds, truncating toward the epoch (1957's
		// .123456789 becomes .123457).
		return Datum{I: p.Int / 1000}, Type{ID: TypeTimestampTZ}, nil
	case format.VariantUUID:
		return Datum{Bytes: p.Bytes}, Type{ID: TypeUUID}, nil
	case format.VariantBinary:
		return Datum{Bytes: p.Bytes}, Type{ID: TypeBlob}, nil
	case format.VariantString:
		return Datum{S: string(p.Bytes)}, tVarchar, nil
	}
	return Datum{}, Type{}, fmt.Errorf("%w: VARIANT values of type %s", ErrNotImplemented, p.Type)
}

// variantCast binds CAST(x AS t) of a VARIANT x.
func variantCast(x Expr, t Type) (Expr, error) {
	if isVariant(t) {
		return x, nil
	}
	return newCall(variantCastFunc, []Expr{x}, t), nil
}

// variantCastFunc casts a VARIANT to its call's result type: a Variant
// null is SQL NULL, a primitive casts as its SQL value, and an object or
// array casts only to VARCHAR, as its text.
var variantCastFunc = &ScalarFunc{Name: "variant_cast", Eval: func(c *Call, args []Datum) (Datum, error) {
	v := args[0].N
	switch x := v.(type) {
	case nil:
		return NullDatum, nil
	case format.VariantPrimitive:
		d, from, err := variantDatum(x)
		if err != nil {
			return Datum{}, err
		}
		out, err := castDatum(d, from, c.T)
		if err != nil {
			name, _ := variantTypeName(x)
			return Datum{}, fmt.Errorf("%w: Can't convert VARIANT(%s) value '%s' to '%s'", ErrConversion, name, AppendText(nil, d, from), c.T)
		}
		return out, nil
	}
	if c.T.ID == TypeVarchar {
		return Datum{S: string(format.AppendValueText(nil, v))}, nil
	}
	name, err := variantTypeName(v)
	if err != nil {
		return Datum{}, err
	}
	return Datum{}, fmt.Errorf("%w: Can't convert VARIANT(%s) value '%s' to '%s'", ErrConversion, strings.SplitN(name, "(", 2)[0], format.AppendValueText(nil, v), c.T)
}}
