package planner

import (
	"errors"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// viewCatalog is a Catalog of fixed view texts.
type viewCatalog map[string]string

func (c viewCatalog) View(name string) (string, bool) {
	t, ok := c[strings.ToLower(name)]
	return t, ok
}

func planWith(t *testing.T, q string, cat Catalog) (*Plan, error) {
	t.Helper()
	st, err := sql.Parse(q)
	if err != nil {
		t.Fatalf("parse %q: %v", q, err)
	}
	return Build(st.(*sql.Select), cat)
}

// TestSubstr checks substr against DuckDB 1.5.6's answers for every start
// and length around the ends of the string.
func TestSubstr(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"substr('hello', 0)", "hello"},
		{"substr('hello', 0, 0)", ""},
		{"substr('hello', 0, 1)", ""},
		{"substr('hello', 0, 2)", "h"},
		{"substr('hello', 0, 3)", "he"},
		{"substr('hello', 0, -1)", ""},
		{"substr('hello', 0, -2)", ""},
		{"substr('hello', 0, -3)", ""},
		{"substr('hello', 0, -10)", ""},
		{"substr('hello', 0, 10)", "hello"},
		{"substr('hello', 1)", "hello"},
		{"substr('hello', 1, 0)", ""},
		{"substr('hello', 1, 1)", "h"},
		{"substr('hello', 1, 2)", "he"},
		{"substr('hello', 1, 3)", "hel"},
		{"substr('hello', 1, -1)", ""},
		{"substr('hello', 1, -2)", ""},
		{"substr('hello', 1, -3)", ""},
		{"substr('hello', 1, -10)", ""},
		{"substr('hello', 1, 10)", "hello"},
		{"substr('hello', 2)", "ello"},
		{"substr('hello', 2, 0)", ""},
		{"substr('hello', 2, 1)", "e"},
		{"substr('hello', 2, 2)", "el"},
		{"substr('hello', 2, 3)", "ell"},
		{"substr('hello', 2, -1)", "h"},
		{"substr('hello', 2, -2)", "h"},
		{"substr('hello', 2, -3)", "h"},
		{"substr('hello', 2, -10)", "h"},
		{"substr('hello', 2, 10)", "ello"},
		{"substr('hello', 3)", "llo"},
		{"substr('hello', 3, 0)", ""},
		{"substr('hello', 3, 1)", "l"},
		{"substr('hello', 3, 2)", "ll"},
		{"substr('hello', 3, 3)", "llo"},
		{"substr('hello', 3, -1)", "e"},
		{"substr('hello', 3, -2)", "he"},
		{"substr('hello', 3, -3)", "he"},
		{"substr('hello', 3, -10)", "he"},
		{"substr('hello', 3, 10)", "llo"},
		{"substr('hello', 5)", "o"},
		{"substr('hello', 5, 0)", ""},
		{"substr('hello', 5, 1)", "o"},
		{"substr('hello', 5, 2)", "o"},
		{"substr('hello', 5, 3)", "o"},
		{"substr('hello', 5, -1)", "l"},
		{"substr('hello', 5, -2)", "ll"},
		{"substr('hello', 5, -3)", "ell"},
		{"substr('hello', 5, -10)", "hell"},
		{"substr('hello', 5, 10)", "o"},
		{"substr('hello', 6)", ""},
		{"substr('hello', 6, 0)", ""},
		{"substr('hello', 6, 1)", ""},
		{"substr('hello', 6, 2)", ""},
		{"substr('hello', 6, 3)", ""},
		{"substr('hello', 6, -1)", "o"},
		{"substr('hello', 6, -2)", "lo"},
		{"substr('hello', 6, -3)", "llo"},
		{"substr('hello', 6, -10)", "hello"},
		{"substr('hello', 6, 10)", ""},
		{"substr('hello', 7)", ""},
		{"substr('hello', 7, 0)", ""},
		{"substr('hello', 7, 1)", ""},
		{"substr('hello', 7, 2)", ""},
		{"substr('hello', 7, 3)", ""},
		{"substr('hello', 7, -1)", ""},
		{"substr('hello', 7, -2)", "o"},
		{"substr('hello', 7, -3)", "lo"},
		{"substr('hello', 7, -10)", "hello"},
		{"substr('hello', 7, 10)", ""},
		{"substr('hello', -1)", "o"},
		{"substr('hello', -1, 0)", ""},
		{"substr('hello', -1, 1)", "o"},
		{"substr('hello', -1, 2)", "o"},
		{"substr('hello', -1, 3)", "o"},
		{"substr('hello', -1, -1)", "l"},
		{"substr('hello', -1, -2)", "ll"},
		{"substr('hello', -1, -3)", "ell"},
		{"substr('hello', -1, -10)", "hell"},
		{"substr('hello', -1, 10)", "o"},
		{"substr('hello', -2)", "lo"},
		{"substr('hello', -2, 0)", ""},
		{"substr('hello', -2, 1)", "l"},
		{"substr('hello', -2, 2)", "lo"},
		{"substr('hello', -2, 3)", "lo"},
		{"substr('hello', -2, -1)", "l"},
		{"substr('hello', -2, -2)", "el"},
		{"substr('hello', -2, -3)", "hel"},
		{"substr('hello', -2, -10)", "hel"},
		{"substr('hello', -2, 10)", "lo"},
		{"substr('hello', -5)", "hello"},
		{"substr('hello', -5, 0)", ""},
		{"substr('hello', -5, 1)", "h"},
		{"substr('hello', -5, 2)", "he"},
		{"substr('hello', -5, 3)", "hel"},
		{"substr('hello', -5, -1)", ""},
		{"substr('hello', -5, -2)", ""},
		{"substr('hello', -5, -3)", ""},
		{"substr('hello', -5, -10)", ""},
		{"substr('hello', -5, 10)", "hello"},
		{"substr('hello', -6)", "hello"},
		{"substr('hello', -6, 0)", ""},
		{"substr('hello', -6, 1)", ""},
		{"substr('hello', -6, 2)", "h"},
		{"substr('hello', -6, 3)", "he"},
		{"substr('hello', -6, -1)", ""},
		{"substr('hello', -6, -2)", ""},
		{"substr('hello', -6, -3)", ""},
		{"substr('hello', -6, -10)", ""},
		{"substr('hello', -6, 10)", "hello"},
		{"substr('hello', -7)", "hello"},
		{"substr('hello', -7, 0)", ""},
		{"substr('hello', -7, 1)", ""},
		{"substr('hello', -7, 2)", ""},
		{"substr('hello', -7, 3)", "h"},
		{"substr('hello', -7, -1)", ""},
		{"substr('hello', -7, -2)", ""},
		{"substr('hello', -7, -3)", ""},
		{"substr('hello', -7, -10)", ""},
		{"substr('hello', -7, 10)", "hello"},
		{"substr('héllo', 2, 2)", "él"},
		{"substr('hello', 2, 4294967295)", "ello"},
		{"substr('hello', 2, -4294967296)", "h"},
		{"substr('hello', -4294967296, 4294967295)", "hell"},
		{"substr('hello', 4294967295, -4294967295)", "hello"},
		{"substring('hello' FROM 2 FOR -1)", "h"},
		{"substring('hello' FOR 2)", "he"},
	}
	for _, tc := range tests {
		p, err := plan(t, "SELECT "+tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		c, ok := p.Project[0].(*Const)
		if !ok || c.T.ID != TypeVarchar {
			t.Errorf("%s: not a folded VARCHAR: %s", tc.expr, p.Project[0])
			continue
		}
		if c.Value.S != tc.want {
			t.Errorf("%s = %q, want %q", tc.expr, c.Value.S, tc.want)
		}
	}
}

