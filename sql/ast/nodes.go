package ast

// A Node is any node of the tree.
type Node interface {
	node()
}

// A SelectStatement is a query: *Select, *Union or *ParenSelect.
type SelectStatement interface {
	Node
	iSelectStatement()
}

// An Expr is an expression.
type Expr interface {
	Node
	iExpr()
}

// A SelectExpr is an item of a select list or a call's argument list:
// *AliasedExpr or *StarExpr.
type SelectExpr interface {
	Node
	iSelectExpr()
}

// A TableExpr is an item of a FROM clause: *AliasedTableExpr,
// *ParenTableExpr or *JoinTableExpr.
type TableExpr interface {
	Node
	iTableExpr()
}

// A SimpleTableExpr is what an AliasedTableExpr names: a TableName or a
// *Subquery.
type SimpleTableExpr interface {
	Node
	iSimpleTableExpr()
}

// A Select is one SELECT.
type Select struct {
	At
	// Distinct is DistinctStr or "".
	Distinct    string
	SelectExprs SelectExprs
	From        TableExprs
	Where       *Where
	GroupBy     GroupBy
	// GroupingSets are the sets of a GROUP BY that used GROUPING SETS,
	// ROLLUP, CUBE, () or a parenthesized list: each lists positions in
	// GroupBy, which holds every expression once (expanded as DuckDB does).
	// Nil for a plain GROUP BY.
	GroupingSets [][]int
	Having       *Where
	// Qualify is the QUALIFY condition, or nil.
	Qualify Expr
	OrderBy OrderBy
	Limit   *Limit
	// LimitPercent says the LIMIT was written as a percentage (LIMIT n% or
	// LIMIT n PERCENT).
	LimitPercent bool
	// DistinctOn holds the keys of SELECT DISTINCT ON (keys) (Distinct is
	// then ""); nil otherwise.
	DistinctOn []Expr
	// Sample is the USING SAMPLE clause, or nil.
	Sample *Sample
}

// Select.Distinct.
const DistinctStr = "distinct "

// A ParenSelect is a parenthesized query.
type ParenSelect struct {
	At
	Select SelectStatement
}

// A Union is a set operation: Type is one of UnionStr, UnionAllStr,
// UnionDistinctStr, or the INTERSECT, EXCEPT and BY NAME kinds the sql
// package names.
type Union struct {
	At
	Type        string
	Left, Right SelectStatement
	OrderBy     OrderBy
	Limit       *Limit
}

// Union.Type.
const (
	UnionStr         = "union"
	UnionAllStr      = "union all"
	UnionDistinctStr = "union distinct"
)

// SelectExprs is a select list or a call's argument list.
type SelectExprs []SelectExpr

// A StarExpr is * or t.*, with DuckDB's EXCLUDE and REPLACE lists.
type StarExpr struct {
	At
	TableName TableName
	// Exclude are the names of the columns left out, as written.
	Exclude []string
	// Replace are the expressions standing for columns, each with the
	// column's name as its alias.
	Replace []*AliasedExpr
}

// An AliasedExpr is an expression with an optional alias.
type AliasedExpr struct {
	At
	Expr Expr
	As   ColIdent
}

// TableExprs is a FROM clause.
type TableExprs []TableExpr

// An AliasedTableExpr is a table name or a subquery with an optional alias.
type AliasedTableExpr struct {
	At
	Expr SimpleTableExpr
	As   TableIdent
	// Columns renames a subquery's first columns: FROM (query) t(a, b).
	// A file, view or CTE has its list in TableName.Source.Columns.
	Columns []string
}

// A ParenTableExpr is a parenthesized list of table expressions.
type ParenTableExpr struct {
	At
	Exprs TableExprs
}

// A JoinCondition is a join's ON or USING clause.
type JoinCondition struct {
	On    Expr
	Using Columns
}

// Columns is a USING list.
type Columns []ColIdent

