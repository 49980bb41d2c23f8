package ast

// A Subscript is Expr[Index]: a list element, a map value, a struct field
// by name, a VARIANT member or a character of a string, by Expr's type.
type Subscript struct {
	At
	Expr, Index Expr
}

// A FieldAccess is (expr).Name or x[i].Name: a field of a struct value. A
// qualified column name (s.f) stays a ColName, which the binder resolves.
type FieldAccess struct {
	At
	Expr Expr
	Name string
}

// A Slice is Expr[Lo:Hi] or, when Stepped, Expr[Lo:Hi:Step]; a bound left
// out is nil (the step is never left out).
type Slice struct {
	At
	Expr, Lo, Hi, Step Expr
	Stepped            bool
}

// A ListLiteral is [a, b] or ARRAY[a, b].
type ListLiteral struct {
	At
	Elems []Expr
}

// A StructLiteral is {'k': v, ...}, {k: v, ...} or struct_pack(k := v, ...).
type StructLiteral struct {
	At
	Fields []StructField
}

// A StructField is one entry of a StructLiteral: Name is the field's name
// as a string literal.
type StructField struct {
	Name  Expr
	Value Expr
}

// A MapLiteral is MAP {k: v, ...}.
type MapLiteral struct {
	At
	Keys, Values []Expr
}

// A Lambda is x -> body, (x, y) -> body or LAMBDA x, y: body, allowed only
// as a function argument. Params are as written, each a ColName when well
// formed (the binder checks).
type Lambda struct {
	At
	Params []Expr
	Body   Expr
}

func (*Subscript) iExpr()     {}
func (*FieldAccess) iExpr()   {}
func (*Slice) iExpr()         {}
func (*ListLiteral) iExpr()   {}
func (*StructLiteral) iExpr() {}
func (*MapLiteral) iExpr()    {}
func (*Lambda) iExpr()        {}

func (*Subscript) node()     {}
func (*FieldAccess) node()   {}
func (*Slice) node()         {}
func (*ListLiteral) node()   {}
func (*StructLiteral) node() {}
func (*MapLiteral) node()    {}
func (*Lambda) node()        {}
