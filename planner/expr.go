package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/pushdown"
)

// An Expr is a bound, typed scalar expression over the rows of one plan
// stage. Column references are positions in that stage's row.
type Expr interface {
	// Type is the expression's SQL type.
	Type() Type
	// String renders the expression as SQL, for EXPLAIN and for matching
	// expressions against GROUP BY keys.
	String() string
}

// A ColRef reads position Index of the row.
type ColRef struct {
	Index int
	Name  string
	T     Type
}

// A Const is a constant value.
type Const struct {
	Value Datum
	T     Type
	// Literal marks an integer literal written in the query (possibly
	// negated). DuckDB lets such a literal take the integer type of the
	// other operand when its value fits, so priority - 200 is UTINYINT.
	Literal bool
}

// A Binary is arithmetic (+ - * / % // ||) or a comparison (= != < <= > >=)
// of two operands already cast to a common type where the operator needs one.
type Binary struct {
	Op   string
	L, R Expr
	T    Type
}

// A Logic is AND or OR over Xs, with SQL's three-valued logic.
type Logic struct {
	And bool
	Xs  []Expr
}

// A Not is NOT X; an Neg is -X.
type Not struct{ X Expr }

// A Neg is arithmetic negation.
type Neg struct{ X Expr }

// An IsNull is X IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Not bool
}

// An InList is X [NOT] IN (List), the list cast to X's type.
type InList struct {
	X    Expr
	List []Expr
	Not  bool
	// JoinKeys marks a join filter's list of the build side's keys: too
	// many for pushdown to judge value by value at a gain, it is judged by
	// its range, and EXPLAIN counts the values rather than listing them.
	JoinKeys bool
}

// A Between is X [NOT] BETWEEN Lo AND Hi, all of one type.
type Between struct {
	X, Lo, Hi Expr
	Not       bool
}

// A Like is X [NOT] LIKE|ILIKE Pattern [ESCAPE Escape].
type Like struct {
	X, Pattern Expr
	// Escape is the ESCAPE string, nil when the query has none.
	Escape    Expr
	Not, Fold bool
	// compiled is the matcher of a constant pattern and escape.
	compiled *pushdown.LikePattern
}

// A Case is CASE WHEN c THEN v ... ELSE e END; the operand form is rewritten
// to comparisons.
type Case struct {
	Whens []When
	Else  Expr
	T     Type
}

// A When is one WHEN Cond THEN Val of a Case.
type When struct{ Cond, Val Expr }

// A Cast is CAST(X AS T).
type Cast struct {
	X Expr
	T Type
}

// A Call is a scalar function call.
type Call struct {
	Name string
	Args []Expr
	T    Type
	// fn is the function's registry entry; a Call built by name alone
	// finds it by Name.
	fn *ScalarFunc
}

func (e *ColRef) Type() Type  { return e.T }
func (e *Const) Type() Type   { return e.T }
func (e *Binary) Type() Type  { return e.T }
func (e *Logic) Type() Type   { return Type{ID: TypeBoolean} }
func (e *Not) Type() Type     { return Type{ID: TypeBoolean} }
func (e *Neg) Type() Type     { return e.X.Type() }
func (e *IsNull) Type() Type  { return Type{ID: TypeBoolean} }
func (e *InList) Type() Type  { return Type{ID: TypeBoolean} }
func (e *Between) Type() Type { return Type{ID: TypeBoolean} }
func (e *Like) Type() Type    { return Type{ID: TypeBoolean} }
func (e *Case) Type() Type    { return e.T }
func (e *Cast) Type() Type    { return e.T }
func (e *Call) Type() Type    { return e.T }

func (e *ColRef) String() string { return e.Name }

func (e *Const) String() string {
	if e.Value.Null {
		return "NULL"
	}
	s := string(AppendText(nil, e.Value, e.T))
	switch e.T.ID {
	case TypeVarchar:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case TypeInteger, TypeBigInt, TypeHugeInt, TypeDecimal, TypeDouble, TypeBoolean:
		return s
	}
	return "CAST('" + s + "' AS " + e.T.String() + ")"
}

func (e *Binary) String() string { return "(" + e.L.String() + " " + e.Op + " " + e.R.String() + ")" }

func (e *Logic) String() string {
	op := " OR "
	if e.And {
		op = " AND "
	}
	parts := make([]string, len(e.Xs))
	for i, x := range e.Xs {
		parts[i] = x.String()
	}
	return "(" + strings.Join(parts, op) + ")"
}

