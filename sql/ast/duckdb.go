package ast

// NullsOrder is the NULLS FIRST/LAST clause of an ORDER BY item.
type NullsOrder int

const (
	// NullsDefault means no clause was written; DuckDB's default_null_order
	// setting (nulls_last unless changed) decides.
	NullsDefault NullsOrder = iota
	// NullsFirst is NULLS FIRST.
	NullsFirst
	// NullsLast is NULLS LAST.
	NullsLast
)

// String returns "", "NULLS FIRST" or "NULLS LAST".
func (n NullsOrder) String() string {
	switch n {
	case NullsFirst:
		return "NULLS FIRST"
	case NullsLast:
		return "NULLS LAST"
	}
	return ""
}

// An ArgOrder is one key of the ORDER BY written inside an aggregate's
// parentheses: agg(x ORDER BY k DESC NULLS FIRST).
type ArgOrder struct {
	Expr Expr
	Desc bool
	// Asc says ASC was written (DuckDB's column names keep it).
	Asc   bool
	Nulls NullsOrder
}

// A Window is the OVER clause of a window function call, named windows
// already substituted.
type Window struct {
	PartitionBy []Expr
	OrderBy     []WindowOrder
	// Frame is nil when none was written: DuckDB's default, RANGE BETWEEN
	// UNBOUNDED PRECEDING AND CURRENT ROW with ORDER BY, the whole
	// partition without.
	Frame *Frame
	// Text is the OVER clause as written, for column names.
	Text string
}

// A WindowOrder is one ORDER BY item of an OVER clause.
type WindowOrder struct {
	Expr  Expr
	Desc  bool
	Nulls NullsOrder
}

// A Frame is ROWS or RANGE BETWEEN Start AND End.
type Frame struct {
	Rows       bool // ROWS; RANGE otherwise
	Start, End FrameBound
}

// FrameBound kinds.
const (
	UnboundedPreceding = "unbounded preceding"
	Preceding          = "preceding"
	CurrentRow         = "current row"
	Following          = "following"
	UnboundedFollowing = "unbounded following"
)

// A FrameBound is one end of a frame: Kind is one of the constants above,
// Offset the expression before PRECEDING or FOLLOWING (else nil).
type FrameBound struct {
	Kind   string
	Offset Expr
}
