package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/sql/ast"
)

// shape writes an expression with every operator parenthesized, so a
// test sees how the operators grouped.
func shape(e ast.Expr) string {
	switch n := e.(type) {
	case *ast.BinaryExpr:
		return "(" + shape(n.Left) + " " + n.Operator + " " + shape(n.Right) + ")"
	case *ast.ComparisonExpr:
		return "(" + shape(n.Left) + " " + n.Operator + " " + shape(n.Right) + ")"
	case *ast.UnaryExpr:
		return "(" + n.Operator + shape(n.Expr) + ")"
	case *ast.ParenExpr:
		return shape(n.Expr)
	}
	return ast.String(e)
}

func TestOpLevelGrouping(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`SELECT 4 | 1 & 2`, `((4 | 1) & 2)`},
		{`SELECT 1 & 2 | 4`, `((1 & 2) | 4)`},
		{`SELECT 1 | 2 << 3 >> 1 & 7`, `((((1 | 2) << 3) >> 1) & 7)`},
		{`SELECT 1 << 2 + 1 | 3 * 4`, `((1 << (2 + 1)) | (3 * 4))`},
		{`SELECT 4 | (1 & 2)`, `(4 | (1 & 2))`},
		{`SELECT a || b || 'c'`, `((a || b) || 'c')`},
		{`SELECT ~5 + 1`, `(~(5 + 1))`},
		{`SELECT ~5 * 2 | 1`, `((~(5 * 2)) | 1)`},
		{`SELECT 1 + ~5`, `(1 + (~5))`},
		{`SELECT ~x::INTEGER + y[1] - f(z) = 3`, `((~((convert(x, INTEGER) + y[1]) - f(z))) = 3)`},
		{`SELECT ~ CASE WHEN a THEN 1 END + 1`, `(~(case when a then 1 end + 1))`},
	} {
		st, err := Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		sel := st.(*Select).AST.(*ast.Select)
		if got := shape(sel.SelectExprs[0].(*ast.AliasedExpr).Expr); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.src, got, tc.want)
		}
	}
}

func TestBitwiseErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		kind error
		want string
	}{
		{`SELECT a || b | c FROM t`, ErrUnsupported, `column 15 near "|": bitwise | and string concatenation || in one query are not supported`},
		{`SELECT 5|-3`, ErrCatalog, `column 9 near "|": Scalar Function with name |- does not exist!`},
		{`SELECT -~5`, ErrCatalog, `Scalar Function with name -~ does not exist!`},
		{`SELECT 5 &-~ 3`, ErrCatalog, `Scalar Function with name &-~ does not exist!`},
		{`SELECT 'a' ~ 'b'`, ErrUnsupported, `operator ~ (regular expression match) is not supported`},
		{`SELECT ~`, ErrSyntax, `expected an expression after ~`},
	} {
		_, err := Parse(tc.src)
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %v containing %q", tc.src, err, tc.kind, tc.want)
		}
	}
	for _, src := range []string{`SELECT 1<<-1`, `SELECT 5*-3`, `SELECT a=-1 FROM t`, `SELECT 5 | -3`} {
		if _, err := Parse(src); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
}
