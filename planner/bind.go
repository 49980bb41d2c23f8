package planner

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// A binder binds AST expressions against one stage's columns.
type binder struct {
	cols   []Column
	names  *columnIndex // built from cols on the first lookup
	needed []bool
	// agg is set while binding expressions evaluated after aggregation.
	agg *aggState
	// sel is the query being bound (its sources, for names and errors).
	sel *sql.Select
	// plan plans a subquery expression's query (subquery.go); nil where
	// none may appear.
	plan func(ast.SelectStatement) (*Plan, error)
	// win collects window calls where the SELECT allows them (window.go).
	win *windowState
	// depth counts the bind calls under way: 1 while binding a whole
	// expression, more inside it (see settleConstant).
	depth int
	// rowsMayBeNone says the stage's input may have no rows (a FROM
	// clause): a constant that fails then fails only on a row, as in
	// DuckDB, and zero rows mean no error.
	rowsMayBeNone bool
	// outer, when positive, says the first outer columns are an enclosing
	// query's, which a correlated subquery's names reach after its own
	// (correlated.go).
	outer int
	// scalars are the values of the correlated scalar subqueries that
	// became joins (correlated_scalar.go); marks are the expressions
	// correlated EXISTS, IN, ANY and ALL subqueries became
	// (correlated_mark.go).
	scalars map[*ast.Subquery]Expr
	marks   map[ast.Expr]ast.Expr
	// enclosing are the columns of the queries this one is a subquery
	// expression of (buildCtx.enclosing).
	enclosing []Column
	// lambdas are the parameters of the lambdas whose bodies are being
	// bound, innermost last (lambda.go).
	lambdas []lambdaScope
	// scope is the rows of the queries this one is a correlated subquery
	// of, innermost first; subquery plans the subquery expressions of
	// this one in the scope of its row (correlated_loop.go).
	scope    *outerScope
	subquery subqueryBuilder
}

// aggState collects group keys and aggregate calls of one SELECT.
type aggState struct {
	keys    []Expr
	keyStr  []string
	aggs    []*AggCall
	aggStr  map[string]int
	inputer *binder
	// outerAggs are the names that stand for this query's aggregates in
	// its subqueries (correlated_aggregates.go).
	outerAggs map[*ast.ColName]*ast.FuncExpr
	// sets are the grouping sets, nil for a plain GROUP BY.
	sets [][]int
	// aliases are the select-list aliases GROUP BY named keys by, which
	// grouping() may name them by too.
	aliases map[string]ast.Expr
}

func binderError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrBinder}, args...)...)
}

// firstAggregate returns the first aggregate call of e (outside
// subqueries), the node DuckDB's errors about a misplaced aggregate point
// at, or nil.
func firstAggregate(e ast.Expr) ast.Node {
	var found ast.Node
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.FuncExpr:
			if found == nil && IsAggregate(n.Name.Lowered()) && n.Over == nil {
				found = n
			}
		case *ast.Subquery:
			return false, nil
		}
		return found == nil, nil
	}, e)
	return found
}

// hasAgg reports whether an AST expression calls an aggregate function.
func hasAgg(e ast.Expr) bool {
	found := false
	_ = ast.Walk(func(n ast.Node) (bool, error) {
		switch n := n.(type) {
		case *ast.FuncExpr:
			// An aggregate used as a window function is not an aggregate
			// of the query (its arguments may hold some).
			if IsAggregate(n.Name.Lowered()) && n.Over == nil {
				found = true
				return false, nil
			}
		case *ast.Subquery:
			return false, nil
		}
		return true, nil
	}, e)
	return found
}

// lookup finds a column by name: the first spelled exactly so, else the
// first equal ignoring case. The names are indexed on first use, so binding
// n references to n columns (SELECT * of a wide file) costs O(n).
func (b *binder) lookup(name string) int {
	if b.names == nil {
		b.names = newColumnIndex(b.cols)
	}
	return b.names.find(name)
}

// A columnIndex maps names to the first column spelled so, and case-folded
// names to the first column equal to them ignoring case.
type columnIndex struct {
	exact, folded map[string]int
	// other is the second column equal to a folded name, for the
	// ambiguity check.
	other map[string]int
	// qualExact maps (folded table, name) to the last column spelled so,
	// qualFolded (folded table, folded name) to the first, hidden ones
	// included, for qualified names.
	qualExact, qualFolded map[[2]string]int
}

func newColumnIndex(cols []Column) *columnIndex {
	x := &columnIndex{exact: make(map[string]int, len(cols)), folded: make(map[string]int, len(cols)),
		other: map[string]int{}, qualExact: make(map[[2]string]int, len(cols)), qualFolded: make(map[[2]string]int, len(cols))}
	for i, c := range cols {
		k := foldKey(c.Name)
		t := foldKey(c.Table)
		x.qualExact[[2]string{t, c.Name}] = i
		if _, ok := x.qualFolded[[2]string{t, k}]; !ok {
			x.qualFolded[[2]string{t, k}] = i
		}
		// A USING column's duplicate is reached only by a qualified name.
		if c.Hidden {
			continue
		}
		if _, ok := x.exact[c.Name]; !ok {
			x.exact[c.Name] = i
		}
		if _, ok := x.folded[k]; !ok {
			x.folded[k] = i
		} else if _, ok := x.other[k]; !ok {
			x.other[k] = i
		}
	}
	return x
}

// ambiguous returns a column other than i equal to name ignoring case
// (the first such), or -1; i is the column find returned for name.
func (x *columnIndex) ambiguous(name string, i int) int {
	k := foldKey(name)
	first, ok := x.folded[k]
	if !ok {
		return -1
	}
	if first != i {
		return first
	}
	if j, ok := x.other[k]; ok {
		return j
	}
	return -1
}

// findQualified returns the column table.name: the last spelled so, else
// the first equal to it ignoring case, or -1.
func (x *columnIndex) findQualified(table, name string) int {
	t := foldKey(table)
	if i, ok := x.qualExact[[2]string{t, name}]; ok {
		return i
	}
	if i, ok := x.qualFolded[[2]string{t, foldKey(name)}]; ok {
		return i
	}
	return -1
}

