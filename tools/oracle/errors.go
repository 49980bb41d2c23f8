package main

import "errors"

// Sentinel errors of the oracle.
var (
	// ErrSyntax is a .test file line the suite's format does not allow.
	ErrSyntax = errors.New("oracle: bad test file")
	// ErrMarker is an "# oracle:" comment the oracle does not understand.
	ErrMarker = errors.New("oracle: bad marker")
	// ErrRender is a DuckDB value the suite's format cannot hold (a tab or
	// newline inside a value).
	ErrRender = errors.New("oracle: value cannot be written in the suite's format")
	// ErrOrder is the wrapped, cast-to-VARCHAR run disagreeing with the raw
	// run about row order or count, which would make the rendering untrustworthy.
	ErrOrder = errors.New("oracle: rendered rows do not line up with the raw result")
	// ErrRoot is a missing repository root (no go.mod of github.com/pqsql/pqsql above).
	ErrRoot = errors.New("oracle: repository root not found")
	// ErrPanic is pqsql panicking on a differential-test query.
	ErrPanic = errors.New("oracle: pqsql panicked")
	// ErrNoFiles is a differential run with no readable Parquet file.
	ErrNoFiles = errors.New("oracle: no Parquet files to test")
)

// ErrKind is a -kind the differential tester does not know.
var ErrKind = errors.New("oracle: unknown kind of differential query")
