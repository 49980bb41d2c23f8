package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/sql/ast"
)

// nestedCall binds the list functions that take a lambda. It reports
// false for any other call.
func (b *binder) nestedCall(e *ast.FuncExpr, name string) (Expr, bool, error) {
	if lambdaFuncs[name] == "" {
		return nil, false, nil
	}
	x, err := b.lambdaCall(e, lambdaFuncs[name])
	return x, true, err
}

// listValueCall is the call a list literal stands for: [a, b] is
// list_value(a, b), as DuckDB binds and names it.
func listValueCall(e *ast.ListLiteral) *ast.FuncExpr {
	f := &ast.FuncExpr{At: e.At, Name: ast.NewColIdent("list_value"), Exprs: make(ast.SelectExprs, len(e.Elems))}
	for i, x := range e.Elems {
		f.Exprs[i] = &ast.AliasedExpr{Expr: x}
	}
	return f
}

// nested binds subscripts, slices and struct and map literals.
func (b *binder) nested(e ast.Expr) (Expr, error) {
	var parts []ast.Expr
	var open []int
	switch e := e.(type) {
	case *ast.Subscript:
		parts = []ast.Expr{e.Expr, e.Index}
	case *ast.FieldAccess:
		parts = []ast.Expr{e.Expr, ast.NewStrVal([]byte(e.Name))}
	case *ast.Slice:
		parts = []ast.Expr{e.Expr, e.Lo, e.Hi}
		if e.Stepped {
			parts = append(parts, e.Step)
		}
	case *ast.StructLiteral:
		for _, f := range e.Fields {
			parts = append(parts, f.Name, f.Value)
		}
	case *ast.MapLiteral:
		for i := range e.Keys {
			parts = append(parts, e.Keys[i], e.Values[i])
		}
	}
	args := make([]Expr, len(parts))
	for i, part := range parts {
		if part == nil {
			open = append(open, i) // a slice bound left out
			continue
		}
		x, err := b.bind(part)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	if err := openSliceBounds(args, open); err != nil {
		return nil, err
	}
	var x Expr
	var err error
	switch e.(type) {
	case *ast.Subscript, *ast.FieldAccess:
		x, err = subscript(args[0], args[1])
	case *ast.Slice:
		x, err = call("list_slice", args)
	case *ast.StructLiteral:
		x, err = structPack(args)
	case *ast.MapLiteral:
		x, err = mapLiteral(args)
	}
	if err != nil {
		return nil, err
	}
	return fold(x)
}

// subscript binds x[i] by x's type: a list element, a struct field, a map
// value, a VARIANT member or a character of a string.
func subscript(x, i Expr) (Expr, error) {
	t := x.Type()
	switch {
	case isVariant(t):
		if c, ok := i.(*Const); ok && c.T.IsInteger() && !c.Value.Null && c.Value.I >= 0 {
			i = &Const{Value: c.Value, T: Type{ID: TypeUInteger}}
		}
		return call("variant_extract", []Expr{x, i})
	case isStructType(t):
		return call("struct_extract", []Expr{x, i})
	case isMapType(t):
		return call("map_extract_value", []Expr{x, i})
	}
	return call("list_extract", []Expr{x, i})
}

// structAccess binds s.f, s.f.g and t.s.f where s is a STRUCT column, as
// struct_extract by each name in turn; nil when e is not such a name.
func (b *binder) structAccess(e *ast.ColName) (Expr, error) {
	return b.dottedAccess(e, isStructType, subscript)
}

// dottedAccess binds a dotted name whose first part is a column of a kind
// that has fields (c.k, c.k1.k2, or t.c.k with a table qualifier): each
// key applied in turn by step. It returns nil when e is not such a name.
func (b *binder) dottedAccess(e *ast.ColName, kind func(Type) bool, step func(x, key Expr) (Expr, error)) (Expr, error) {
	if e.Qualifier.IsEmpty() {
		return nil, nil
	}
	col, keys := e.Qualifier.Name.String(), []string{e.Name.String()}
	i := -1
	if q := e.Qualifier.Qualifier.String(); q != "" {
		if i = b.lookup(q); i >= 0 && kind(b.cols[i].Type) {
			keys = []string{col, e.Name.String()}
		} else if i = b.names.findQualified(q, col); i < 0 || !kind(b.cols[i].Type) {
			// Not t.s.f with s a column of table t either.
			i = -1
		}
	}
	if i < 0 {
		if i = b.lookup(col); i < 0 || !kind(b.cols[i].Type) {
			return nil, nil
		}
	}
	if b.needed != nil {
		b.needed[i] = true
	}
	var x Expr = &ColRef{Index: i, Name: b.cols[i].Name, T: b.cols[i].Type}
	for _, k := range keys {
		var err error
		if x, err = step(x, &Const{Value: Datum{S: k}, T: tVarchar}); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// structPackFunc builds a STRUCT from its field values; the field names
// are in the call's type.
var structPackFunc = &ScalarFunc{Name: "struct_pack", SeesNulls: true, Eval: evalStructPack}

// structPack binds {'k': v, ...}: alternating constant names and values.
func structPack(args []Expr) (Expr, error) {
	fs := make([]structField, 0, len(args)/2)
	vals := make([]Expr, 0, len(args)/2)
	seen := map[string]bool{}
	for k := 0; k+1 < len(args); k += 2 {
		c, ok := args[k].(*Const)
		if !ok || c.T.ID != TypeVarchar {
			return nil, binderError("expected a field name")
		}
		if seen[strings.ToLower(c.Value.S)] {
			return nil, binderError("Duplicate struct entry name \"%s\"", c.Value.S)
		}
		seen[strings.ToLower(c.Value.S)] = true
		v := args[k+1]
		if v.Type().ID == TypeNull {
			v = &Const{Value: NullDatum, T: Type{ID: TypeNull}}
		}
		fs = append(fs, structField{Name: c.Value.S, T: v.Type()})
		vals = append(vals, v)
	}
	if len(fs) == 0 {
		return nil, binderError("Can't pack nothing into a struct")
	}
	return newCall(structPackFunc, vals, structType(fs)), nil
}

func evalStructPack(c *Call, a []Datum) (Datum, error) {
	fs, _ := structFields(c.T)
	s := &format.Struct{Fields: make([]*format.Field, len(a)), Values: make([]format.Value, len(a))}
	for i, d := range a {
		name := ""
		if i < len(fs) {
			name = fs[i].Name
		}
		s.Fields[i] = &format.Field{Name: name}
		v, err := valueOf(d, c.Args[i].Type())
		if err != nil {
			return Datum{}, err
		}
		s.Values[i] = v
	}
	return Datum{N: s}, nil
}

// mapFunc builds a MAP from alternating keys and values.
var mapFunc = &ScalarFunc{Name: "map", SeesNulls: true, Eval: evalMap}

// mapLiteral binds MAP {k: v, ...}; keys and values each take their common
// type.
func mapLiteral(args []Expr) (Expr, error) {
	var ks, vs []Expr
	for k := 0; k+1 < len(args); k += 2 {
		ks = append(ks, args[k])
		vs = append(vs, args[k+1])
	}
	kt, vt := Type{ID: TypeNull}, Type{ID: TypeNull}
	if len(ks) > 0 {
		var err error
		if ks, err = unifyValues(ks); err != nil {
			return nil, err
		}
		if vs, err = unifyValues(vs); err != nil {
			return nil, err
		}
		kt, vt = ks[0].Type(), vs[0].Type()
	}
	xs := make([]Expr, 0, len(args))
	for i := range ks {
		xs = append(xs, ks[i], vs[i])
	}
	return newCall(mapFunc, xs, mapOf(kt, vt)), nil
}

func evalMap(c *Call, a []Datum) (Datum, error) {
	m := &format.Map{}
	kt, vt, _ := mapTypes(c.T)
	for i := 0; i+1 < len(a); i += 2 {
		if a[i].Null {
			return Datum{}, fmt.Errorf("%w: Map keys can not be NULL.", ErrInvalidInput)
		}
		for j := 0; j < i; j += 2 {
			if Compare(a[j], a[i], kt) == 0 {
				return Datum{}, fmt.Errorf("%w: Map keys must be unique.", ErrInvalidInput)
			}
		}
		k, err := valueOf(a[i], kt)
		if err != nil {
			return Datum{}, err
		}
		v, err := valueOf(a[i+1], vt)
		if err != nil {
			return Datum{}, err
		}
		m.Keys = append(m.Keys, k)
		m.Values = append(m.Values, v)
	}
	return Datum{N: m}, nil
}

// unifyValues casts xs to their common type, as a list literal's elements
// are: a string literal takes the others' type (so [1, 'a'] fails to
// convert 'a', as in DuckDB).
func unifyValues(xs []Expr) ([]Expr, error) {
	var typed []Expr
	for _, x := range xs {
		if c, ok := x.(*Const); ok && c.T.ID == TypeVarchar {
			continue
		}
		typed = append(typed, x)
	}
	t, err := commonTypeOf(typed, "Cannot deduce template type '%s' and '%s'")
	if err != nil {
		return nil, err
	}
	if t.ID == TypeNull && len(typed) < len(xs) {
		t = tVarchar
	}
	out := make([]Expr, len(xs))
	for i, x := range xs {
		if out[i], err = castTo(x, t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// valueOf is d of type t as a nested value's element.
func valueOf(d Datum, t Type) (format.Value, error) {
	if d.Null {
		return nil, nil
	}
	if t.ID == TypeNull {
		return nil, nil
	}
	v, ok := leafOf(d, t)
	if !ok {
		return nil, fmt.Errorf("%w: %s values inside lists, structs and maps", ErrNotImplemented, t)
	}
	return v, nil
}

// elemDatum is element v of a nested value whose element type is t.
func elemDatum(v format.Value, t Type) (Datum, error) {
	if v == nil {
		return NullDatum, nil
	}
	if t.ID == TypeNested {
		return Datum{N: v}, nil
	}
	d, lt, ok := leafDatum(v)
	if !ok {
		return Datum{}, fmt.Errorf("%w: %s values inside lists, structs and maps", ErrNotImplemented, t)
	}
	if lt != t {
		return CastDatum(d, lt, t)
	}
	return d, nil
}

// nestedCast binds the casts to and from nested types pqsql computes: a
// nested value to another of its shape part by part, NULL to any nested
// type, and WKT text to GEOMETRY (a blob is DuckDB's conversion error). It reports false for the others.
func nestedCast(x Expr, t Type) (Expr, bool, error) {
	xt := x.Type()
	switch {
	case isGeometry(t) && xt.ID == TypeVarchar:
		y, err := call("st_geomfromtext", []Expr{x})
		return y, true, err
	case isGeometry(t) && xt.ID == TypeBlob && xt.Name == "":
		// DuckDB reads WKB through ST_GeomFromWKB only.
		return nil, true, fmt.Errorf("%w: Unimplemented type for cast (BLOB -> GEOMETRY)", ErrConversion)
	case t.ID != TypeNested:
		return nil, false, nil
	case xt.ID == TypeNull:
		return &Const{Value: NullDatum, T: t}, true, nil
	case xt == t:
		return x, true, nil
	case xt.ID == TypeNested && !isVariant(xt) && !isVariant(t):
		if _, ok := commonNested(xt, t); !ok {
			return nil, true, fmt.Errorf("%w: Unimplemented type for cast (%s -> %s)", ErrConversion, xt, t)
		}
		y, err := castTo(x, t)
		return y, true, err
	}
	return nil, true, fmt.Errorf("%w: cast from %s to %s", ErrNotImplemented, xt, t)
}

// convertNested casts nested value v of type from to type to, part by
// part; a struct takes the target's field names.
func convertNested(v format.Value, from, to Type) (format.Value, error) {
	if v == nil || from == to {
		return v, nil
	}
	if from.ID != TypeNested || to.ID != TypeNested {
		d, err := elemDatum(v, from)
		if err != nil {
			return nil, err
		}
		if d, err = CastDatum(d, from, to); err != nil {
			return nil, err
		}
		return valueOf(d, to)
	}
	if et, ok := listElem(to); ok {
		ef, ok1 := listElem(from)
		l, ok2 := v.(format.List)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%w: cast from %s to %s", ErrNotImplemented, from, to)
		}
		out := make(format.List, len(l))
		for i, e := range l {
			x, err := convertNested(e, ef, et)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	if ft, ok := structFields(to); ok {
		ff, ok1 := structFields(from)
		s, ok2 := v.(*format.Struct)
		if !ok1 || !ok2 || len(s.Values) != len(ff) {
			return nil, fmt.Errorf("%w: cast from %s to %s", ErrNotImplemented, from, to)
		}
		src, byName := structSources(ff, ft)
		if !byName && len(ff) != len(ft) {
			return nil, fmt.Errorf("%w: cast from %s to %s", ErrNotImplemented, from, to)
		}
		out := &format.Struct{Fields: make([]*format.Field, len(ft)), Values: make([]format.Value, len(ft))}
		for i := range ft {
			out.Fields[i] = &format.Field{Name: ft[i].Name}
			j := i
			if byName {
				j = src[i]
			}
			if j < 0 {
				continue // a field the value lacks is NULL
			}
			x, err := convertNested(s.Values[j], ff[j].T, ft[i].T)
			if err != nil {
				return nil, err
			}
			out.Values[i] = x
		}
		return out, nil
	}
	if kt, vt, ok := mapTypes(to); ok {
		kf, vf, ok1 := mapTypes(from)
		m, ok2 := v.(*format.Map)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%w: cast from %s to %s", ErrNotImplemented, from, to)
		}
		out := &format.Map{Keys: make([]format.Value, len(m.Keys)), Values: make([]format.Value, len(m.Values))}
		for i := range m.Keys {
			k, err := convertNested(m.Keys[i], kf, kt)
			if err != nil {
				return nil, err
			}
			x, err := convertNested(m.Values[i], vf, vt)
			if err != nil {
				return nil, err
			}
			out.Keys[i], out.Values[i] = k, x
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: cast from %s to %s", ErrNotImplemented, from, to)
}

// structSources gives, for each field of a struct type to, the index of
// the field of the same name (ignoring case) in from, or -1. As DuckDB
// casts structs, fields are matched by name when any name matches; byName
// is false when none does, and the cast then goes field by field, as it
// does for the unnamed fields of a row value.
func structSources(from, to []structField) (src []int, byName bool) {
	src = make([]int, len(to))
	for i, t := range to {
		src[i] = -1
		for j, f := range from {
			if t.Name != "" && strings.EqualFold(f.Name, t.Name) {
				src[i], byName = j, true
				break
			}
		}
	}
	return src, byName
}

// A Try is TRY_CAST: X's value, or NULL where X fails to convert.
type Try struct{ X Expr }

func (e *Try) Type() Type     { return e.X.Type() }
func (e *Try) String() string { return "TRY_" + e.X.String() }

// tryCast binds TRY_CAST(x AS T): the cast, unfolded so a constant that
// does not convert is NULL rather than an error.
func (b *binder) tryCast(conv *ast.ConvertExpr) (Expr, error) {
	x, err := b.bind(conv.Expr)
	if err != nil {
		return nil, err
	}
	t, ok := typeOfCast(conv.Type)
	if !ok {
		return nil, fmt.Errorf("%w: cast to %s", ErrNotImplemented, conv.Type.Type)
	}
	if x.Type().ID == TypeNested || t.ID == TypeNested || isGeometry(t) {
		return nil, fmt.Errorf("%w: TRY_CAST to or from %s", ErrNotImplemented, t)
	}
	if x.Type() == t {
		return x, nil
	}
	return fold(&Try{X: &Cast{X: x, T: t}})
}
