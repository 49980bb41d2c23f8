// Command bench runs pqsql and DuckDB side by side on the same Parquet files,
// in one process, and reports per query the time, the bytes read, the peak
// memory and whether the two answers are identical.
//
// It is a nested module, so that pqsql itself stays free of cgo: DuckDB is
// embedded through github.com/duckdb/duckdb-go/v2, pqsql through its exec
// package, the way cmd/pqsql calls it. The files come from the fixture
// generator (../fixtures/gen), run as a command once and cached under
// data/ (not in git). Run from this directory:
//
//	go run .                      # every 1M-row query, 3 runs each, markdown on stdout
//	go run . -runs 5 -filter top  # only queries whose name matches the regexp
//	go run . -scale               # also the 10M-row scaling queries
//	go run . -json                # the measurements as JSON
//	go run . -memory -runs 3      # peak memory, each query in a fresh process per engine
//	go run . -memory -memory-code -runs 3  # charging the code pages a query touches first too
//	go run . -memory -memory-warm -runs 3  # the same, each engine warmed on the small fixtures first
//	go run . -memory -memory-warm -memory-release -runs 3  # and pqsql's free heap handed back first
//
// Each query runs alternately in the two engines, with the same thread count
// and DuckDB's external file cache off, so that both read the files through
// the operating system's page cache alone. How each number is measured is
// written in the report's notes (see notes in report.go).
package main