// TestSubstrRange checks DuckDB's bounds on substr's offset and length.
func TestSubstrRange(t *testing.T) {
	for _, q := range []string{
		"SELECT substr('hello', 2, 4294967296)",
		"SELECT substr('hello', 2, -4294967297)",
		"SELECT substr('hello', 4294967296, 2)",
		"SELECT substr('hello', -4294967297)",
		"SELECT substr('hello', -9223372036854775808, 1)",
	} {
		_, err := plan(t, q)
		if !errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "outside of supported range") {
			t.Errorf("%s: error %v, want %v", q, err, ErrOutOfRange)
		}
	}
	p, err := plan(t, "SELECT substr(NULL, 9223372036854775807)")
	if err != nil || !p.Project[0].(*Const).Value.Null {
		t.Errorf("substr(NULL, big) = %v, %v; want NULL", p, err)
	}
}

// TestFilter checks that FILTER is folded into the aggregate's argument and
// keeps its written form for names and deduplication.
func TestFilter(t *testing.T) {
	chdirRoot(t)
	p, err := plan(t, `SELECT count(*) FILTER (WHERE priority > 127), sum(quantity) FILTER (priority > 127),
		count(*), count(*) FILTER (WHERE priority > 127) AS again, count(*) FILTER (WHERE NULL)
		FROM 'fixtures/orders_sorted.parquet'`)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Aggs) != 4 {
		t.Fatalf("aggregates %v, want 4 (the repeated FILTER shared)", p.Aggs)
	}
	want := []struct{ fn, arg, str string }{
		{"count", "CASE WHEN (priority > CAST('127' AS UTINYINT)) THEN 1 END", "count_star() FILTER (WHERE (priority > CAST('127' AS UTINYINT)))"},
		{"sum", "CASE WHEN (priority > CAST('127' AS UTINYINT)) THEN quantity END", "sum(quantity) FILTER (WHERE (priority > CAST('127' AS UTINYINT)))"},
		{"count_star", "<nil>", "count_star()"},
		{"count", "NULL", "count_star() FILTER (WHERE NULL)"},
	}
	for i, w := range want {
		a := p.Aggs[i]
		arg := "<nil>"
		if a.Arg != nil {
			arg = a.Arg.String()
		}
		if a.Func != w.fn || arg != w.arg || a.String() != w.str || (a.Filter == nil) != (i == 2) {
			t.Errorf("agg %d = %s %s %q filter %v, want %s %s %q", i, a.Func, arg, a.String(), a.Filter, w.fn, w.arg, w.str)
		}
	}
	if p.Scan.CountOnly {
		t.Errorf("a FILTER needs the rows; CountOnly must be off")
	}
	if !p.Scan.Needed[9] { // priority
		t.Errorf("FILTER's column priority not read: %v", p.Scan.Needed)
	}
	for _, tc := range []struct {
		q    string
		kind error
		text string
	}{
		{`SELECT count(*) FILTER (WHERE sum(quantity) > 1) FROM 'fixtures/orders_sorted.parquet'`, ErrBinder, "aggregate function calls cannot be nested"},
		{`SELECT lower(city) FILTER (WHERE true) FROM 'fixtures/orders_sorted.parquet'`, ErrInvalidInput, `Function "lower" is a Scalar Function`},
		{`SELECT lower(DISTINCT city) FROM 'fixtures/orders_sorted.parquet'`, ErrInvalidInput, `"DISTINCT", "FILTER", and "ORDER BY" are only applicable to aggregate functions`},
		{`SELECT count(*) FILTER (WHERE 'x') FROM 'fixtures/orders_sorted.parquet'`, ErrConversion, "'x'"},
		{`SELECT count(*) FILTER (WHERE nope) FROM 'fixtures/orders_sorted.parquet'`, ErrBinder, `"nope" not found`},
	} {
		_, err := plan(t, tc.q)
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: error %v, want %v containing %q", tc.q, err, tc.kind, tc.text)
		}
	}
}