func (e *Not) String() string { return "(NOT " + e.X.String() + ")" }
func (e *Neg) String() string { return "-(" + e.X.String() + ")" }

func (e *IsNull) String() string {
	if e.Not {
		return "(" + e.X.String() + " IS NOT NULL)"
	}
	return "(" + e.X.String() + " IS NULL)"
}

func (e *InList) String() string {
	if e.JoinKeys {
		return fmt.Sprintf("(%s IN (%d values))", e.X, len(e.List))
	}
	parts := make([]string, len(e.List))
	for i, x := range e.List {
		parts[i] = x.String()
	}
	op := " IN ("
	if e.Not {
		op = " NOT IN ("
	}
	return "(" + e.X.String() + op + strings.Join(parts, ", ") + "))"
}

func (e *Between) String() string {
	op := " BETWEEN "
	if e.Not {
		op = " NOT BETWEEN "
	}
	return "(" + e.X.String() + op + e.Lo.String() + " AND " + e.Hi.String() + ")"
}

func (e *Like) String() string {
	op := "LIKE"
	if e.Fold {
		op = "ILIKE"
	}
	if e.Not {
		op = "NOT " + op
	}
	if e.Escape != nil {
		return "(" + e.X.String() + " " + op + " " + e.Pattern.String() + " ESCAPE " + e.Escape.String() + ")"
	}
	return "(" + e.X.String() + " " + op + " " + e.Pattern.String() + ")"
}

func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range e.Whens {
		fmt.Fprintf(&b, " WHEN %s THEN %s", w.Cond, w.Val)
	}
	if e.Else != nil {
		fmt.Fprintf(&b, " ELSE %s", e.Else)
	}
	b.WriteString(" END")
	return b.String()
}

func (e *Cast) String() string { return "CAST(" + e.X.String() + " AS " + e.T.String() + ")" }

func (e *Call) String() string {
	if e.fn == variantCastFunc && len(e.Args) == 1 {
		return "CAST(" + e.Args[0].String() + " AS " + e.T.String() + ")"
	}
	parts := make([]string, len(e.Args))
	for i, x := range e.Args {
		parts[i] = x.String()
	}
	if name, ok := structKeyName(e); ok {
		// Binding turned the key into a position; the name is what the
		// user wrote and what a reader of EXPLAIN recognises.
		parts[1] = "'" + strings.ReplaceAll(name, "'", "''") + "'"
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}

// structKeyName is the name of the field a bound struct_extract reads.
func structKeyName(e *Call) (string, bool) {
	if e.Name != "struct_extract" || len(e.Args) != 2 {
		return "", false
	}
	k, ok := e.Args[1].(*Const)
	fs, ok2 := structFields(e.Args[0].Type())
	if !ok || !ok2 || !k.T.IsInteger() || k.Value.Null || k.Value.I < 0 || k.Value.I >= int64(len(fs)) || unnamedFields(fs) {
		return "", false
	}
	return fs[k.Value.I].Name, true
}

// Children returns e's direct subexpressions.
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *Binary:
		return []Expr{e.L, e.R}
	case *Logic:
		return e.Xs
	case *Not:
		return []Expr{e.X}
	case *Neg:
		return []Expr{e.X}
	case *IsNull:
		return []Expr{e.X}
	case *InList:
		return append([]Expr{e.X}, e.List...)
	case *Between:
		return []Expr{e.X, e.Lo, e.Hi}
	case *Like:
		if e.Escape != nil {
			return []Expr{e.X, e.Pattern, e.Escape}
		}
		return []Expr{e.X, e.Pattern}
	case *Case:
		var xs []Expr
		for _, w := range e.Whens {
			xs = append(xs, w.Cond, w.Val)
		}
		if e.Else != nil {
			xs = append(xs, e.Else)
		}
		return xs
	case *Cast:
		return []Expr{e.X}
	case *Call:
		return e.Args
	case *pairExpr:
		return []Expr{e.X, e.Y}
	case *orderedExpr:
		return e.children()
	case *Lambda:
		return []Expr{e.Body}
	case *Try:
		return []Expr{e.X}
	case *Subquery:
		if e.X != nil {
			return []Expr{e.X}
		}
	case *Correlated:
		if e.X != nil {
			return append([]Expr{e.X}, e.Args...)
		}
		return e.Args
	}
	return nil
}

// Columns adds to set the positions e reads.
func Columns(e Expr, set map[int]bool) {
	if c, ok := e.(*ColRef); ok {
		set[c.Index] = true
		return
	}
	for _, x := range Children(e) {
		Columns(x, set)
	}
}