// A JoinTableExpr is a join; Join is one of the *JoinStr constants or a
// DuckDB join kind the sql package names.
type JoinTableExpr struct {
	At
	LeftExpr  TableExpr
	Join      string
	RightExpr TableExpr
	Condition JoinCondition
}

// JoinTableExpr.Join.
const (
	JoinStr             = "join"
	StraightJoinStr     = "straight_join"
	LeftJoinStr         = "left join"
	RightJoinStr        = "right join"
	NaturalJoinStr      = "natural join"
	NaturalLeftJoinStr  = "natural left join"
	NaturalRightJoinStr = "natural right join"
)

// A Where is a WHERE or HAVING clause.
type Where struct {
	Type string
	Expr Expr
}

// Where.Type.
const (
	WhereStr  = "where"
	HavingStr = "having"
)

// NewWhere returns a WHERE or HAVING clause of expr, or nil when expr is nil.
func NewWhere(typ string, expr Expr) *Where {
	if expr == nil {
		return nil
	}
	return &Where{Type: typ, Expr: expr}
}

// GroupBy is a GROUP BY list.
type GroupBy []Expr

// OrderBy is an ORDER BY list.
type OrderBy []*Order

// An Order is one ORDER BY item.
type Order struct {
	At
	Expr Expr
	// Direction is AscScr (also when none was written) or DescScr.
	Direction string
	Nulls     NullsOrder
}

// Order.Direction.
const (
	AscScr  = "asc"
	DescScr = "desc"
)

// A Limit is LIMIT Rowcount OFFSET Offset; Rowcount is a *NullVal for
// LIMIT ALL and a lone OFFSET.
type Limit struct {
	Offset, Rowcount Expr
}

// Exprs is a list of expressions.
type Exprs []Expr

// An AndExpr is Left AND Right.
type AndExpr struct {
	At
	Left, Right Expr
}

// An OrExpr is Left OR Right.
type OrExpr struct {
	At
	Left, Right Expr
}

// A NotExpr is NOT Expr.
type NotExpr struct {
	At
	Expr Expr
}

// A ParenExpr is a parenthesized expression.
type ParenExpr struct {
	At
	Expr Expr
}

// A ComparisonExpr is a comparison, IN, LIKE or a DuckDB operator the sql
// package names (ILIKE, IS DISTINCT FROM, quantified comparisons, &&, ...).
type ComparisonExpr struct {
	At
	Operator    string
	Left, Right Expr
	Escape      Expr
}

// ComparisonExpr.Operator.
const (
	EqualStr         = "="
	LessThanStr      = "<"
	GreaterThanStr   = ">"
	LessEqualStr     = "<="
	GreaterEqualStr  = ">="
	NotEqualStr      = "!="
	NullSafeEqualStr = "<=>"
	InStr            = "in"
	NotInStr         = "not in"
	LikeStr          = "like"
	NotLikeStr       = "not like"
	RegexpStr        = "regexp"
	NotRegexpStr     = "not regexp"
)

// A RangeCond is Left [NOT] BETWEEN From AND To.
type RangeCond struct {
	At
	Operator string
	Left     Expr
	From, To Expr
}

// RangeCond.Operator.
const (
	BetweenStr    = "between"
	NotBetweenStr = "not between"
)

// An IsExpr is Expr IS [NOT] NULL|TRUE|FALSE.
type IsExpr struct {
	At
	Operator string
	Expr     Expr
}

// IsExpr.Operator.
const (
	IsNullStr     = "is null"
	IsNotNullStr  = "is not null"
	IsTrueStr     = "is true"
	IsNotTrueStr  = "is not true"
	IsFalseStr    = "is false"
	IsNotFalseStr = "is not false"
)

// An ExistsExpr is EXISTS (subquery).
type ExistsExpr struct {
	At
	Subquery *Subquery
}

// ValType is the kind of a SQLVal.
type ValType int

// SQLVal.Type.
const (
	StrVal = ValType(iota)
	IntVal
	FloatVal
	HexNum
	HexVal
	ValArg
	BitVal
)