// TestStringLiteralArithmetic checks where DuckDB finds a string literal
// ambiguous between a number and a DATE or INTERVAL (Binder Error) and where
// it casts it (Conversion Error on bad text).
func TestStringLiteralArithmetic(t *testing.T) {
	chdirRoot(t)
	tests := []struct {
		expr string
		kind error  // nil: plans
		want string // error text, or the folded value
	}{
		{"'abc' + 1", ErrBinder, `Could not choose a best candidate function for the function call "+(STRING_LITERAL, INTEGER_LITERAL)"`},
		{"1 + '5'", ErrBinder, `"+(INTEGER_LITERAL, STRING_LITERAL)"`},
		{"'7' - 1", ErrBinder, "Could not choose a best candidate"},
		{"'7' + 1::INTEGER", ErrBinder, `"+(STRING_LITERAL, INTEGER)"`},
		{"'7' * 1::BIGINT", ErrBinder, "Could not choose a best candidate"},
		{"'7' * 1.5", ErrBinder, "Could not choose a best candidate"},
		{"'7' / 1", ErrBinder, "Could not choose a best candidate"},
		{"DATE '2024-01-01' + '7'", ErrBinder, "Could not choose a best candidate"},
		{"DATE '2024-01-01' - '7'", ErrBinder, "Could not choose a best candidate"},
		{"'abc' * 1", ErrConversion, "'abc'"},
		{"1 - 'abc'", ErrConversion, "'abc'"},
		{"'abc' % 2", ErrConversion, "'abc'"},
		{"'abc' + 1.5", ErrConversion, "abc"},
		{"'7' + 1::BIGINT", nil, "8"},
		{"1 - '7'", nil, "-6"},
		{"'7' * 1", nil, "7"},
		{"1 / '4'", nil, "0.25"},
		{"'7' / 1.5::FLOAT", nil, "4.6666665"},
		{"'7' // 2", nil, "3"},
		{"'2024-01-03' - DATE '2024-01-01'", nil, "2"},
		{"'abc' || 1", nil, "abc1"},
	}
	for _, tc := range tests {
		p, err := plan(t, "SELECT "+tc.expr)
		if tc.kind != nil {
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want %v containing %q", tc.expr, err, tc.kind, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		if got := valueThrough(p, 0); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.expr, got, tc.want)
		}
	}
	_, err := plan(t, "SELECT priority + 'x' FROM 'fixtures/orders_sorted.parquet'")
	if !errors.Is(err, ErrConversion) {
		t.Errorf("priority + 'x': error %v, want %v", err, ErrConversion)
	}
	_, err = plan(t, "SELECT order_date + '1' FROM 'fixtures/orders_sorted.parquet'")
	if !errors.Is(err, ErrBinder) {
		t.Errorf("order_date + '1': error %v, want %v", err, ErrBinder)
	}
}

