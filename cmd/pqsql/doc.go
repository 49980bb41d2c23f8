// Command pqsql runs SQL over Parquet files, with the habits of the DuckDB
// command line: a readline REPL on a terminal, scripts from -c, -f or a
// non-terminal stdin, DuckDB's box output by default (csv, json, jsonlines,
// markdown and line on request) and its dot commands.
//
// The command is a thin shell over package exec: it splits scripts with
// package sql, hands each statement to an exec.Session and renders the
// Result. It promises that a script with any failing statement exits
// non-zero, and that every error goes to stderr as "Error: ...".
package main
