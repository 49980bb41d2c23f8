package ast

import (
	"fmt"
	"reflect"
)

// A Position locates a byte in the original SQL text. Line and Column are
// 1-based; Column counts characters (runes), not bytes. Offset is the 0-based
// byte offset. Positions of statements parsed from a script are relative to
// the whole script. The zero Position means "unknown".
type Position struct {
	Offset int
	Line   int
	Column int
}

// String formats the position as "line L, column C".
func (p Position) String() string {
	return fmt.Sprintf("line %d, column %d", p.Line, p.Column)
}

// IsValid reports whether p is a position in the text (Line is 1-based, so
// the zero Position is not).
func (p Position) IsValid() bool { return p.Line > 0 }

// At is embedded in every node that has a place in the text: Pos is where
// the node starts, as DuckDB locates its binder errors (see PosOf). Nodes
// the planner builds leave it zero.
type At struct {
	Pos Position
}

func (a At) start() Position { return a.Pos }

type positioned interface{ start() Position }

// PosOf returns where node starts in the original text: a column reference
// at its first name, a function call at its name, a literal at its first
// character (a negative number at its sign), a star at its * (or table
// name), CAST(...) at CAST and x::T at "::", a binary or comparison
// operator, IS, NOT and unary operators at the operator, CASE at CASE, a
// subquery at its "(", a subscript or slice at its "[", a field access at
// its ".", a list literal at its "[", a struct or map literal at its "{"
// (struct_pack at its "("), a lambda at its "->" (or LAMBDA). The second
// result is false for nodes without one: nodes the planner built, typed
// literals, and value nodes (identifiers, BoolVal, tuples).
func PosOf(node Node) (Position, bool) {
	if v := reflect.ValueOf(node); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return Position{}, false
	}
	if p, ok := node.(positioned); ok {
		pos := p.start()
		return pos, pos.IsValid()
	}
	return Position{}, false
}
