package planner

import "github.com/pqsql/pqsql/sql"

// The parsed statements, named here so that exec depends on the planner
// alone (cmd/pqsql -> exec -> planner -> sql).
type (
	// Statement is a parsed statement (sql.Statement).
	Statement = sql.Statement
	// Select is a query (sql.Select).
	Select = sql.Select
	// Explain is EXPLAIN [ANALYZE] (sql.Explain).
	Explain = sql.Explain
	// Describe is DESCRIBE (sql.Describe).
	Describe = sql.Describe
	// Summarize is SUMMARIZE (sql.Summarize).
	Summarize = sql.Summarize
	// CreateView is CREATE VIEW (sql.CreateView).
	CreateView = sql.CreateView
	// DropView is DROP VIEW (sql.DropView).
	DropView = sql.DropView
	// Set is SET name = value (sql.Set).
	Set = sql.Set
	// Reset is RESET name (sql.Reset).
	Reset = sql.Reset
	// CreateSecret is CREATE SECRET (sql.CreateSecret).
	CreateSecret = sql.CreateSecret
	// DropSecret is DROP SECRET (sql.DropSecret).
	DropSecret = sql.DropSecret
)

// Parse parses one statement of pqsql's SQL dialect.
func Parse(text string) (Statement, error) { return sql.Parse(text) }
