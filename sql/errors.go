package sql

import (
	"fmt"
	"github.com/pqsql/pqsql/sql/ast"
	"strings"

	"github.com/pqsql/pqsql/errclass"
)

// Sentinel errors. Every error returned by this package is an *Error whose
// Unwrap yields exactly one of these, so callers can branch with errors.Is.
// Each also matches its DuckDB class from package errclass (Parser, Not
// implemented, Internal) without changing its text.
var (
	// ErrSyntax reports text that is not valid SQL in the dialect pqsql accepts.
	ErrSyntax = errclass.Sub(errclass.Parser, "syntax error")
	// ErrUnsupported reports valid DuckDB syntax that pqsql does not implement
	// (bitwise |, prepared-statement parameters, unknown table functions, ...).
	ErrUnsupported = errclass.Sub(errclass.NotImplemented, "unsupported")
	// ErrEmpty reports input that holds no statement (only blanks, comments or ";").
	ErrEmpty = errclass.Sub(errclass.Parser, "empty statement")
	// ErrInternal reports a failure of the lowering itself; it is a bug in
	// this package, never a property of the input.
	ErrInternal = errclass.Sub(errclass.Internal, "internal error")
	// ErrExpressionDepth reports an expression nested deeper than
	// MaxExpressionDepth, DuckDB's max_expression_depth.
	ErrExpressionDepth = errclass.Sub(errclass.Parser, "Parser Error")
	// ErrBinder reports text that parses but that DuckDB's binder refuses
	// whatever the tables hold (a * inside an expression).
	ErrBinder = errclass.Sub(errclass.Binder, "Binder Error")
	// ErrCatalog reports an operator DuckDB's lexer reads as one name that
	// no function has (5|-3 names the operator |-).
	ErrCatalog = errclass.Sub(errclass.Catalog, "Catalog Error")
	// ErrInvalidUTF8 reports statement text that is not valid UTF-8.
	ErrInvalidUTF8 = errclass.Sub(errclass.InvalidInput, "Invalid Input Error")
)

// A Position locates a byte in the original SQL text (see ast.Position).
type Position = ast.Position

// An Error is a parse error located in the original text (not in the text
// handed to the MySQL parser after lowering).
type Error struct {
	Line   int    // 1-based line of the offending token
	Column int    // 1-based column (in runes) of the offending token
	Offset int    // 0-based byte offset of the offending token
	Token  string // the offending token as written; "" means end of input
	Msg    string // what was wrong, usually "expected X"
	Err    error  // one of ErrSyntax, ErrUnsupported, ErrEmpty, ErrInternal, ErrExpressionDepth, ErrInvalidUTF8, ErrBinder, ErrCatalog
}

// Error formats the error as
// `syntax error at line 1, column 15 near "FORM": expected ...`.
func (e *Error) Error() string {
	var b strings.Builder
	kind := ErrSyntax
	if e.Err != nil {
		kind = e.Err
	}
	fmt.Fprintf(&b, "%s at line %d, column %d", kind.Error(), e.Line, e.Column)
	if e.Token == "" {
		b.WriteString(", at end of input")
	} else {
		fmt.Fprintf(&b, " near %q", e.Token)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	return b.String()
}

// Unwrap returns the sentinel naming the kind of error.
func (e *Error) Unwrap() error { return e.Err }

// Pos returns the error's location as a Position.
func (e *Error) Pos() Position {
	return Position{Offset: e.Offset, Line: e.Line, Column: e.Column}
}