func (x *columnIndex) find(name string) int {
	if i, ok := x.exact[name]; ok {
		return i
	}
	if i, ok := x.folded[foldKey(name)]; ok {
		return i
	}
	return -1
}

// foldKey maps s to a key two strings share exactly when strings.EqualFold
// holds for them: each rune becomes the smallest rune of its case-folding
// orbit.
func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < 0x80
	}
	if ascii {
		// The least rune of an ASCII letter's orbit is its upper case
		// (the Kelvin sign and the long s sort above 'K' and 'S').
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// unknownColumn is DuckDB's binder error for an unknown column, with the
// most similar names of the FROM clause's columns (qualified where two
// tables share one).
func (b *binder) unknownColumn(name string) error {
	if len(b.cols) == 0 {
		return binderError("Referenced column \"%s\" was not found because the FROM clause is missing", name)
	}
	count := map[string]int{}
	for _, c := range b.cols {
		if !c.Hidden {
			count[strings.ToLower(c.Name)]++
		}
	}
	var names, bare []string
	for _, c := range b.cols {
		switch {
		case c.Hidden:
			continue
		case count[strings.ToLower(c.Name)] > 1 && c.Table != "":
			names = append(names, c.Table+"."+c.Name)
		default:
			names = append(names, c.Name)
		}
		bare = append(bare, c.Name)
	}
	return binderError("Referenced column \"%s\" not found in FROM clause!%s", name,
		candidatesLine("Candidate bindings", similarNames(names, bare, name)))
}

// unknownTable is DuckDB's binder error for a qualifier that names no
// table of the FROM clause, with the most similar table names.
func unknownTable(cols []Column, table string) error {
	var tables []string
	seen := map[string]bool{}
	for _, c := range cols {
		if k := strings.ToLower(c.Table); c.Table != "" && !seen[k] {
			seen[k] = true
			tables = append(tables, c.Table)
		}
	}
	return binderError("Referenced table \"%s\" not found!%s", table, candidatesLine("Candidate tables", similarNames(tables, nil, table)))
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// fold evaluates x now when all its inputs are constant.
func fold(x Expr) (Expr, error) {
	if _, ok := x.(*Const); ok {
		return x, nil
	}
	switch x.(type) {
	case *ColRef, *LambdaParam, *Lambda:
		return x, nil
	}
	if _, ok := IsUnnest(x); ok {
		return x, nil // expanded by the projection, never folded
	}
	if hasSubquery(x) {
		// Known only once the executor has run it.
		return x, nil
	}
	if c, ok := foldNullArgument(x); ok {
		return c, nil
	}
	for _, c := range Children(x) {
		if _, ok := c.(*Const); !ok {
			return x, nil
		}
	}
	d, err := Eval(x, nil)
	if err != nil {
		// As DuckDB, a constant that fails is left to fail on a row that
		// reaches it: none does under false AND, or in a coalesce that
		// stops at an earlier argument.
		return x, nil
	}
	return &Const{Value: d, T: x.Type()}, nil
}

// castTo converts x to type t, folding constants. An implicit cast of a
// constant that fails is an error now: 'abc' + 1 fails to bind.
func castTo(x Expr, t Type) (Expr, error) {
	if x.Type() == t {
		return x, nil
	}
	if c, ok := x.(*Const); ok {
		d, err := CastDatum(c.Value, c.T, t)
		if err != nil {
			return nil, err
		}
		return &Const{Value: d, T: t}, nil
	}
	return fold(&Cast{X: x, T: t})
}

// bind binds an AST expression.
// An error gets the position of the innermost expression that raised it
// (see locate); an error of constant folding gets none, as in DuckDB.
func (b *binder) bind(e ast.Expr) (Expr, error) {
	b.depth++
	defer func() { b.depth-- }()
	x, err := b.bind1(e)
	if err != nil {
		return nil, b.locate(err, e)
	}
	y, err := fold(x)
	if err != nil {
		return nil, unlocated(err)
	}
	if b.depth == 1 && !b.rowsMayBeNone {
		if y, err = settleConstant(y); err != nil {
			return nil, b.locate(err, e)
		}
	}
	return y, nil
}

func (b *binder) bind1(e ast.Expr) (Expr, error) {
	if c, ok := e.(*ast.ColName); ok && len(b.lambdas) > 0 {
		if p, err := b.lambdaParam(c); p != nil || err != nil {
			return p, err
		}
	}
	if b.agg != nil && !hasAgg(e) {
		in := b.agg.inputer
		if x, err := in.bind(e); err == nil {
			if _, ok := x.(*Const); ok {
				return x, nil
			}
			s := x.String()
			for i, k := range b.agg.keyStr {
				if k == s {
					return &ColRef{Index: i, Name: s, T: b.agg.keys[i].Type()}, nil
				}
			}
		} else if !errors.Is(err, ErrNotGrouped) {
			if _, ok := e.(*ast.ColName); ok {
				return nil, err
			}
		}
	}
	switch e.(type) {
	case *ast.ExistsExpr, *ast.ComparisonExpr:
		if r, ok := b.marks[e]; ok {
			return b.bind1(r)
		}
	}
	switch e := e.(type) {
	case *ast.Subquery:
		if x, ok := b.scalars[e]; ok {
			return x, nil
		}
		return b.scalarSubquery(e)
	case *ast.ExistsExpr:
		return b.existsSubquery(e)
	case *ast.ColName:
		name := e.Name.String()
		if x, ok, err := b.outerColumn(e); ok || err != nil {
			return x, err
		}
		if b.agg != nil {
			return nil, fmt.Errorf("%w: column \"%s\" must appear in the GROUP BY clause or must be part of an aggregate function.\nEither add it to the GROUP BY list, or use \"ANY_VALUE(%s)\" if the exact value of \"%s\" is not important.", ErrNotGrouped, name, name, name)
		}
		i, err := b.resolveColumn(e)
		if err != nil || i < 0 {
			if v, verr := b.variantAccess(e); v != nil || verr != nil {
				return v, verr
			}
			if v, serr := b.structAccess(e); v != nil || serr != nil {
				return v, serr
			}
		}
		if err != nil {
			return nil, err
		}
		if i < 0 {
			return nil, b.unknownColumn(name)
		}
		if b.needed != nil {
			b.needed[i] = true
		}
		return &ColRef{Index: i, Name: b.cols[i].Name, T: b.cols[i].Type}, nil
	case *ast.SQLVal:
		return literal(e)
	case *ast.NullVal:
		return &Const{Value: NullDatum, T: Type{ID: TypeNull}}, nil
	case ast.BoolVal:
		return &Const{Value: Datum{B: bool(e)}, T: Type{ID: TypeBoolean}}, nil
	case ast.ValTuple:
		// (a, b) is row(a, b), an unnamed STRUCT.
		args := make([]Expr, len(e))
		for i, x := range e {
			var err error
			if args[i], err = b.bind(x); err != nil {
				return nil, err
			}
		}
		return call("row", args)
	case *ast.ParenExpr:
		return b.bind(e.Expr)
	case *ast.AndExpr:
		return b.logic(true, e.Left, e.Right)
	case *ast.OrExpr:
		return b.logic(false, e.Left, e.Right)
	case *ast.NotExpr:
		x, err := b.boolean(e.Expr)
		if err != nil {
			return nil, err
		}
		return &Not{X: x}, nil
	case *ast.ComparisonExpr:
		return b.comparison(e)
	case *ast.RangeCond:
		x, err := b.bind(e.Left)
		if err != nil {
			return nil, err
		}
		lo, err := b.bind(e.From)
		if err != nil {
			return nil, err
		}
		hi, err := b.bind(e.To)
		if err != nil {
			return nil, err
		}
		xs, err := unify(x, lo, hi)
		if err != nil {
			return nil, err
		}
		return &Between{X: xs[0], Lo: xs[1], Hi: xs[2], Not: e.Operator == ast.NotBetweenStr}, nil
	case *ast.IsExpr:
		x, err := b.bind(e.Expr)
		if err != nil {
			return nil, err
		}
		switch e.Operator {
		case ast.IsNullStr:
			return &IsNull{X: x}, nil
		case ast.IsNotNullStr:
			return &IsNull{X: x, Not: true}, nil
		}
		// IS [NOT] TRUE/FALSE: never NULL.
		x, err = castTo(x, Type{ID: TypeBoolean})
		if err != nil {
			return nil, err
		}
		want := e.Operator == ast.IsTrueStr || e.Operator == ast.IsNotTrueStr
		neg := e.Operator == ast.IsNotTrueStr || e.Operator == ast.IsNotFalseStr
		cmp := &Logic{And: true, Xs: []Expr{&IsNull{X: x, Not: true}, &Binary{Op: "=", L: x, R: &Const{Value: Datum{B: want}, T: Type{ID: TypeBoolean}}, T: Type{ID: TypeBoolean}}}}
		if neg {
			return &Not{X: cmp}, nil
		}
		return cmp, nil
	case *ast.BinaryExpr:
		l, err := b.bind(e.Left)
		if err != nil {
			return nil, err
		}
		r, err := b.bind(e.Right)
		if err != nil {
			return nil, err
		}
		if IsBitwiseOperator(e.Operator) {
			return bitwise(e.Operator, l, r)
		}
		return arithmetic(e.Operator, l, r)
	case *ast.UnaryExpr:
		x, err := b.bind(e.Expr)
		if err != nil {
			return nil, err
		}
		switch e.Operator {
		case ast.UMinusStr:
			if c, ok := x.(*Const); ok && c.Literal {
				return negLiteral(c), nil
			}
			if isNullConst(x) {
				return &Const{Value: NullDatum, T: tBigInt}, nil // DuckDB's -(BIGINT)
			}
			if !x.Type().IsNumeric() && x.Type().ID != TypeInterval {
				return nil, binderError("No function matches the given name and argument types '-(%s)'", x.Type())
			}
			return &Neg{X: x}, nil
		case ast.UPlusStr:
			return x, nil
		case ast.BangStr:
			x, err = castTo(x, Type{ID: TypeBoolean})
			if err != nil {
				return nil, err
			}
			return &Not{X: x}, nil
		case ast.TildaStr:
			return bitwiseNot(x)
		}
		return nil, fmt.Errorf("%w: unary operator %s", ErrNotImplemented, e.Operator)
	case *ast.FuncExpr:
		name := e.Name.Lowered()
		if e.Over != nil {
			return b.window(e)
		}
		if x, ok, err := b.nestedCall(e, name); ok {
			return x, err
		}
		if IsAggregate(name) {
			return b.aggregate(e)
		}
		if e.Distinct || e.Filter != nil || e.OrderBy != nil {
			return nil, errArgOrderScalar(name)
		}
		args := make([]Expr, 0, len(e.Exprs))
		for _, se := range e.Exprs {
			ae, ok := se.(*ast.AliasedExpr)
			if !ok {
				return nil, binderError("%s(*) is not a function call pqsql knows", name)
			}
			x, err := b.bind(ae.Expr)
			if err != nil {
				return nil, err
			}
			args = append(args, x)
		}
		return call(name, args)
	case *ast.CaseExpr:
		return b.caseExpr(e)
	case *ast.IntervalExpr:
		return b.intervalExpr(e) // interval_bind.go
	case *ast.Subscript, *ast.FieldAccess, *ast.Slice, *ast.StructLiteral, *ast.MapLiteral:
		return b.nested(e) // nested_bind.go
	case *ast.ListLiteral:
		return b.bind1(listValueCall(e))
	case *ast.Lambda:
		return nil, binderError("a lambda function is only allowed as an argument of a list function")
	case *ast.ConvertExpr:
		if e.Try {
			return b.tryCast(e)
		}
		x, err := b.bind(e.Expr)
		if err != nil {
			return nil, err
		}
		t, ok := typeOfCast(e.Type)
		if !ok {
			return nil, fmt.Errorf("%w: cast to %s", ErrNotImplemented, e.Type.Type)
		}
		if isVariant(x.Type()) {
			return variantCast(x, t)
		}
		if y, ok, err := nestedCast(x, t); ok {
			return y, err
		}
		if x.Type().ID == TypeNested && t.ID != TypeVarchar {
			return nil, fmt.Errorf("%w: cast of nested values", ErrNotImplemented)
		}
		y, err := x, error(nil)
		if x.Type() != t {
			// Unlike an implicit cast, an explicit one that fails waits
			// for a row that reaches it (fold).
			y, err = fold(&Cast{X: x, T: t})
		}
		if c, ok := y.(*Const); ok && c.Literal {
			// CAST(1 AS INTEGER) is typed, no longer a literal.
			y = &Const{Value: c.Value, T: c.T}
		}
		return y, err
	}
	return nil, fmt.Errorf("%w: expression %s", ErrNotImplemented, ast.String(e))
}

// negLiteral negates an integer literal as DuckDB's parser does: a literal
// that fits INTEGER is an INTEGER and stays one; any other is read again,
// minus sign included, as BIGINT, HUGEINT or DOUBLE by its value (so
// -2147483648 is a BIGINT and -9223372036854775808 too).
func negLiteral(c *Const) *Const {
	n := new(big.Int).Neg(bigOf(c.Value, c.T))
	if c.T.ID == TypeInteger {
		return &Const{Value: Datum{I: n.Int64()}, T: c.T, Literal: true}
	}
	lit := intLiteral(n)
	if lit.T.ID == TypeInteger {
		lit.T = Type{ID: TypeBigInt}
	}
	return lit
}

// intLiteral types an integer literal as DuckDB does: INTEGER, BIGINT or
// HUGEINT by size, DOUBLE beyond HUGEINT.
func intLiteral(n *big.Int) *Const {
	switch {
	case n.IsInt64() && n.Int64() >= -1<<31 && n.Int64() < 1<<31:
		return &Const{Value: Datum{I: n.Int64()}, T: Type{ID: TypeInteger}, Literal: true}
	case n.IsInt64():
		return &Const{Value: Datum{I: n.Int64()}, T: Type{ID: TypeBigInt}, Literal: true}
	case n.BitLen() <= 127:
		return &Const{Value: Datum{Big: n}, T: Type{ID: TypeHugeInt}, Literal: true}
	}
	f, _ := new(big.Float).SetInt(n).Float64()
	return &Const{Value: Datum{F: f}, T: Type{ID: TypeDouble}}
}

// literal types a constant as DuckDB does: integers as INTEGER, BIGINT or
// HUGEINT by size, 1.5 and 0.5 as DECIMAL(2,1), 1e5 as DOUBLE.
func literal(v *ast.SQLVal) (Expr, error) {
	s := string(v.Val)
	switch v.Type {
	case ast.StrVal:
		return &Const{Value: Datum{S: s}, T: Type{ID: TypeVarchar}}, nil
	case ast.IntVal, ast.HexNum:
		n, ok := new(big.Int).SetString(s, 0)
		if !ok {
			return nil, binderError("bad integer literal %s", s)
		}
		if strings.HasPrefix(s, "-") {
			// The parser folded a minus into the number.
			return negLiteral(intLiteral(new(big.Int).Neg(n))), nil
		}
		return intLiteral(n), nil
	case ast.FloatVal:
		if strings.ContainsAny(s, "eE") {
			d, err := castString(s, Type{ID: TypeVarchar}, Type{ID: TypeDouble})
			return &Const{Value: d, T: Type{ID: TypeDouble}}, err
		}
		whole, frac, _ := strings.Cut(s, ".")
		whole = strings.TrimLeft(whole, "0")
		p := len(whole) + len(frac)
		if p > 38 {
			d, err := castString(s, Type{ID: TypeVarchar}, Type{ID: TypeDouble})
			return &Const{Value: d, T: Type{ID: TypeDouble}}, err
		}
		// DuckDB counts a zero before the point as a digit: 0.5 is DECIMAL(2,1).
		t := Type{ID: TypeDecimal, Precision: max(len(whole), 1) + len(frac), Scale: len(frac)}
		d, err := castString(s, Type{ID: TypeVarchar}, t)
		return &Const{Value: d, T: t}, err
	}
	return nil, fmt.Errorf("%w: literal %s", ErrNotImplemented, s)
}

func (b *binder) boolean(e ast.Expr) (Expr, error) {
	x, err := b.bind(e)
	if err != nil {
		return nil, err
	}
	if x.Type().ID != TypeBoolean && x.Type().ID != TypeNull {
		return castTo(x, Type{ID: TypeBoolean})
	}
	return x, nil
}

func (b *binder) logic(and bool, l, r ast.Expr) (Expr, error) {
	out := &Logic{And: and}
	for _, e := range []ast.Expr{l, r} {
		x, err := b.boolean(e)
		if err != nil {
			return nil, err
		}
		if lx, ok := x.(*Logic); ok && lx.And == and {
			out.Xs = append(out.Xs, lx.Xs...)
		} else {
			out.Xs = append(out.Xs, x)
		}
	}
	return out, nil
}

// unify casts expressions to their common type. A string constant takes
// the type of the others, as DuckDB's string literals do.
func unify(xs ...Expr) ([]Expr, error) {
	var typed []Expr
	for _, x := range xs {
		if c, ok := x.(*Const); ok && c.T.ID == TypeVarchar {
			continue
		}
		typed = append(typed, x)
	}
	t, err := commonTypeOf(typed, "Cannot compare values of type %s and type %s - an explicit cast is required")
	if err != nil {
		return nil, err
	}
	if t.ID == TypeNull {
		t = Type{ID: TypeVarchar}
		for _, x := range xs {
			if x.Type().ID != TypeNull && x.Type().ID != TypeVarchar {
				t = x.Type()
			}
		}
	}
	// A numeric constant that converts exactly keeps the column's type, so
	// that the column need not be cast (and pushdown sees the bare column).
	out := make([]Expr, len(xs))
	for i, x := range xs {
		y, err := castTo(x, t)
		if err != nil {
			return nil, err
		}
		out[i] = y
	}
	return out, nil
}

// isIntLiteral reports whether x is an integer literal of the query.
func isIntLiteral(x Expr) bool {
	c, ok := x.(*Const)
	return ok && c.Literal
}

// adoptLiteral gives an integer literal the integer type t of the other
// operand when its value fits, as DuckDB's integer literals do; anything
// else is returned as it is.
func adoptLiteral(x Expr, t Type) Expr {
	c, ok := x.(*Const)
	if !ok || !c.Literal || !t.IsInteger() || c.T == t {
		return x
	}
	d, err := CastDatum(c.Value, c.T, t)
	if err != nil {
		return x
	}
	return &Const{Value: d, T: t, Literal: true}
}

// commonTypeOf is the type the expressions are cast to when they meet
// (IN, BETWEEN, coalesce, CASE): integer literals are left out when they
// fit the type of the others. msg formats the binder error with two types.
func commonTypeOf(xs []Expr, msg string) (Type, error) {
	t := Type{ID: TypeNull}
	var lits []Expr
	for _, x := range xs {
		if isIntLiteral(x) {
			lits = append(lits, x)
			continue
		}
		nt, ok := commonType(t, x.Type())
		if !ok {
			return Type{}, binderError(msg, t, x.Type())
		}
		t = nt
	}
	for _, x := range lits {
		if adoptLiteral(x, t).Type() == t {
			continue
		}
		nt, ok := commonType(t, x.Type())
		if !ok {
			return Type{}, binderError(msg, t, x.Type())
		}
		t = nt
	}
	return t, nil
}

// narrowConst casts a numeric constant to the other side's numeric type
// when that loses nothing, and reports whether it did.
func narrowConst(c *Const, t Type) (Expr, bool) {
	if !c.T.IsNumeric() || !t.IsNumeric() || c.Value.Null {
		return nil, false
	}
	if (c.T.ID == TypeDouble || c.T.ID == TypeFloat) && !exactIn(t, c.T, c.Value.F) {
		// DuckDB compares such a column with a float literal in floating
		// point, where distinct values of t may round to one number: casting
		// the literal to t instead would compare exactly and differ.
		return nil, false
	}
	d, err := CastDatum(c.Value, c.T, t)
	if err != nil {
		return nil, false
	}
	back, err := CastDatum(d, t, c.T)
	if err != nil || Compare(back, c.Value, c.T) != 0 {
		return nil, false
	}
	return &Const{Value: d, T: t}, true
}

// exactIn reports whether comparing a value of the numeric type t with the
// float v of type f gives the same answer in floating point as exactly:
// true for integers of up to 53 (DOUBLE) or 24 (FLOAT) bits, for larger
// integers when |v| is below 2^53 (2^24), where rounding cannot reach v,
// and for decimals of up to 15 (or 6) digits.
func exactIn(t, f Type, v float64) bool {
	bits, digits := 53, 15
	if f.ID == TypeFloat {
		bits, digits = 24, 6
	}
	switch {
	case t.ID == TypeDouble || t.ID == TypeFloat:
		return t.ID == f.ID || f.ID == TypeDouble
	case t.ID == TypeDecimal:
		return t.Precision <= digits
	case t.IsInteger():
		return intBits[t.ID] > 0 && intBits[t.ID] <= bits || math.Abs(v) < math.Ldexp(1, bits)
	}
	return false
}

var cmpOps = map[string]string{"=": "=", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

func (b *binder) comparison(e *ast.ComparisonExpr) (Expr, error) {
	if e.Operator == sql.IsDistinctFromStr || e.Operator == sql.IsNotDistinctFromStr {
		return b.distinctFrom(e) // friendly.go
	}
	if op, all, ok := sql.Quantified(e.Operator); ok {
		return b.quantified(e, op, all)
	}
	l, err := b.bind(e.Left)
	if err != nil {
		return nil, err
	}
	switch e.Operator {
	case sql.BBoxOverlapStr:
		// a && b is ST_Intersects_Extent, so it prunes through the same leaf.
		r, err := b.bind(e.Right)
		if err != nil {
			return nil, err
		}
		return call("st_intersects_extent", []Expr{l, r})
	case sql.GlobStr, sql.SimilarToStr, sql.NotSimilarToStr:
		r, err := b.bind(e.Right)
		if err != nil {
			return nil, err
		}
		return patternMatch(e.Operator, l, r) // pattern.go
	case ast.InStr, ast.NotInStr:
		tuple, ok := e.Right.(ast.ValTuple)
		if sq, isSub := e.Right.(*ast.Subquery); isSub {
			return b.inSubquery(l, sq, e.Operator == ast.NotInStr)
		}
		if !ok {
			return nil, fmt.Errorf("%w: IN with %s", ErrNotImplemented, ast.String(e.Right))
		}
		xs := []Expr{l}
		for _, v := range tuple {
			x, err := b.bind(v)
			if err != nil {
				return nil, err
			}
			if c, ok := x.(*Const); ok {
				if n, ok := narrowConst(c, l.Type()); ok {
					x = n
				}
			}
			xs = append(xs, x)
		}
		xs, err = unify(xs...)
		if err != nil {
			return nil, err
		}
		return &InList{X: xs[0], List: xs[1:], Not: e.Operator == ast.NotInStr}, nil
	}
	r, err := b.bind(e.Right)
	if err != nil {
		return nil, err
	}
	switch e.Operator {
	case ast.LikeStr, ast.NotLikeStr, "ilike", "not ilike":
		for _, x := range []Expr{l, r} {
			if id := x.Type().ID; id != TypeVarchar && id != TypeNull {
				// DuckDB casts nothing to text to match a pattern.
				return nil, noMatch(likeFunctionName(e.Operator), []Expr{l, r})
			}
		}
		if l, err = castTo(l, Type{ID: TypeVarchar}); err != nil {
			return nil, err
		}
		if r, err = castTo(r, Type{ID: TypeVarchar}); err != nil {
			return nil, err
		}
		like := &Like{X: l, Pattern: r, Not: strings.HasPrefix(e.Operator, "not"), Fold: strings.HasSuffix(e.Operator, "ilike")}
		if e.Escape != nil {
			esc, err := b.bind(e.Escape)
			if err != nil {
				return nil, err
			}
			if like.Escape, err = castTo(esc, Type{ID: TypeVarchar}); err != nil {
				return nil, err
			}
		}
		if err := compileLike(like); err != nil {
			return nil, err
		}
		return like, nil
	}
	op, ok := cmpOps[e.Operator]
	if !ok {
		return nil, fmt.Errorf("%w: operator %s", ErrNotImplemented, e.Operator)
	}
	if c, ok := r.(*Const); ok {
		if n, ok := narrowConst(c, l.Type()); ok {
			r = n
		}
	}
	if c, ok := l.(*Const); ok {
		if n, ok := narrowConst(c, r.Type()); ok {
			l = n
		}
	}
	xs, err := unify(l, r)
	if err != nil {
		return nil, err
	}
	return &Binary{Op: op, L: xs[0], R: xs[1], T: Type{ID: TypeBoolean}}, nil
}

// likeFunctionName is DuckDB's name of the function behind a LIKE
// operator, which its binder errors show.
func likeFunctionName(op string) string {
	switch op {
	case ast.NotLikeStr:
		return "!~~"
	case "ilike":
		return "~~*"
	case "not ilike":
		return "!~~*"
	}
	return "~~"
}

// arithmetic types a binary operator by DuckDB's rules.
func arithmetic(op string, l, r Expr) (Expr, error) {
	switch op {
	case "+", "-", "*", "/", "%", "div", "^", "||":
	default:
		// An operator the evaluator does not know must never reach it.
		return nil, fmt.Errorf("%w: operator %s", ErrNotImplemented, op)
	}
	lt, rt := l.Type(), r.Type()
	if op == "||" {
		return bindConcatOperator(l, r)
	}
	if lt.ID == TypeNull || rt.ID == TypeNull {
		t := lt
		if t.ID == TypeNull {
			t = rt
		}
		return &Const{Value: NullDatum, T: t}, nil
	}
	if ambiguous(op, l, r) {
		return nil, binderError("Could not choose a best candidate function for the function call \"%s(%s, %s)\". In order to select one, please add explicit type casts.", op, argKind(l), argKind(r))
	}
	if x, ok, err := temporalArithmetic(op, l, r); ok {
		return x, err // interval_arith.go
	}
	if c, ok := l.(*Const); ok && lt.ID == TypeVarchar && rt.ID == TypeDate && op == "-" {
		// '2024-01-01' - d: DuckDB's only candidate is DATE - DATE.
		x, err := castTo(c, rt)
		if err != nil {
			return nil, err
		}
		l, lt = x, rt
	}
	// A string literal takes the other operand's type; facing a DECIMAL
	// it is a DOUBLE, as DuckDB binds it ('1.25' + 1.5 is 2.75).
	if c, ok := l.(*Const); ok && lt.ID == TypeVarchar && rt.IsNumeric() {
		x, err := castTo(c, stringOperandType(rt))
		if err != nil {
			return nil, err
		}
		l, lt = x, x.Type()
	}
	if c, ok := r.(*Const); ok && rt.ID == TypeVarchar && lt.IsNumeric() {
		x, err := castTo(c, stringOperandType(lt))
		if err != nil {
			return nil, err
		}
		r, rt = x, x.Type()
	}
	if isIntLiteral(l) != isIntLiteral(r) {
		l, r = adoptLiteral(l, rt), adoptLiteral(r, lt)
		lt, rt = l.Type(), r.Type()
	}
	switch {
	case lt.ID == TypeDate && dateOffsetType(rt) && (op == "+" || op == "-"):
		r2, err := castTo(r, Type{ID: TypeBigInt})
		if err != nil {
			return nil, err
		}
		return &Binary{Op: op, L: &Cast{X: l, T: Type{ID: TypeBigInt}}, R: r2, T: Type{ID: TypeDate}}, nil
	case dateOffsetType(lt) && rt.ID == TypeDate && op == "+":
		l2, err := castTo(l, Type{ID: TypeBigInt})
		if err != nil {
			return nil, err
		}
		return &Binary{Op: op, L: l2, R: &Cast{X: r, T: Type{ID: TypeBigInt}}, T: Type{ID: TypeDate}}, nil
	case lt.ID == TypeDate && rt.ID == TypeDate && op == "-":
		return &Binary{Op: op, L: &Cast{X: l, T: Type{ID: TypeBigInt}}, R: &Cast{X: r, T: Type{ID: TypeBigInt}}, T: Type{ID: TypeBigInt}}, nil
	case !lt.IsNumeric() || !rt.IsNumeric():
		return nil, binderError("No function matches the given name and argument types '%s(%s, %s)'. You might need to add explicit type casts.", op, lt, rt)
	}
	both := func(t, res Type) (Expr, error) {
		a, err := castTo(l, t)
		if err != nil {
			return nil, err
		}
		b, err := castTo(r, t)
		if err != nil {
			return nil, err
		}
		return &Binary{Op: op, L: a, R: b, T: res}, nil
	}
	isFloat := func(t Type) bool { return t.ID == TypeFloat || t.ID == TypeDouble }
	// FLOAT meets anything but DOUBLE as FLOAT; / of integers and
	// decimals is DOUBLE, of FLOATs FLOAT.
	floatType := Type{ID: TypeDouble}
	if (lt.ID == TypeFloat || rt.ID == TypeFloat) && lt.ID != TypeDouble && rt.ID != TypeDouble {
		floatType = Type{ID: TypeFloat}
	}
	switch {
	case op == "^":
		return both(Type{ID: TypeDouble}, Type{ID: TypeDouble})
	case op == "/":
		return both(floatType, floatType)
	case isFloat(lt) || isFloat(rt):
		return both(floatType, floatType)
	case lt.ID == TypeDecimal || rt.ID == TypeDecimal:
		if op == "div" {
			// DuckDB divides decimals with // as DOUBLEs.
			return both(Type{ID: TypeDouble}, Type{ID: TypeDouble})
		}
		dl, dr := asDecimal(lt), asDecimal(rt)
		switch op {
		case "*":
			// DuckDB's width: the sum of the widths, held to 18 (checked for
			// overflow) when both inputs fit 18 digits, and to 38.
			width := dl.Precision + dr.Precision
			if width > 18 && max(dl.Precision, dr.Precision) <= 18 && dl.Scale+dr.Scale < 18 {
				width = 18
			}
			t := Type{ID: TypeDecimal, Precision: min(38, width), Scale: dl.Scale + dr.Scale}
			if dl.Scale+dr.Scale > 38 {
				return both(Type{ID: TypeDouble}, Type{ID: TypeDouble})
			}
			a, err := castTo(l, dl)
			if err != nil {
				return nil, err
			}
			b, err := castTo(r, dr)
			if err != nil {
				return nil, err
			}
			return &Binary{Op: op, L: a, R: b, T: t}, nil
		case "+", "-", "%":
			scale := max(dl.Scale, dr.Scale)
			width := max(dl.Precision-dl.Scale, dr.Precision-dr.Scale) + scale
			if op != "%" {
				width++
			}
			if width > 18 && max(dl.Precision, dr.Precision) <= 18 {
				// As for *: inputs of at most 18 digits add in 18,
				// checked for overflow.
				width = 18
			}
			t := Type{ID: TypeDecimal, Precision: min(38, width), Scale: scale}
			return both(t, t)
		}
		return nil, binderError("No function matches the given name and argument types '%s(%s, %s)'", op, lt, rt)
	}
	t, _ := commonType(lt, rt)
	return both(t, t)
}

// stringOperandType is the type a string literal takes facing an
// arithmetic operand of type other.
func stringOperandType(other Type) Type {
	if other.ID == TypeDecimal {
		return tDouble
	}
	return other
}

// isStringLiteral reports whether x is a string constant, which DuckDB
// casts to whatever type a function's candidate wants.
func isStringLiteral(x Expr) bool {
	c, ok := x.(*Const)
	return ok && c.T.ID == TypeVarchar && !c.Value.Null
}

// ambiguous reports whether DuckDB finds two equally good candidates for
// op when one operand is a string literal: it could be a number or a DATE
// for + and -, and an INTERVAL for * and /, depending on the other operand.
func ambiguous(op string, l, r Expr) bool {
	strLeft := isStringLiteral(l)
	if strLeft == isStringLiteral(r) {
		return false
	}
	other := r.Type()
	if !strLeft {
		other = l.Type()
	}
	switch op {
	case "+":
		return other.ID == TypeInteger || other.ID == TypeDate
	case "-":
		if strLeft {
			return other.ID == TypeInteger
		}
		return other.ID == TypeDate || other.ID == TypeTimestamp
	case "*":
		return other.ID == TypeBigInt || other.ID == TypeDouble || other.ID == TypeDecimal
	case "/":
		return strLeft && other.IsNumeric() && other.ID != TypeFloat
	}
	return false
}

// argKind names an operand in DuckDB's candidate errors.
func argKind(x Expr) string {
	if c, ok := x.(*Const); ok {
		switch {
		case isStringLiteral(c):
			return "STRING_LITERAL"
		case c.Literal && c.T.ID == TypeInteger:
			return "INTEGER_LITERAL"
		}
	}
	return x.Type().String()
}

func (b *binder) caseExpr(e *ast.CaseExpr) (Expr, error) {
	out := &Case{}
	var vals []Expr
	for _, w := range e.Whens {
		var cond Expr
		var err error
		if e.Expr != nil {
			cond, err = b.bind(&ast.ComparisonExpr{Operator: "=", Left: e.Expr, Right: w.Cond})
		} else {
			cond, err = b.boolean(w.Cond)
		}
		if err != nil {
			return nil, err
		}
		v, err := b.bind(w.Val)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, When{Cond: cond})
		vals = append(vals, v)
	}
	if e.Else != nil {
		v, err := b.bind(e.Else)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	t, err := commonTypeOf(vals, "Cannot mix values of type %s and %s in CASE expression - an explicit cast is required")
	if err != nil {
		return nil, err
	}
	for i := range vals {
		v, err := castTo(vals[i], t)
		if err != nil {
			return nil, err
		}
		if i < len(out.Whens) {
			out.Whens[i].Val = v
		} else {
			out.Else = v
		}
	}
	out.T = t
	return out, nil
}

// aggregate binds an aggregate call in the aggregate stage: its argument is
// bound against the input and the call becomes a column of the stage.
func (b *binder) aggregate(e *ast.FuncExpr) (Expr, error) {
	name := aggregateFuncs[e.Name.Lowered()].Name
	if name == "grouping" {
		return b.grouping(e)
	}
	if q := orderedSetCall(e, name); q != nil {
		e = q
	}
	if hasUnnest(e.Exprs) {
		return nil, binderError("UNNEST not supported here")
	}
	if b.agg == nil {
		return nil, binderError("aggregate function calls cannot be nested or used here")
	}
	in := b.agg.inputer
	a := &AggCall{Func: name, Distinct: e.Distinct}
	if f := e.Filter; f != nil {
		if hasAgg(f) {
			return nil, b.nestedAggregate(f)
		}
		x, err := in.boolean(f)
		if err != nil {
			return nil, err
		}
		a.Filter = x
	}
	if err := a.countStar(e, name); err != nil {
		return nil, err
	}
	fn := aggregateFuncs[name]
	a.fn = fn
	if order := e.OrderBy; order != nil {
		keys, err := b.bindArgOrder(order)
		if err != nil {
			return nil, err
		}
		a.order = keys
	}
	if fn.SeesNulls && (a.Filter != nil || a.Distinct) && a.order == nil {
		return nil, fmt.Errorf("%w: FILTER or DISTINCT in %s", ErrNotImplemented, name)
	}
	if fn.Pair {
		return b.pairAggregate(e, a, fn)
	}
	err := a.bindArgs(e, name, fn, func(x ast.Expr) (Expr, error) {
		if hasAgg(x) {
			return nil, b.nestedAggregate(x)
		}
		return in.bind(x)
	})
	if err != nil {
		return nil, err
	}
	return b.addAggregate(a)
}

// countStar makes count(*) the count_star aggregate; * is an error in any
// other aggregate.
func (a *AggCall) countStar(e *ast.FuncExpr, name string) error {
	if len(e.Exprs) == 1 {
		if _, ok := e.Exprs[0].(*ast.StarExpr); ok {
			if name != "count" {
				return binderError("%s(*) is not allowed", name)
			}
			a.Func = "count_star"
		}
	}
	return nil
}

// bindArgs binds an aggregate's value and constant parameters with bind,
// sets its result type and applies the per-function argument rules. It is
// shared by aggregates of a query and aggregates used as window functions,
// which differ only in the rows their arguments are over.
func (a *AggCall) bindArgs(e *ast.FuncExpr, name string, fn *AggregateFunc, bind func(ast.Expr) (Expr, error)) error {
	if a.Func != "count_star" {
		if len(e.Exprs) < 1 || len(e.Exprs) > 1+fn.Params {
			return binderError("No function matches the given name and argument types '%s' with %d arguments", name, len(e.Exprs))
		}
		for i, se := range e.Exprs {
			ae, ok := se.(*ast.AliasedExpr)
			if !ok {
				return binderError("bad argument to %s", name)
			}
			x, err := bind(ae.Expr)
			if err != nil {
				return err
			}
			if i == 0 {
				a.Arg = x
				continue
			}
			c, ok := x.(*Const)
			if !ok {
				return binderError("%s's argument %d must be a constant", name, i+1)
			}
			a.Params = append(a.Params, c)
		}
	}
	if name == "approx_quantile" {
		if err := a.bindApproxQuantile(); err != nil {
			return err
		}
	}
	at := Type{}
	if a.Arg != nil {
		at = a.Arg.Type()
	}
	t, err := fn.Result(at)
	if err != nil {
		return err
	}
	a.T = t
	if strings.HasPrefix(name, "quantile") && len(a.Params) > 0 {
		c := a.Params[0].(*Const)
		if q := floatOf(c.Value, c.T); !c.T.IsNumeric() || c.Value.Null || q < -1 || q > 1 || math.IsNaN(q) {
			return binderError("QUANTILE can only take parameters in the range [-1, 1]")
		}
	}
	if name == "string_agg" {
		// string_agg reads its value as text.
		if a.Arg, err = castTo(a.Arg, tVarchar); err != nil {
			return err
		}
		if len(a.Params) > 0 {
			if a.Params[0], err = castTo(a.Params[0], tVarchar); err != nil {
				return err
			}
		}
	}
	return nil
}

// addAggregate makes a bound aggregate a column of the aggregate stage,
// once per distinct call.
func (b *binder) addAggregate(a *AggCall) (Expr, error) {
	// The written form names columns without their table, so the input
	// columns it reads complete the key: max(a.x) and max(b.x) of a join
	// are two aggregates.
	a.applyOrder()
	name := a.String()
	var cols []int
	for _, e := range append([]Expr{a.Arg, a.Filter}, a.Params...) {
		inputColumns(e, &cols)
	}
	key := name + fmt.Sprint(cols)
	if a.Filter != nil {
		if err := a.foldFilter(); err != nil {
			return nil, err
		}
	}
	if i, ok := b.agg.aggStr[key]; ok {
		return &ColRef{Index: len(b.agg.keys) + i, Name: name, T: a.T}, nil
	}
	b.agg.aggStr[key] = len(b.agg.aggs)
	b.agg.aggs = append(b.agg.aggs, a)
	return &ColRef{Index: len(b.agg.keys) + len(b.agg.aggs) - 1, Name: name, T: a.T}, nil
}

// inputColumns appends the input column of every column reference in e.
func inputColumns(e Expr, out *[]int) {
	if e == nil {
		return
	}
	if c, ok := e.(*ColRef); ok {
		*out = append(*out, c.Index)
	}
	Map(e, func(x Expr) Expr {
		inputColumns(x, out)
		return x
	})
}

// nestedAggregate is DuckDB's error for an aggregate inside the argument
// x of another, located at the inner one.
func (b *binder) nestedAggregate(x ast.Expr) error {
	return locate(binderError("aggregate function calls cannot be nested"), b.sel, firstAggregate(x))
}

// pairAggregate binds a two-argument aggregate: both arguments become
// one pair expression.
func (b *binder) pairAggregate(e *ast.FuncExpr, a *AggCall, fn *AggregateFunc) (Expr, error) {
	if len(e.Exprs) != 2 {
		return nil, binderError("No function matches the given name and argument types '%s' with %d arguments", fn.Name, len(e.Exprs))
	}
	if a.Distinct {
		return nil, fmt.Errorf("%w: DISTINCT in %s", ErrNotImplemented, fn.Name)
	}
	var xs [2]Expr
	for i, se := range e.Exprs {
		ae, ok := se.(*ast.AliasedExpr)
		if !ok {
			return nil, binderError("bad argument to %s", fn.Name)
		}
		if hasAgg(ae.Expr) {
			return nil, b.nestedAggregate(ae.Expr)
		}
		x, err := b.agg.inputer.bind(ae.Expr)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	arg, t, err := bindPair(fn.Name, xs[0], xs[1])
	if err != nil {
		return nil, err
	}
	a.Arg, a.T = arg, t
	return b.addAggregate(a)
}

// dateOffsetType reports whether a DATE ± t is a day count: DuckDB defines
// it for INTEGER, and so for the integer types that cast to INTEGER
// implicitly; DATE + BIGINT is its Binder Error.
func dateOffsetType(t Type) bool {
	switch t.ID {
	case TypeTinyInt, TypeSmallInt, TypeInteger, TypeUTinyInt, TypeUSmallInt:
		return true
	}
	return false
}