// TestLimitForms checks LIMIT ALL, LIMIT NULL, a lone OFFSET and OFFSET
// before LIMIT.
func TestLimitForms(t *testing.T) {
	tests := []struct {
		q             string
		limit, offset int64
	}{
		{"SELECT 1 LIMIT ALL", -1, 0},
		{"SELECT 1 LIMIT NULL", -1, 0},
		{"SELECT 1 OFFSET 3", -1, 3},
		{"SELECT 1 ORDER BY 1 OFFSET 3", -1, 3},
		{"SELECT 1 LIMIT ALL OFFSET 2", -1, 2},
		{"SELECT 1 OFFSET 2 LIMIT 5", 5, 2},
		{"SELECT 1 LIMIT 5 OFFSET 2", 5, 2},
	}
	for _, tc := range tests {
		p, err := plan(t, tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		if p.Limit != tc.limit || p.Offset != tc.offset {
			t.Errorf("%s: LIMIT %d OFFSET %d, want %d, %d", tc.q, p.Limit, p.Offset, tc.limit, tc.offset)
		}
	}
	for _, q := range []string{"SELECT 1 LIMIT -1", "SELECT 1 OFFSET -1"} {
		_, err := plan(t, q)
		if !errors.Is(err, ErrBinder) || !strings.Contains(err.Error(), "LIMIT/OFFSET cannot be negative") {
			t.Errorf("%s: error %v, want a Binder Error", q, err)
		}
	}
}

// TestCTE checks the scope of common table expressions.
func TestCTE(t *testing.T) {
	chdirRoot(t)
	cat := viewCatalog{
		"v": "SELECT 5 AS z",
		"w": "SELECT * FROM a", // a view never sees the CTEs of the query using it
	}
	tests := []struct {
		q     string
		names string // result column names
		value string // the first column, folded through the subqueries
	}{
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM a", "x", "1"},
		{"WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM b", "y", "2"},
		{"WITH a(p, q) AS (SELECT 1, 2) SELECT * FROM a", "p,q", "1"},
		{"WITH a(p) AS (SELECT 1, 2) SELECT * FROM a", "p,2", "1"},
		{"WITH a(p, q, r) AS (SELECT 1, 2) SELECT * FROM a", "p,q", "1"},
		{"WITH V AS (SELECT 7 AS z) SELECT * FROM v", "z", "7"}, // a CTE hides a view
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM (SELECT x * 3 AS t FROM A)", "t", "3"},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM v", "z", "5"},
		{"WITH a AS (SELECT 1 AS x), b AS (WITH a AS (SELECT 9 AS x) SELECT x FROM a) SELECT * FROM b", "x", "9"},
		{"WITH unused AS (SELECT nope FROM 'fixtures/none.parquet') SELECT 4", "4", "4"},
		{"WITH RECURSIVE a AS (SELECT 1 AS x) SELECT * FROM a", "x", "1"},
	}
	for _, tc := range tests {
		p, err := planWith(t, tc.q, cat)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		var names []string
		for _, c := range p.Columns {
			names = append(names, c.Name)
		}
		if got := strings.Join(names, ","); got != tc.names {
			t.Errorf("%s: columns %s, want %s", tc.q, got, tc.names)
		}
		if got := valueThrough(p, 0); got != tc.value {
			t.Errorf("%s: value %s, want %s", tc.q, got, tc.value)
		}
	}
	for _, tc := range []struct {
		q    string
		kind error
		text string
	}{
		{"WITH a AS (SELECT * FROM a) SELECT * FROM a", ErrBinder, `Circular reference to CTE "a", use WITH RECURSIVE to use recursive CTEs.`},
		{"WITH RECURSIVE a AS (SELECT * FROM a) SELECT * FROM a", ErrNotImplemented, "recursive CTEs"},
		{"WITH b AS (SELECT x + 1 AS y FROM a), a AS (SELECT 1 AS x) SELECT * FROM b", ErrCatalog, "Table with name a does not exist!"},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM w", ErrCatalog, "Table with name a does not exist!"},
		{"WITH a AS (SELECT 1 AS x) SELECT y FROM a", ErrBinder, `Referenced column "y" not found`},
	} {
		_, err := planWith(t, tc.q, cat)
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: error %v, want %v containing %q", tc.q, err, tc.kind, tc.text)
		}
	}
}

