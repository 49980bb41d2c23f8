package main

import "github.com/pqsql/pqsql/exec"

// explainAsRows reports whether mode prints EXPLAIN as DuckDB's result of
// explain_key and explain_value rows; box mode prints the plan's text.
func explainAsRows(mode outputMode) bool { return mode != modeBox }

// explainResult is an EXPLAIN's text as the one row DuckDB returns:
// explain_key "physical_plan", explain_value the plan.
func explainResult(text string) *exec.Result {
	varchar := exec.Type{ID: exec.TypeVarchar}
	col := func(s string) *exec.Vector { return &exec.Vector{Type: varchar, Str: []string{s}} }
	return &exec.Result{
		Columns: []string{"explain_key", "explain_value"},
		Types:   []exec.Type{varchar, varchar},
		Batches: []*exec.Batch{{Len: 1, Vectors: []*exec.Vector{col("physical_plan"), col(text)}}},
	}
}
