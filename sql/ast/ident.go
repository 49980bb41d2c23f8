package ast

import "strings"

// A ColIdent is a column, alias or function name as written (quotes
// removed). DuckDB matches names case-insensitively: compare with Equal or
// Lowered.
type ColIdent struct {
	val string
}

// NewColIdent returns the identifier s.
func NewColIdent(s string) ColIdent { return ColIdent{val: s} }

// String returns the name as written.
func (c ColIdent) String() string { return c.val }

// Lowered returns the name in lower case.
func (c ColIdent) Lowered() string { return strings.ToLower(c.val) }

// IsEmpty reports whether no name was written.
func (c ColIdent) IsEmpty() bool { return c.val == "" }

// Equal reports whether two names match, ignoring case.
func (c ColIdent) Equal(o ColIdent) bool { return c.Lowered() == o.Lowered() }

// EqualString reports whether the name matches s, ignoring case.
func (c ColIdent) EqualString(s string) bool { return c.Lowered() == strings.ToLower(s) }

// A TableIdent is a table name or alias as written.
type TableIdent struct {
	v string
}

// NewTableIdent returns the identifier s.
func NewTableIdent(s string) TableIdent { return TableIdent{v: s} }

// String returns the name as written.
func (t TableIdent) String() string { return t.v }

// IsEmpty reports whether no name was written.
func (t TableIdent) IsEmpty() bool { return t.v == "" }

// A TableName is a possibly qualified table name. It is a value: two equal
// names compare equal. Source is the data source a placeholder name of the
// FROM clause stands for (nil for any other name).
type TableName struct {
	Name, Qualifier TableIdent
	Source          *Source
}

// IsEmpty reports whether no name was written.
func (t TableName) IsEmpty() bool { return t.Name.IsEmpty() }