// A SQLVal is a literal: Val holds a string's decoded bytes or a number as
// written (a minus the parser folded in included).
type SQLVal struct {
	At
	Type ValType
	Val  []byte
}

// NewStrVal returns the string literal s.
func NewStrVal(s []byte) *SQLVal { return &SQLVal{Type: StrVal, Val: s} }

// NewIntVal returns the integer literal s.
func NewIntVal(s []byte) *SQLVal { return &SQLVal{Type: IntVal, Val: s} }

// NewFloatVal returns the number literal s.
func NewFloatVal(s []byte) *SQLVal { return &SQLVal{Type: FloatVal, Val: s} }

// A NullVal is NULL.
type NullVal struct {
	At
}

// A BoolVal is TRUE or FALSE.
type BoolVal bool

// A ColName is a column reference, possibly qualified.
type ColName struct {
	At
	Name      ColIdent
	Qualifier TableName
}

// Equal reports whether two references name the same column the same way.
func (c *ColName) Equal(o *ColName) bool {
	if c == nil || o == nil {
		return false
	}
	return c.Name.Equal(o.Name) && c.Qualifier.Name == o.Qualifier.Name && c.Qualifier.Qualifier == o.Qualifier.Qualifier
}

// A ValTuple is a parenthesized list of expressions (the right side of IN).
type ValTuple Exprs

// A Subquery is a parenthesized query used as an expression or a source.
type Subquery struct {
	At
	Select SelectStatement
}

// A BinaryExpr is an arithmetic or string operator: Operator is one of the
// *Str constants below or a DuckDB operator the sql package names (||).
type BinaryExpr struct {
	At
	Operator    string
	Left, Right Expr
}

// BinaryExpr.Operator.
const (
	BitAndStr     = "&"
	BitOrStr      = "|"
	BitXorStr     = "^"
	PlusStr       = "+"
	MinusStr      = "-"
	MultStr       = "*"
	DivStr        = "/"
	IntDivStr     = "div"
	ModStr        = "%"
	ShiftLeftStr  = "<<"
	ShiftRightStr = ">>"
)

// A UnaryExpr is a prefix operator.
type UnaryExpr struct {
	At
	Operator string
	Expr     Expr
}

// UnaryExpr.Operator.
const (
	UPlusStr  = "+"
	UMinusStr = "-"
	TildaStr  = "~"
	BangStr   = "!"
)

// An IntervalExpr is INTERVAL Expr Unit.
type IntervalExpr struct {
	At
	Expr Expr
	Unit string
}

// A FuncExpr is a function call. DuckDB's clauses of a call are fields:
// FILTER (WHERE Filter), the ORDER BY inside the parentheses, and OVER.
type FuncExpr struct {
	At
	Qualifier TableIdent
	Name      ColIdent
	Distinct  bool
	Exprs     SelectExprs
	// Filter is the FILTER (WHERE cond) condition, or nil.
	Filter Expr
	// OrderBy are the keys of agg(args ORDER BY keys), or nil.
	OrderBy []ArgOrder
	// Over is the OVER clause of a window function call, or nil.
	Over *Window
	// IgnoreNulls says f(x IGNORE NULLS) OVER (...): a value window
	// function skips the rows where x is NULL.
	IgnoreNulls bool
}

// A ConvertExpr is a cast: CAST(x AS T), x::T or a typed literal.
type ConvertExpr struct {
	At
	Expr Expr
	Type *ConvertType
	// TypeText is the type as DuckDB prints it in a column name: as
	// written up to aliases, some names double-quoted ("DOUBLE",
	// DECIMAL(10, 2), DECIMAL). Empty for a cast the parser did not make.
	TypeText string
	// Try says TRY_CAST: a value that does not convert becomes NULL.
	Try bool
}

// WrittenType returns TypeText, or the canonical type name for a cast the
// parser did not make.
func (c *ConvertExpr) WrittenType() string {
	if c.TypeText != "" {
		return c.TypeText
	}
	if c.Type == nil {
		return ""
	}
	return c.Type.Type
}

