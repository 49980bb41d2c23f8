package planner

import (
	"errors"
	"strings"

	"github.com/pqsql/pqsql/errclass"
	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// Sentinel errors of package planner: DuckDB's error classes from package
// errclass, so a wrapped error reads like DuckDB's ("Binder Error: ...") and
// is the same value exec and the shell test against.
var (
	// ErrBinder means a name or type in the query does not resolve: an
	// unknown column, a column outside GROUP BY, a wrong argument count.
	ErrBinder = errclass.Binder
	// ErrConversion means a value cannot be cast to the type asked for.
	ErrConversion = errclass.Conversion
	// ErrOutOfRange means arithmetic overflowed its result type.
	ErrOutOfRange = errclass.OutOfRange
	// ErrIO means a source's files cannot be found or opened.
	ErrIO = errclass.IO
	// ErrNotImplemented means valid SQL that pqsql does not run yet (joins,
	// window functions, ...).
	ErrNotImplemented = errclass.NotImplemented
	// ErrCatalog means a view that does not exist.
	ErrCatalog = errclass.Catalog
	// ErrInvalidInput means a construct used where DuckDB refuses it, such
	// as FILTER or DISTINCT on a scalar function.
	ErrInvalidInput = errclass.InvalidInput
	// ErrNotGrouped is the Binder Error of a column used outside GROUP BY
	// and outside an aggregate; the binder retries such an expression
	// against the group keys.
	ErrNotGrouped = errclass.Sub(errclass.Binder, "Binder Error")
	// ErrSyntax means text DuckDB's parser refuses once it sees the values,
	// such as a LIKE pattern ending in its escape character.
	ErrSyntax = errclass.Sub(errclass.Parser, "Syntax Error")
)

// An Error is a planner error located in the statement's text, as DuckDB
// locates its binder errors: at the column reference, function call,
// operator, cast or source it is about. Error returns the wrapped error's
// text unchanged (the shell draws the position as an excerpt with a
// caret), and errors.Is sees through it to the class and sentinels.
//
// An Error without a position (Located false) is settled: DuckDB reports
// it without one (an overflow while folding constants, an error in a
// view's body), and no enclosing expression may claim it.
type Error struct {
	Err     error
	Pos     sql.Position
	Located bool
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the located error.
func (e *Error) Unwrap() error { return e.Err }

// Position returns where in the statement the error is, when known.
func (e *Error) Position() (sql.Position, bool) { return e.Pos, e.Located }

// locateAt attaches pos to err unless err is already settled (located, or
// known to have no position).
func locateAt(err error, pos sql.Position, ok bool) error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return err
	}
	if !ok {
		return err
	}
	return &Error{Err: err, Pos: pos, Located: true}
}

// locate attaches the position of node, a node of sel's AST, to err (see
// locateAt). Errors of the classes DuckDB never locates (Out of Range,
// Invalid Input, I/O) are left as they are.
func locate(err error, sel *sql.Select, node ast.Node) error {
	if err == nil || !locatable(err) {
		return err
	}
	pos, ok := ast.PosOf(node)
	return locateAt(err, pos, ok)
}

// locatable reports whether DuckDB shows errors of err's class with the
// position of the expression that raised them.
func locatable(err error) bool {
	return errors.Is(err, ErrBinder) || errors.Is(err, ErrCatalog) || errors.Is(err, ErrConversion) ||
		errors.Is(err, ErrNotImplemented)
}

// unlocated settles err without a position: whatever position it holds
// belongs to another text (a view's body) or DuckDB shows none.
func unlocated(err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := err.(*Error); ok && !pe.Located {
		return err
	}
	return &Error{Err: err}
}

// locate attaches the position of e to err. A conversion error raised by
// an implicit cast of a string literal (x = 'a', x IN ('a', 'b'), CASE
// ... THEN 'a') is located at that literal, as DuckDB locates it; an
// explicit CAST at the cast.
func (b *binder) locate(err error, e ast.Expr) error {
	if _, isCast := e.(*ast.ConvertExpr); !isCast && errors.Is(err, ErrConversion) {
		if lit := quotedLiteral(e, err.Error()); lit != nil {
			return locate(err, b.sel, lit)
		}
	}
	return locate(err, b.sel, e)
}

// quotedLiteral returns the first string literal of e (outside
// subqueries) that msg quotes, or nil.
func quotedLiteral(e ast.Expr, msg string) ast.Node {
	var found ast.Node
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.SQLVal:
			if found == nil && n.Type == ast.StrVal && strings.Contains(msg, "'"+string(n.Val)+"'") {
				found = n
			}
		}
		return found == nil, nil
	}, e)
	return found
}

// locate1 attaches pos to err when DuckDB locates errors of its class.
func locate1(err error, pos sql.Position) error {
	if err == nil || !locatable(err) {
		return err
	}
	return locateAt(err, pos, true)
}