// valueThrough evaluates result column i of a plan whose rows come from
// constants only: SELECT without FROM, or subqueries of such.
func valueThrough(p *Plan, i int) string {
	d, err := evalThrough(p, i)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(AppendText(nil, d, p.Project[i].Type()))
}

func evalThrough(p *Plan, i int) (Datum, error) {
	var row []Datum
	if sub := p.Scan.Subquery; sub != nil && !sub.Single {
		for j := range sub.Columns {
			d, err := evalThrough(sub, j)
			if err != nil {
				return Datum{}, err
			}
			row = append(row, d)
		}
	}
	return Eval(p.Project[i], row)
}

// TestSetOps checks the planning of UNION, INTERSECT and EXCEPT.
func TestSetOps(t *testing.T) {
	chdirRoot(t)
	_, err := plan(t, "SELECT 1 UNION SELECT 2, 3")
	if !errors.Is(err, ErrBinder) || !strings.Contains(err.Error(), "Set operations can only apply to expressions with the same number of result columns") {
		t.Errorf("column count: error %v", err)
	}
	_, err = plan(t, "SELECT 2 AS a UNION SELECT 1 ORDER BY a + 1")
	if !errors.Is(err, ErrBinder) || !strings.Contains(err.Error(), `Could not ORDER BY column "(a + 1)"`) {
		t.Errorf("ORDER BY expression: error %v", err)
	}

	tests := []struct {
		q, op string
		all   bool
		types string
		name  string
	}{
		{"SELECT 1 AS a UNION SELECT 'x'", "UNION", false, "VARCHAR", "a"},
		{"SELECT 1 UNION ALL SELECT 1.5", "UNION", true, "DECIMAL(11,1)", "1"},
		{"SELECT CAST(1 AS TINYINT) UNION ALL SELECT 300", "UNION", true, "INTEGER", `CAST(1 AS "TINYINT")`},
		{"SELECT 1 UNION SELECT true", "UNION", false, "INTEGER", "1"},
		{"SELECT 'x' INTERSECT ALL SELECT NULL", "INTERSECT", true, "VARCHAR", "'x'"},
		{"SELECT order_id FROM 'fixtures/orders_sorted.parquet' EXCEPT SELECT 1", "EXCEPT", false, "BIGINT", "order_id"},
	}
	for _, tc := range tests {
		p, err := plan(t, tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		op := p.Scan.SetOp
		if op == nil || op.Op != tc.op || op.All != tc.all {
			t.Errorf("%s: set operation %+v, want %s all=%v", tc.q, op, tc.op, tc.all)
			continue
		}
		if got := p.Columns[0].Type.String(); got != tc.types || p.Columns[0].Name != tc.name {
			t.Errorf("%s: column %s %s, want %s %s", tc.q, p.Columns[0].Name, got, tc.name, tc.types)
		}
		for _, side := range []*Plan{op.Left, op.Right} {
			if side.Columns[0].Type != p.Columns[0].Type {
				t.Errorf("%s: side column type %s, want %s", tc.q, side.Columns[0].Type, p.Columns[0].Type)
			}
		}
	}
	p, err := plan(t, "SELECT 3 AS a UNION ALL SELECT 1 UNION ALL (SELECT 2 ORDER BY 1 LIMIT 1) ORDER BY a DESC NULLS FIRST LIMIT 2 OFFSET 1")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Order) != 1 || p.Order[0].Index != 0 || !p.Order[0].Desc || !p.Order[0].NullsFirst || p.Limit != 2 || p.Offset != 1 {
		t.Errorf("outer ORDER BY/LIMIT: %+v limit %d offset %d", p.Order, p.Limit, p.Offset)
	}
	left := p.Scan.SetOp.Left.Scan.SetOp
	if left == nil || p.Scan.SetOp.Right.Limit != 1 {
		t.Errorf("nesting: left %+v, right limit %d", left, p.Scan.SetOp.Right.Limit)
	}
	if got := p.Explain(); !strings.Contains(got, "UNION ALL") {
		t.Errorf("EXPLAIN does not show the set operation:\n%s", got)
	}
	var u *ast.Union
	st, _ := sql.Parse("SELECT 1 INTERSECT SELECT 2")
	u, _ = st.(*sql.Select).AST.(*ast.Union)
	if u == nil || u.Type != sql.IntersectStr {
		t.Errorf("INTERSECT parses as %v", st.(*sql.Select).AST)
	}
}