// A ConvertType is a cast's target: a canonical DuckDB type name, with
// DECIMAL's width and scale in Length and Scale.
type ConvertType struct {
	Type          string
	Length, Scale *SQLVal
}

// A CaseExpr is CASE [Expr] WHEN ... [ELSE Else] END.
type CaseExpr struct {
	At
	Expr  Expr
	Whens []*When
	Else  Expr
}

// A When is one WHEN Cond THEN Val of a CASE.
type When struct {
	Cond Expr
	Val  Expr
}

// An Unsupported is a construct the MySQL grammar accepted that pqsql has
// no meaning for (COLLATE, MATCH ... AGAINST, ...); Text is how it prints.
type Unsupported struct {
	At
	Text string
}

func (*Select) iSelectStatement()      {}
func (*Union) iSelectStatement()       {}
func (*ParenSelect) iSelectStatement() {}

func (*StarExpr) iSelectExpr()    {}
func (*AliasedExpr) iSelectExpr() {}

func (*AliasedTableExpr) iTableExpr() {}
func (*ParenTableExpr) iTableExpr()   {}
func (*JoinTableExpr) iTableExpr()    {}

func (TableName) iSimpleTableExpr() {}
func (*Subquery) iSimpleTableExpr() {}

func (*AndExpr) iExpr()        {}
func (*OrExpr) iExpr()         {}
func (*NotExpr) iExpr()        {}
func (*ParenExpr) iExpr()      {}
func (*ComparisonExpr) iExpr() {}
func (*RangeCond) iExpr()      {}
func (*IsExpr) iExpr()         {}
func (*ExistsExpr) iExpr()     {}
func (*SQLVal) iExpr()         {}
func (*NullVal) iExpr()        {}
func (BoolVal) iExpr()         {}
func (*ColName) iExpr()        {}
func (ValTuple) iExpr()        {}
func (*Subquery) iExpr()       {}
func (*BinaryExpr) iExpr()     {}
func (*UnaryExpr) iExpr()      {}
func (*IntervalExpr) iExpr()   {}
func (*FuncExpr) iExpr()       {}
func (*ConvertExpr) iExpr()    {}
func (*CaseExpr) iExpr()       {}
func (*Unsupported) iExpr()    {}

func (*Select) node()           {}
func (*Union) node()            {}
func (*ParenSelect) node()      {}
func (SelectExprs) node()       {}
func (*StarExpr) node()         {}
func (*AliasedExpr) node()      {}
func (TableExprs) node()        {}
func (*AliasedTableExpr) node() {}
func (*ParenTableExpr) node()   {}
func (*JoinTableExpr) node()    {}
func (JoinCondition) node()     {}
func (Columns) node()           {}
func (TableName) node()         {}
func (*Where) node()            {}
func (GroupBy) node()           {}
func (OrderBy) node()           {}
func (*Order) node()            {}
func (*Limit) node()            {}
func (Exprs) node()             {}
func (*AndExpr) node()          {}
func (*OrExpr) node()           {}
func (*NotExpr) node()          {}
func (*ParenExpr) node()        {}
func (*ComparisonExpr) node()   {}
func (*RangeCond) node()        {}
func (*IsExpr) node()           {}
func (*ExistsExpr) node()       {}
func (*SQLVal) node()           {}
func (*NullVal) node()          {}
func (BoolVal) node()           {}
func (*ColName) node()          {}
func (ValTuple) node()          {}
func (*Subquery) node()         {}
func (*BinaryExpr) node()       {}
func (*UnaryExpr) node()        {}
func (*IntervalExpr) node()     {}
func (*FuncExpr) node()         {}
func (*ConvertExpr) node()      {}
func (*ConvertType) node()      {}
func (*CaseExpr) node()         {}
func (*When) node()             {}
func (*Unsupported) node()      {}
func (*Window) node()           {}
