package pushdown

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/stats"
)

// Truth is a value of SQL's three-valued logic.
type Truth int8

// The truth values. A WHERE keeps a row only when its predicate is True.
const (
	False Truth = iota
	True
	Unknown // NULL
)

// Not is SQL NOT: Unknown stays Unknown.
func (t Truth) Not() Truth {
	switch t {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// And is SQL AND (Kleene): False wins, then Unknown.
func (t Truth) And(u Truth) Truth {
	switch {
	case t == False || u == False:
		return False
	case t == Unknown || u == Unknown:
		return Unknown
	}
	return True
}

// Or is SQL OR (Kleene): True wins, then Unknown.
func (t Truth) Or(u Truth) Truth {
	switch {
	case t == True || u == True:
		return True
	case t == Unknown || u == Unknown:
		return Unknown
	}
	return False
}

// String is the value as SQL prints it: TRUE, FALSE or NULL.
func (t Truth) String() string {
	switch t {
	case True:
		return "TRUE"
	case False:
		return "FALSE"
	}
	return "NULL"
}

// Op is the operator of a comparison or of a resolved Cond leaf.
type Op int8

// The operators. A Compare uses Eq through Ge; a Cond may use any.
const (
	Eq Op = iota
	Ne
	Lt
	Le
	Gt
	Ge
	In
	NotIn
	IsNullOp
	IsNotNullOp
	Prefix    // starts_with, LIKE 'p%'
	NotPrefix // NOT starts_with, NOT LIKE 'p%'
	LikeOp
	NotLikeOp
)

var opNames = [...]string{Eq: "=", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">=", In: "IN", NotIn: "NOT IN",
	IsNullOp: "IS NULL", IsNotNullOp: "IS NOT NULL", Prefix: "starts with", NotPrefix: "does not start with",
	LikeOp: "LIKE", NotLikeOp: "NOT LIKE"}

// String is the operator as SQL writes it.
func (o Op) String() string {
	if o >= 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// isComparison reports whether o is one of = != < <= > >=.
func (o Op) isComparison() bool { return o >= Eq && o <= Ge }

// Flip is the operator with its operands swapped: 5 < x is x > 5.
func (o Op) Flip() Op {
	switch o {
	case Lt:
		return Gt
	case Le:
		return Ge
	case Gt:
		return Lt
	case Ge:
		return Le
	}
	return o
}

// Negate is the operator of NOT (x o y). For comparisons this is exact in
// three-valued logic (a NULL operand makes both NULL) and under DuckDB's
// total order of floats (NaN is greatest, so NOT x < 5 is x >= 5 for NaN).
func (o Op) Negate() Op {
	switch o {
	case Eq:
		return Ne
	case Ne:
		return Eq
	case Lt:
		return Ge
	case Le:
		return Gt
	case Gt:
		return Le
	case Ge:
		return Lt
	case In:
		return NotIn
	case NotIn:
		return In
	case IsNullOp:
		return IsNotNullOp
	case IsNotNullOp:
		return IsNullOp
	case Prefix:
		return NotPrefix
	case NotPrefix:
		return Prefix
	case LikeOp:
		return NotLikeOp
	case NotLikeOp:
		return LikeOp
	}
	return o
}

// A Column names a leaf column by its dotted path. Leaf is set by Bind (and
// Resolve) for one file's schema; it is nil in the planner's tree.
type Column struct {
	Path string
	Leaf *format.Leaf
}

// String is the column's dotted path.
func (c Column) String() string { return c.Path }

// Expr is a node of a predicate tree.
type Expr interface {
	// String renders the node as SQL.
	String() string
	expr()
}

// Compare is a comparison of a column with a literal: col op lit, or
// lit op col when LiteralFirst.
type Compare struct {
	Col          Column
	Op           Op // Eq, Ne, Lt, Le, Gt or Ge
	Lit          Literal
	LiteralFirst bool
}

// InList is col [NOT] IN (list).
type InList struct {
	Col  Column
	List []Literal
	Not  bool
}

// Between is col [NOT] BETWEEN Low AND High.
type Between struct {
	Col       Column
	Low, High Literal
	Not       bool
}

// IsNull is col IS [NOT] NULL.
type IsNull struct {
	Col Column
	Not bool
}

// Like is col [NOT] LIKE Pattern, with '%' and '_' as wildcards and Escape
// (0 for none) escaping the next character.
type Like struct {
	Col     Column
	Pattern string
	Escape  rune
	Not     bool
}

// StartsWith is starts_with(col, Prefix); NOT of it is a Not node.
type StartsWith struct {
	Col    Column
	Prefix string
}

// Not is NOT X.
type Not struct{ X Expr }

// And is the conjunction of Xs (TRUE when empty).
type And struct{ Xs []Expr }

// Or is the disjunction of Xs (FALSE when empty).
type Or struct{ Xs []Expr }

// Const is a constant truth value: what a comparison decided by types alone
// becomes, or a literal TRUE/FALSE/NULL in the WHERE.
type Const struct{ Value Truth }

// A Residual is a condition pushdown cannot use (column against column, a
// function of a column). It never prunes; Eval asks its Func, if any.
type Residual struct {
	Text string
	// Columns are the dotted leaf paths it reads, so that the plan reads
	// them too.
	Columns []string
	Func    func(Row) Truth
	// Why, when set, is what EXPLAIN says of it in place of the generic
	// reason.
	Why string
}

// A Cond is a resolved leaf: one column's PLAIN physical values against
// operands in the same form, as Coerce makes it. Only Resolve and Coerce
// should build one.
type Cond struct {
	Col Column
	Op  Op
	// Value is the operand of a comparison, or the prefix of Prefix/NotPrefix.
	Value []byte
	// Values are an In/NotIn list's operands, sorted and deduplicated in
	// Order; HasNull says the list held a NULL.
	Values  [][]byte
	HasNull bool
	// Pattern and Escape are a LikeOp/NotLikeOp's pattern.
	Pattern string
	Escape  rune
	// Order compares the column's values (and says how to print them).
	Order stats.Order
	// like is Pattern's shape, found once when resolved (likeShape).
	like *likeShape
}

func (*Compare) expr()    {}
func (*InList) expr()     {}
func (*Between) expr()    {}
func (*IsNull) expr()     {}
func (*Like) expr()       {}
func (*StartsWith) expr() {}
func (*Not) expr()        {}
func (*And) expr()        {}
func (*Or) expr()         {}
func (*Const) expr()      {}
func (*Residual) expr()   {}
func (*Cond) expr()       {}

// String renders the node as SQL.
func (e *Compare) String() string {
	if e.LiteralFirst {
		return e.Lit.String() + " " + e.Op.String() + " " + e.Col.Path
	}
	return e.Col.Path + " " + e.Op.String() + " " + e.Lit.String()
}

// String renders the node as SQL.
func (e *InList) String() string {
	parts := make([]string, len(e.List))
	for i, l := range e.List {
		parts[i] = l.String()
	}
	op := " IN ("
	if e.Not {
		op = " NOT IN ("
	}
	return e.Col.Path + op + strings.Join(parts, ", ") + ")"
}

// String renders the node as SQL.
func (e *Between) String() string {
	op := " BETWEEN "
	if e.Not {
		op = " NOT BETWEEN "
	}
	return e.Col.Path + op + e.Low.String() + " AND " + e.High.String()
}

// String renders the node as SQL.
func (e *IsNull) String() string {
	if e.Not {
		return e.Col.Path + " IS NOT NULL"
	}
	return e.Col.Path + " IS NULL"
}

// String renders the node as SQL.
func (e *Like) String() string {
	op := " LIKE "
	if e.Not {
		op = " NOT LIKE "
	}
	s := e.Col.Path + op + StringLiteral(e.Pattern).String()
	if e.Escape != 0 {
		s += " ESCAPE " + StringLiteral(string(e.Escape)).String()
	}
	return s
}

// String renders the node as SQL.
func (e *StartsWith) String() string {
	return "starts_with(" + e.Col.Path + ", " + StringLiteral(e.Prefix).String() + ")"
}

// String renders the node as SQL.
func (e *Not) String() string { return "NOT (" + e.X.String() + ")" }

// String renders the node as SQL.
func (e *And) String() string { return joinExprs(e.Xs, " AND ", "TRUE") }

// String renders the node as SQL.
func (e *Or) String() string { return joinExprs(e.Xs, " OR ", "FALSE") }

func joinExprs(xs []Expr, sep, empty string) string {
	if len(xs) == 0 {
		return empty
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		s := x.String()
		if _, ok := x.(*And); ok || isOr(x) {
			s = "(" + s + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, sep)
}

func isOr(x Expr) bool { _, ok := x.(*Or); return ok }

// String renders the node as SQL.
func (e *Const) String() string { return e.Value.String() }

// String renders the node as SQL.
func (e *Residual) String() string { return e.Text }

// String renders the node as SQL.
func (e *Cond) String() string {
	p := e.Col.Path
	switch e.Op {
	case IsNullOp, IsNotNullOp:
		return p + " " + e.Op.String()
	case In, NotIn:
		parts := make([]string, 0, len(e.Values)+1)
		for _, v := range e.Values {
			parts = append(parts, e.show(v))
		}
		if e.HasNull {
			parts = append(parts, "NULL")
		}
		return p + " " + e.Op.String() + " (" + strings.Join(parts, ", ") + ")"
	case Prefix:
		return "starts_with(" + p + ", " + e.show(e.Value) + ")"
	case NotPrefix:
		return "NOT starts_with(" + p + ", " + e.show(e.Value) + ")"
	case LikeOp, NotLikeOp:
		return (&Like{Col: e.Col, Pattern: e.Pattern, Escape: e.Escape, Not: e.Op == NotLikeOp}).String()
	}
	return p + " " + e.Op.String() + " " + e.show(e.Value)
}

// show renders a value of the leaf's column as SQL: strings quoted, dates
// and timestamps as such, other values as their order prints them.
func (e *Cond) show(v []byte) string {
	if v == nil {
		return "?"
	}
	if l := e.Col.Leaf; l != nil && e.Order.Valid(v) == nil {
		switch lg := format.LogicalOf(l); lg.Kind {
		case format.KindString:
			if utf8.Valid(v) {
				return StringLiteral(string(v)).String()
			}
		case format.KindDate:
			if len(v) == 4 {
				return DateLiteral(int64(int32(binary.LittleEndian.Uint32(v)))).String()
			}
		case format.KindTimestamp, format.KindTimestampTZ:
			if len(v) == 8 && unitsPerSecond(lg.Unit) > 0 {
				return TimestampLiteral(int64(binary.LittleEndian.Uint64(v)), lg.Unit).String()
			}
		}
	}
	return e.Order.Format(v)
}
