package ast

import (
	"strings"
	"testing"
)

func col(name string) *ColName { return &ColName{Name: NewColIdent(name)} }

// TestWalkReachesDuckDBClauses checks that Walk visits the expressions held
// in fields rather than in a call's arguments.
func TestWalkReachesDuckDBClauses(t *testing.T) {
	call := &FuncExpr{Name: NewColIdent("sum"), Exprs: SelectExprs{&AliasedExpr{Expr: col("a")}},
		Filter:  col("f"),
		OrderBy: []ArgOrder{{Expr: col("k")}},
		Over: &Window{PartitionBy: []Expr{col("p")}, OrderBy: []WindowOrder{{Expr: col("o")}},
			Frame: &Frame{Start: FrameBound{Kind: Preceding, Offset: col("n")}, End: FrameBound{Kind: CurrentRow}}}}
	sel := &Select{
		SelectExprs: SelectExprs{&AliasedExpr{Expr: call}, &StarExpr{Replace: []*AliasedExpr{{Expr: col("r"), As: NewColIdent("x")}}}},
		From:        TableExprs{&AliasedTableExpr{Expr: TableName{Name: NewTableIdent("t")}}},
		Qualify:     col("q"),
		DistinctOn:  []Expr{col("d")},
		Where:       NewWhere(WhereStr, &Lambda{Params: []Expr{col("x")}, Body: &Subscript{Expr: col("l"), Index: NewIntVal([]byte("1"))}}),
	}
	u := &Union{Type: UnionStr, Left: sel, Right: &Select{}, OrderBy: OrderBy{&Order{Expr: col("u")}}, Limit: &Limit{Rowcount: col("lim")}}
	var seen []string
	Inspect(u, func(n Node) bool {
		if c, ok := n.(*ColName); ok {
			seen = append(seen, c.Name.String())
		}
		return true
	})
	if got := strings.Join(seen, " "); got != "d a k f p o n r x l q u lim" {
		t.Errorf("walk saw %q", got)
	}
}

func TestString(t *testing.T) {
	for _, tt := range []struct {
		n    Node
		want string
	}{
		{&ComparisonExpr{Operator: LikeStr, Left: col("select"), Right: NewStrVal([]byte("it's\n"))}, "`select` like 'it\\'s\\n'"},
		{&FuncExpr{Qualifier: NewTableIdent("main"), Name: NewColIdent("f"), Distinct: true, Exprs: SelectExprs{&StarExpr{}}}, "main.f(distinct *)"},
		{&ColName{Name: NewColIdent("My Col"), Qualifier: TableName{Name: NewTableIdent("t")}}, "t.`My Col`"},
		{&UnaryExpr{Operator: UMinusStr, Expr: &UnaryExpr{Operator: UMinusStr, Expr: col("x")}}, "- -x"},
		{&CaseExpr{Whens: []*When{{Cond: BoolVal(true), Val: &NullVal{}}}, Else: NewIntVal([]byte("1"))}, "case when true then null else 1 end"},
		{&Slice{Expr: col("l"), Hi: NewIntVal([]byte("2"))}, "l[:2]"},
		{&ConvertExpr{Expr: col("x"), Type: &ConvertType{Type: "DECIMAL", Length: NewIntVal([]byte("10")), Scale: NewIntVal([]byte("2"))}}, "convert(x, DECIMAL(10, 2))"},
	} {
		if got := String(tt.n); got != tt.want {
			t.Errorf("String = %s, want %s", got, tt.want)
		}
	}
}

func TestReplaceExprAndPosOf(t *testing.T) {
	a, b := col("a"), col("b")
	f := &FuncExpr{Name: NewColIdent("f"), Filter: &ComparisonExpr{Operator: EqualStr, Left: a, Right: b}}
	root := &BinaryExpr{Operator: PlusStr, Left: NewIntVal([]byte("1")), Right: f}
	if ReplaceExpr(root, a, col("z")) != root || String(f.Filter) != "z = b" {
		t.Errorf("ReplaceExpr: %s", String(f.Filter))
	}
	if ReplaceExpr(root, root, b) != b {
		t.Error("ReplaceExpr of the root must return the replacement")
	}
	var nilCol *ColName
	if _, ok := PosOf(nilCol); ok {
		t.Error("a nil node has no position")
	}
	if _, ok := PosOf(a); ok {
		t.Error("a built node has no position")
	}
	a.Pos = Position{Offset: 3, Line: 1, Column: 4}
	if p, ok := PosOf(a); !ok || p.String() != "line 1, column 4" {
		t.Errorf("PosOf = %v, %v", p, ok)
	}
}
